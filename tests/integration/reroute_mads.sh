#!/bin/bash
# SPDX-License-Identifier: MIT
# Minimal-change rerouting, measured from outside the engine: a 2-level
# fat tree (12 leaves x 6 spines, 6 hosts a leaf) routed by turnadd; one
# spine unlinked, then relinked.  mad_count.sh counts the LFT SubnSet
# MADs OpenSM sends (libmadcount.so preloaded into opensm) and checks the
# tables read back from ibsim.  Asserted for turnadd after the failure
# and after the restore: every pair reachable, CDG acyclic, and no more
# LFT MADs than the port-major bound (sum over leaves of
# ceil(hosts / spines / 64); after the restore plus the returning spine's
# whole table).  minhop runs the same steps for comparison: only "some
# MADs, tables OK" is asserted; its counts are printed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
make_tmpdir

net=$TEST_TMP/ft2-12x6.net
"$TOPOGEN" fattree2 12 6 6 >"$net"

# count ENGINE: runs mad_count.sh, output in $TEST_TMP/ENGINE.txt
count() {
	local status=0
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" --engine "$1" \
		--fail ft-spine2 --rows 0 --timeout 30 --out "$TEST_TMP/$1" \
		>"$TEST_TMP/$1.txt" 2>&1 || status=$?
	sed "s/^/$1: /" "$TEST_TMP/$1.txt"
	expect_status 0 "$status" "mad_count.sh --engine $1"
}

# field ENGINE PHASE COLUMN: a value of the run's summary.csv
field() {
	mad_field "$TEST_TMP/$1" "$2" "$3"
}

bad=()
for engine in turnadd minhop; do
	count "$engine"
	for phase in failure restore; do
		[[ $(field "$engine" "$phase" verdict) == OK ]] ||
			fail "$engine: tables not OK after the $phase"
		[[ $(field "$engine" "$phase" configured_by) == "$engine" ]] ||
			fail "$engine: OpenSM fell back after the $phase"
		mads=$(field "$engine" "$phase" lft_mads)
		bound=$(field "$engine" "$phase" bound)
		((mads > 0)) || fail "$engine: no LFT MAD counted after the $phase"
		printf '%s: %s: %d LFT MADs, bound %d\n' "$engine" "$phase" \
			"$mads" "$bound"
		if [[ $engine == turnadd ]] && ((mads > bound)); then
			bad+=("$phase: $mads LFT MADs > bound $bound")
		fi
	done
done
((${#bad[@]} == 0)) || fail "turnadd: ${bad[*]}"
echo "$test_name: PASS"
