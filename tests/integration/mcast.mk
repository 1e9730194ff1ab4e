# Multicast trees with real SA joins: unicast + multicast deadlock-free
# together on one VL (plugin/core/ta_mcast.h, scripts/check/lc_mcast.h).
mcast_test_scripts = tests/integration/mcast_trees.sh

TESTS += $(mcast_test_scripts)
dist_noinst_SCRIPTS += $(mcast_test_scripts)

# The core's multicast trees on generated fabrics (Check).
check_PROGRAMS += tests/unit/test_mcast
tests_unit_test_mcast_SOURCES = tests/unit/test_mcast.c
tests_unit_test_mcast_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_mcast_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_mcast_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_mcast_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_mcast
