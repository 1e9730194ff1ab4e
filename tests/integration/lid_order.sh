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
need_fabric
need_turnadd
need_built "$TOPOGEN"
make_tmpdir
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
need_built "$TURNADD_LIDS"
unset TURNADD_CONFIG

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
	lid_discover "$base.disc1"
	lid_extract "$base.disc1" >"$base.ext1"
	lid_check_layout "$base.ext1" "$name"
	run1=$(lid_pairs "$base.ext1" | tee "$base.lids1" | wc -l)

	# 2. restart on the same cache dir (guid2lid): every LID kept
	lid_stop_opensm 1
	up
	lid_log
	expect_line "$FAB_DIR/opensm.log" \
		"port-major LIDs: $run1 ports .* $run1 kept, 0 placed, 0 overflow, 0 failed, 0 moved;.* 0 guid2lid entries set"
	lid_discover "$base.disc2"
	lid_extract "$base.disc2" >"$base.ext2"
	lid_pairs "$base.ext2" >"$base.lids2"
	cmp -s "$base.lids1" "$base.lids2" ||
		fail "$name: LIDs changed across the restart: $(diff \
			"$base.lids1" "$base.lids2" | head -n 6)"
	echo "$name: restart kept all $run1 LIDs"
	fab_cleanup

	# 3. turnadd-lids' file, stock OpenSM without the plugin
	"$TURNADD_LIDS" --ibsim-guids -o "$base.g2l" "$net" 2>"$base.tool" ||
		fail "$name: turnadd-lids failed: $(cat "$base.tool")"
	sed 's/^/  /' "$base.tool"
	lid_g2l_pairs "$base.g2l" >"$base.tool.lids"
	cmp -s "$base.lids1" "$base.tool.lids" ||
		fail "$name: turnadd-lids differs from the plugin: $(diff \
			"$base.lids1" "$base.tool.lids" | head -n 6)"
	lid_start_fabric "$net"
	mkdir -p "$FAB_DIR/cache"
	cp "$base.g2l" "$FAB_DIR/cache/guid2lid"
	up minhop ""
	grep -qF "event_plugin_name" "$FAB_DIR/opensm.conf" &&
		fail "$name: the plugin was loaded in the stock run"
	lid_discover "$base.disc3"
	lid_extract "$base.disc3" >"$base.ext3"
	run2=$(lid_pairs "$base.ext3" | tee "$base.lids3" | wc -l)
	cmp -s "$base.lids1" "$base.lids3" ||
		fail "$name: stock OpenSM with the tool's guid2lid gave other LIDs: $(diff \
			"$base.lids1" "$base.lids3" | head -n 6)"
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
lid_discover "$TEST_TMP/stock.disc"
lid_extract "$TEST_TMP/stock.disc" >"$TEST_TMP/stock.ext"
lid_pairs "$TEST_TMP/stock.ext" >"$TEST_TMP/stock.lids"
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
lid_discover "$TEST_TMP/osm.disc"
lid_extract "$TEST_TMP/osm.disc" >"$TEST_TMP/osm.ext"
lid_pairs "$TEST_TMP/osm.ext" >"$TEST_TMP/osm.lids"
cmp -s "$TEST_TMP/stock.lids" "$TEST_TMP/osm.lids" ||
	fail "lid_order opensm: LIDs differ from stock OpenSM's: $(diff \
		"$TEST_TMP/stock.lids" "$TEST_TMP/osm.lids" | head -n 6)"
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
lid_discover "$TEST_TMP/bad.disc"
lid_extract "$TEST_TMP/bad.disc" >"$TEST_TMP/bad.ext"
lid_pairs "$TEST_TMP/bad.ext" >"$TEST_TMP/bad.lids"
cmp -s "$TEST_TMP/stock.lids" "$TEST_TMP/bad.lids" ||
	fail "bad options: LIDs differ from stock OpenSM's"
echo "bad options file: OpenSM's own LIDs"
fab_cleanup

echo "$test_name: PASS"
