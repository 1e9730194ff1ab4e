# The routing-quality benchmark's fabrics: joined 3-level fat trees
# (topogen ft3join) and the paper's random nets, checked on the written
# netfiles; and turnadd with the ft3join traffic file under ibsim (the
# joins from other positions: the escape tree through every join, with
# multicast, and a resweep).
fabrics_test_scripts = \
	tests/integration/fabrics_netfiles.sh \
	tests/integration/ft3join_turnadd.sh \
	tests/integration/joined_cut_tree.sh

TESTS += $(fabrics_test_scripts)
dist_noinst_SCRIPTS += $(fabrics_test_scripts)
EXTRA_DIST += tests/integration/netfile_stats.awk
