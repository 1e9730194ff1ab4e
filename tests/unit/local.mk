# Unit tests (Check) of the routing core.  Every test is one .c file
# with the same flags; the helpers they share are built once (below).
UNIT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SAN_CFLAGS)
UNIT_LDADD = plugin/core/libtacore_checked.la $(CHECK_LIBS) -lm
UNIT_HELP_LDADD = tests/unit/libunithelp.la ibsim_topos/libtopo.la \
	$(UNIT_LDADD)

# Test helpers: route_verify (independent reachability and CDG verdict),
# route_assert (Check assertions on it, channel loads), turn_verify
# (turn sets), topo_graph (generated fabrics as core graphs), join_traffic
# (the joined trees' traffic file, loaded).
check_LTLIBRARIES = tests/unit/libunithelp.la
tests_unit_libunithelp_la_SOURCES = \
	tests/unit/run_suite.h \
	tests/unit/route_verify.c tests/unit/route_verify.h \
	tests/unit/route_assert.c tests/unit/route_assert.h \
	tests/unit/turn_verify.c tests/unit/turn_verify.h \
	tests/unit/topo_graph.c tests/unit/topo_graph.h \
	tests/unit/join_traffic.c tests/unit/join_traffic.h
tests_unit_libunithelp_la_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_libunithelp_la_CFLAGS = $(UNIT_CFLAGS)

check_PROGRAMS += tests/unit/test_fig18
tests_unit_test_fig18_SOURCES = tests/unit/test_fig18.c
tests_unit_test_fig18_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_fig18_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fig18_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_fig18_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_fig18

check_PROGRAMS += tests/unit/test_parsers
tests_unit_test_parsers_SOURCES = tests/unit/test_parsers.c
tests_unit_test_parsers_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_parsers_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_parsers_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_parsers_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_parsers

check_PROGRAMS += tests/unit/test_properties
tests_unit_test_properties_SOURCES = tests/unit/test_properties.c
tests_unit_test_properties_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_properties_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_properties_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_properties_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_properties

check_PROGRAMS += tests/unit/test_reroute
tests_unit_test_reroute_SOURCES = tests/unit/test_reroute.c
tests_unit_test_reroute_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_reroute_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reroute_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_reroute_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_reroute

check_PROGRAMS += tests/unit/test_cdg
tests_unit_test_cdg_SOURCES = tests/unit/test_cdg.c
tests_unit_test_cdg_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_cdg_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cdg_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_cdg_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_cdg

check_PROGRAMS += tests/unit/test_layers
tests_unit_test_layers_SOURCES = tests/unit/test_layers.c
tests_unit_test_layers_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_layers_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_layers_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_layers_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_layers

check_PROGRAMS += tests/unit/test_turnprohib
tests_unit_test_turnprohib_SOURCES = tests/unit/test_turnprohib.c
tests_unit_test_turnprohib_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_turnprohib_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_turnprohib_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_turnprohib_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_turnprohib

# Every error path of the option, traffic, netfile and guid2lid parsers;
# the lid_assign readers are compiled in (with the sanitizers when
# configured so), the core parsers come from the checked core.
check_PROGRAMS += tests/unit/test_parse_errors
tests_unit_test_parse_errors_SOURCES = tests/unit/test_parse_errors.c \
	lid_assign/lid_netfile.c lid_assign/lid_netline.c \
	lid_assign/lid_netfab.c lid_assign/lid_g2l.c
tests_unit_test_parse_errors_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign
tests_unit_test_parse_errors_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_parse_errors_LDADD = $(UNIT_LDADD)
tests_unit_test_parse_errors_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_parse_errors

# Fabrics in several pieces, and switches gone since the last routing.
check_PROGRAMS += tests/unit/test_pieces
tests_unit_test_pieces_SOURCES = tests/unit/test_pieces.c
tests_unit_test_pieces_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_pieces_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_pieces_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_pieces_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_pieces

check_PROGRAMS += tests/unit/test_ft3join_traffic
tests_unit_test_ft3join_traffic_SOURCES = tests/unit/test_ft3join_traffic.c
tests_unit_test_ft3join_traffic_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_ft3join_traffic_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ft3join_traffic_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_ft3join_traffic_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_ft3join_traffic

# Extreme traffic weights through the whole core (under UBSan with
# --enable-sanitizers).
check_PROGRAMS += tests/unit/test_weights
tests_unit_test_weights_SOURCES = tests/unit/test_weights.c
tests_unit_test_weights_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_weights_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_weights_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_weights_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_weights

# The plugin's option reading keeps the last good options and traffic
# groups (plugin/turnadd_config.c includes no OpenSM header).
check_PROGRAMS += tests/unit/test_config_keep
tests_unit_test_config_keep_SOURCES = tests/unit/test_config_keep.c \
	plugin/turnadd_config.c plugin/turnadd_config.h
tests_unit_test_config_keep_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugin
tests_unit_test_config_keep_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_config_keep_LDADD = $(UNIT_LDADD)
tests_unit_test_config_keep_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_config_keep

# A configured escape root that fails and comes back (ta_root.h).
check_PROGRAMS += tests/unit/test_root
tests_unit_test_root_SOURCES = tests/unit/test_root.c
tests_unit_test_root_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_root_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_root_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_root_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_root

# Balance: busiest channel of turnadd's routes against hand-worked optima
# (fat trees; joined fat trees with and without the traffic file).
check_PROGRAMS += tests/unit/test_balance
tests_unit_test_balance_SOURCES = tests/unit/test_balance.c
tests_unit_test_balance_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_balance_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_balance_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_balance_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_balance

# The HyperX, dragonfly and Dragonfly+ generators: counts, degrees,
# links per group pair, coordinates, distances (ibsim_topos/).
check_PROGRAMS += tests/unit/test_topo_kinds
tests_unit_test_topo_kinds_SOURCES = tests/unit/test_topo_kinds.c
tests_unit_test_topo_kinds_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_topo_kinds_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_topo_kinds_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_topo_kinds_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_topo_kinds

# The unit tests, defined once: every test under tests/unit/, wherever its
# rules are (test_lid_order's are in lid_assign/local.mk), picked out of
# TESTS.  scripts/test-all.sh runs them again built with the sanitizers:
#   make check-unit          run them
#   make -s print-unit-tests list them
.PHONY: check-unit print-unit-tests
print-unit-tests:
	@for t in $(TESTS); do \
		case $$t in tests/unit/*) printf '%s ' "$$t" ;; esac; \
	done; echo
check-unit:
	$(MAKE) $(AM_MAKEFLAGS) check \
		TESTS="`$(MAKE) $(AM_MAKEFLAGS) -s print-unit-tests`"

check_PROGRAMS += tests/unit/test_intree_fast
tests_unit_test_intree_fast_SOURCES = tests/unit/test_intree_fast.c \
	tests/unit/run_suite.h tests/unit/topo_graph.c tests/unit/topo_graph.h
tests_unit_test_intree_fast_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ibsim_topos
tests_unit_test_intree_fast_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_intree_fast_LDADD = ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_intree_fast_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_intree_fast

check_PROGRAMS += tests/unit/test_tp_candidate
tests_unit_test_tp_candidate_SOURCES = tests/unit/test_tp_candidate.c
tests_unit_test_tp_candidate_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_tp_candidate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_tp_candidate_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_tp_candidate_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_tp_candidate

check_PROGRAMS += tests/unit/test_tp_resweep
tests_unit_test_tp_resweep_SOURCES = tests/unit/test_tp_resweep.c
tests_unit_test_tp_resweep_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_tp_resweep_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_tp_resweep_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_tp_resweep_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_tp_resweep

# Joined fat trees with the two-tree traffic file: inter-tree routes
# spread over the join links, full bisection inside the trees.
check_PROGRAMS += tests/unit/test_join_minor
tests_unit_test_join_minor_SOURCES = tests/unit/test_join_minor.c
tests_unit_test_join_minor_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_join_minor_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_join_minor_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_join_minor_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_join_minor

# Joined fat trees on another wiring: the escape root where the
# inter-tree traffic turns, and a resweep that keeps it.
check_PROGRAMS += tests/unit/test_minor_roots
tests_unit_test_minor_roots_SOURCES = tests/unit/test_minor_roots.c
tests_unit_test_minor_roots_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_minor_roots_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_minor_roots_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_minor_roots_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_minor_roots

# The escape tree through every link between two traffic groups.
check_PROGRAMS += tests/unit/test_cut_tree
tests_unit_test_cut_tree_SOURCES = tests/unit/test_cut_tree.c
tests_unit_test_cut_tree_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_cut_tree_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cut_tree_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_cut_tree_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_cut_tree

# The routing memory reading the latest routing from the switch tables
# (lft_sim: OpenSM's tables without OpenSM, also used by core_bench -L).
check_PROGRAMS += tests/unit/test_saved_rows
tests_unit_test_saved_rows_SOURCES = tests/unit/test_saved_rows.c \
	tests/unit/lft_sim.c tests/unit/lft_sim.h
tests_unit_test_saved_rows_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_saved_rows_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_saved_rows_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_saved_rows_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_saved_rows

check_PROGRAMS += tests/unit/test_metrics
tests_unit_test_metrics_SOURCES = tests/unit/test_metrics.c
tests_unit_test_metrics_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_metrics_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_metrics_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_metrics_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_metrics

check_PROGRAMS += tests/unit/test_restore
tests_unit_test_restore_SOURCES = tests/unit/test_restore.c
tests_unit_test_restore_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_restore_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_restore_LDADD = $(UNIT_HELP_LDADD)
tests_unit_test_restore_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_restore

# lftcheck's CDG per SL (scripts/check), on a hand-made ring
check_PROGRAMS += tests/unit/test_lc_sl
tests_unit_test_lc_sl_SOURCES = tests/unit/test_lc_sl.c \
	scripts/check/lc_check.c scripts/check/lc_cdg.c \
	scripts/check/lc_routes.c scripts/check/lc_hosts.c \
	scripts/check/lc_sl.c scripts/check/lc_parse_lft.c
tests_unit_test_lc_sl_CPPFLAGS = $(FABTOPO_CPPFLAGS) -I$(top_srcdir)/scripts/check
tests_unit_test_lc_sl_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_lc_sl_LDADD = scripts/libfabtopo.la $(CHECK_LIBS)
tests_unit_test_lc_sl_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_lc_sl
