#!/bin/bash
# SPDX-License-Identifier: MIT
#
# analysis_random.sh: which of turn addition's decisions cost it the most
# throughput on the paper's random nets, against its own mode
# turn_prohibition (tp).  Each variant changes one decision; every run is
# a real OpenSM under ibsim (route_check.sh), its tables read back and
# judged by lftcheck -t --perm (uniform throughput and permutation
# bandwidth).  Not part of make check.  scripts/README.md, "What limits
# turnadd on random nets", has the results and what they mean.
#
#   analysis_random.sh --build BUILD [options]
#
# Options:
#   --build DIR      build tree (plugin, lftcheck, lftread, topogen)
#   --sizes LIST     switches N of "topogen random N 10 10 SEED" (50,100)
#   --seeds LIST     net seeds (1,2,3)
#   --variants LIST  from the list below (default: all)
#   --out DIR        results (default: a new dir in /tmp): runs.csv,
#                    summary.md
#
# Variants (turnadd's option file, or another OpenSM engine):
#   turnadd        defaults (the product: with tp_candidate, which may
#                  keep Turn-Prohibition's turns plus additions)
#   ta_only        tp_candidate no: turn addition's own turn set alone
#   tp             mode turn_prohibition: the paper's TP turn set, the
#                  same traffic estimate and route choice
#   tie1, tie2     seed 1 / seed 2: equal-weight ties between turn pairs
#                  broken by a shuffled switch order instead of switch
#                  index order (with tp_candidate no: compare with
#                  ta_only; the experiments below never try the candidate)
#   flat_weights   experiment flat_weights: every turn weighs the same
#                  (no traffic estimate: only the tie rules order them)
#   no_tree_first  experiment no_tree_first: the escape tree's turns are
#                  not allowed before the others (decided by weight like
#                  every turn; completeness not guaranteed)
#   all_turns      mode no_prohibition: turnadd's route choice with every
#                  turn allowed (NOT deadlock-free; the turn set's cost)
#   minhop         OpenSM's minhop: every turn, routes spread by counting
#                  routes per port (NOT deadlock-free; against all_turns:
#                  the cost of the index-based route choice)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"

all_variants=turnadd,ta_only,tp,tie1,tie2,flat_weights,no_tree_first,all_turns,minhop
build='' sizes=50,100 seeds=1,2,3 variants=$all_variants out=''
while (($#)); do
	case $1 in
	--build) build=${2:?}; shift ;;
	--sizes) sizes=${2:?}; shift ;;
	--seeds) seeds=${2:?}; shift ;;
	--variants) variants=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	*) fab_other_option analysis_random "$1" ;;
	esac
	shift
done
[[ -n $build ]] || fab_usage
build=$(cd "$build" && pwd)
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a seed_list <<<"$seeds"
IFS=, read -r -a variant_list <<<"$variants"
for v in "${variant_list[@]}"; do
	[[ ,$all_variants, == *,"$v",* ]] ||
		{ printf 'analysis_random: unknown variant %s\n' "$v" >&2; exit 2; }
done
lftcheck=$build/scripts/lftcheck
topogen=$build/ibsim_topos/topogen
for f in "$lftcheck" "$build/scripts/lftread" "$topogen" \
	"$build/plugin/.libs/libturnadd.so"; do
	[[ -e $f ]] || { printf 'analysis_random: no %s\n' "$f" >&2; exit 2; }
done
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/analysis_random.XXXXXX")}
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)

# conf_of VARIANT: turnadd option lines; engine_of VARIANT: OpenSM engine
conf_of() {
	case $1 in
	tp) echo 'mode turn_prohibition' ;;
	ta_only) echo 'tp_candidate no' ;;
	tie1) printf 'seed 1\ntp_candidate no\n' ;;
	tie2) printf 'seed 2\ntp_candidate no\n' ;;
	flat_weights) echo 'experiment flat_weights' ;;
	no_tree_first) echo 'experiment no_tree_first' ;;
	all_turns) echo 'mode no_prohibition' ;;
	esac
}
engine_of() {
	[[ $1 == minhop ]] && echo minhop || echo turnadd
}

# val KEY FILE
val() {
	local v
	v=$(grep -oE "(^| )$1=[^ ]+" "$2" 2>/dev/null | head -n 1) || true
	v=${v#* }
	printf '%s\n' "${v#"$1="}"
}

echo 'size,seed,variant,status,throughput,perm,perm_worst,unreachable_host_pairs,cdg,prohibited_fraction' \
	>"$out/runs.csv"
for n in "${size_list[@]}"; do
	for s in "${seed_list[@]}"; do
		net=$out/runs/random-$n-s$s.net
		"$topogen" random "$n" 10 10 "$s" >"$net"
		for v in "${variant_list[@]}"; do
			d=$out/runs/random-$n-s$s-$v
			mkdir -p "$d"
			conf_of "$v" >"$d/turnadd.conf"
			st=ok rc=0
			TURNADD_CONFIG=$d/turnadd.conf bash "$here/route_check.sh" \
				--engine "$(engine_of "$v")" --net "$net" \
				--plugin-dir "$build/plugin/.libs" \
				--lftcheck "$lftcheck" \
				--lftread "$build/scripts/lftread" \
				--timeout 300 --out "$d" >"$d/route_check.out" \
				2>&1 || rc=$?
			if ((rc >= 3)) || [[ ! -s $d/lfts.txt ]]; then
				st=failed
				: >"$d/eval.out"
			else
				"$lftcheck" -n 0 -t --perm "$d/topology.txt" \
					"$d/lfts.txt" >"$d/eval.out" 2>&1 || true
			fi
			rm -f "$d/lfts.txt"
			printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$n" "$s" "$v" "$st" \
				"$(val throughput "$d/eval.out")" \
				"$(val perm_bandwidth "$d/eval.out")" \
				"$(val perm_worst_pattern "$d/eval.out")" \
				"$(val unreachable_host_pairs "$d/eval.out")" \
				"$(val cdg "$d/eval.out")" \
				"$(val prohibited_fraction "$d/eval.out")" \
				>>"$out/runs.csv"
			tail -n 1 "$out/runs.csv"
		done
		rm -f "$net"
	done
done

# summary.md: per N and variant the means over the seeds, and the ratio
# to turnadd's mean
awk -F, '
NR == 1 { next }
{
	k = $1 SUBSEP $3
	if (!($1 in ns)) { ns[$1] = 1; nl[++nn] = $1 }
	if (!($3 in vs)) { vs[$3] = 1; vl[++nv] = $3 }
	runs[k]++
	if ($4 == "ok" && $5 != "" && $8 == 0) { c[k]++; t[k] += $5; p[k] += $6; pf[k] += $10 }
	if ($8 != 0 && $8 != "") unr[k]++
	if ($9 != "acyclic") cyc[k]++
}
END {
	print "| N | variant | uniform | x turnadd | permutations | x turnadd | turns unused | runs with unreachable pairs | runs with CDG cycle |"
	print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for (i = 1; i <= nn; i++) {
		n = nl[i]; b = n SUBSEP "turnadd"
		for (j = 1; j <= nv; j++) {
			k = n SUBSEP vl[j]
			if (!c[k]) { printf "| %s | %s | - | - | - | - | - | %d/%d | %d/%d |\n", n, vl[j], unr[k], runs[k], cyc[k], runs[k]; continue }
			tu = t[k] / c[k]; pu = p[k] / c[k]
			printf "| %s | %s | %.4f | %s | %.4f | %s | %.3f | %d/%d | %d/%d |\n", n, vl[j], tu,
				(c[b] ? sprintf("%.2f", tu / (t[b] / c[b])) : "-"), pu,
				(c[b] ? sprintf("%.2f", pu / (p[b] / c[b])) : "-"), pf[k] / c[k],
				unr[k], runs[k], cyc[k], runs[k]
		}
	}
}' "$out/runs.csv" >"$out/summary.md"
cat "$out/summary.md"
printf 'analysis_random: %s/runs.csv, %s/summary.md\n' "$out" "$out"
