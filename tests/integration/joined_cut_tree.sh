#!/bin/bash
# SPDX-License-Identifier: MIT
# The escape tree through every join (plugin/core/ta_cut_tree.h) under
# OpenSM on ibsim: two 8-ary 3-level fat trees joined at the middle level
# on ft3join-alt's wiring (topogen ft3join-alt 8 middle: 256 hosts, 160
# switches, the joins leaving from half the pods of each tree), routed
# with the two-tree traffic file (1 inside a tree, 1/100 between).
#  - The bring-up logs the cut tree as kept.  From the tables read back
#    from the switches (lftcheck --groups): full bisection inside the
#    trees (intra 1.0000) and at least 0.9 between them (0.94; the tree
#    rooted at a join switch alone gave 0.83), every pair reachable.
#  - Every host joins the IPoIB broadcast group and 10 groups of random
#    members: unicast and multicast together are acyclic on one VL and
#    every member reaches every other once (lftcheck --mcast).
#  - An upper switch of tree B fails: the resweep keeps the turn
#    decisions (the saved tree rebuilt from its links that are left) and
#    the tables stay complete and, with the multicast trees, acyclic.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$TOPOGEN"
need_fabric
need_turnadd
: "${MCJOIN:=$top_builddir/scripts/mcjoin}"
: "${LFTREAD:=$top_builddir/scripts/lftread}"
need_built "$MCJOIN" "$LFTREAD"
export MCJOIN
# shellcheck source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"
# shellcheck source=../../scripts/mcast_lib.sh
. "$top_srcdir/scripts/mcast_lib.sh"
make_tmpdir

net=$TEST_TMP/alt8.net
"$TOPOGEN" ft3join-alt 8 middle >"$net"
"$TOPOGEN" ft3join-traffic >"$TEST_TMP/traffic"
printf 'traffic_file %s\n' "$TEST_TMP/traffic" >"$TEST_TMP/turnadd.conf"
phase=''

check() {	# check NAME: read back, unicast and multicast checks
	phase=$1
	fab_read_back "$LFTREAD"
	"$LFTCHECK" "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$FAB_DIR/$phase.ucast" 2>&1 || true
	mc_check "$LFTCHECK" >"$FAB_DIR/$phase.mcast" 2>&1 || true
	sed "s/^/$phase: /" "$FAB_DIR/$phase.ucast" "$FAB_DIR/$phase.mcast"
	expect_line "$FAB_DIR/$phase.ucast" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
	expect_line "$FAB_DIR/$phase.ucast" ' cdg=acyclic$'
	expect_line "$FAB_DIR/$phase.mcast" '^mcast_groups=[0-9]+ mcast_members=[1-9][0-9]* mcast_pairs=[1-9][0-9]* mcast_missed=0 mcast_duplicates=0 mcast_loops=0 mcast_dead_ends=0 '
	expect_line "$FAB_DIR/$phase.mcast" ' cdg=acyclic$'
	expect_line "$FAB_DIR/$phase.mcast" '^verdict=OK$'
}

fab_init
FAB_OSM_ENV=("TURNADD_CONFIG=$TEST_TMP/turnadd.conf")
fab_start_ibsim "$net"
fab_start_opensm turnadd "$TURNADD_PLUGIN_DIR" "log_flags 0x43"
fab_wait_subnet_up 300
expect_line "$FAB_DIR/opensm.log" 'turnadd: cut tree: the escape tree through every link between the traffic groups \(0 switches joined against its up-and-down rule\), rooted at .*: kept$'
mc_join_groups 10 1
sleep 1
check bring-up
"$LFTCHECK" --groups tA-,tB- "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
	>"$FAB_DIR/groups" || fail "lftcheck --groups exited $?"
sed "s/^/bring-up: /" "$FAB_DIR/groups"
expect_line "$FAB_DIR/groups" '^intra_throughput=1\.0000 '
inter=$(sed -n 's/.* inter_throughput=\([0-9.]*\).*/\1/p' "$FAB_DIR/groups")
[[ -n $inter ]] || fail "no inter_throughput from lftcheck --groups"
awk -v x="$inter" 'BEGIN { exit !(x >= 0.9) }' ||
	fail "inter-tree throughput $inter < 0.9"

ups=$(fab_count_up)
fab_unlink tB-core5
fab_wait_resweep "$ups" 120
expect_line "$FAB_DIR/opensm.log" 'turnadd: gone since the previous routing: 1 switch and 1 LID '
expect_line "$FAB_DIR/opensm.log" 'turnadd: minimal change: [1-9][0-9]* turn decisions kept from the previous routing$'
check core-failed
if grep -F "turnadd:" "$FAB_DIR/opensm.log" | grep -q " 0x01 -> "; then
	grep -F "turnadd:" "$FAB_DIR/opensm.log" | grep " 0x01 -> " >&2
	fail "turnadd logged an error"
fi
echo "$test_name: PASS"
