#!/bin/bash
# SPDX-License-Identifier: MIT
# mad_count.sh on a small 3-level fat tree of directors (topogen
# fattree3: 3 directors of 2 line + 1 fabric switches, 4 leaves of 3
# hosts): a whole director fails (--fail-prefix dir1-) and comes back,
# routed by minhop.  Both counters, libmadcount.so in opensm and ibsim's
# -v log, run at once, must see the same LFT MADs switch by switch, in
# every phase.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_built "$TOPOGEN" "$top_builddir/scripts/madtally" \
	"$top_builddir/scripts/lftread"
[[ -r $top_builddir/scripts/.libs/libmadcount.so ]] ||
	fail "$top_builddir/scripts/.libs/libmadcount.so not built"
make_tmpdir

net=$TEST_TMP/ft3.net
"$TOPOGEN" fattree3 3 2 1 2 3 >"$net"
[[ $(grep -c '^Switch' "$net") == 13 && $(grep -c '^Hca' "$net") == 12 ]] ||
	fail "fattree3 3 2 1 2 3: expected 13 switches, 12 hosts"

# both counters in the same run: two runs may differ in OpenSM's timing
# (an extra sweep under load), one run cannot
status=0
"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
	--net "$net" --engine minhop --fail-prefix dir1- \
	--counter both --timeout 30 --out "$TEST_TMP/both" \
	>"$TEST_TMP/both.txt" 2>&1 || status=$?
sed 's/^/both: /' "$TEST_TMP/both.txt"
expect_status 0 "$status" "mad_count.sh --counter both"
expect_line "$TEST_TMP/both.txt" 'failed: dir1-\* \(3 switches\)$'
expect_line "$TEST_TMP/both.txt" \
	'^failure +[1-9][0-9]* +[0-9]+ +4 +[0-9.]+ OK +[01]\.[0-9]{4} '
expect_line "$TEST_TMP/both.txt" '^restore +[1-9][0-9]* .* OK '
# the failed director is gone from the failure phase's topology
if grep -q '^failure,dir1-' "$TEST_TMP/both/mad_counts.csv"; then
	fail "dir1- switches listed after the failure"
fi
for phase in bringup failure restore; do
	pre=$TEST_TMP/both/$phase.csv sim=$TEST_TMP/both/$phase-ibsim.csv
	[[ -s $sim ]] || fail "$phase: no ibsim tally ($sim)"
	# LFT MADs in every phase, and the same per switch from both counters
	[[ $(awk -F, 'NR > 1 && $3 > 0' "$pre" | wc -l) -gt 0 ]] ||
		fail "$phase: no LFT MAD counted"
	cmp -s <(sort "$pre") <(sort "$sim") ||
		fail "$phase: the counters disagree: $(diff "$pre" "$sim")"
done
command -v python3 >/dev/null 2>&1 &&
	{ python3 -m json.tool "$TEST_TMP/both/mad_counts.json" >/dev/null ||
		fail "mad_counts.json is not JSON"; }
echo "$test_name: PASS"
