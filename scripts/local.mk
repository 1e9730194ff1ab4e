# Fabric harness: the LFT reader and checker (independent of the routing
# engine's code) and the ibsim/OpenSM scripts.  See scripts/README.md.

# Checks the forwarding tables read back from a fabric.
bin_PROGRAMS += scripts/lftcheck
scripts_lftcheck_SOURCES = \
	scripts/lftcheck.c \
	scripts/lc_input.c scripts/lc_input.h \
	scripts/lc_fabric.c scripts/lc_fabric.h \
	scripts/lc_parse.h scripts/lc_parse_topo.c scripts/lc_parse_lft.c \
	scripts/lc_ibnd.c scripts/lc_ibnd.h \
	scripts/lc_hosts.c scripts/lc_hosts.h \
	scripts/lc_routes.c scripts/lc_routes.h \
	scripts/lc_cdg.c scripts/lc_cdg.h \
	scripts/lc_check.c scripts/lc_check.h \
	scripts/lc_load.c scripts/lc_load.h \
	scripts/lc_groups.c scripts/lc_groups.h \
	scripts/lc_turns.c scripts/lc_turns.h
scripts_lftcheck_SOURCES += scripts/lc_perm.c scripts/lc_perm.h
scripts_lftcheck_SOURCES += scripts/lc_lmc.c scripts/lc_lmc.h

# Reads every switch's LFT by directed-route SMPs (libibumad; umad2sim).
bin_PROGRAMS += scripts/lftread
scripts_lftread_SOURCES = \
	scripts/lftread.c \
	scripts/lr_smp.c scripts/lr_smp.h \
	scripts/lr_paths.c scripts/lr_paths.h \
	scripts/lc_input.c scripts/lc_input.h \
	scripts/lc_fabric.c scripts/lc_fabric.h \
	scripts/lc_parse.h scripts/lc_parse_topo.c \
	scripts/lc_ibnd.c scripts/lc_ibnd.h
scripts_lftread_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)
scripts_lftread_LDADD = $(IBUMAD_LIBS)

# MAD counting: an LD_PRELOAD library for opensm that logs the LFT
# SubnSet MADs it sends, and the tool that counts them per switch.
noinst_LTLIBRARIES += scripts/libmadcount.la
scripts_libmadcount_la_SOURCES = scripts/madcount_preload.c
scripts_libmadcount_la_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)
# -rpath makes libtool build a shared object (dlopen'ed by LD_PRELOAD
# from the build tree; never installed)
scripts_libmadcount_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/scripts
scripts_libmadcount_la_LIBADD = $(IBUMAD_LIBS)

noinst_PROGRAMS += scripts/madtally
scripts_madtally_SOURCES = \
	scripts/madtally.c \
	scripts/lc_input.c scripts/lc_input.h \
	scripts/lc_fabric.c scripts/lc_fabric.h \
	scripts/lc_parse.h scripts/lc_parse_topo.c \
	scripts/lc_ibnd.c scripts/lc_ibnd.h

dist_noinst_SCRIPTS += scripts/fabric_lib.sh scripts/route_check.sh \
	scripts/mad_lib.sh scripts/mad_count.sh scripts/bench_reroute.sh \
	scripts/bench_speed.sh scripts/ensure_build.sh scripts/bench_quality.sh \
	scripts/bench_restart.sh
EXTRA_DIST += scripts/README.md

# Which decisions of turn addition cost throughput on random nets.
dist_noinst_SCRIPTS += scripts/analysis_random.sh

# Seeded fault campaign (failures and restores, tables checked after each).
dist_noinst_SCRIPTS += scripts/fault_campaign.sh scripts/campaign_configured.sh

# OpenSM with the plugin under valgrind memcheck (not in make check).
dist_noinst_SCRIPTS += scripts/valgrind_opensm.sh

# Results of the full bench_quality.sh run (scripts/README.md).
EXTRA_DIST += results/quality/quality.csv results/quality/roots.csv \
	results/quality/tables.md results/quality/fig21.png \
	results/quality/fig22.png results/quality/fig25.png

# Mutation run (not in make check; README, Tests).
dist_noinst_SCRIPTS += scripts/mutate.sh
