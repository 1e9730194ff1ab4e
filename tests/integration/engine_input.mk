# Integration tests of turnadd's input handling (kept apart from the
# harness's own local.mk).
TESTS += tests/integration/turnadd_input.sh
dist_noinst_SCRIPTS += tests/integration/turnadd_input.sh
