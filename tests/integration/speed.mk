# Integration tests of the speed work: min-hop tables filled by turnadd.
TESTS += tests/integration/hop_tables.sh
dist_noinst_SCRIPTS += tests/integration/hop_tables.sh
