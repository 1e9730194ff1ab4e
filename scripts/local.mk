# Fabric harness: the LFT reader and checker (independent of the routing
# engine's code) and the ibsim/OpenSM scripts.  See scripts/README.md.

# The C tools live in subfolders (sources) but are built as
# scripts/lftcheck, scripts/lftread, scripts/madtally, scripts/mcjoin,
# scripts/mftread and scripts/.libs/libmadcount.so, where the scripts and
# tests run them.
#
# The code more than one tool uses is built once, as internal libraries:
# scripts/fabtopo/ reads a topology (ibnetdiscover output or an ibsim
# netfile) into the fabric model,
noinst_LTLIBRARIES += scripts/libfabtopo.la
scripts_libfabtopo_la_SOURCES = \
	scripts/fabtopo/lc_input.c scripts/fabtopo/lc_input.h \
	scripts/fabtopo/lc_fabric.c scripts/fabtopo/lc_fabric.h \
	scripts/fabtopo/lc_parse.h scripts/fabtopo/lc_parse_topo.c \
	scripts/fabtopo/lc_ibnd.c scripts/fabtopo/lc_ibnd.h
FABTOPO_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/scripts/fabtopo
# and scripts/readback/ sends directed-route SMPs along paths of that
# model (libibumad); lr_tool.c is the main() of lftread and mftread.
noinst_LTLIBRARIES += scripts/libdrsmp.la
scripts_libdrsmp_la_SOURCES = \
	scripts/readback/lr_smp.c scripts/readback/lr_smp.h \
	scripts/readback/lr_paths.c scripts/readback/lr_paths.h \
	scripts/readback/lr_tool.c scripts/readback/lr_tool.h
scripts_libdrsmp_la_CPPFLAGS = $(FABTOPO_CPPFLAGS)
scripts_libdrsmp_la_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)

# Checks the forwarding tables read back from a fabric (scripts/check/).
bin_PROGRAMS += scripts/lftcheck
scripts_lftcheck_SOURCES = \
	scripts/check/lftcheck.c \
	scripts/check/lc_parse_lft.c \
	scripts/check/lc_hosts.c scripts/check/lc_hosts.h \
	scripts/check/lc_routes.c scripts/check/lc_routes.h \
	scripts/check/lc_cdg.c scripts/check/lc_cdg.h \
	scripts/check/lc_check.c scripts/check/lc_check.h \
	scripts/check/lc_load.c scripts/check/lc_load.h \
	scripts/check/lc_groups.c scripts/check/lc_groups.h \
	scripts/check/lc_turns.c scripts/check/lc_turns.h
scripts_lftcheck_SOURCES += scripts/check/lc_perm.c scripts/check/lc_perm.h
scripts_lftcheck_SOURCES += scripts/check/lc_lmc.c scripts/check/lc_lmc.h
scripts_lftcheck_SOURCES += scripts/check/lc_through.c scripts/check/lc_through.h
scripts_lftcheck_SOURCES += scripts/check/lc_sl.c scripts/check/lc_sl.h
scripts_lftcheck_CPPFLAGS = $(FABTOPO_CPPFLAGS) -I$(top_srcdir)/scripts/check
scripts_lftcheck_LDADD = scripts/libfabtopo.la

# Reads every switch's LFT by directed-route SMPs (libibumad; umad2sim).
bin_PROGRAMS += scripts/lftread
scripts_lftread_SOURCES = scripts/readback/lftread.c
scripts_lftread_CPPFLAGS = $(FABTOPO_CPPFLAGS)
scripts_lftread_LDADD = scripts/libdrsmp.la scripts/libfabtopo.la \
	$(IBUMAD_LIBS)

# MAD counting (scripts/madcount/): an LD_PRELOAD library for opensm that
# logs the LFT SubnSet MADs it sends, and the tool that counts them per
# switch.
noinst_LTLIBRARIES += scripts/libmadcount.la
scripts_libmadcount_la_SOURCES = scripts/madcount/madcount_preload.c
scripts_libmadcount_la_CFLAGS = $(AM_CFLAGS) $(IBUMAD_CFLAGS)
# -rpath makes libtool build a shared object (dlopen'ed by LD_PRELOAD
# from the build tree; never installed)
scripts_libmadcount_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/scripts
scripts_libmadcount_la_LIBADD = $(IBUMAD_LIBS)

noinst_PROGRAMS += scripts/madtally
scripts_madtally_SOURCES = scripts/madcount/madtally.c
scripts_madtally_CPPFLAGS = $(FABTOPO_CPPFLAGS)
scripts_madtally_LDADD = scripts/libfabtopo.la

dist_noinst_SCRIPTS += scripts/fabric_lib.sh scripts/route_check.sh \
	scripts/mad_lib.sh scripts/mad_count.sh scripts/bench_reroute.sh \
	scripts/bench_speed.sh scripts/ensure_build.sh scripts/bench_quality.sh \
	scripts/quality_report.sh \
	scripts/bench_restart.sh scripts/bench_lib.sh scripts/quality_run.sh \
	scripts/speed_report.sh scripts/failure_engines.sh
EXTRA_DIST += scripts/README.md

# Which decisions of turn addition cost throughput on random nets.
dist_noinst_SCRIPTS += scripts/analysis_random.sh

# Seeded fault campaign (failures and restores, tables checked after each).
dist_noinst_SCRIPTS += scripts/fault_campaign.sh scripts/campaign_configured.sh \
	scripts/fault_model.sh scripts/campaign_mcast.sh scripts/campaign_lib.sh

# OpenSM with the plugin under valgrind memcheck (not in make check).
dist_noinst_SCRIPTS += scripts/valgrind_opensm.sh

# Results of the full bench_quality.sh run (bench_quality.sh --help).
EXTRA_DIST += results/quality/quality.csv results/quality/roots.csv \
	results/quality/tables.md results/quality/fig21.png \
	results/quality/fig22.png results/quality/fig25.png

# Mutation run (not in make check; README, Tests).
dist_noinst_SCRIPTS += scripts/mutate.sh
EXTRA_DIST += scripts/mutations.txt
