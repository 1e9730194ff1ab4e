# Multicast harness: the SA join client, the MFT reader and lftcheck's
# multicast check (bench_mcast.sh --help, lftcheck(8) "MULTICAST").
scripts_lftcheck_SOURCES += scripts/check/lc_mcast.c scripts/check/lc_mcast.h

# Joins/leaves host ports to multicast groups by SA MCMemberRecord
# requests (libibumad; umad2sim under ibsim).
noinst_PROGRAMS += scripts/mcjoin
scripts_mcjoin_SOURCES = scripts/mcast/mcjoin.c scripts/readback/lr_smp.h
scripts_mcjoin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/scripts/readback
scripts_mcjoin_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)
scripts_mcjoin_LDADD = $(IBUMAD_LIBS)

# Shell helpers for multicast runs (sourced after fabric_lib.sh).
dist_noinst_SCRIPTS += scripts/mcast_lib.sh
dist_noinst_SCRIPTS += scripts/bench_mcast.sh

# Reads every switch's MFT by directed-route SMPs (libibumad; umad2sim).
noinst_PROGRAMS += scripts/mftread
scripts_mftread_SOURCES = scripts/readback/mftread.c
scripts_mftread_CPPFLAGS = $(FABTOPO_CPPFLAGS)
scripts_mftread_LDADD = scripts/libdrsmp.la scripts/libfabtopo.la \
	$(IBUMAD_LIBS)
