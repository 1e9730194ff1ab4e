#!/bin/bash
# SPDX-License-Identifier: MIT
# LIDs stay put when a fault makes the fabric look like another kind
# (ibsim, topogen dragonfly 3 1 2: 4 groups of 3 routers, group-major
# LIDs at bring-up).  A group that loses a router is no longer 3
# routers cabled all to all, so the fabric no longer passes for a
# dragonfly and the port-major order would renumber the hosts:
#  1. a router fails: no surviving port's LID changes, and the log says
#     the LIDs keep the layout they follow;
#  2. it comes back: every LID is the bring-up's.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
lid_test_begin

net=$TEST_TMP/df.net
"$TOPOGEN" dragonfly 3 1 2 >"$net"

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
	'turnadd: LID layout: group-major: dragonfly of 4 groups'
lid_snapshot "$TEST_TMP/s0"

# 1. df1-s0 fails: its group is 2 routers, not a dragonfly's
resweep 'Unlink "df1-s0"'
lid_snapshot "$TEST_TMP/s1"
lid_same "$TEST_TMP/s0" "$TEST_TMP/s1" "router failure"
expect_line "$FAB_DIR/opensm.log" \
	'LID layout: port-major would move [0-9]+ LIDs: they keep the group-major \(dragonfly\) layout'
echo "df1-s0 unlinked: no LID changed"

# 2. it comes back
resweep 'ReLink "df1-s0"'
lid_snapshot "$TEST_TMP/s2"
lid_equal "$TEST_TMP/s0" "$TEST_TMP/s2" "router back"
echo "df1-s0 back: every LID is the bring-up's"
echo "$test_name: PASS"
