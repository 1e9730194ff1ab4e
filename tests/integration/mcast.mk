# Multicast trees with real SA joins: unicast + multicast deadlock-free
# together on one VL (plugin/core/ta_mcast.h, scripts/lc_mcast.h).
mcast_test_scripts = tests/integration/mcast_trees.sh

TESTS += $(mcast_test_scripts)
dist_noinst_SCRIPTS += $(mcast_test_scripts)

# The core's multicast trees on generated fabrics (Check).
check_PROGRAMS += tests/unit/test_mcast
tests_unit_test_mcast_SOURCES = tests/unit/test_mcast.c \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_mcast_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_mcast_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_mcast_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_mcast_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_mcast
