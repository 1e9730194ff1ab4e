#!/bin/bash
# SPDX-License-Identifier: MIT
# A standby takes over a fabric whose master had routed around a failed
# switch, then the switch comes back (random net, topogen random 20 10 3
# 7, a torus 4 x 4 and a Dragonfly+ of 4 groups, a spine failing).  Two OpenSMs with turnadd on ibsim, each with
# its own cache directory: A (sm_priority 10) at the first switch, B
# (sm_priority 1) at a host.  Tables and LIDs read back from the
# simulator; LFT Sets counted in each opensm (libmadcount.so).
#  1. bring-up under A; a switch fails, A routes around it;
#  2. A is killed (SIGKILL); B takes over: no LFT Set, every table and
#     LID as A left them, B's log says it kept the tables whole;
#  3. the switch comes back under B: every table and LID exactly the
#     bring-up's (A's), lftcheck OK at every step.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=restart_lib.sh
. "$(dirname "$0")/restart_lib.sh"
TOPOGEN=$top_builddir/ibsim_topos/topogen
need_built "$TOPOGEN"
# a standby gives up on a silent master after 2 polls 1 s apart
standby_conf=("sminfo_polling_timeout 1000" "polling_retry_number 2")

# wait_master DIR: DIR's OpenSM is MASTER with a SUBNET UP, fabric settled
wait_master() {
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -qF "Entering MASTER state" "$1/opensm.log" 2>/dev/null &&
			grep -qF "SUBNET UP" "$1/opensm.log" && break
		sleep 0.1
	done
	((i < 1200)) || {
		grep -E "state|SMInfo|MASTER|STANDBY|SUBNET|polling|ERR" \
			"$1/opensm.log" | tail -n 40 | cut -c 1-300 >&2
		fail "$(basename "$1"): not master after 120 s"
	}
	rs_settle 60
}

# takeover NAME SWITCH B_HOST TOPOGEN_ARGS...
takeover() {
	local name=$1 sw=$2 bhost=$3 snap sets pid changed
	shift 3
	make_tmpdir
	"$TOPOGEN" "$@" >"$TEST_TMP/$name.net" || fail "topogen $*"
	rs_begin "$TEST_TMP/$name.net"
	snap=$TEST_TMP/snap
	rs_start_sm "$FAB_DIR/a" a "sm_priority 10" "${standby_conf[@]}"
	wait_master "$FAB_DIR/a"
	FAB_SIM_HOST=$bhost rs_start_sm "$FAB_DIR/b" b "sm_priority 1" \
		"${standby_conf[@]}"
	rs_wait_log "$FAB_DIR/b" "Entering STANDBY state" 30
	rs_settle 30
	rs_snapshot "$snap.0"
	rs_lftcheck "$snap.0"

	fab_console "Unlink \"$sw\""
	rs_wait_log "$FAB_DIR/a" "gone since the previous routing" 60
	rs_settle 60
	rs_snapshot "$snap.1"
	rs_lftcheck "$snap.1"

	pid=${RS_PID[a]}
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	unset "RS_PID[a]"
	wait_master "$FAB_DIR/b"
	rs_snapshot "$snap.2"
	rs_lftcheck "$snap.2"
	lid_equal "$snap.1" "$snap.2" "$name: LIDs after the takeover"
	changed=$(rs_changed_blocks "$snap.1.lfts" "$snap.2.lfts")
	sets=$(rs_sets "$FAB_DIR/b")
	echo "$name: B took over after $sw failed: $sets LFT Sets, $changed blocks changed"
	((sets == 0)) || {
		grep -E "takeover|LFT read|turn decisions|escape" \
			"$FAB_DIR/b/opensm.log" | cut -c 40-400 >&2
		fail "$name: $sets LFT Sets at the takeover"
	}
	((changed == 0)) || fail "$name: $changed blocks changed at the takeover"
	expect_line "$FAB_DIR/b/opensm.log" \
		"takeover: the switches' tables kept whole"

	fab_console "ReLink \"$sw\""
	rs_wait_log "$FAB_DIR/b" "restore: " 60
	rs_settle 60
	rs_snapshot "$snap.3"
	rs_lftcheck "$snap.3"
	lid_equal "$snap.0" "$snap.3" "$name: LIDs after the restore"
	changed=$(rs_changed_blocks "$snap.0.lfts" "$snap.3.lfts")
	echo "$name: $sw back under B: $(($(rs_sets "$FAB_DIR/b") - sets)) LFT Sets, $changed blocks differ from the bring-up"
	((changed == 0)) ||
		fail "$name: $changed blocks differ from the bring-up after the restore under B"
	rs_cleanup
}

(takeover random rnd-sw3 rnd-sw12-h1 random 20 10 3 7) || exit 1
(takeover torus torus-sw5 torus-sw10-h1 torus 4 4 2) || exit 1
(takeover dfplus dfp1-spine0 dfp3-leaf2-h1 dfplus 4 4 4 4) || exit 1
echo "PASS: a takeover keeps the tables, a later restore returns to the bring-up's"
