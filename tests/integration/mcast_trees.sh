#!/bin/bash
# SPDX-License-Identifier: MIT
# Multicast and unicast together on one VL, with real SA joins (mcjoin):
# on the bundled 20-switch random net, every host joins the IPoIB
# broadcast group and 10 groups of random members.  With OpenSM's own
# multicast trees (mcast_trees opensm) turnadd's unicast routes alone
# are acyclic but the CDG of both has a cycle; turnadd's own trees give
# an acyclic CDG with every member reaching every other once, also after
# a switch fails and returns (hosts join again then, as IPoIB does).  A
# group whose members all leave keeps no MFT entry.  The MFTs read back
# from the simulated switches (mftread) equal OpenSM's dump and pass
# the same check.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
: "${MCJOIN:=$top_builddir/scripts/mcjoin}"
: "${LFTREAD:=$top_builddir/scripts/lftread}"
: "${MFTREAD:=$top_builddir/scripts/mftread}"
need_built "$MCJOIN" "$LFTREAD" "$MFTREAD"
export MCJOIN
# shellcheck source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"
# shellcheck source=../../scripts/mcast_lib.sh
. "$top_srcdir/scripts/mcast_lib.sh"

net=$NETS/random20.net
phase=''

check() {	# check NAME: read back, both checks, into $FAB_DIR/NAME.*
	phase=$1
	fab_read_back "$LFTREAD"
	"$LFTCHECK" "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$FAB_DIR/$phase.ucast" 2>&1 || true
	mc_check "$LFTCHECK" >"$FAB_DIR/$phase.mcast" 2>&1 || true
	sed "s/^/$phase: /" "$FAB_DIR/$phase.mcast"
}

canon() {	# mcfdbs format -> "GUID MLID PORTS" lines, sorted
	awk '/^Switch/ { g = $2; next } /^0x/ { $2 = ""; print g, $0 }' "$1" |
		tr 'A-F' 'a-f' | sort
}

readback() {	# the switches' MFTs: equal to the dump, and they pass
	fab_sim_client 60 "$(fab_abspath "$MFTREAD")" -m 0xC0FF \
		"$FAB_DIR/topology.txt" >"$FAB_DIR/$phase.mfts" \
		2>"$FAB_DIR/mftread.err" || fail "mftread failed"
	diff <(canon "$FAB_DIR/dump/opensm.mcfdbs") \
		<(canon "$FAB_DIR/$phase.mfts") >&2 ||
		fail "$phase: MFTs read back differ from OpenSM's dump"
	mc_check "$LFTCHECK" "$FAB_DIR/$phase.mfts" \
		>"$FAB_DIR/$phase.mread" 2>&1 || true
	expect_line "$FAB_DIR/$phase.mread" '^verdict=OK$'
}

mc_line() {	# the mcast_ line must show members and no failure
	expect_line "$FAB_DIR/$phase.mcast" \
		'^mcast_groups=[0-9]+ mcast_members=[1-9][0-9]* mcast_pairs=[1-9][0-9]* mcast_missed=0 mcast_duplicates=0 mcast_loops=0 mcast_dead_ends=0 mcast_joined_not_in_tables=0 '
}

# 1. OpenSM's trees with turnadd's unicast: a cycle
conf=$(mktemp "${TMPDIR:-/tmp}/mcast_trees.XXXXXX")
echo "mcast_trees opensm" >"$conf"
(
	fab_init
	FAB_OSM_ENV=("TURNADD_CONFIG=$conf")
	fab_start_ibsim "$net"
	fab_start_opensm turnadd "$TURNADD_PLUGIN_DIR" "log_flags 0x43"
	fab_wait_subnet_up 60
	mc_join_groups 10 1
	sleep 1
	check opensm-trees
	expect_line "$FAB_DIR/$phase.ucast" ' cdg=acyclic$'
	expect_line "$FAB_DIR/$phase.mcast" ' cdg=CYCLE len='
	expect_line "$FAB_DIR/$phase.mcast" '^verdict=FAIL$'
	if grep -q "turnadd: multicast" "$FAB_DIR/opensm.log"; then
		fail "mcast_trees opensm: turnadd built trees"
	fi
)
rm -f -- "$conf"

# 2. turnadd's trees: acyclic, every member reached
fab_init
fab_start_ibsim "$net"
fab_start_opensm turnadd "$TURNADD_PLUGIN_DIR" "log_flags 0x43"
fab_wait_subnet_up 60
mc_join_groups 10 1
sleep 1
check turnadd-trees
mc_line
expect_line "$FAB_DIR/$phase.mcast" ' cdg=acyclic$'
expect_line "$FAB_DIR/$phase.mcast" '^verdict=OK$'
# what was built is logged (unchanged trees only at verbose level)
expect_line "$FAB_DIR/opensm.log" 'turnadd: multicast MLID 0xC000: [0-9]+ member ports on [0-9]+ switches, tree of [0-9]+ switches and [0-9]+ links \((new|partly kept|kept|rebuilt); from '
readback

# 3. a group whose members all leave: no entry left for its MLID
mc_host_guids "$FAB_DIR/mc-topology.txt" | head -n 2 >"$FAB_DIR/pair.guids"
mc_join ff12:e001::beef "$FAB_DIR/pair.guids" -c
sleep 1
mlid=$(awk '/ff12:e001::beef/ { print $NF; exit }' "$FAB_DIR/mcjoin.out")
[[ -n $mlid ]] || fail "no MLID for the pair group"
grep -qi "^$mlid :" "$FAB_DIR/dump/opensm.mcfdbs" ||
	fail "pair group $mlid has no MFT entry"
mc_join ff12:e001::beef "$FAB_DIR/pair.guids" -l
sleep 1
check left
mc_line
expect_line "$FAB_DIR/$phase.mcast" '^verdict=OK$'
if grep -qi "^$mlid :" "$FAB_DIR/dump/opensm.mcfdbs"; then
	fail "group $mlid left by all its members still has MFT entries"
fi

# 4. a switch fails (its hosts with it), then returns and they join again
ups=$(fab_count_up)
fab_unlink rnd-sw7
fab_wait_resweep "$ups" 60
check unlinked
mc_line
# the resweep rebuilt every group; one summary line says how
expect_line "$FAB_DIR/opensm.log" 'turnadd: multicast trees this sweep: (1[1-9]|[2-9][0-9]) groups \([0-9]+ kept, [0-9]+ partly kept, [0-9]+ rebuilt, [0-9]+ new, [0-9]+ via the escape tree\), [1-9][0-9]* links; [0-9]+ groups with fewer than 2 member ports \(no tree\); 0 with members unreached or MFT entries unset$'
expect_line "$FAB_DIR/$phase.mcast" ' mcast_joined_gone=[1-9]'
expect_line "$FAB_DIR/$phase.mcast" ' cdg=acyclic$'
expect_line "$FAB_DIR/$phase.mcast" '^verdict=OK$'
readback
ups=$(fab_count_up)
fab_console 'ReLink "rnd-sw7"'
fab_wait_resweep "$ups" 60
: >"$FAB_DIR/mcjoin.out"
mc_join_groups 10 1
sleep 1
check relinked
mc_line
expect_line "$FAB_DIR/$phase.mcast" ' cdg=acyclic$'
expect_line "$FAB_DIR/$phase.mcast" '^verdict=OK$'
if grep -F "turnadd:" "$FAB_DIR/opensm.log" | grep -q " 0x01 -> "; then
	grep -F "turnadd:" "$FAB_DIR/opensm.log" | grep " 0x01 -> " >&2
	fail "turnadd logged an error"
fi
echo "$test_name: PASS"
