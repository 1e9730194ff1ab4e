#!/bin/bash
# SPDX-License-Identifier: MIT
# Chunks on a 3-level tree (LMC 0): topogen fattree3 3 2 1 17 4, 34
# leaves with 4 hosts facing 3 directors (each 2 line switches and 1
# fabric switch).  The rank rule (rank r through director r mod 3) put
# two ranks' LIDs (68) behind one director, 2 blocks a leaf or more
# where the bound is 1; the chunks, with each director's own switch
# LIDs in its chunk, reach it.  Real OpenSM with turnadd on ibsim:
# mad_count.sh counts the LFT SubnSet MADs outside the engine and reads
# the tables back.  Asserted, after the failure of the director dir1-
# (all its switches) and after its restore, then of one line switch
# (dir2-line0): every pair reachable, CDG acyclic, turnadd routed, no
# more LFT MADs than the bound (scripts/mad_lib.sh, mad_bound), and no
# host LID moved.
# Then rank groups (3 directors dividing 6 host ports: no chunks) on
# topogen fattree3 3 5 1 5 6 (25 leaves): the 18 director switches
# spread over the 6 rank groups took a director's two ranks to 2 blocks
# a leaf (50 LFT MADs at its failure where the bound is 25); in a group
# of their own after 3 groups of 2 ranks (lid_groups.c), 1 block: the
# same assertions for the failure and restore of dir1-.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
make_tmpdir

net=$TEST_TMP/ft3-3x2x1x17x4.net
"$TOPOGEN" fattree3 3 2 1 17 4 >"$net"

bad=()
# run NAME MAD_COUNT_ARGS...: one failure and restore
run() {
	local name=$1 status=0
	shift
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" \
		--engine turnadd "$@" --rows 0 --timeout 30 \
		--out "$TEST_TMP/$name" >"$TEST_TMP/$name.txt" 2>&1 || status=$?
	sed "s/^/mad_count $name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "mad_count.sh --engine turnadd $*"
	check "$name"
}

# field RUN PHASE COLUMN: a value of the run's summary.csv
field() {
	mad_field "$TEST_TMP/$1" "$2" "$3"
}

check() {
	local phase mads bound
	for phase in failure restore; do
		[[ $(field "$1" "$phase" verdict) == OK ]] ||
			fail "$1: tables not OK after the $phase"
		[[ $(field "$1" "$phase" configured_by) == turnadd ]] ||
			fail "$1: OpenSM fell back after the $phase"
		mads=$(field "$1" "$phase" lft_mads)
		bound=$(field "$1" "$phase" bound)
		((mads > 0)) || fail "$1: no LFT MAD counted after the $phase"
		printf '%s %s: %d LFT MADs, bound %d\n' "$1" "$phase" "$mads" \
			"$bound"
		[[ $1 == line ]] || ((mads <= bound)) ||
			bad+=("$1 $phase: $mads LFT MADs > bound $bound")
	done
}

# no LID moved or given anew once the fabric was up (OpenSM's log)
stable() {
	local lines
	lines=$(grep -o 'port-major LIDs: .* moved;' "$TEST_TMP/$1/opensm.log" |
		tail -n +2) || true
	[[ -n $lines ]] || fail "$1: no port-major LIDs line after bring-up"
	while read -r l; do echo "$1: $l"; done <<<"$lines"
	! grep -v ' 0 placed, 0 overflow, 0 failed, 0 moved;' <<<"$lines" ||
		fail "$1: a LID moved or was given anew"
}

run director --fail-prefix dir1-
stable director
# A line switch: the mad_bound counts only the leaves cabled to it, but
# the other leaves must move what they sent to those leaves through its
# director, and its director's other switches all they sent down through
# it (every chunk).  Asserted: on the leaves cabled to it, no more LFT
# MADs than 2 blocks each (the chunk each sent through the director;
# the leaves' chunks differ, so the director's own switch LIDs, which
# they then reach another way, are in another block);
# inside the failed line's director at most one block per chunk (3);
# elsewhere at most 3 (a leaf of the director's other line switch that
# then carries the line's traffic down and up again may move a second
# chunk, so that the turn is allowed, and the director's block).
run line --fail dir2-line0
stable line
peers=$(awk -F'"' '/^Switch/ { cur = $2; next }
	/^\[/ && $2 == "dir2-line0" && cur ~ /^ft-leaf/ { print cur }
	/^\[/ && cur == "dir2-line0" && $2 ~ /^ft-leaf/ { print $2 }' "$net" |
	sort -u)
for phase in failure restore; do
	mads=$(awk -F, -v peers="$peers" '
		BEGIN { n = split(peers, p, "\n"); for (i = 1; i <= n; i++) is[p[i]] = 1 }
		$1 in is { s += $3 } END { print s + 0 }' \
		"$TEST_TMP/line/$phase.csv")
	bound=$((2 * $(grep -c . <<<"$peers")))
	printf 'line %s: %d LFT MADs on the leaves cabled to it, bound %d\n' \
		"$phase" "$mads" "$bound"
	((mads <= bound)) ||
		bad+=("line $phase: $mads LFT MADs on its leaves > $bound")
	worst=$(awk -F, 'NR > 1 && $1 !~ /^dir2-/ && $3 > m { m = $3 }
		END { print m + 0 }' "$TEST_TMP/line/$phase.csv")
	((worst <= 3)) || bad+=("line $phase: $worst LFT MADs on a switch")
	worst=$(awk -F, 'NR > 1 && $1 ~ /^dir2-/ && $3 > m { m = $3 }
		END { print m + 0 }' "$TEST_TMP/line/$phase.csv")
	((worst <= 3)) ||
		bad+=("line $phase: $worst LFT MADs on a dir2- switch")
done

net=$TEST_TMP/ft3-3x5x1x5x6.net
"$TOPOGEN" fattree3 3 5 1 5 6 >"$net"
run ranks --fail-prefix dir1-
stable ranks
((${#bad[@]} == 0)) || fail "${bad[*]}"
echo "$test_name: PASS"
