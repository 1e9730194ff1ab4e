# Routing-quality figures of lftcheck (throughput, two-group traffic,
# turn usage) on hand-made fabrics with known loads.
eval_test_scripts = tests/integration/lftcheck_eval.sh
TESTS += $(eval_test_scripts)
dist_noinst_SCRIPTS += $(eval_test_scripts)
EXTRA_DIST += \
	tests/integration/lftcheck-data/two2.topo \
	tests/integration/lftcheck-data/two2.lft \
	tests/integration/lftcheck-data/two2p.topo \
	tests/integration/lftcheck-data/two2p-spread.lft \
	tests/integration/lftcheck-data/two2p-onelink.lft \
	tests/integration/lftcheck-data/tri.topo \
	tests/integration/lftcheck-data/tri.lft \
	tests/integration/lftcheck-data/tri-bad.lft
# bench_quality.sh's smallest slice (one random net, two engines).
TESTS += tests/integration/bench_quality_quick.sh
dist_noinst_SCRIPTS += tests/integration/bench_quality_quick.sh
