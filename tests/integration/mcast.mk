# Multicast trees with real SA joins: unicast + multicast deadlock-free
# together on one VL (plugin/core/ta_mcast.h, scripts/lc_mcast.h).
mcast_test_scripts = tests/integration/mcast_trees.sh

TESTS += $(mcast_test_scripts)
dist_noinst_SCRIPTS += $(mcast_test_scripts)
