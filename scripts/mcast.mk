# Multicast harness: the SA join client, the MFT reader and lftcheck's
# multicast check (scripts/README.md, "Multicast").
scripts_lftcheck_SOURCES += scripts/lc_mcast.c scripts/lc_mcast.h

# Joins/leaves host ports to multicast groups by SA MCMemberRecord
# requests (libibumad; umad2sim under ibsim).
noinst_PROGRAMS += scripts/mcjoin
scripts_mcjoin_SOURCES = scripts/mcjoin.c scripts/lr_smp.h
scripts_mcjoin_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)
scripts_mcjoin_LDADD = $(IBUMAD_LIBS)

# Shell helpers for multicast runs (sourced after fabric_lib.sh).
dist_noinst_SCRIPTS += scripts/mcast_lib.sh
dist_noinst_SCRIPTS += scripts/bench_mcast.sh

# Reads every switch's MFT by directed-route SMPs (libibumad; umad2sim).
noinst_PROGRAMS += scripts/mftread
scripts_mftread_SOURCES = scripts/mftread.c
scripts_mftread_LDADD = scripts/libdrsmp.la scripts/libfabtopo.la \
	$(IBUMAD_LIBS)
