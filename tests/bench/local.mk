# Benchmark of the routing core alone (not a test; see scripts/bench_speed.sh).
noinst_PROGRAMS += tests/bench/core_bench
tests_bench_core_bench_SOURCES = tests/bench/core_bench.c \
	tests/unit/lft_sim.c tests/unit/lft_sim.h
tests_bench_core_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos \
	-I$(top_srcdir)/tests/unit
tests_bench_core_bench_LDADD = ibsim_topos/libtopo.la plugin/core/libtacore.la -lm

# Uniform throughput of the core's routes on a generated fabric (not a
# test; quick comparisons while developing, see the file's header).
noinst_PROGRAMS += tests/bench/quality_bench
tests_bench_quality_bench_SOURCES = tests/bench/quality_bench.c \
	tests/bench/bench_export.c tests/bench/bench_export.h \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_bench_quality_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos \
	-I$(top_srcdir)/tests/unit
tests_bench_quality_bench_LDADD = ibsim_topos/libtopo.la plugin/core/libtacore.la -lm
EXTRA_DIST += tests/bench/core_hashes.sh
EXTRA_DIST += tests/bench/core_times.sh
EXTRA_DIST += tests/bench/tp_candidate_sweep.sh
EXTRA_DIST += tests/bench/joined_sweep.sh
EXTRA_DIST += tests/bench/layers_table.sh
EXTRA_DIST += tests/bench/layers_osm.sh
EXTRA_DIST += tests/bench/layers_failures.sh
EXTRA_DIST += tests/bench/dfp_failures.sh
EXTRA_DIST += tests/bench/tp_orders.sh
