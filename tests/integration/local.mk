# Integration tests: generators, the LFT checker, and OpenSM on ibsim.
# The shell tests find the build tree from their working directory (the
# harness runs them in the top build dir) and the sources from $srcdir,
# which the harness exports; see tests/integration/test_env.sh.
check_PROGRAMS += tests/integration/test_topo
tests_integration_test_topo_SOURCES = tests/integration/test_topo.c
tests_integration_test_topo_CPPFLAGS = -I$(top_srcdir)/ibsim_topos
tests_integration_test_topo_LDADD = ibsim_topos/libtopo.la

integration_test_scripts = \
	tests/integration/lftcheck_inputs.sh \
	tests/integration/lftcheck_throughput.sh \
	tests/integration/minhop_ring.sh \
	tests/integration/updn_fattree.sh \
	tests/integration/updn_random.sh \
	tests/integration/parallel_runs.sh \
	tests/integration/route_check_errors.sh \
	tests/integration/lft_readback.sh \
	tests/integration/unlink_resweep.sh \
	tests/integration/turnadd_ring.sh \
	tests/integration/turnadd_fattree.sh \
	tests/integration/turnadd_random.sh \
	tests/integration/mad_count_fabrics.sh \
	tests/integration/reroute_mads.sh \
	tests/integration/host_port_down.sh

TESTS += tests/integration/test_topo $(integration_test_scripts)
dist_noinst_SCRIPTS += $(integration_test_scripts)
EXTRA_DIST += \
	tests/integration/test_env.sh \
	tests/integration/lftcheck-data/line3.topo \
	tests/integration/lftcheck-data/line3-badlink.topo \
	tests/integration/lftcheck-data/line3-good.lft \
	tests/integration/lftcheck-data/line3-drop.lft \
	tests/integration/lftcheck-data/line3-loop.lft \
	tests/integration/lftcheck-data/line3-noswlid.lft \
	tests/integration/lftcheck-data/line3-bad.lft \
	tests/integration/lftcheck-data/line3-missing.lft \
	tests/integration/lftcheck-data/ft2x2.topo \
	tests/integration/lftcheck-data/ft2x2-onespine.lft \
	tests/integration/lftcheck-data/ft2x2-balanced.lft \
	tests/integration/lftcheck-data/ft2x2-drop.lft
