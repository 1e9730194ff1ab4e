#!/bin/bash
# SPDX-License-Identifier: MIT
# Two switches of a random net fail one after the other and the first
# comes back while the second is still down.  OpenSM with turnadd on
# ibsim; tables and LIDs read back from the simulator by directed
# routes, LFT Sets counted in opensm (libmadcount.so):
#  - after each step lftcheck OK (every pair reachable, unicast and
#    multicast acyclic on one VL);
#  - after the partial restore every table and LID is exactly what a
#    second OpenSM on a second simulator gets from a bring-up and the
#    failure of the second switch alone (the routes do not depend on
#    what failed and came back in between), the log says the fabric was
#    routed as that failure, and the LFT Sets are no fewer than the
#    blocks that changed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=restart_lib.sh
. "$(dirname "$0")/restart_lib.sh"
TOPOGEN=$top_builddir/ibsim_topos/topogen
need_built "$TOPOGEN"

A=rnd-sw5
B=rnd-sw3	# not cabled to A: ReLink of A relinks its own cables only
KEEP=$(mktemp -d "${TMPDIR:-/tmp}/partial_restore.XXXXXX")
trap 'rm -rf -- "$KEEP"' EXIT
"$TOPOGEN" random 20 10 3 7 >"$KEEP/rnd.net" || fail "topogen"

# step DIR CONSOLE_COMMAND LOG_TEXT N SNAPSHOT: the command, then until
# the N-th line with LOG_TEXT in DIR's log and the fabric settled
step() {
	local i
	fab_console "$2"
	for ((i = 0; i < 600; i++)); do
		(($(grep -c -F -- "$3" "$1/opensm.log") >= $4)) && break
		sleep 0.1
	done
	((i < 600)) || fail "no '$3' in $1/opensm.log after '$2'"
	rs_settle 60
	rs_snapshot "$5"
	rs_lftcheck "$5"
}

# A down, B down, A back; the snapshot of the end in $KEEP/seq
sequence() {
	local dir sets changed
	rs_begin "$KEEP/rnd.net"
	dir=$FAB_DIR/sm
	rs_start_sm "$dir" sm
	rs_wait_log "$dir" "SUBNET UP" 60
	rs_settle 60
	step "$dir" "Unlink \"$A\"" "gone since the previous routing" 1 \
		"$TEST_TMP/a"
	step "$dir" "Unlink \"$B\"" "gone since the previous routing" 2 \
		"$TEST_TMP/ab"
	sets=$(rs_sets "$dir")
	step "$dir" "ReLink \"$A\"" "restore: " 1 "$TEST_TMP/b"
	expect_line "$dir/opensm.log" \
		"restore: the fabric is the one of routing 1 still missing 1 switches"
	changed=$(rs_changed_blocks "$TEST_TMP/ab.lfts" "$TEST_TMP/b.lfts")
	sets=$(($(rs_sets "$dir") - sets))
	echo "$A back with $B down: $sets LFT Sets, $changed blocks changed (switches present at both)"
	((sets >= changed)) || fail "fewer LFT Sets than changed blocks"
	cp "$TEST_TMP/b.lids" "$TEST_TMP/b.lfts" "$KEEP/"
	cp "$dir/opensm.log" "$KEEP/sequence.log"
	rs_cleanup
}

# B down alone; the snapshot in $KEEP/alone
alone() {
	local dir
	rs_begin "$KEEP/rnd.net"
	dir=$FAB_DIR/sm
	rs_start_sm "$dir" sm
	rs_wait_log "$dir" "SUBNET UP" 60
	rs_settle 60
	step "$dir" "Unlink \"$B\"" "gone since the previous routing" 1 \
		"$TEST_TMP/alone"
	cp "$TEST_TMP/alone.lids" "$KEEP/alone.lids"
	cp "$TEST_TMP/alone.lfts" "$KEEP/alone.lfts"
	cp "$dir/opensm.log" "$KEEP/alone.log"
	rs_cleanup
}

# the entries of LFTS towards the LIDs of LIDS (a LID that is gone may
# keep its entry where a switch stayed up: no packet goes there)
live_entries() {
	awk 'function hex(s,    i, v) {
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	     }
	     NR == FNR { live[$2 + 0] = 1; next }
	     /^0x[0-9a-fA-F]+ [0-9]+$/ && !(hex($1) in live) { next }
	     { print }' "$1" "$2"
}

(sequence) || exit 1
(alone) || exit 1
TEST_TMP=$KEEP
lid_equal "$KEEP/alone" "$KEEP/b" "LIDs after the partial restore"
live_entries "$KEEP/alone.lids" "$KEEP/alone.lfts" >"$KEEP/alone.live"
live_entries "$KEEP/alone.lids" "$KEEP/b.lfts" >"$KEEP/b.live"
differ=$(rs_changed_blocks "$KEEP/alone.live" "$KEEP/b.live")
if ((differ != 0)); then
	for run in sequence alone; do
		echo "== $run"
		grep -E 'turnadd: (failure|restore|gone since|LFTs)' \
			"$KEEP/$run.log" | sed 's/.*turnadd: /  /'
	done
	rs_blocks "$KEEP/alone.live" >"$KEEP/alone.blocks"
	rs_blocks "$KEEP/b.live" >"$KEEP/b.blocks"
	diff "$KEEP/alone.blocks" "$KEEP/b.blocks" | head -n 12
	fail "$differ LFT blocks differ from those of $B's failure alone"
fi
echo "PASS: a partial restore gets the routes of the failure still in effect"
