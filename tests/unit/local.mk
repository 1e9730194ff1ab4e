# Unit tests (Check) of the routing core.
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SAN_CFLAGS)
UNIT_LDADD = plugin/core/libtacore_checked.la $(CHECK_LIBS) -lm

check_PROGRAMS += tests/unit/test_fig18
tests_unit_test_fig18_SOURCES = tests/unit/test_fig18.c tests/unit/run_suite.h
tests_unit_test_fig18_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fig18_LDADD = $(UNIT_LDADD)
tests_unit_test_fig18_LDFLAGS = $(SAN_CFLAGS)

TESTS += tests/unit/test_fig18

check_PROGRAMS += tests/unit/test_parsers
tests_unit_test_parsers_SOURCES = tests/unit/test_parsers.c
tests_unit_test_parsers_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_parsers_LDADD = $(UNIT_LDADD)
tests_unit_test_parsers_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_parsers

check_PROGRAMS += tests/unit/test_properties
tests_unit_test_properties_SOURCES = tests/unit/test_properties.c \
	tests/unit/route_verify.c tests/unit/route_verify.h \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_properties_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_properties_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_properties_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_properties_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_properties

check_PROGRAMS += tests/unit/test_reroute
tests_unit_test_reroute_SOURCES = tests/unit/test_reroute.c \
	tests/unit/route_verify.c tests/unit/route_verify.h \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_reroute_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_reroute_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reroute_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_reroute_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_reroute

check_PROGRAMS += tests/unit/test_cdg
tests_unit_test_cdg_SOURCES = tests/unit/test_cdg.c \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_cdg_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_cdg_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cdg_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_cdg_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_cdg

check_PROGRAMS += tests/unit/test_turnprohib
tests_unit_test_turnprohib_SOURCES = tests/unit/test_turnprohib.c \
	tests/unit/route_verify.c tests/unit/route_verify.h \
	tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_turnprohib_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_turnprohib_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_turnprohib_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_turnprohib_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_turnprohib

check_PROGRAMS += tests/unit/test_ft3join_traffic
tests_unit_test_ft3join_traffic_SOURCES = tests/unit/test_ft3join_traffic.c
tests_unit_test_ft3join_traffic_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_ft3join_traffic_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ft3join_traffic_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_ft3join_traffic_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_ft3join_traffic
