# Integration tests of the port-major LID order (lid_assign/README):
# real OpenSM with the plugin on ibsim, LIDs read back by ibnetdiscover
# and checked against the tests' own statement of the rule.
lid_test_scripts = \
	tests/integration/lid_order.sh \
	tests/integration/lid_stability.sh \
	tests/integration/lid_layout_flip.sh \
	tests/integration/lid_space.sh \
	tests/integration/dfly_group_mads.sh

TESTS += $(lid_test_scripts)
dist_noinst_SCRIPTS += $(lid_test_scripts)
EXTRA_DIST += tests/integration/lid_lib.sh
