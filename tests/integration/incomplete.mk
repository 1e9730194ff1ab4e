# Fat trees with absent hosts, oversubscribed leaves, parallel links:
# LFT MADs of a spine or link failure, and hosts arriving after bring-up.
incomplete_test_scripts = tests/integration/incomplete_ft.sh

TESTS += $(incomplete_test_scripts)
dist_noinst_SCRIPTS += $(incomplete_test_scripts)
