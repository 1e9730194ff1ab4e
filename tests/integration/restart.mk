# Integration tests of an OpenSM restart and of a standby taking over:
# LIDs kept, LFT Sets only for blocks that changed (plugin/lft_read.h).
restart_test_scripts = \
	tests/integration/restart_lfts.sh \
	tests/integration/standby_takeover.sh \
	tests/integration/restore_tables.sh \
	tests/integration/partial_restore.sh \
	tests/integration/takeover_faulted.sh

TESTS += $(restart_test_scripts)
dist_noinst_SCRIPTS += $(restart_test_scripts)
EXTRA_DIST += tests/integration/restart_lib.sh
