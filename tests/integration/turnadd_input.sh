#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd's option and traffic files under real OpenSM: a bad line makes
# turnadd log "FILE:LINE: problem" and fail, and OpenSM falls back to the
# next engine (minhop); a good traffic file is used; LMC 2 is routed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir
net=$NETS/ft2-6x3.net

# run NAME CONFIG-TEXT [route_check options]: TURNADD_CONFIG=that file
run() {
	local name=$1 status=0
	printf '%s' "$2" >"$TEST_TMP/$name.conf"
	shift 2
	TURNADD_CONFIG=$TEST_TMP/$name.conf "$ROUTE_CHECK" \
		--engine turnadd,minhop --allow-fallback \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" \
		--out "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.txt" 2>&1 ||
		status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "$name"
}

# falls_back NAME MESSAGE WHY: turnadd's ERROR lines are exactly MESSAGE
# and the fallback line "WHY: no turnadd routes ...", each once per
# routing (the option file is read once per heavy sweep, so its error is
# not repeated by the LID hook); minhop configured the tables.
falls_back() {
	local log=$TEST_TMP/$1/opensm.log errors n_msg n_back
	local back="turnadd: $3: no turnadd routes this sweep, OpenSM falls back to the next engine of routing_engine (minhop last)"
	errors=$TEST_TMP/$1.errors
	sed -n 's/^.* 0x01 -> \(turnadd: .*\)$/\1/p' "$log" >"$errors"
	n_msg=$(grep -cxF -- "turnadd: $2" "$errors" || true)
	n_back=$(grep -cxF -- "$back" "$errors" || true)
	((n_msg >= 1)) || {
		sed 's/^/  | /' "$errors" >&2
		fail "$1: no ERROR line 'turnadd: $2'"
	}
	((n_msg == n_back)) || {
		sed 's/^/  | /' "$errors" >&2
		fail "$1: $n_msg error lines for $n_back routings (want one each)"
	}
	(($(wc -l <"$errors") == n_msg + n_back)) || {
		sed 's/^/  | /' "$errors" >&2
		fail "$1: other turnadd ERROR lines besides the error and the fallback"
	}
	expect_line "$log" 'minhop tables configured on all switches'
	! grep -q 'turnadd tables configured' "$log" ||
		fail "$1: turnadd configured the tables despite the bad input"
}

conf=$TEST_TMP/bad_option.conf
run bad_option $'seed 3\nsed 4\n'
falls_back bad_option "$conf:2: sed: unknown option (known: traffic_file, seed, escape_root, mode, lid_order, lid_layout, lft_update, hop_tables, lft_read_on_start, mcast_trees, tp_candidate, tp_orders, failure_routes, vls, experiment)" \
	"cannot load options from $conf"
expect_line "$TEST_TMP/bad_option/opensm.log" \
	'turnadd: port-major LIDs: skipped: the options file is bad'

printf 'group a prefix ft-leaf0\nweight a b 1\n' >"$TEST_TMP/bad.traffic"
run bad_traffic "traffic_file $TEST_TMP/bad.traffic"$'\n'
falls_back bad_traffic "$TEST_TMP/bad.traffic:2: weight names group 'b', which no group line defines" \
	"cannot load options from $TEST_TMP/bad_traffic.conf"

run missing_traffic "traffic_file $TEST_TMP/none.traffic"$'\n'
falls_back missing_traffic "$TEST_TMP/none.traffic: cannot open traffic file: No such file or directory" \
	"cannot load options from $TEST_TMP/missing_traffic.conf"

printf '%s\n' '# leaf 0 and 1 talk a lot' 'group busy prefix ft-leaf0' \
	'group busy prefix ft-leaf1' 'weight busy busy 10' 'default_weight 0.1' \
	>"$TEST_TMP/good.traffic"
run good_traffic "traffic_file $TEST_TMP/good.traffic"$'\n'
expect_line "$TEST_TMP/good_traffic/opensm.log" "turnadd: options from .*traffic $TEST_TMP/good.traffic"
expect_line "$TEST_TMP/good_traffic/opensm.log" 'turnadd tables configured on all switches'
expect_line "$TEST_TMP/good_traffic.txt" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/good_traffic.txt" ' cdg=acyclic$'

run lmc2 '' --conf-extra 'lmc 2'
expect_line "$TEST_TMP/lmc2/opensm.log" 'turnadd: fabric: .* up to 4 LIDs a port'
expect_line "$TEST_TMP/lmc2/opensm.log" 'turnadd tables configured on all switches'
expect_line "$TEST_TMP/lmc2.txt" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/lmc2.txt" ' cdg=acyclic$'
echo "$test_name: PASS"
