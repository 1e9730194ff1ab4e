#!/bin/bash
# SPDX-License-Identifier: MIT
# lftcheck on hand-written inputs with known defects (no simulator), and
# the error messages of the tools that share its topology reader.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$LFTCHECK"
make_tmpdir

# run_check NAME TOPO LFT: output in $TEST_TMP/NAME.out, status in $status
run_check() {
	status=0
	"$LFTCHECK" "$DATA/$2" "$DATA/$3" >"$TEST_TMP/$1.out" 2>&1 || status=$?
}

run_check good line3.topo line3-good.lft
expect_status 0 "$status" "correct tables"
expect_line "$TEST_TMP/good.out" \
	'^hosts=3 switches=3 host_pairs=6 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/good.out" '^max_sw_hops=2 mean_sw_hops=1\.333$'
expect_line "$TEST_TMP/good.out" '^cdg_channels=4 cdg_edges=2 cdg=acyclic$'

run_check drop line3.topo line3-drop.lft
expect_status 1 "$status" "dropped route"
expect_line "$TEST_TMP/drop.out" ' unreachable_host_pairs=2 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/drop.out" '^unreachable: .* to "h3" lid 3: no LFT entry at s2$'
expect_line "$TEST_TMP/drop.out" 'cdg=acyclic$'

run_check loop line3.topo line3-loop.lft
expect_status 1 "$status" "forwarding loop"
expect_line "$TEST_TMP/loop.out" ' unreachable_host_pairs=2 '
expect_line "$TEST_TMP/loop.out" 'forwarding loop at s2$'
expect_line "$TEST_TMP/loop.out" 'cdg=CYCLE len=2: s2\[3\]->s3\[2\]->s2\[3\]$'

run_check noswlid line3.topo line3-noswlid.lft
expect_status 1 "$status" "dropped route to a switch"
expect_line "$TEST_TMP/noswlid.out" ' unreachable_host_pairs=0 unreachable_host_to_switch=2$'

run_check bad line3.topo line3-bad.lft
expect_status 2 "$status" "malformed LFT line"
expect_line "$TEST_TMP/bad.out" '^lftcheck: .*line3-bad\.lft:7: '

run_check missing line3.topo line3-missing.lft
expect_status 2 "$status" "switch without LFT"
expect_line "$TEST_TMP/missing.out" 'no LFT for switch "s3"'

run_check badlink line3-badlink.topo line3-good.lft
expect_status 2 "$status" "inconsistent link"
expect_line "$TEST_TMP/badlink.out" '^lftcheck: .*line3-badlink\.topo:10: '

status=0
"$LFTCHECK" >/dev/null 2>&1 || status=$?
expect_status 2 "$status" "no arguments"

# The other tools that read a topology name themselves in its errors
# (they share lftcheck's readers).  They stop before any MAD is sent.
for tool in lftread mftread madtally; do
	need_built "$top_builddir/scripts/$tool"
	args=("$DATA/line3-badlink.topo")
	[[ $tool == madtally ]] && args=(-l 0x1 "${args[@]}" /dev/null)
	status=0
	"$top_builddir/scripts/$tool" "${args[@]}" >"$TEST_TMP/$tool.out" 2>&1 ||
		status=$?
	expect_status 2 "$status" "$tool on an inconsistent link"
	expect_line "$TEST_TMP/$tool.out" "^$tool: .*line3-badlink\.topo:10: "
done
echo "$test_name: PASS"
