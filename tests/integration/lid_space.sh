#!/bin/bash
# SPDX-License-Identifier: MIT
# Port-major LIDs that do not fit the unicast LID space (plugin/lid_fit.h),
# with real OpenSM on ibsim.  ibsim's -L sets the switches' LinearFDBCap,
# and OpenSM's LID space ends at the lowest one.  topogen fattree2 12 6 6
# has 72 hosts and 18 switches (90 LIDs) in 6 groups, 6 blocks padded
# (LIDs 1-384):
#  1. -L 4096: the layout fits, every LID is port-major (none above 384);
#  2. -L 200: 90 LIDs fit but the padded groups do not: the plugin says
#     so in one line, sets no LID, and OpenSM numbers every port itself
#     (all LIDs read back are distinct, within 1-200, and every host
#     pair is reachable in the tables read back).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN"
need_built "$LFTCHECK"
need_built "$top_builddir/scripts/lftread"
make_tmpdir
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
unset TURNADD_CONFIG

net=$TEST_TMP/ft2-12x6.net
"$TOPOGEN" fattree2 12 6 6 >"$net"
nports=90

run() {
	local cap=$1 base=$TEST_TMP/cap$1
	FAB_IBSIM_OPTS="-L $cap" lid_start_fabric "$net"
	fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR"
	fab_wait_subnet_up 30
	fab_engine_used turnadd || fail "-L $cap: turnadd did not route"
	grep -F "port-major LIDs" "$FAB_DIR/opensm.log" |
		sed 's/^.*turnadd: /  /' || true
	lid_discover "$base.disc"
	lid_extract "$base.disc" >"$base.ext"
	lid_pairs "$base.ext" >"$base.lids"
	[[ $(wc -l <"$base.lids") == "$nports" ]] ||
		fail "-L $cap: $(wc -l <"$base.lids") ports read back, not $nports"
	[[ $(awk '{ print $2 }' "$base.lids" | sort -u | wc -l) == "$nports" ]] ||
		fail "-L $cap: two ports share a LID"
}

run 4096
expect_line "$FAB_DIR/opensm.log" \
	"port-major LIDs: $nports ports .* in 6 groups, LIDs 1-383,"
grep -qF "do not fit the unicast LID space" "$FAB_DIR/opensm.log" &&
	fail "-L 4096: the plugin said the layout does not fit"
awk '$2 > 383 { bad = 1 } END { exit bad }' "$TEST_TMP/cap4096.lids" ||
	fail "-L 4096: a LID above the port-major layout"
echo "-L 4096: port-major, LIDs within 1-383"
fab_cleanup

run 200
expect_line "$FAB_DIR/opensm.log" \
	"port-major LIDs do not fit the unicast LID space: $nports ports need $nports LIDs, at least 384 in 6 groups padded to whole 64-LID blocks, but LIDs end at 200 \\(the lowest LinearFDBCap of the switches\\); [0-9]+ ports would get none: OpenSM assigns the LIDs in its own order"
[[ $(grep -c "do not fit the unicast LID space" "$FAB_DIR/opensm.log") == 1 ]] ||
	fail "-L 200: not exactly one line about the LID space"
grep -qF "no LID left for port" "$FAB_DIR/opensm.log" &&
	fail "-L 200: per-port errors"
grep -qE "port-major LIDs: $nports ports" "$FAB_DIR/opensm.log" &&
	fail "-L 200: the plugin set LIDs"
awk '$2 > 200 { bad = 1 } END { exit bad }' "$TEST_TMP/cap200.lids" ||
	fail "-L 200: a LID above the LID space"
# every host pair reachable, acyclic, in the tables read back
fab_read_back "$top_builddir/scripts/lftread" 30
fab_run_lftcheck "$LFTCHECK" || fail "-L 200: lftcheck failed"
echo "-L 200: one line, OpenSM's LIDs within 1-200"
