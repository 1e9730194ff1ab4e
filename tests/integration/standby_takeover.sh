#!/bin/bash
# SPDX-License-Identifier: MIT
# Two OpenSMs with turnadd on one fabric (ibsim, ft2-6x3), each with its
# own cache dir as on two machines: A (sm_priority 10) at the first
# switch, B (sm_priority 1) at host ft-leaf5-h4.  LFT Sets are counted
# in each opensm by scripts/libmadcount.so; LIDs and tables are read
# back from the simulator by directed routes.
#  1. B is STANDBY; A is killed (SIGKILL); B takes over (MASTER, SUBNET
#     UP): every LID and table kept, B sends no LFT Set;
#  2. A starts again with sm_priority 0 and becomes STANDBY; B is killed
#     (SIGKILL) and ft-spine0 fails before A takes over: LIDs kept, only
#     entries that led to ft-spine0 move, A's LFT Sets are exactly the
#     blocks that changed; every step: lftcheck OK.
# (A coming back with the higher priority would be handed the subnet,
# but under ibsim the trap 144 it sends B never gets its answer and
# umad2sim never times it out, so its sweep waits forever.)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=restart_lib.sh
. "$(dirname "$0")/restart_lib.sh"
# shellcheck source=../../scripts/sm_pair_lib.sh
. "$top_srcdir/scripts/sm_pair_lib.sh"
rs_begin "$NETS/ft2-6x3.net"
snap=$TEST_TMP/snap
# a standby gives up on a silent master after 2 polls 1 s apart
standby_conf=("${SMP_POLL_CONF[@]}")

# start_a DIR PRIORITY
start_a() {
	rs_start_sm "$FAB_DIR/$1" a "sm_priority $2" "${standby_conf[@]}"
}

start_b() {
	FAB_SIM_HOST=ft-leaf5-h4 rs_start_sm "$FAB_DIR/b" b "sm_priority 1" \
		"${standby_conf[@]}"
}

# wait_master DIR N: DIR's OpenSM is MASTER and its log has more than N
# SUBNET UP lines, and the fabric settled
wait_master() {
	smp_wait_master "$1" "$2" 30 ||
		fail "$(basename "$1"): not master with a new SUBNET UP after 30 s"
	rs_settle 30
	grep -F "tables configured on all switches" "$1/opensm.log" |
		tail -n 1 | grep -qF "turnadd tables configured" ||
		fail "$(basename "$1"): turnadd did not make the tables"
}

start_a a1 10
wait_master "$FAB_DIR/a1" 0
rs_snapshot "$snap.0"
rs_lftcheck "$snap.0"
echo "A master: $(rs_sets "$FAB_DIR/a1") LFT Sets at bring-up"
start_b
rs_wait_log "$FAB_DIR/b" "Entering STANDBY state" 30
rs_settle 30

# kill_sm NAME: SIGKILL, as a crash
kill_sm() {
	smp_kill "${RS_PID[$1]}"
	unset "RS_PID[$1]"
}

# 1. A dies, B takes over
kill_sm a
wait_master "$FAB_DIR/b" 0
rs_expect_unchanged "B took over" "$snap.0" "$snap.1" "$FAB_DIR/b" 9

# 2. A comes back as standby; B dies and ft-spine0 fails
start_a a2 0
rs_wait_log "$FAB_DIR/a2" "Entering STANDBY state" 30
rs_settle 30
kill_sm b
fab_console 'Unlink "ft-spine0"'
wait_master "$FAB_DIR/a2" 0
rs_expect_minimal "A took over" "$snap.0" "$snap.2" "$FAB_DIR/a2" ft-spine0
expect_line "$FAB_DIR/a2/opensm.log" \
	'LFT read: 8 of 8 switches answered every block'
rs_cleanup
echo "$test_name: PASS"
