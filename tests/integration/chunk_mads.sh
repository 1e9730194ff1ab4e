#!/bin/bash
# SPDX-License-Identifier: MIT
# Oversubscribed leaves whose spine count does not divide the host ports
# (LMC 0): topogen fattree2 34 3 4, 34 leaves with 4 hosts over 3 spines.
# Two ranks' LIDs (68) exceed a 64-LID block, so the rank rule (rank r
# through spine r mod 3) needed 3 blocks a leaf per spine where the
# bound is 1; the chunk layout (lid_assign/README, "Oversubscribed
# leaves") reaches it.  Real OpenSM with turnadd on ibsim: mad_count.sh
# counts the LFT SubnSet MADs outside the engine and reads the tables
# back.  Asserted, after the failure of ft-spine1 and after its restore:
# every pair reachable, CDG acyclic, turnadd routed, and no more LFT MADs
# than the bound (scripts/mad_lib.sh, mad_bound).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
make_tmpdir

net=$TEST_TMP/ft2-34x3x4.net
"$TOPOGEN" fattree2 34 3 4 >"$net"

status=0
"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
	--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" --engine turnadd \
	--fail ft-spine1 --rows 0 --timeout 30 --out "$TEST_TMP/run" \
	>"$TEST_TMP/run.txt" 2>&1 || status=$?
sed 's/^/mad_count: /' "$TEST_TMP/run.txt"
expect_status 0 "$status" "mad_count.sh --engine turnadd"

# field PHASE COLUMN: a value of the run's summary.csv
field() {
	mad_field "$TEST_TMP/run" "$1" "$2"
}

bad=()
for phase in failure restore; do
	[[ $(field "$phase" verdict) == OK ]] ||
		fail "tables not OK after the $phase"
	[[ $(field "$phase" configured_by) == turnadd ]] ||
		fail "OpenSM fell back after the $phase"
	mads=$(field "$phase" lft_mads)
	bound=$(field "$phase" bound)
	((mads > 0)) || fail "no LFT MAD counted after the $phase"
	printf '%s: %d LFT MADs, bound %d\n' "$phase" "$mads" "$bound"
	((mads <= bound)) || bad+=("$phase: $mads LFT MADs > bound $bound")
done
((${#bad[@]} == 0)) || fail "${bad[*]}"
echo "$test_name: PASS"
