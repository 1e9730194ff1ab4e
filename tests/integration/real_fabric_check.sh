#!/bin/bash
# SPDX-License-Identifier: MIT
# Checking a real fabric from what administrators already have: on an
# ibsim ring routed by turnadd and by minhop, lftcheck fed with
# ibnetdiscover (default format and -p) and dump_lfts / ibroute output,
# all run under umad2sim, prints exactly what it prints from
# ibnetdiscover + lftread (the reader by directed-route SMPs); hosts and
# switches equal the netfile's counts; the verdict is OK for turnadd and
# FAIL (a channel dependency cycle) for minhop on the ring.  Then a dump
# that leaves out the LinearFDBTop entry (as infiniband-diags 44 does at
# a block start) gets a warning naming the file, line and LID.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
LFTREAD=${LFTREAD:-$top_builddir/scripts/lftread}
need_built "$LFTREAD"
for t in dump_lfts ibroute; do
	command -v "$t" >/dev/null 2>&1 || skip "$t not installed (infiniband-diags)"
done
make_tmpdir
net=$NETS/ring8.net

# what the netfile says: switches, and CA ports cabled (hosts)
want_sw=$(grep -c '^Switch' "$net")
want_hosts=$(awk '/^(Hca|Ca)[ \t]/ { ca = 1; next }
	/^(Switch|Rt)[ \t]/ { ca = 0; next }
	ca && /^\[[0-9]+\]/ { n++ } END { print n + 0 }' "$net")

# shellcheck source-path=SCRIPTDIR source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"

run_engine() {
	local engine=$1 want=$2 d=$TEST_TMP/$1 l t ref rc
	mkdir -p "$d"
	fab_init
	fab_start_ibsim "$net"
	fab_start_opensm "$engine" "$TURNADD_PLUGIN_DIR"
	fab_wait_subnet_up 60
	fab_engine_used "$engine" || fail "$engine: OpenSM fell back"
	fab_sim_client 30 ibnetdiscover >"$d/ibnd.txt" 2>/dev/null
	fab_sim_client 30 ibnetdiscover -p >"$d/ibnd-p.txt" 2>/dev/null
	fab_sim_client 30 dump_lfts >"$d/dump_lfts.txt" 2>/dev/null
	fab_sim_client 30 "$LFTREAD" "$d/ibnd.txt" >"$d/lftread.txt" \
		2>/dev/null
	: >"$d/ibroute.txt"
	while read -r l; do
		fab_sim_client 30 ibroute "$l" >>"$d/ibroute.txt" \
			2>/dev/null </dev/null
	done < <(awk '/^Switch/ { for (i = 1; i < NF; i++)
			if ($i == "lid") print $(i + 1) }' "$d/ibnd.txt")
	fab_cleanup

	ref=$d/ref.out
	rc=0
	"$LFTCHECK" -t "$d/ibnd.txt" "$d/lftread.txt" >"$ref" 2>&1 || rc=$?
	sed "s/^/$engine lftread: /" "$ref"
	expect_status "$want" "$rc" "$engine: lftcheck on lftread"
	expect_line "$ref" "^hosts=$want_hosts switches=$want_sw "
	for pair in ibnd:dump_lfts ibnd-p:dump_lfts ibnd:ibroute \
		ibnd-p:lftread; do
		t=${pair%%:*}
		l=${pair#*:}
		rc=0
		"$LFTCHECK" -t "$d/$t.txt" "$d/$l.txt" >"$d/$pair.out" 2>&1 ||
			rc=$?
		expect_status "$want" "$rc" "$engine: lftcheck $t.txt $l.txt"
		diff -u "$ref" "$d/$pair.out" >&2 ||
			fail "$engine: $t + $l differ from ibnetdiscover + lftread"
	done
	echo "$engine: ibnetdiscover/-p + dump_lfts/ibroute/lftread agree"
}

run_engine turnadd 0
expect_line "$TEST_TMP/turnadd/ref.out" '^verdict=OK$'
run_engine minhop 1
expect_line "$TEST_TMP/minhop/ref.out" ' cdg=CYCLE len='

# dump_lfts of infiniband-diags 44 leaves out LID LinearFDBTop when it
# starts a block: make the first switch's dump look so (turnadd's
# port-major LIDs put a host at 0x40) and expect the warning.
d=$TEST_TMP/turnadd
awk 'BEGIN { sw = 0 }
	/^Unicast lids/ { sw++; if (sw == 1) sub(/-0x[0-9a-f]+\]/, "-0x40]") }
	sw == 1 && /^0x/ && $1 >= "0x0040" { next }
	{ print }' "$d/dump_lfts.txt" >"$d/cut.txt"
grep -q '^0x0040 ' "$d/lftread.txt" || fail "no LID 0x40 in the ring's tables"
rc=0
"$LFTCHECK" "$d/ibnd.txt" "$d/cut.txt" >"$d/cut.out" 2>"$d/cut.err" || rc=$?
cat "$d/cut.err"
expect_status 1 "$rc" "lftcheck on a dump without its top LID"
expect_line "$d/cut.err" "cut.txt:1: warning: no entry for LID 0x0040 .*LinearFDBTop"
echo "$test_name: PASS"
