#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSM's min-hop tables (LID matrices), which its multicast manager and
# SA read, are the same whether turnadd fills them (hop_tables turnadd,
# the default) or OpenSM's own osm_ucast_mgr_build_lid_matrices() builds
# them (hop_tables opensm): OpenSM dumps both as opensm-lid-matrix.dump,
# compared byte for byte, at bring-up and after a resweep.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir

# run NAME HOP_TABLES NET [route_check options]
run() {
	local name=$1 how=$2 net=$3 status=0
	shift 3
	mkdir -p "$TEST_TMP/$name-dump"
	printf 'hop_tables %s\n' "$how" >"$TEST_TMP/$name.conf"
	TURNADD_CONFIG=$TEST_TMP/$name.conf "$ROUTE_CHECK" --engine turnadd \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" \
		--conf-extra 'log_flags 0x43' \
		--conf-extra "dump_files_dir $TEST_TMP/$name-dump/" \
		--out "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.txt" 2>&1 ||
		status=$?
	expect_status 0 "$status" "$name"
}

# same NAME NET [route_check options]
same() {
	local name=$1 net=$2 a b
	shift 2
	run "$name-ours" turnadd "$net" "$@"
	run "$name-osm" opensm "$net" "$@"
	a=$TEST_TMP/$name-ours-dump/opensm-lid-matrix.dump
	b=$TEST_TMP/$name-osm-dump/opensm-lid-matrix.dump
	[[ -s $a && -s $b ]] || fail "$name: no lid matrix dump"
	expect_line "$TEST_TMP/$name-ours/opensm.log" \
		'turnadd: min-hop tables filled in'
	! grep -q 'min-hop tables filled' "$TEST_TMP/$name-osm/opensm.log" ||
		fail "$name: hop_tables opensm still filled the tables"
	cmp -s "$a" "$b" || {
		diff "$a" "$b" | head -n 20 >&2
		fail "$name: min-hop tables differ from OpenSM's"
	}
	echo "$name: $(grep -c '^0x' "$a") switch LID rows identical"
}

same random20 "$NETS/random20.net"
same ring8 "$NETS/ring8.net"
same ft2-spine-cut "$NETS/ft2-6x3.net" --unlink ft-spine1
echo "$test_name: PASS"
