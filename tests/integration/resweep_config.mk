# Resweeps after configured parts went away (an escape root that failed,
# options or traffic file broken or removed, a routing that fails): no
# fallback to another engine once turnadd has routed (< 2 min).
resweep_test_scripts = tests/integration/resweep_root.sh \
	tests/integration/resweep_files.sh \
	tests/integration/resweep_failures.sh

TESTS += $(resweep_test_scripts)
dist_noinst_SCRIPTS += $(resweep_test_scripts)
EXTRA_DIST += tests/integration/resweep_lib.sh
