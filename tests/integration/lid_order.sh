#!/bin/bash
# SPDX-License-Identifier: MIT
# Port-major LIDs with real OpenSM on ibsim (lid_assign/README):
#  1. with the plugin, the LIDs read back from the simulator are the
#     port-major layout (checked against this test's own statement of
#     the rule), on two leaf/spine fabrics;
#  2. OpenSM restarted on the same cache dir keeps every LID;
#  3. turnadd-lids' guid2lid file makes stock OpenSM (no plugin) give
#     the same LIDs;
#  4. with "lid_order opensm" OpenSM's own LIDs are used (those of stock
#     OpenSM, not port-major), and a bad options file leaves LIDs to
#     OpenSM too.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
lid_test_begin
need_built "$TURNADD_LIDS"

# the plugin's summary lines of the current log
lid_log() {
	grep -F "port-major LIDs" "$FAB_DIR/opensm.log" |
		sed 's/^.*turnadd: /  /' || true
}

# brings OpenSM up with the plugin; ENGINE defaults to turnadd,minhop
up() {
	fab_start_opensm "${1:-turnadd,minhop}" "${2-$TURNADD_PLUGIN_DIR}"
	fab_wait_subnet_up 20
}

check_fabric() {
	local name=$1 net=$TEST_TMP/$1.net run1 run2 base
	shift
	"$TOPOGEN" fattree2 "$@" >"$net"
	base=$TEST_TMP/$name

	# 1. bring-up with the plugin: port-major
	lid_start_fabric "$net"
	up
	fab_engine_used turnadd || fail "$name: turnadd did not route"
	lid_log
	lid_snapshot "$base.1"
	lid_check_layout "$base.1.ext" "$name"
	run1=$(wc -l <"$base.1.lids")

	# 2. restart on the same cache dir (guid2lid): every LID kept
	lid_stop_opensm 1
	up
	lid_log
	expect_line "$FAB_DIR/opensm.log" \
		"port-major LIDs: $run1 ports .* $run1 kept, 0 placed, 0 overflow, 0 failed, 0 moved;.* 0 guid2lid entries set"
	lid_snapshot "$base.2"
	lid_equal "$base.1" "$base.2" "$name: across the restart"
	echo "$name: restart kept all $run1 LIDs"
	fab_cleanup

	# 3. turnadd-lids' file, stock OpenSM without the plugin
	"$TURNADD_LIDS" --ibsim-guids -o "$base.g2l" "$net" 2>"$base.tool" ||
		fail "$name: turnadd-lids failed: $(cat "$base.tool")"
	sed 's/^/  /' "$base.tool"
	lid_g2l_pairs "$base.g2l" >"$base.tool.lids"
	lid_equal "$base.1" "$base.tool" "$name: turnadd-lids against the plugin"
	lid_start_fabric "$net"
	mkdir -p "$FAB_DIR/cache"
	cp "$base.g2l" "$FAB_DIR/cache/guid2lid"
	up minhop ""
	grep -qF "event_plugin_name" "$FAB_DIR/opensm.conf" &&
		fail "$name: the plugin was loaded in the stock run"
	lid_snapshot "$base.3"
	run2=$(wc -l <"$base.3.lids")
	lid_equal "$base.1" "$base.3" \
		"$name: stock OpenSM with the tool's guid2lid against the plugin"
	echo "$name: stock OpenSM with turnadd-lids' guid2lid: the same $run2 LIDs"
	fab_cleanup
}

check_fabric ft2-6x3x3 6 3 3
check_fabric ft2-12x6x6 12 6 6

# 4. lid_order opensm: OpenSM's own LIDs.  Stock OpenSM first, for
# reference (OpenSM numbers the ports in discovery order).
net=$TEST_TMP/ft2-6x3x3.net
lid_start_fabric "$net"
up minhop ""
lid_snapshot "$TEST_TMP/stock"
fab_cleanup

printf 'lid_order opensm\n' >"$TEST_TMP/opensm-order.conf"
export TURNADD_CONFIG=$TEST_TMP/opensm-order.conf
lid_start_fabric "$net"
up
fab_engine_used turnadd || fail "lid_order opensm: turnadd did not route"
lid_log
expect_line "$FAB_DIR/opensm.log" \
	'port-major LIDs: skipped: lid_order opensm: OpenSM assigns LIDs'
grep -qF "port-major LIDs: 27 ports" "$FAB_DIR/opensm.log" &&
	fail "lid_order opensm: the plugin set LIDs"
lid_snapshot "$TEST_TMP/osm"
lid_equal "$TEST_TMP/stock" "$TEST_TMP/osm" \
	"lid_order opensm: against stock OpenSM's"
bad=$(lid_layout_diffs "$TEST_TMP/osm.ext" 2>/dev/null)
((bad > 0)) || fail "lid_order opensm: the LIDs are port-major"
echo "lid_order opensm: OpenSM's own LIDs ($bad of 27 ports away from the port-major layout)"
# one more heavy sweep (a host unplugged): the skip is logged once
n=$(fab_count_up)
fab_unlink 'ft-leaf5[3]'
fab_wait_resweep "$n" 10
[[ $(grep -cF "port-major LIDs: skipped" "$FAB_DIR/opensm.log") == 1 ]] ||
	fail "lid_order opensm: the skip was logged more than once"
fab_cleanup

# a bad options file: logged, LIDs left to OpenSM (routing falls back)
printf 'lid_order sideways\n' >"$TEST_TMP/bad.conf"
export TURNADD_CONFIG=$TEST_TMP/bad.conf
lid_start_fabric "$net"
up
lid_log
expect_line "$FAB_DIR/opensm.log" \
	'bad\.conf:1: .*lid_order must be port_major or opensm'
expect_line "$FAB_DIR/opensm.log" \
	'port-major LIDs: skipped: the options file is bad'
lid_snapshot "$TEST_TMP/bad"
lid_equal "$TEST_TMP/stock" "$TEST_TMP/bad" \
	"bad options: against stock OpenSM's"
echo "bad options file: OpenSM's own LIDs"
fab_cleanup

echo "$test_name: PASS"
