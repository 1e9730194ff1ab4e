#!/bin/bash
# SPDX-License-Identifier: MIT
# LIDs stay put when a fault makes the fabric look like another kind
# (ibsim, topogen dfplus 4 1 2 2: 4 groups of one leaf and two spines,
# group-major LIDs at bring-up).  When a group's only leaf fails, its
# spines are switches without hosts cabled to no leaf, so the fabric
# no longer passes for a Dragonfly+ and the port-major order would
# renumber the hosts:
#  1. dfp1-leaf0 fails: no surviving port's LID changes, and the log
#     says the LIDs keep the layout they follow;
#  2. it comes back: every LID is the bring-up's.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
lid_test_begin

net=$TEST_TMP/dfp.net
"$TOPOGEN" dfplus 4 1 2 2 >"$net"

resweep() {
	local n
	n=$(fab_count_up)
	fab_console "$1"
	fab_wait_resweep "$n" 10
}

lid_start_fabric "$net"
fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR"
fab_wait_subnet_up 20
fab_engine_used turnadd || fail "turnadd did not route"
expect_line "$FAB_DIR/opensm.log" \
	'turnadd: LID layout: group-major: Dragonfly\+ of 4 groups'
lid_snapshot "$TEST_TMP/s0"

# 1. dfp1-leaf0 fails: group 1's spines are left without a leaf
resweep 'Unlink "dfp1-leaf0"'
lid_snapshot "$TEST_TMP/s1"
lid_same "$TEST_TMP/s0" "$TEST_TMP/s1" "leaf failure"
expect_line "$FAB_DIR/opensm.log" \
	'LID layout: port-major would move [0-9]+ LIDs: they keep the group-major layout'
echo "dfp1-leaf0 unlinked: no LID changed"

# 2. it comes back
resweep 'ReLink "dfp1-leaf0"'
lid_snapshot "$TEST_TMP/s2"
lid_equal "$TEST_TMP/s0" "$TEST_TMP/s2" "leaf back"
echo "dfp1-leaf0 back: every LID is the bring-up's"
echo "$test_name: PASS"
