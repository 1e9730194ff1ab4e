#!/bin/bash
# SPDX-License-Identifier: MIT
# Port-major LIDs stay put while the fabric changes under a running
# OpenSM with the plugin (ibsim, topogen fattree2 6 3 3):
#  1. a host missing at bring-up (port 1 of leaf 0) arrives later: it
#     gets a LID in group 0 and no other LID changes (a host's group is
#     its switch port, whoever else is present);
#  2. a spine fails: the switches after it in GUID order change index,
#     hence group, yet no LID changes;
#  3. the spine comes back with its old LID.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
lid_test_begin

net=$TEST_TMP/ft.net
"$TOPOGEN" fattree2 6 3 3 >"$net"

resweep() {
	local n
	n=$(fab_count_up)
	fab_console "$1"
	fab_wait_resweep "$n" 10
	grep -F "port-major LIDs" "$FAB_DIR/opensm.log" | tail -n 1 |
		sed 's/^.*turnadd: /  /'
}

lid_start_fabric "$net"
fab_console 'Unlink "ft-leaf0-h1"'
fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR"
fab_wait_subnet_up 20
fab_engine_used turnadd || fail "turnadd did not route"
lid_snapshot "$TEST_TMP/s0"
lid_check_layout "$TEST_TMP/s0.ext" "without ft-leaf0-h1"
[[ $(wc -l <"$TEST_TMP/s0.lids") == 26 ]] ||
	fail "expected 26 ports without ft-leaf0-h1"

# 1. the newcomer on the lowest port
resweep 'ReLink "ft-leaf0-h1"'
lid_snapshot "$TEST_TMP/s1"
lid_same "$TEST_TMP/s0" "$TEST_TMP/s1" "newcomer"
newcomer=$(join -v 2 "$TEST_TMP/s0.lids" "$TEST_TMP/s1.lids")
# group 0: 5 hosts (1-5), switches of index 0, 3, 6 (6-8): LID 9
[[ $newcomer == *" 9" ]] ||
	fail "newcomer: expected one new port with LID 9, got '$newcomer'"
echo "newcomer on port 1 of ft-leaf0: LID ${newcomer##* }, no other LID changed"

# 2. a spine fails: ft-spine1, ft-spine2 change index (7 -> 6, 8 -> 7)
resweep 'Unlink "ft-spine0"'
lid_snapshot "$TEST_TMP/s2"
[[ $(wc -l <"$TEST_TMP/s2.lids") == 26 ]] ||
	fail "expected 26 ports without ft-spine0"
lid_same "$TEST_TMP/s1" "$TEST_TMP/s2" "spine failure"
expect_line "$FAB_DIR/opensm.log" \
	'port-major LIDs: 26 ports .* 26 kept, 0 placed, 0 overflow, 0 failed, 0 moved;.* 2 switch LIDs kept in another group.s range; 0 guid2lid entries set, 1 reserved'
echo "ft-spine0 unlinked: no LID changed"

# 3. and comes back with its old LID
resweep 'ReLink "ft-spine0"'
lid_snapshot "$TEST_TMP/s3"
lid_equal "$TEST_TMP/s1" "$TEST_TMP/s3" "spine back"
echo "ft-spine0 relinked: all 27 LIDs as before the failure"
fab_cleanup
echo "$test_name: PASS"
