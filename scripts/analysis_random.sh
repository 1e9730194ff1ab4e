#!/bin/bash
# SPDX-License-Identifier: MIT
#
# analysis_random.sh: which of turn addition's decisions cost it the most
# throughput on the paper's random nets, against its own mode
# turn_prohibition (tp).  Each variant changes one decision; every run is
# a real OpenSM under ibsim (route_check.sh), its tables read back and
# judged by lftcheck -t --perm (uniform throughput and permutation
# bandwidth).  Not part of make check.  The results and what they mean
# are below the options.
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
#
# Example:
#
#     bash scripts/analysis_random.sh --build BUILD --sizes 50,100 --seeds 1,2,3 --out DIR
#
# changes one decision of turn addition at a time on `topogen random N 10
# 10 SEED` and judges the tables OpenSM pushed with `lftcheck -t --perm`
# (48 runs, about 14 min on 2 shared cores; the numbers do not depend on
# the load).  In the table below "turnadd" is turn addition alone
# (variant `ta_only`, `tp_candidate no`).  Variants (above): `ta_only`
# (turn addition's own turn set, without the Turn-Prohibition
# candidate), `tp` (mode turn_prohibition: TP's turn set, the same
# traffic estimate and route choice), `tie1`/`tie2` (option `seed`: equal-weight ties broken in a
# shuffled switch order), `flat_weights` and `no_tree_first` (option
# `experiment`, README "Options": every turn weighs the same / the escape
# tree's turns not allowed first), `all_turns` (mode no_prohibition:
# turnadd's route choice with every turn allowed, NOT deadlock-free) and
# OpenSM's `minhop` (every turn, routes spread by counting routes per
# port, NOT deadlock-free).  Means over seeds 1-3; x: against turnadd;
# hops: mean inter-switch hops:
#
# | N | variant | uniform | x | permutations | x | turns unused | hops |
# | --- | --- | --- | --- | --- | --- | --- | --- |
# | 50 | turnadd | 0.2369 | 1.00 | 0.2410 | 1.00 | 0.463 | 1.967 |
# | 50 | tp | 0.2275 | 0.96 | 0.2479 | 1.03 | 0.397 | 1.954 |
# | 50 | tie1 / tie2 | 0.2201 / 0.2343 | 0.93 / 0.99 | 0.2404 / 0.2412 | 1.00 / 1.00 | 0.465 / 0.463 | |
# | 50 | flat_weights | 0.1612 | 0.68 | 0.2382 | 0.99 | 0.440 | 2.016 |
# | 50 | all_turns | 0.2965 | 1.25 | 0.2651 | 1.10 | 0.191 | 1.892 |
# | 50 | minhop | 0.2767 | 1.17 | 0.2465 | 1.02 | 0.266 | 1.892 |
# | 100 | turnadd | 0.1353 | 1.00 | 0.1945 | 1.00 | 0.404 | 2.391 |
# | 100 | tp | 0.1815 | 1.34 | 0.2007 | 1.03 | 0.327 | 2.344 |
# | 100 | tie1 / tie2 | 0.1316 / 0.1374 | 0.97 / 1.02 | 0.1947 / 0.1946 | 1.00 / 1.00 | 0.404 / 0.405 | |
# | 100 | flat_weights | 0.0933 | 0.69 | 0.1864 | 0.96 | 0.383 | 2.455 |
# | 100 | all_turns | 0.2852 | 2.11 | 0.2225 | 1.14 | 0.087 | 2.243 |
# | 100 | minhop | 0.2696 | 1.99 | 0.2064 | 1.06 | 0.101 | 2.243 |
#
# `no_tree_first` left host pairs unreachable on every net (60-220 at
# N = 50, 1,350-4,500 at N = 100), so its throughput means nothing.
#
# What this says (uniform throughput is one link's load, so single
# numbers jump between seeds; the permutation figure is a mean and
# steadier):
#
# * The turn set is the cost.  With its own route choice and every turn
#   allowed the engine gets 1.25x (N = 50) and 2.11x (N = 100) its
#   uniform throughput; tp's turn set, under the same estimate and route
#   choice, 1.34x at N = 100.  Turn addition ends with 40% of the turns
#   unused at N = 100 against tp's 33%, and its routes are 6.6% longer
#   than shortest (tp: 4.5%).  A likely reason (not proven here): the
#   heaviest-first decisions use weights from unrestricted routes, so the
#   traffic of the turns they prohibit moves onto longer, shared detours
#   the weights never saw.
# * The route choice among equal next hops is not what limits it here:
#   with every turn allowed, turnadd's index rule beats minhop's route
#   counting (uniform 1.07x / 1.06x, permutations 1.08x / 1.08x at
#   N = 50 / 100).  Whether a load-aware choice helps under the
#   restricted turn set (fewer equal next hops) is not measured here.
# * The traffic estimate helps: flat weights lose 31-32% of the uniform
#   throughput (1-4% of the permutation bandwidth).  Re-estimating the
#   weights from the restricted routes of a first pass does not help
#   either (below).
# * Equal-weight tie breaking is noise: other tie orders move uniform
#   throughput by -7% to +2% and the permutation bandwidth by under 0.3%.
# * The escape tree's pre-allowed turns cannot simply go: without them
#   routing is incomplete on every net tried, so their cost is not
#   separable by this ablation.
# * Permutations narrow every gap (turnadd 0.97x tp at N = 100 against
#   0.75x uniform): the uniform figure is decided by the one busiest link,
#   a permutation by how many flows meet on typical paths.
#
# Measured with the routing core alone (tests/bench)
# --------------------------------------------------
#
# tests/bench/quality_bench routes a generated fabric with the core alone
# and prints the uniform throughput of its tables (the definition of
# `lftcheck -t`; it gives bench_quality's turnadd and tp figures to four
# digits), in well under a second, so a change to the turn decisions can
# be screened on many nets before a bench_quality run.  Options: `-n`
# (tp_candidate no), `-m MODE`, `-t FILE` (traffic file), `-r SWITCH`
# (escape root; names as in the `-w` topology, e.g. `tA-agg0-0`), `-v`
# (the core's log lines on stderr), `-w P` (writes P.topo and P.lft for
# lftcheck); the output line names the root used (`root=`) and
# `tp_candidate=root` when a tree rooted where minor traffic turns was
# kept.
#
# Re-estimating the weights does not close the gap: deciding the turns
# again from the traffic the restricted routes put on each turn (up to 4
# passes, the pass whose busiest channel carries least kept; four weight
# rules: restricted traffic alone, the first estimate plus 1x or 3x the
# restricted traffic, cumulative, scaled) on `topogen random N 10 10
# SEED`, N = 60, 80, 100, seeds 1-4, moves the sum of the 12 uniform
# throughputs from 1.9531 to at most 1.9544 (+0.07%; tp's sum: 2.3438).
# The greedy heaviest-first order ends in a maximal acyclic turn set with
# more prohibitions than TP's (N = 100, seed 1: 3,116 prohibited turns
# against tp's 2,360; 3,226 without the escape tree first), whatever the
# weights.  Deciding the two directions of a turn pair separately changes
# nothing: while every allowed turn is allowed in both directions, a
# direction closes a cycle exactly when its reverse does (the reversed
# cycle), so no pair splits.  The engine does neither.
#
# The TP candidate (option tp_candidate, the default): at a routing from
# scratch, where turn addition's routes load a channel beyond a lower
# bound (the busiest host link, and at each switch its hosts' traffic to
# and from other switches over its links), the core routes a second time
# from TP's turn set and escape tree plus every turn turn addition can
# still allow, and keeps the routes whose busiest channel carries less
# (with the least-cost routes, permutations are weighed too: the
# permutation rule, below).  Resweeps keep the kept set's
# decisions and rebuild its escape tree from the saved tree links (README
# "Options"; tests/unit/test_tp_resweep).  Measured with the core alone:
#
#     bash tests/bench/tp_candidate_sweep.sh BUILD --seeds 1,2,3 --wiring 10:10,8:8,16:4 --perm
#
# (`quality_bench -n` / default / `-m turn_prohibition` on `topogen random
# N PORTS HOSTS SEED`; the permutation bandwidth is `lftcheck --perm` on
# the tables `quality_bench -w` writes; 18 s for the three wirings).
# Means of the seeds; "TP kept": nets that kept TP's turns:
#
#
# | ports:hosts | N | seeds | turnadd alone | with the candidate | tp | TP kept | x turnadd | x tp | perm alone | perm with | perm tp | s alone | s with |
# | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
# | 10:10 | 30 | 3 | 0.4159 | 0.4142 | 0.3918 | 1 | 1.00 | 1.06 | 0.3007 | 0.3011 | 0.2963 | 0.008 | 0.019 |
# | 10:10 | 50 | 3 | 0.3525 | 0.3459 | 0.3459 | 3 | 0.98 | 1.00 | 0.2478 | 0.2518 | 0.2518 | 0.022 | 0.047 |
# | 10:10 | 60 | 3 | 0.3386 | 0.3297 | 0.3239 | 2 | 0.97 | 1.02 | 0.2366 | 0.2381 | 0.2379 | 0.031 | 0.071 |
# | 10:10 | 80 | 3 | 0.2856 | 0.2934 | 0.2920 | 2 | 1.03 | 1.00 | 0.2158 | 0.2166 | 0.2154 | 0.059 | 0.117 |
# | 10:10 | 100 | 3 | 0.2686 | 0.2780 | 0.2780 | 3 | 1.04 | 1.00 | 0.1999 | 0.2024 | 0.2024 | 0.095 | 0.194 |
# | 8:8 | 30 | 3 | 0.3815 | 0.3849 | 0.3788 | 1 | 1.01 | 1.02 | 0.2877 | 0.2884 | 0.2879 | 0.005 | 0.014 |
# | 8:8 | 50 | 3 | 0.2939 | 0.3044 | 0.3044 | 3 | 1.04 | 1.00 | 0.2342 | 0.2363 | 0.2363 | 0.017 | 0.035 |
# | 8:8 | 60 | 3 | 0.2670 | 0.3003 | 0.3003 | 3 | 1.12 | 1.00 | 0.2216 | 0.2266 | 0.2266 | 0.025 | 0.043 |
# | 8:8 | 80 | 3 | 0.2230 | 0.2628 | 0.2628 | 3 | 1.18 | 1.00 | 0.1996 | 0.2047 | 0.2047 | 0.042 | 0.078 |
# | 8:8 | 100 | 3 | 0.1722 | 0.2590 | 0.2590 | 3 | 1.50 | 1.00 | 0.1869 | 0.1941 | 0.1941 | 0.071 | 0.131 |
# | 16:4 | 30 | 3 | 1.0000 | 1.0000 | 1.0000 | 0 | 1.00 | 1.00 | 0.7315 | 0.7315 | 0.7173 | 0.009 | 0.009 |
# | 16:4 | 50 | 3 | 1.0000 | 1.0000 | 1.0000 | 0 | 1.00 | 1.00 | 0.6635 | 0.6635 | 0.6545 | 0.022 | 0.022 |
# | 16:4 | 60 | 3 | 1.0000 | 1.0000 | 1.0000 | 0 | 1.00 | 1.00 | 0.6376 | 0.6376 | 0.6300 | 0.029 | 0.029 |
# | 16:4 | 80 | 3 | 1.0000 | 1.0000 | 1.0000 | 0 | 1.00 | 1.00 | 0.6014 | 0.6014 | 0.5980 | 0.051 | 0.051 |
# | 16:4 | 100 | 3 | 1.0000 | 1.0000 | 1.0000 | 0 | 1.00 | 1.00 | 0.5811 | 0.5811 | 0.5782 | 0.080 | 0.081 |
#
# The candidate is at least tp on both metrics in every row of the run
# (30 rows; the table keeps five sizes); turn addition's own set alone is
# sometimes less loaded (10:10 at 40-60) but then does worse under
# permutations, which the rule checks.  results/quality/tp_candidate.md has
# sweeps over more sizes and seeds.
#
# Fat trees never try it (their routes meet the bound; core_hashes.sh:
# every fat-tree hash equals that with `core_bench -n`;
# `bench_reroute.sh --fabrics ft2-648 --engines turnadd`: spine failure 36,
# restore 54 LFT MADs).  Resweeps after TP's turns were kept
# (tests/unit/test_tp_resweep): an unchanged net keeps every decision and
# entry; a link failure redoes no decision and moves only destinations
# whose routes crossed the link (22-33 of 120 on a 40-switch net), its
# return leaves at most 21 of 4,800 entries different from the first
# routing; of 210 single-switch failures on TP-born 30-switch nets (seeds
# 1-8, every switch), 198 keep every decision and 12 re-decide around a
# new escape tree (at most 5.7% of the decisions flip; re-deciding around
# the carried tree flips more).  The joined trees with the two-tree
# traffic file keep turn addition's turns (quality_bench -t, K = 8, all
# levels: the same routes); with uniform traffic the bottom join (and
# ft3join-alt's middle join) keeps TP's, uniform throughput 0.1328 ->
# 0.1511 at K = 8 bottom.
#
# Least-cost routes on fabrics that are not tree-like (README "Results:
# routing quality" has the outcome; here how the constants were chosen).
# Core-only, `tests/bench/quality_bench [-x 8] -w P random N 10 10 SEED`
# and `scripts/lftcheck -t --perm P.topo P.lft`, means over seeds 1-6 at
# N = 50, 60, 80, 100, checked on seeds 7-12 and on tori, meshes and
# random nets of 4 to 16 ports:
#
# - Path cost 1 + (load / L)^p: p = 1 gives uniform +12 % over the
#   shortest-path choice (0.279 at 50), p = 6 about +25 %; p = 10-16 and a
#   larger unit fall back.  L = the mean link load under shortest paths,
#   so that the cost does not depend on the fabric's size.
# - The cost alone loses permutation bandwidth (shifts between whole
#   switches, -6 % at 60): the 1/8 per earlier destination of the same
#   switch on the link, and the choice among costs within 20 % by that
#   count, bring it back.  Counting it at the first hop only loses random
#   permutations (-13 %); a per-hop cost of 4 instead of 1 (fewer detours)
#   helps sparse meshes (mesh 8 8 2: -2.3 % -> -0.7 %).
# - One rip-up-and-reroute pass adds about +20 % uniform, a second +1-3 %.
# - Choosing between turn addition's and TP's turn sets by both metrics:
#   with 32 random permutations and 32 shifts the estimate disagrees with
#   lftcheck's by up to 2 %, more than the differences it decides; with
#   lftcheck's 100 and 256 it agrees, and the hosts must be ranked by name
#   for the shifts as lftcheck does (LID order, port-major on OpenSM,
#   picks the other set on 4 of 30 nets).  A margin on the busiest link
#   instead (take TP's when within 2-5 %) barely moves permutations.
# - Minor traffic (joined trees): least-cost paths in both passes lose the
#   same wiring's 1.00 at K = 4 (0.84); kept only where they add less to
#   the sum of (load / L)^6 in both passes, K = 16 alt falls to 0.54; in
#   the second pass only, with that test, nothing falls but K = 8 alt
#   (0.84 -> 0.83).  More escape-root candidates (8 instead of 2): K = 8
#   alt 0.83 -> 0.91, K = 16 unchanged, each one a whole routing more
#   (about 35 s at K = 32), so the engine tries 2.  With every turn
#   allowed (mode no_prohibition, not deadlock-free) K = 16 alt reaches
#   0.97: what limits the alt wiring is the minor traffic's turn
#   decisions, not the route choice.
#
# Joined trees, the escape root and ties of the minor traffic: with the
# two-tree traffic file (`topogen ft3join-traffic`) and `lftcheck -t
# --groups tA-,tB-` on the `-w` tables, on ft3join-alt's middle join at
# K = 16 the root placed by hand gives inter-tree throughput 0.59 (a join
# switch of tree A), 0.57 (of tree B), 0.54 (a core; intra 0.999), 0.40
# (the leaf of a pod without joins), 0.22 (a leaf of a joined pod, also
# the plain automatic choice: 0.67 / 0.40 / 0.22 at K = 4 / 8 / 16).  So
# the bring-up tries the two switches with the most minor-only turn
# traffic as roots (README, "Minor traffic"): 0.89 / 0.83 / 0.57.  On
# ft3join's own wiring the busiest join carried its pod's inter-tree
# traffic plus that of three other pods to one host of the escape root's
# pod, where the load-aware choice met equal loads on the two paths and
# kept the digit rule's; breaking such ties towards the path whose busiest
# channel is farther from the destination gives 1.00 at K = 4, 8 and 16.
# results/quality/joined_roots.md has every joined fabric, core-only and
# on OpenSM.
#
# Joined trees, the escape tree through every join:
#
#     bash tests/bench/joined_sweep.sh BUILD [--before OLD_BUILD] [--ks 4,8,16] [--joins L] [--rand-seeds 1,2,3]
#
# prints intra / inter for every joined fabric (ft3join, ft3join-alt,
# quality_bench's ft3join-shift and ft3join-rand at seeded positions),
# the candidate the core kept (`tried`, `kept` = TP's turns, `root`,
# `cut` = the escape tree through every join), and with `--before`
# another build's figures beside them; results/quality/joined_cut.md has
# its output for the cut tree.  What the alternatives give (inter-tree
# throughput, K = 16 alt unless said):
#
# - the minor traffic's turns decided in seeded shuffled orders, two as
#   extra candidates: 0.69 (six orders 0.71); no gain at K = 20 / 24 alt
#   (structural); light pairs by weight without the level 0.41; each
#   switch's pairs in a hashed switch order 0.50-0.64; one direction at a
#   time 0.41; a round-robin over link ends 0.41; an escape tree that
#   crosses between the trees once 0.22; one that takes every join link
#   first, by weight (a Kruskal tree): intra 0.14.
# - Where the load is without the cut tree: at K = 32 alt the inter-tree
#   traffic between pods without a join crosses only at the escape tree's
#   31 crossings (every link with turns up at both ends), each 2.3x its
#   share.  A tree that avoids the root pod's joins (parents by hand):
#   0.28-0.39; every join preferred as a parent in the BFS tree (all 64
#   joins in the tree at K = 16): the far middle switches still hold
#   several upper switches each, k - 1 links open at both ends,
#   0.33-0.59.  The cut tree (far side hung from every join, no far switch
#   with two tree neighbours above it): K = 16 / 20 / 24 / 32 alt 0.96 /
#   0.99 / 0.97 / 0.94; shuffled orders over it are never less loaded.
# - At the bottom joins a cut tree where every far leaf climbs into a
#   middle switch closes the trees' own turns (the main traffic's
#   throughput 0.42 / 0.54 / 0.42 at K = 16, same / alt / shift) and is
#   never kept; with the classes (one cut end per slot holds a switch of
#   it): 0.65 / 0.40 / 0.22 at K = 4 / 8 / 16, kept.  Hanging only the cut
#   ends that hold a class (the other joins outside the tree) gives the
#   same at the bottom but changes which upper switch each middle join
#   holds (K = 16 random wirings 0.94 / 0.85 -> 0.91 / 0.83), so every cut
#   end hangs from its join.
# - Where the cut tree is not kept (its log line says why: the
#   candidate's throughput under the traffic estimate, and how many
#   switches joined against the rule): the same and shift wirings at the
#   middle join (one join per pod, 96 switches bent at K = 16, 0.36; they
#   reach 1.00 / 1.00 anyway), the random wirings at K <= 12 (K = 12 seed
#   6: bent, 0.18; Turn-Prohibition's turns are kept there), and some
#   random wirings at the bottom join (K = 8 seeds 2, 3).
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
