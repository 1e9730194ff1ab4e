#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_quality.sh: the routing-quality benchmark of the turn-addition
# paper (section 5: Figs. 21, 22, 25) on the forwarding tables OpenSM
# really pushes under ibsim, turnadd side by side with OpenSM's engines.
# For every fabric and engine it brings the fabric up, reads the LFTs back
# (lftread) and evaluates them with lftcheck: unreachable pairs, channel
# dependency graph on one VL, throughput (uniform on random networks;
# intra- and inter-tree on two joined fat trees), permutation bandwidth
# (lftcheck --perm: 100 random permutations and the shifts, every
# fabric), turns used, hops.
# On request also dragonflies and Dragonfly+ (uniform throughput and
# permutation bandwidth, turnadd over 4 layers beside the others).
# Writes quality.csv, tables.md (the paper's figures as tables, and the
# targets with their numbers) and PNG plots (gnuplot).  Installs
# what it needs and builds into _build when no --build is given.  Not part
# of make check (the default run takes tens of minutes).
#
#   bench_quality.sh [options]
#
# Fabrics:
#   --sizes LIST     random networks "topogen random N 10 10 SEED" (the
#                    paper's: 10 switch-to-switch ports and 10 hosts a
#                    switch) for these N (default 10,20,...,100; "none")
#   --seeds LIST     seeds, e.g. 1,2,3, or a count N for 1..N (default 3;
#                    the paper used 10 networks per size)
#   --ks LIST        joined fat trees "topogen ft3join K JOIN": two k-ary
#                    3-level fat trees (k^3/4 hosts each) joined by k^2/4
#                    links (default 4,8,16; 32 = 8,192 hosts a tree;
#                    "none")
#   --joins LIST     top,middle,bottom (default all three)
#   --wirings LIST   same (ft3join), alt (ft3join-alt: the join links
#                    from other positions, ibsim_topos/README); default
#                    same,alt.  alt rows have join "LEVEL-alt"
#   --dragonflies LIST  dragonflies "topogen dragonfly A H P [G]", shapes
#                    separated by ";", e.g. "4 2 2;6 3 3 19;5 2 3"
#                    (default none)
#   --dfplus LIST    Dragonfly+ "topogen dfplus GROUPS LEAVES SPINES HOSTS
#                    [GLOBAL_PER_PAIR]", shapes separated by ";", e.g.
#                    "6 4 4 4;9 4 4 4 2" (default none)
#   --quick          random N=10,20 seed 1 and joined K=4 only
# Engines:
#   --engines LIST   from turnadd (ours), tp (turnadd's turn_prohibition
#                    mode, the paper's TP), updn (OpenSM's own root
#                    choice), updn-best (best single root, below), ftree,
#                    minhop, dfsssp, nue, lash, turnadd-vls4 (turnadd
#                    with vls 4, below) (default: all; turnadd-vls4
#                    runs on random nets and joined trees only when
#                    --engines names it)
#   --updn-roots N   updn-best tries N switches spread evenly over the
#                    netfile's order as root (default 20; 0 = every
#                    switch).  Best: highest uniform throughput (random
#                    nets), highest intra-tree, then inter-tree throughput
#                    (joined trees).  One ibsim per fabric; OpenSM is
#                    restarted on it for each root (not SIGHUP: a resweep
#                    keeps the previous root's LFT entries where they are
#                    still min-hop, see try_roots in quality_run.sh)
# Runs:
#   --build DIR      build tree (default: install deps, build in _build)
#   --topogen PATH   fabric generator (default DIR/ibsim_topos/topogen)
#   --timeout SECS   bound for each bring-up, sweep and read-back (600)
#   --out DIR        results (default: a new dir in /tmp)
#   --results        also copy quality.csv, roots.csv, tables.md, the
#                    PNGs (and spliced.txt) into results/quality/ of the
#                    source tree (also with --report)
#   --keep           keep every run's topology and LFTs in DIR/runs/
#   --report DIR     only redo tables.md and the plots from DIR/quality.csv
#   --splice CSV     with --report: first the rows of CSV (another run's
#                    quality.csv, e.g. --engines turnadd,tp after a
#                    routing change) replace those of DIR/quality.csv
#                    with the same fabric and engine (new ones are added);
#                    DIR/quality.csv keeps the result, DIR/spliced.txt
#                    gains a line for each row taken
#   -v, --verbose    log the fabric steps to stderr
#
# Environment: TURNADD_EXTRA, option lines (turnadd.conf(5)) added to the
# turnadd.conf of every turnadd, tp and turnadd-vls4 run, e.g.
# TURNADD_EXTRA='experiment hop_choice' or 'tp_orders 1'.
#
# quality.csv: one row per fabric and engine: family
# (random|joined|dragonfly|dfplus), fabric, size (N switches, K, or the
# shape's numbers joined by "-"), seed, join, switches, hosts, engine,
# status (ok; fallback: OpenSM's tables came from another engine, named
# in routed_by; failed: no tables, see note), routed_by, vls (virtual
# lanes the engine said it needs; 1 for single-VL engines; turnadd-vls4:
# the distinct SLs its routes use), unreachable_host_pairs,
# unreachable_host_to_switch, cdg (acyclic or CYCLE on one VL;
# turnadd-vls4: every SL's CDG, lftcheck --sl), throughput (uniform), intra, inter, join_links,
# prohibited_fraction (turns no route takes), mean_sw_hops, max_sw_hops,
# root (updn-best), roots_tried, up_s (opensm start to SUBNET UP), wall_s,
# note, perm (mean permutation bandwidth), perm_worst (lowest mean of one
# pattern).  roots.csv: every root updn-best tried.
#
# Examples:
#
#     scripts/bench_quality.sh --results        # fresh clone: deps, build, full run
#     scripts/bench_quality.sh --build BUILD --quick --out DIR
#     scripts/bench_quality.sh --report DIR     # tables and plots again from DIR/quality.csv
#
# The turn-addition paper's section 5 (Figs. 21, 22, 25) on the tables
# OpenSM really pushes: for every fabric and engine, ibsim and OpenSM (own
# `IBSIM_SOCKNAME`, stopped by PID, bounded waits: fabric_lib.sh), the
# LFTs read back with `lftread`, judged by `lftcheck -t --perm` (random
# nets: uniform throughput and permutation bandwidth) or `lftcheck -t
# --perm --groups tA-,tB-` (joined trees: intra- and inter-tree
# throughput too, lftcheck(8)).  Without `--build` it runs
# scripts/install-deps.sh (gnuplot-nox for the plots) and builds into
# `_build`, as demo.sh does.
#
# Fabrics (defaults): `topogen random N 10 10 SEED` for N = 10..100 step
# 10 and seeds 1..3 (`--sizes`, `--seeds`; the paper used 10 seeds), and
# `topogen ft3join K top|middle|bottom` for K = 4, 8, 16 (16, 128, 1,024
# hosts a tree; `--ks`, `--joins`; K = 32, 8,192 hosts a tree, fits
# ibsim's limits with fabric_lib.sh's -N -S -P but is not in the default
# run).  Every joined fabric also comes wired differently, `topogen
# ft3join-alt K JOIN` (ibsim_topos/README: the join links from other
# pods and positions), rows with join `top-alt`, `middle-alt`,
# `bottom-alt`; `--wirings same|alt|same,alt` (default both).  `--quick`:
# N = 10, 20, seed 1, K = 4.
#
# Engines (`--engines`):
#
# | label | OpenSM | how |
# | --- | --- | --- |
# | turnadd | turnadd | ours; joined trees with `topogen ft3join-traffic` (1 inside a tree, 1/100 between) as `traffic_file`, random nets uniform |
# | tp | turnadd | `mode turn_prohibition` (the paper's TP), same traffic |
# | updn | updn | no root file: OpenSM's own root guess (falls back to minhop where it finds none: status `fallback`) |
# | updn-best | updn | best single root: `--updn-roots N` switches spread evenly over the netfile (default 20, 0 = all) tried as `root_guid_file`; best = highest uniform throughput (random), highest intra, then inter (joined) |
# | ftree | ftree | joined trees only (not pure fat trees: what OpenSM does is recorded) |
# | minhop | minhop | reference, not deadlock-free |
# | dfsssp, lash | dfsssp, lash | several VLs: `vls` = "Virtual Lanes needed" / "Lanes needed" from OpenSM's log |
# | nue | nue | `nue_include_switches TRUE`: routes to switch LIDs under its deadlock rule too (lftcheck's CDG counts them; without it nue's tables have cycles through switch-LID routes); 1 VL (OpenSM's default `nue_max_num_vls 1`) |
# | turnadd-vls4 | turnadd | `vls 4` in turnadd.conf (routes over up to 4 layers, layer i on SL i), OpenSM with `qos TRUE` (SL i to VL i) and dump files on; `lftcheck --sl opensm-turnadd-sl.dump` checks every SL's CDG; `vls` = distinct SLs of the dump; same traffic as turnadd |
#
# Dragonflies (`--dragonflies`, `topogen dragonfly A H P [G]`, rows
# `dragonfly-A-H-P[-G]`) and Dragonfly+ (`--dfplus`, `topogen dfplus G L S
# H [N]`, rows `dfplus-G-L-S-H[-N]`) are judged as random nets (`lftcheck
# -t --perm`, uniform traffic); updn-best's best root is the one with the
# highest uniform throughput; ftree does not run on them.  tables.md has
# one table per family: uniform throughput, permutation bandwidth, CDG
# verdict and VLs of every engine on every shape.
#
# updn-best keeps one ibsim per fabric (LIDs and topology stay) and
# restarts OpenSM for every root.  A SIGHUP resweep is not used on
# purpose: after the first sweep OpenSM keeps an LFT entry whenever its
# port is still a min-hop port (`osm_switch_recommend_path()`, unless the
# subnet's `ignore_existing_lfts` is set, which only a new OpenSM, a new
# switch or a port change sets), so the tables of a root would depend on
# the root tried before (seen: random 10 switches seed 1, root rnd-sw5,
# 0.4500 after a SIGHUP from another root, 0.3194 from a fresh OpenSM,
# which route_check.sh `--root rnd-sw5` gives too).
#
# cdg is lftcheck's verdict on ONE virtual lane (routes from every switch
# with hosts to every host and switch LID).  dfsssp and lash spread the
# routes over several VLs, so a cycle on one VL is expected for them:
# tables.md reports "VLs needed" beside it.  Throughputs of tables with
# unreachable pairs are not shown (traffic that is not delivered loads no
# link).
#
# Output in `--out DIR` (default a new dir in /tmp; `--results` also
# copies the CSVs, tables.md and PNGs to results/quality/):
# `quality.csv` (one row per fabric and engine: status ok / fallback /
# failed, routed_by, vls, unreachable pairs, cdg, throughput, intra,
# inter, join_links, prohibited_fraction, hops, updn-best's root, times,
# perm, perm_worst),
# `roots.csv` (every root updn-best tried), `tables.md` (Fig. 21: mean
# throughput per N; mean permutation bandwidth per N; Fig. 22: intra /
# inter per join at the largest K;
# Fig. 25: middle join per size; every joined fabric, both wirings, intra /
# inter and permutation bandwidth; reachability, CDG and
# VLs per engine; the targets with numbers and met / NOT met),
# `fig21.png`, `fig22.png`, `fig25.png`, and per run `runs/FABRIC-ENGINE/`
# (opensm.conf, the engine's lines of the log, lftcheck's output;
# `--keep`: topology and LFTs).  tests/integration/bench_quality_quick.sh
# runs it on one random net with two engines (a few seconds).
#
# The full run (`bash scripts/bench_quality.sh --build BUILD --results`:
# 48 fabrics, 402 runs, the joined fabrics twice) takes about 35-45 min
# on 2 shared cores; results/quality/ holds its files (RUN.md: how they
# were made; tables.md: every figure and where the targets stand).  A
# reduced run, `bash scripts/bench_quality.sh --build BUILD --sizes 10,50
# --seeds 1 --ks 4 --joins middle,bottom --engines
# turnadd,tp,updn-best,ftree,nue,dfsssp --updn-roots 3`, is 34 runs,
# about 6 min.  `--engines turnadd,tp` after a routing change, then
# `--report DIR --splice NEW/quality.csv`, updates the turnadd and tp
# rows of a full run.
#
# What OpenSM does: `updn` without a root file falls back to minhop on
# every fabric here (random and joined: "no root nodes were found");
# updn with a root has channel-dependency cycles on 23 of 39 fabrics
# (down-then-up turns on random nets, route_check.sh --help); ftree routes the
# joined trees at the top and middle joins but leaves host pairs
# unreachable at the bottom join (256, 16,957, 1,053,181 pairs for K = 4,
# 8, 16); lash needs 9 lanes at K = 16 middle and bottom ("ERR 4D02: Lane
# requirements (9) exceed available lanes (8)") and OpenSM falls back to
# minhop; dfsssp says it needs 1 to 8 VLs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=quality_run.sh
. "$here/quality_run.sh"
# shellcheck source-path=SCRIPTDIR source=quality_report.sh
. "$here/quality_report.sh"

all_engines=turnadd,tp,updn,updn-best,ftree,minhop,dfsssp,nue,lash,turnadd-vls4
sizes=10,20,30,40,50,60,70,80,90,100 seeds=3 ks=4,8,16
joins=top,middle,bottom wirings=same,alt engines=$all_engines updn_roots=20
build='' topogen='' timeout_s=600 out='' to_results=0 keep=0 report_dir=''
splice='' dragonflies='' dfplus='' engines_named=0
while (($#)); do
	case $1 in
	--sizes) sizes=${2:?}; shift ;;
	--seeds) seeds=${2:?}; shift ;;
	--ks) ks=${2:?}; shift ;;
	--joins) joins=${2:?}; shift ;;
	--wirings) wirings=${2:?}; shift ;;
	--dragonflies) dragonflies=${2:?}; shift ;;
	--dfplus) dfplus=${2:?}; shift ;;
	--quick) sizes=10,20 seeds=1 ks=4 ;;
	--engines) engines=${2:?} engines_named=1; shift ;;
	--updn-roots) updn_roots=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--topogen) topogen=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--results) to_results=1 ;;
	--report) report_dir=${2:?}; shift ;;
	--splice) splice=${2:?}; shift ;;
	--keep) keep=1 ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option bench_quality "$1" ;;
	esac
	shift
done

bad() {
	printf 'bench_quality: %s\n' "$*" >&2
	exit 2
}

# list_of NAME VALUE REGEX: VALUE split at commas into array NAME; "none"
# gives an empty list; every item must match REGEX.
list_of() {
	local -n arr=$1
	local item
	arr=()
	[[ $2 == none ]] && return 0
	IFS=, read -r -a arr <<<"$2"
	((${#arr[@]})) || bad "empty list '$2'"
	for item in "${arr[@]}"; do
		[[ $item =~ $3 ]] || bad "bad item '$item' in '$2'"
	done
}

# copy_results DIR: the tables, CSVs and plots into results/quality/
copy_results() {
	mkdir -p "$top/results/quality"
	cp "$1"/quality.csv "$1"/roots.csv "$1"/tables.md "$top/results/quality/"
	cp "$1"/*.png "$1"/spliced.txt "$top/results/quality/" 2>/dev/null || true
	printf 'bench_quality: copied to %s\n' "$top/results/quality"
}

# splice_rows BASE NEW: NEW's rows replace BASE's with the same fabric
# and engine (columns 2 and 8), in BASE's order; new keys go last.
splice_rows() {
	local base=$1 new=$2 tmp
	[[ -r $base && -r $new ]] || bad "cannot read $base or $new"
	[[ $(head -n 1 "$base") == "$(head -n 1 "$new")" ]] ||
		bad "$new and $base have different columns"
	tmp=$base.splice.$$
	awk -F, -v out="$tmp" -v lg="${base%/*}/spliced.txt" -v src="$new" '
		FNR == NR { if (FNR > 1) { row[$2 "," $8] = $0; key[++n] = $2 "," $8 }; next }
		FNR == 1 { print > out; next }
		($2 "," $8) in row { print row[$2 "," $8] > out; done[$2 "," $8] = 1
			printf "%s %s: from %s\n", $2, $8, src >> lg; next }
		{ print > out }
		END { for (i = 1; i <= n; i++) if (!(key[i] in done)) {
			print row[key[i]] > out
			k = key[i]; sub(/,/, " ", k)
			printf "%s: added from %s\n", k, src >> lg } }' \
		"$new" "$base" || bad "splice failed"
	mv -- "$tmp" "$base"
	printf 'bench_quality: %d rows of %s spliced into %s\n' \
		"$(($(wc -l <"$new") - 1))" "$new" "$base" >&2
}

# shapes_of NAME VALUE: VALUE split at ";" into array NAME, each shape's
# numbers joined by "-" ("none" or "" gives an empty list)
shapes_of() {
	local -n shapes=$1
	local one words nums
	shapes=()
	[[ -z $2 || $2 == none ]] && return 0
	IFS=';' read -r -a words <<<"$2"
	for one in "${words[@]}"; do
		read -r -a nums <<<"$one"
		((${#nums[@]} >= 3 && ${#nums[@]} <= 5)) ||
			bad "bad shape '$one' in '$2'"
		[[ ${nums[*]} =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]] ||
			bad "bad shape '$one' in '$2'"
		shapes+=("$(
			IFS=-
			echo "${nums[*]}"
		)")
	done
}

# skip_engine FAMILY ENGINE: true if ENGINE does not run on FAMILY
skip_engine() {
	[[ $2 == ftree && $1 != joined ]] && return 0
	[[ $2 == turnadd-vls4 && ($1 == random || $1 == joined) ]] &&
		((!engines_named)) && return 0
	return 1
}

size_list=() k_list=() join_list=() engine_list=() seed_list=() wiring_list=()
dfly_list=() dfp_list=()
shapes_of dfly_list "$dragonflies"
shapes_of dfp_list "$dfplus"
list_of size_list "$sizes" '^[1-9][0-9]*$'
list_of k_list "$ks" '^(4|8|16|32|64)$'
list_of join_list "$joins" '^(top|middle|bottom)$'
list_of wiring_list "$wirings" '^(same|alt)$'
list_of engine_list "$engines" "^(${all_engines//,/|})$"
if [[ $seeds =~ ^[1-9][0-9]*$ ]]; then
	seed_list=()
	for ((i = 1; i <= seeds; i++)); do
		seed_list+=("$i")
	done
else
	list_of seed_list "$seeds" '^[0-9]+$'
fi
[[ $updn_roots =~ ^[0-9]+$ ]] || bad "bad --updn-roots '$updn_roots'"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || bad "bad --timeout '$timeout_s'"
((${#engine_list[@]})) || bad "no engine"

[[ -z $splice || -n $report_dir ]] || bad "--splice goes with --report DIR"
if [[ -n $splice ]]; then
	splice_rows "$report_dir/quality.csv" "$splice"
fi
if [[ -n $report_dir ]]; then
	report "$report_dir"
	((!to_results)) || copy_results "$report_dir"
	printf 'bench_quality: %s/tables.md\n' "$report_dir"
	exit 0
fi

# Dependencies and build, as demo.sh does, unless --build names a tree.
if [[ -z $build ]]; then
	# shellcheck source-path=SCRIPTDIR source=ensure_build.sh
	. "$here/ensure_build.sh"
	ensure_build >&2
fi
build=$(cd "$build" && pwd) || bad "no build dir $build"
plugin_dir=$build/plugin/.libs
lftcheck=$build/scripts/lftcheck
lftread=$build/scripts/lftread
topogen=${topogen:-$build/ibsim_topos/topogen}
for f in "$lftcheck" "$lftread" "$topogen"; do
	[[ -x $f ]] || fab_die "$f not built (make, or --build DIR)"
done
[[ -e $plugin_dir/libturnadd.so ]] || fab_die "no libturnadd.so in $plugin_dir"
command -v gnuplot >/dev/null 2>&1 ||
	printf 'bench_quality: no gnuplot: no plots (scripts/install-deps.sh)\n' >&2

if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/bench_quality.XXXXXX")
fi
mkdir -p "$out/nets" "$out/runs"
out=$(cd "$out" && pwd)

csv_head='family,fabric,size,seed,join,switches,hosts,engine,status,routed_by,vls,unreachable_host_pairs,unreachable_host_to_switch,cdg,throughput,intra,inter,join_links,prohibited_fraction,mean_sw_hops,max_sw_hops,root,roots_tried,up_s,wall_s,note,perm,perm_worst'
echo "$csv_head" >"$out/quality.csv"
echo 'fabric,root,status,throughput,intra,inter,cdg,unreachable_host_pairs' \
	>"$out/roots.csv"

# ------------------------------------------------------------- the fabrics

# the paper's two-tree traffic for turnadd: 1 inside a tree, 1/100 between
two_tree_traffic=$out/nets/two-trees.traffic
if ((${#k_list[@]})); then
	"$topogen" ft3join-traffic >"$two_tree_traffic" ||
		fab_die "topogen ft3join-traffic failed (a topogen with ft3join is needed)"
fi

fabrics=()
for n in "${size_list[@]}"; do
	for s in "${seed_list[@]}"; do
		fabrics+=("random $n $s -")
	done
done
for shape in ${dfly_list[@]+"${dfly_list[@]}"}; do
	fabrics+=("dragonfly $shape - -")
done
for shape in ${dfp_list[@]+"${dfp_list[@]}"}; do
	fabrics+=("dfplus $shape - -")
done
for k in "${k_list[@]}"; do
	for w in "${wiring_list[@]}"; do
		for j in "${join_list[@]}"; do
			if [[ $w == alt ]]; then
				j=$j-alt
			fi
			fabrics+=("joined $k - $j")
		done
	done
done
runs_total=0
for f in "${fabrics[@]}"; do
	for e in "${engine_list[@]}"; do
		# ftree only where there are fat trees
		skip_engine "${f%% *}" "$e" && continue
		runs_total=$((runs_total + 1))
	done
done
run_no=0 bench_t0=$(date +%s)
printf 'bench_quality: %d fabrics, %d runs, results in %s\n' \
	"${#fabrics[@]}" "$runs_total" "$out"

for f in "${fabrics[@]}"; do
	read -r family size seed join <<<"$f"
	if [[ $family == random ]]; then
		fabric=random-$size-s$seed
		net=$out/nets/$fabric.net
		"$topogen" random "$size" 10 10 "$seed" >"$net"
		traffic='' check_opts=(-t --perm)
	elif [[ $family == dragonfly || $family == dfplus ]]; then
		fabric=$family-$size
		net=$out/nets/$fabric.net
		# shellcheck disable=SC2046 # the shape's numbers
		"$topogen" "$family" $(tr - ' ' <<<"$size") >"$net" ||
			fab_die "topogen $family ${size//-/ } failed"
		traffic='' check_opts=(-t --perm)
	else
		fabric=join-$join-k$size
		net=$out/nets/$fabric.net
		gen=ft3join
		if [[ $join == *-alt ]]; then
			gen=ft3join-alt
		fi
		"$topogen" "$gen" "$size" "${join%-alt}" >"$net" ||
			fab_die "topogen $gen $size ${join%-alt} failed (a topogen with $gen is needed)"
		traffic=$two_tree_traffic check_opts=(-t --perm --groups 'tA-,tB-')
	fi
	pick_roots "$net"
	for e in "${engine_list[@]}"; do
		skip_engine "$family" "$e" && continue
		run_engine "$e"
	done
	if ((!keep)); then
		rm -f "$net"
	fi
done

report "$out"
((!to_results)) || copy_results "$out"
printf 'bench_quality: done in %d s; %s/tables.md\n' \
	"$(($(date +%s) - bench_t0))" "$out"
