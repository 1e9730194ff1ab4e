#!/bin/bash
# SPDX-License-Identifier: MIT
# bench_quality.sh on its smallest slice: one random net of 10 switches
# (100 hosts), turnadd and updn with the best of 3 roots.  The CSV must
# have one row per engine with the figures of the tables it kept (--keep):
# turnadd routed by turnadd, every pair reachable, acyclic CDG, and the
# throughput lftcheck -t computes again here from the kept topology and
# LFTs (so a figure the script made up or took from the wrong run fails);
# updn-best must have tried 3 roots and kept the best of roots.csv, and
# --report must give the same tables again from the CSV alone.  Then the
# smallest dragonfly with turnadd-vls4 (vls 4, qos TRUE): routed by
# turnadd, every SL's CDG acyclic (lftcheck --sl), more than one SL
# used, and the dragonfly table in tables.md.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$top_builddir/scripts/lftread" "$TOPOGEN"
make_tmpdir
out=$TEST_TMP/q

bash "$top_srcdir/scripts/bench_quality.sh" --build "$top_builddir" \
	--sizes 10 --seeds 1 --ks none --engines turnadd,updn-best \
	--updn-roots 3 --keep --out "$out" >"$TEST_TMP/log" 2>&1 || {
	status=$?
	cat "$TEST_TMP/log" >&2
	fail "bench_quality.sh exited $status"
}
cat "$TEST_TMP/log"
csv=$out/quality.csv
[[ $(wc -l <"$csv") == 3 ]] || { cat "$csv" >&2; fail "expected 2 rows"; }

# field ENGINE COLUMN: the value of COLUMN in ENGINE's row
field() {
	awk -F, -v e="$1" -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["engine"] == e { print $c[col] }' "$csv"
}
for e in turnadd updn-best; do
	[[ $(field "$e" fabric) == random-10-s1 ]] || fail "$e: no row"
	[[ $(field "$e" status) == ok ]] || fail "$e: status $(field "$e" status)"
	[[ $(field "$e" hosts) == 100 && $(field "$e" switches) == 10 ]] ||
		fail "$e: not 100 hosts on 10 switches"
	[[ $(field "$e" unreachable_host_pairs) == 0 ]] ||
		fail "$e: unreachable pairs"
	run=$out/runs/random-10-s1-$e
	[[ -s $run/topology.txt && -s $run/lfts.txt ]] ||
		fail "$e: no kept tables in $run"
	"$LFTCHECK" -t "$run/topology.txt" "$run/lfts.txt" >"$TEST_TMP/$e.tp" ||
		fail "$e: lftcheck on the kept tables: exit $?"
	tp=$(sed -n 's/^throughput=\([0-9.]*\) .*/\1/p' "$TEST_TMP/$e.tp")
	[[ -n $tp ]] || fail "$e: lftcheck printed no throughput"
	[[ $(field "$e" throughput) == "$tp" ]] ||
		fail "$e: CSV throughput $(field "$e" throughput), lftcheck on its tables $tp"
	# 100 hosts on 10 switches of 10 links: some link carries more than
	# its host link, so 1.0 is impossible
	awk -v t="$tp" 'BEGIN { exit !(t > 0 && t < 1) }' ||
		fail "$e: throughput $tp not in (0,1)"
	# lftcheck --perm's figure reaches the CSV
	awk -v t="$(field "$e" perm)" -v w="$(field "$e" perm_worst)" \
		'BEGIN { exit !(t > 0 && t <= 1 && w > 0 && w <= t) }' ||
		fail "$e: perm $(field "$e" perm) worst $(field "$e" perm_worst)"
done
expect_line "$out/tables.md" '^## Random networks: mean permutation bandwidth over the seeds$'

[[ $(field turnadd routed_by) == turnadd ]] || fail "turnadd did not route"
[[ $(field turnadd cdg) == acyclic ]] || fail "turnadd: CDG has a cycle"
[[ $(field updn-best routed_by) == updn ]] || fail "updn-best: not updn"
[[ $(field updn-best roots_tried) == 3 ]] || fail "updn-best: not 3 roots"
# the kept root is the one with the highest throughput in roots.csv
best=$(awk -F, 'NR > 1 && $3 == "ok" && $4 > m { m = $4; r = $2 }
	END { print r }' "$out/roots.csv")
[[ $(grep -c '^random-10-s1,' "$out/roots.csv") == 3 ]] ||
	fail "roots.csv: not 3 roots"
[[ $(field updn-best root) == "$best" ]] ||
	fail "updn-best kept $(field updn-best root), roots.csv's best is $best"
expect_line "$out/tables.md" '^\| 10 \| 0\.[0-9]{3} \| 0\.[0-9]{3} \|$'
expect_line "$out/tables.md" '^\| turnadd: 0 unreachable pairs and acyclic CDG on every fabric \| 1 of 1 fabrics \| met \|$'
cp "$out/tables.md" "$TEST_TMP/tables.md"
bash "$top_srcdir/scripts/bench_quality.sh" --report "$out" >/dev/null
cmp "$out/tables.md" "$TEST_TMP/tables.md" || fail "--report differs"
if command -v gnuplot >/dev/null 2>&1; then
	[[ -s $out/fig21.png ]] || fail "no fig21.png"
fi

out=$TEST_TMP/df
bash "$top_srcdir/scripts/bench_quality.sh" --build "$top_builddir" \
	--sizes none --ks none --dragonflies "4 2 2" --engines turnadd-vls4 \
	--out "$out" >"$TEST_TMP/log" 2>&1 || {
	status=$?
	cat "$TEST_TMP/log" >&2
	fail "bench_quality.sh --dragonflies exited $status"
}
cat "$TEST_TMP/log"
csv=$out/quality.csv
e=turnadd-vls4
[[ $(field "$e" fabric) == dragonfly-4-2-2 ]] || fail "$e: no row"
[[ $(field "$e" family) == dragonfly ]] || fail "$e: family $(field "$e" family)"
[[ $(field "$e" status) == ok && $(field "$e" routed_by) == turnadd ]] ||
	fail "$e: status $(field "$e" status), routed by $(field "$e" routed_by)"
[[ $(field "$e" unreachable_host_pairs) == 0 ]] || fail "$e: unreachable pairs"
[[ $(field "$e" cdg) == acyclic ]] || fail "$e: an SL's CDG has a cycle"
grep -q '^sl=1 .*cdg=acyclic' "$out/runs/dragonfly-4-2-2-$e/result" ||
	fail "$e: lftcheck checked no CDG of SL 1"
(($(field "$e" vls) > 1)) || fail "$e: $(field "$e" vls) SL used"
expect_line "$out/tables.md" '^\| dragonfly-4-2-2 \| 36 \| 72 \| turnadd-vls4 \| 0\.[0-9]+ \| 0\.[0-9]+ \| acyclic \| [2-4] \|$'
echo "$test_name: PASS"
