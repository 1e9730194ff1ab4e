#!/bin/bash
# SPDX-License-Identifier: MIT
# A switch fails and comes back, on fabrics that are not fat trees (a
# random net, a torus, a Dragonfly+ where topogen makes one).  OpenSM
# with turnadd on ibsim; tables and LIDs read back from the simulator
# by directed routes, LFT Sets counted in opensm (libmadcount.so):
#  - after the failure: lftcheck OK (every pair reachable, unicast and
#    multicast acyclic on one VL);
#  - after the restore: every table and LID exactly the bring-up's, the
#    LFT Sets exactly the blocks that differ between the tables after
#    the failure and after the restore, lftcheck OK, and the log names
#    the routing reinstated.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=restart_lib.sh
. "$(dirname "$0")/restart_lib.sh"
TOPOGEN=$top_builddir/ibsim_topos/topogen
need_built "$TOPOGEN"

# fail_restore NAME SWITCH TOPOGEN_ARGS...
fail_restore() {
	local name=$1 sw=$2 dir snap sets0 sets1 changed back
	shift 2
	make_tmpdir
	"$TOPOGEN" "$@" >"$TEST_TMP/$name.net" || fail "topogen $*"
	rs_begin "$TEST_TMP/$name.net"
	dir=$FAB_DIR/sm
	snap=$TEST_TMP/snap
	rs_start_sm "$dir" sm
	rs_wait_log "$dir" "SUBNET UP" 60
	rs_settle 60
	rs_snapshot "$snap.up"
	rs_lftcheck "$snap.up"

	sets0=$(rs_sets "$dir")
	fab_console "Unlink \"$sw\""
	rs_wait_log "$dir" "gone since the previous routing" 60
	rs_settle 60
	rs_snapshot "$snap.down"
	rs_lftcheck "$snap.down"
	sets1=$(rs_sets "$dir")

	fab_console "ReLink \"$sw\""
	rs_wait_log "$dir" "restore: " 60
	rs_settle 60
	rs_snapshot "$snap.back"
	rs_lftcheck "$snap.back"
	lid_equal "$snap.up" "$snap.back" "$name: LIDs after the restore"
	back=$(rs_changed_blocks "$snap.up.lfts" "$snap.back.lfts")
	changed=$(rs_changed_blocks "$snap.down.lfts" "$snap.back.lfts")
	echo "$name: $sw failed: $((sets1 - sets0)) LFT Sets; restored: $(($(rs_sets "$dir") - sets1)) LFT Sets, $changed blocks changed (switches present at both), $back blocks differ from the bring-up"
	((back == 0)) ||
		fail "$name: $back LFT blocks differ from the bring-up's after the restore"
	expect_line "$dir/opensm.log" \
		"restore: the fabric is again the one of routing 1 "
	# the returning switch's own blocks are sent too
	(($(rs_sets "$dir") - sets1 >= changed)) ||
		fail "$name: fewer LFT Sets than changed blocks"
	rs_cleanup
}

(fail_restore random rnd-sw3 random 20 10 3 7) || exit 1
(fail_restore torus torus-sw5 torus 4 4 2) || exit 1
if "$TOPOGEN" dfplus 4 4 4 4 >/dev/null 2>&1; then
	(fail_restore dfplus dfp1-spine0 dfplus 4 4 4 4) || exit 1
fi
echo "PASS: restores return to the bring-up's tables"
