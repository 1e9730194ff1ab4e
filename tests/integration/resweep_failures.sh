#!/bin/bash
# SPDX-License-Identifier: MIT
# A routing that fails at a resweep (out of memory or an inconsistency
# building the graph, the routing memory, the core or the tables:
# driven here by the test knob TURNADD_TEST_FAIL) after turnadd has
# routed: one ERROR line, OpenSM does not fall back (turnadd configured
# the tables), every switch keeps the very table it held (compared
# entry by entry on the tables read back before and after), the CDG
# stays acyclic, and the next routing repairs what the kept tables left
# unreachable.  At the first routing of an OpenSM the same failure makes
# OpenSM fall back to minhop (turnadd(8), FALLBACK).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir
# shellcheck source-path=SCRIPTDIR source=resweep_lib.sh
. "$(dirname "$0")/resweep_lib.sh"
rw_need

# "SWITCHGUID LID PORT" of a read-back (lftread, dump_fts format)
entries() {
	awk '/^Unicast lids/ { for (i = 1; i <= NF; i++) if ($i == "guid") g = $(i + 1); next }
		/^0x[0-9a-f]+ [0-9]+/ { print g, $1, $2 }' "$1" | sort
}

# same_tables LABEL BEFORE AFTER: every entry of a switch present in
# both read-backs is the same (ports of LIDs that left are not compared)
same_tables() {
	local n
	n=$(join -j1 <(entries "$2" | awk '{ print $1 "/" $2, $3 }') \
		<(entries "$3" | awk '{ print $1 "/" $2, $3 }') |
		awk '$2 != $3' | wc -l)
	((n == 0)) || fail "$1: $n table entries changed though the routing failed"
	(($(entries "$3" | wc -l) > 0)) || fail "$1: nothing read back"
}

"$TOPOGEN" random 20 8 2 5 >"$TEST_TMP/rnd.net"
printf '' >"$TEST_TMP/empty.conf"
RW_ENV=("TURNADD_CONFIG=$TEST_TMP/empty.conf"
	"TURNADD_TEST_FAIL=graph:2,prior:4,core:6,tables:8")
rw_start "$TEST_TMP/rnd.net"
expect_line "$RW_LOG" 'turnadd tables configured on all switches'
declare -A why=([graph]='cannot build the fabric graph' [prior]='out of memory'
	[core]='the routing core failed' [tables]='cannot write the forwarding tables')
keep="every switch keeps the table of turnadd's last routing (deadlock-free; routes through what failed since stay broken until the next heavy sweep routes again); OpenSM does not fall back"
i=0
for point in graph prior core tables; do
	i=$((i + 1))
	cp -- "$FAB_DIR/lfts.txt" "$TEST_TMP/before.lfts"
	rw_step "$point-fails" "Unlink \"rnd-sw$((4 + i))\""
	# failed: the step's one routing kept every table
	[[ $(rw_errors) == *"turnadd: ${why[$point]}: $keep" ]] || {
		rw_errors | sed 's/^/  | /' >&2
		fail "$point: not the one ERROR line of a kept routing"
	}
	(($(rw_errors | wc -l) == 1)) || fail "$point: $(rw_errors | wc -l) ERROR lines"
	grep -q ' cdg=acyclic$' "$RW_CHECK" || fail "$point: CDG cycle"
	! grep -q 'minhop tables configured' "$RW_LOG" ||
		fail "$point: OpenSM fell back to minhop"
	expect_line "$RW_LOG" 'turnadd tables configured on all switches'
	same_tables "$point" "$TEST_TMP/before.lfts" "$FAB_DIR/lfts.txt"
	# the next routing repairs
	rw_step "$point-repaired" "ReLink \"rnd-sw$((4 + i))\""
	rw_expect_turnadd "$point-repaired"
	[[ -z $(rw_errors) ]] || fail "$point-repaired: $(rw_errors)"
done
rw_stop

# the first routing of an OpenSM: the failure lets OpenSM fall back
RW_ENV=("TURNADD_CONFIG=$TEST_TMP/empty.conf" "TURNADD_TEST_FAIL=core:1")
rw_start "$NETS/ft2-6x3.net"
expect_line "$RW_LOG" 'turnadd: the routing core failed: no turnadd routes this sweep, OpenSM falls back to the next engine of routing_engine \(minhop last\)'
expect_line "$RW_LOG" 'minhop tables configured on all switches'
rw_step first-then-turnadd 'Unlink "ft-spine1"'
rw_expect_turnadd first-then-turnadd
rw_stop
echo "$test_name: PASS"
