# lftcheck on ibnetdiscover (default and -p) and dump_lfts / ibroute
# output taken under umad2sim (README "Checking a real fabric").
TESTS += tests/integration/real_fabric_check.sh
dist_noinst_SCRIPTS += tests/integration/real_fabric_check.sh
