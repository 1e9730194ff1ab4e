# Odd fabrics under turnadd: one switch, dual-homed HCAs,
# parallel links, transit-only switches, 64/128-port switches, a fabric
# cut in two, LMC 2; real OpenSM on ibsim, tables read back and judged
# by lftcheck plus each case's own assertion (a few seconds in all).
odd_test_scripts = \
	tests/integration/odd_fabrics.sh \
	tests/integration/odd_split.sh \
	tests/integration/odd_lmc.sh

TESTS += $(odd_test_scripts)
dist_noinst_SCRIPTS += $(odd_test_scripts)
EXTRA_DIST += tests/integration/odd_lib.sh tests/integration/reroute_lib.sh

# LMC > 0: distinct spines per port and LFT MADs at the bound after a
# spine failure and restore (tests/integration/lmc_reroute.sh).
TESTS += tests/integration/lmc_reroute.sh
dist_noinst_SCRIPTS += tests/integration/lmc_reroute.sh

# Fat trees that grow under OpenSM (a director back board by board, one
# down at bring-up) and oversubscribed 3-level leaves: throughput read
# back from the fabric (tests/integration/fabric_growth.sh).
TESTS += tests/integration/fabric_growth.sh
dist_noinst_SCRIPTS += tests/integration/fabric_growth.sh
