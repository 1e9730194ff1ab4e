#!/bin/bash
# SPDX-License-Identifier: MIT
# mad_count.sh on a small 3-level fat tree of directors (topogen
# fattree3: 3 directors of 2 line + 1 fabric switches, 4 leaves of 3
# hosts): a whole director fails (--fail-prefix dir1-) and comes back,
# routed by minhop.  Both counters, libmadcount.so in opensm and ibsim's
# -v log, must see the same LFT MADs switch by switch, in every phase.
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

for counter in preload ibsim; do
	status=0
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--net "$net" --engine minhop --fail-prefix dir1- \
		--counter "$counter" --timeout 30 --out "$TEST_TMP/$counter" \
		>"$TEST_TMP/$counter.txt" 2>&1 || status=$?
	sed "s/^/$counter: /" "$TEST_TMP/$counter.txt"
	expect_status 0 "$status" "mad_count.sh --counter $counter"
	expect_line "$TEST_TMP/$counter.txt" \
		'failed: dir1-\* \(3 switches\)$'
	expect_line "$TEST_TMP/$counter.txt" \
		'^failure +[1-9][0-9]* +[0-9]+ +4 +[0-9.]+ OK +[01]\.[0-9]{4} '
	expect_line "$TEST_TMP/$counter.txt" '^restore +[1-9][0-9]* .* OK '
	# the failed director is gone from the failure phase's topology
	if grep -q '^failure,dir1-' "$TEST_TMP/$counter/mad_counts.csv"; then
		fail "$counter: dir1- switches listed after the failure"
	fi
done
for phase in bringup failure restore; do
	cmp -s <(sort "$TEST_TMP/preload/$phase.csv") \
		<(sort "$TEST_TMP/ibsim/$phase.csv") ||
		fail "$phase: the counters disagree: $(diff \
			"$TEST_TMP/preload/$phase.csv" "$TEST_TMP/ibsim/$phase.csv")"
done
command -v python3 >/dev/null 2>&1 &&
	{ python3 -m json.tool "$TEST_TMP/preload/mad_counts.json" >/dev/null ||
		fail "mad_counts.json is not JSON"; }
echo "$test_name: PASS"
