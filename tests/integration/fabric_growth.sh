#!/bin/bash
# SPDX-License-Identifier: MIT
# Fat trees that grow under a running OpenSM, and oversubscribed 3-level
# trees; real OpenSM on ibsim, tables read back (mad_count.sh: ibnetdiscover
# and lftread) and judged by lftcheck --throughput, outside the engine:
#  1. a director that returns board by board (its 6 switches relinked
#     1 s apart, so OpenSM routes the fabric with part of it back): once
#     it is whole, the throughput is the bring-up's (the boards that came
#     back first chose their routes, and allowed their turns, while the
#     director was incomplete; kept, they would leave it at 0.66 of 1.00);
#  2. the same fabric brought up without that director, which arrives
#     later: once it is there, the throughput is the whole fabric's
#     bring-up's (every other route still holds, so minimal change alone
#     would leave the new director idle: 0.45), and the log says why
#     routes changed;
#  3. 3-level leaves with more hosts than directors (6 hosts, 5
#     directors of 3 fabric switches): turnadd's throughput at least
#     ftree's on the same fabric (the line switches once spread over 2 of
#     their 3 fabric switches: 0.44 against 0.54) and within 15 % of the
#     uplink bound 5/6 (each leaf sends the chunks through the directors
#     in a rotation of its own: 0.74), the director failure at the LFT
#     MAD bound.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
make_tmpdir

# field RUN PHASE COLUMN: a value of the run's summary.csv
field() {
	mad_field "$TEST_TMP/$1" "$2" "$3"
}

# count NAME ENGINE NETFILE MAD_COUNT-OPTIONS...
count() {
	local name=$1 engine=$2 net=$3 status=0 phase
	shift 3
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" \
		--engine "$engine" --rows 0 --timeout 60 \
		--out "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.txt" 2>&1 ||
		status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "mad_count.sh on $name"
	while IFS=, read -r phase verdict by; do
		[[ $verdict == OK ]] || fail "$name: tables not OK after $phase"
		[[ $by == "$engine" ]] || fail "$name: OpenSM fell back at $phase"
	done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $6 "," $c["verdict"] "," $c["configured_by"] }' \
		"$TEST_TMP/$name/summary.csv")
}

# same_tp A B LABEL: throughputs A and B equal (4 decimals, lftcheck's)
same_tp() {
	printf '%s: throughput %s, want %s\n' "$3" "$1" "$2"
	[[ $1 == "$2" ]] || fail "$3: throughput $1, not $2"
}

"$TOPOGEN" fattree3 6 4 2 4 6 >"$TEST_TMP/ft3.net"

# 1. board by board
count paced turnadd "$TEST_TMP/ft3.net" --fail-prefix dir1- --relink-pace 1
whole=$(field paced bringup throughput)
same_tp "$(field paced restore throughput)" "$whole" "paced restore"
[[ $(field paced failure lft_mads) -le $(field paced failure bound) ]] ||
	fail "paced: failure above the bound"

# 2. a director that was down when OpenSM came up
count late turnadd "$TEST_TMP/ft3.net" --fail-prefix dir1- --down-at-start
same_tp "$(field late restore throughput)" "$whole" "late director"
expect_line "$TEST_TMP/late/opensm.log" \
	'turnadd: new since the previous routing: 6 switches never routed before'

# 3. oversubscribed 3-level leaves
"$TOPOGEN" fattree3 5 4 3 3 6 >"$TEST_TMP/over.net"
count over turnadd "$TEST_TMP/over.net" --fail-prefix dir1- --no-restore
count over-ftree ftree "$TEST_TMP/over.net" --fail-prefix dir1- --no-restore
ours=$(field over bringup throughput)
theirs=$(field over-ftree bringup throughput)
printf 'oversubscribed: turnadd %s, ftree %s\n' "$ours" "$theirs"
awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(a >= b) }' ||
	fail "oversubscribed: turnadd $ours below ftree $theirs"
# 6 hosts a leaf over 5 uplinks: no routing beats 5/6; sending a
# destination through the same director from every leaf puts two of a
# leaf's hosts behind one down-link (ftree: 0.54)
awk -v a="$ours" 'BEGIN { exit !(a >= 0.85 * 5 / 6) }' ||
	fail "oversubscribed: turnadd $ours below 0.85 of the uplink bound 5/6"
[[ $(field over failure lft_mads) -le $(field over failure bound) ]] ||
	fail "oversubscribed: failure above the bound"
echo "PASS: fabric_growth"
