#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_reroute.sh: the rerouting benchmark.  For each fabric and engine,
# mad_count.sh counts the LFT SubnSet MADs at bring-up, after one spine
# (2-level) or one director (3-level) fails and after it comes back, and
# checks the tables read back; one line per run goes to bench.csv and a
# table is printed.  Not part of make check (the large fabrics take
# minutes and GBs).
#
#   bench_reroute.sh [options]
#
# Options:
#   --fabrics LIST   comma-separated, from: ft2-648 (ibsim_topos/
#                    ft2-36x18.net: 36 leaves x 18 spines, 648 hosts),
#                    ft3-5832 (topogen fattree3 18 18 9 18 18), ft3-11664
#                    (topogen fattree3 18 36 18 18 18),
#                    ft2-os24 (topogen fattree2 24 12 24: 24 leaves x 12
#                    spines x 24 hosts, 2:1 oversubscribed),
#                    ft2-os20 (topogen fattree2 36 16 20: 36-port leaves,
#                    20 hosts over 16 spines), ft2-os24x16 (fattree2 40
#                    16 24: 40-port leaves, 24 hosts over 16 spines),
#                    ft2-par2 (topogen fattree2 36 9 18 2: 2 parallel
#                    links per leaf-spine pair), ft2-par3 (fattree2 24 6
#                    18 3), ft3-648 (topogen fattree3 18 6 3 6 18: 36
#                    leaves, 18 directors of 6 line + 3 fabric switches),
#                    ft2-2048 (topogen fattree2 64 32 32), ft3-16000
#                    (topogen fattree3 20 40 20 20 20), ft3-32768
#                    (topogen --switch-ports 64 fattree3 32 32 32 32 32;
#                    the last two take long, never by default);
#                    any of them with suffixes for an incomplete fabric:
#                    -aPP-sN: PP % of the hosts absent at bring-up, seed
#                    N (topogen --absent 0.PP --seed N), -pK (fattree3):
#                    odd pods keep K leaves (topogen --partial-pods K),
#                    e.g. ft2-648-a30-s1, ft3-5832-p9-a50-s2;
#                    Dragonfly+: dfp-96 (topogen dfplus 6 4 4 4), dfp-216
#                    (dfplus 9 4 4 4 2), dfp-1088 (dfplus 17 8 8 8);
#                    dragonfly: df-72 (topogen dragonfly 4 2 2), df-342
#                    (dragonfly 6 3 3 19), df-456 (dragonfly 6 3 4),
#                    df-1056 (dragonfly 8 4 4)
#                    (default: ft2-648,ft3-5832)
#   --link           fail one link instead of a whole spine: the first
#                    link between ft-leaf0 and ft-spine<N> (2-level),
#                    or --kind link (Dragonfly+, dragonfly); bound: the
#                    blocks whose entries used the link
#   --kind KIND      Dragonfly+ and dragonfly fabrics (group G = --which):
#                    spine (default): dfpG-spine0 / router dfG-s0;
#                    link: the global cable of that spine / router to
#                    its first peer in another group; leaf: dfpG-leaf0 /
#                    router dfG-s0; group: every switch of group G
#                    (--fail-prefix dfpG- / dfG-).  These runs use
#                    mad_count.sh --bound paths (the blocks of the
#                    routes that entered the failed part at bring-up)
#   --engines LIST   comma-separated (default: turnadd,ftree,minhop,updn)
#   --lmc LIST       comma-separated LMC values 0-7 (default 0): every
#                    fabric and engine runs once per value, OpenSM with
#                    "lmc N" (mad_count.sh --lmc: the bound counts every
#                    LID of a port); the table shows the distinct spines
#                    of a port's LIDs from every leaf (lftcheck lmc_)
#   --which N        fail spine ft-spine<N> / director dir<N>- / a part
#                    of Dragonfly+ or dragonfly group N (default 0)
#   --counter KIND   preload (default) or ibsim (see mad_count.sh)
#   --build DIR      build tree (default: $TURNADD_BUILD, else the source
#                    tree)
#   --timeout SECS   bound per phase (default 1200)
#   --relink-pace S  mad_count.sh --relink-pace for ft3-11664 (default
#                    0.2; see mad_count.sh)
#   --mcast-groups N mad_count.sh --mcast-groups N: every host joins the
#                    IPoIB broadcast group and N more groups get random
#                    members after bring-up (default: no joins)
#   --conf-extra L   mad_count.sh --conf-extra L: an extra opensm.conf
#                    line for every engine, e.g. 'qos TRUE' (SL i to VL
#                    i, which turnadd's option vls needs; dfsssp then
#                    programs its VLs too) (repeatable)
#   --out DIR        results (default: a new dir in /tmp); each run's
#                    mad_count.sh output in DIR/FABRIC-ENGINE/
#
# bench.csv columns: fabric, engine, hosts, switches, failed,
# bringup_mads, failure_mads, restore_mads, failure_bound,
# failure_ratio, restore_bound, restore_ratio, failure_verdict,
# failure_throughput, restore_verdict, restore_throughput,
# bringup_throughput, routed_by (after the failure), status (mad_count.sh
# exit status), wall_s, then the MulticastForwardingTable Sets of each
# phase: bringup_mft_mads, joins_mft_mads, failure_mft_mads,
# restore_mft_mads, then lmc and lftcheck's lmc_spines_min (least
# distinct next hops of a port's LIDs from a leaf; "-" with LMC 0) at
# bring-up, after the failure and after the restore, then
# failure_through: with the paths bound (dfp-, df-), the blocks of every
# bring-up route that crosses the failed part anywhere (lftcheck
# --through through_blocks, mad_count.sh's summary.csv; "-" otherwise): a reroute that moves only
# the routes that must move writes no block outside them.
#
# Examples:
#
#     bench_reroute.sh --build BUILD [--fabrics ft2-648,ft3-5832,ft3-11664] \
#         [--engines turnadd,ftree,minhop,updn] [--out DIR]
#     bench_reroute.sh --build BUILD --fabrics ft2-648-a30-s1 --lmc 0,1,2
#
# Runs mad_count.sh for each fabric and engine (spine/director
# --which N, default 0) and prints LFT MADs at bring-up, after the failure
# and after the restore, the bound and ratio, the checker's verdict and
# throughput after the failure; bench.csv has one row per run.  The
# generated fabrics are written into DIR/nets (bash scripts/bench_lib.sh
# --help: the names and suffixes).
#
# OpenSM's own engines (this machine, 2 CPUs; preload counter; failure =
# ft-spine0 or all 27 / 54 switches of director dir0-; OpenSM's default
# LIDs; turnadd's rows, with its port-major LIDs, are in the top README,
# "Results: LFT MADs after a spine failure"):
#
# | fabric | engine | bring-up | failure | restore | bound | ratio | verdict | throughput after failure (bring-up) | wall |
# | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |
# | 648 (36x18) | ftree | 594 | 396 | 407 | 36 | 11.0 | OK | 0.514 (1.000) | 6 s |
# | 648 | minhop | 594 | 413 | 424 | 36 | 11.5 | OK | 0.514 (1.000) | 7 s |
# | 648 | updn | 594 | 413 | 424 | 36 | 11.5 | OK | 0.514 (1.000) | 6 s |
# | 5,832 (3-level) | ftree | 84,240 | 70,509 | 73,317 | 1,944 | 36.3 | OK | 0.502 (1.000) | 76 s |
# | 5,832 | minhop | 84,240 | 38,745 | 41,553 | 1,944 | 19.9 | OK | 0.059 (0.059) | 68 s |
# | 5,832 | updn | 84,240 | 33,696 | 36,504 | 1,944 | 17.3 | OK | 0.059 (0.059) | 67 s |
# | 11,664 (3-level) | ftree | 336,960 | 227,242 | 238,474 | 7,128 | 31.9 | OK | 0.501 (1.000) | 219 s |
#
# (11,664 hosts: restores with `--relink-pace 0.2`, bench_reroute.sh's
# default for that fabric.)  The built-in engines' counts equal the design notes' (594; 396, 413,
# 413; 84,240; 70,509, 38,745, 33,696; 336,960; 227,242).  After one spine
# of 18 fails, at best 17/18 of the bandwidth is left, but every engine
# gets about 1/2 on the 648-host tree; minhop and updn give 1/17 even at
# bring-up on the 3-level trees (a line switch sends the traffic for the
# LIDs its leaves hand to its director over 1 of its 18 uplinks: the LID
# residues line up).
#
# Fabrics as clusters are (--fabrics): `ft2-os24` (24 leaves x 12 spines x 24 hosts, 2:1
# oversubscribed), `ft2-os20` (`topogen fattree2 36 16 20`: 36-port leaves
# with 20 hosts over 16 spines) and `ft2-os24x16` (`fattree2 40 16 24`:
# 40-port leaves, 24 hosts over 16 spines), where the spine count does
# not divide the host ports, `ft2-par2` / `ft2-par3` (2 or 3 parallel links per
# leaf-spine pair), `ft3-648` (`topogen fattree3 18 6 3 6 18`), and any
# fabric with `-aPP-sN` (PP % of the hosts absent at bring-up, a random
# choice by seed N: `topogen --absent 0.PP --seed N`) and, for 3-level
# ones, `-pK` (odd pods keep K leaves: `topogen --partial-pods K`), e.g.
# `ft2-648-a30-s1` or `ft3-5832-p9-a50-s1`.  `--link` fails the link
# ft-leaf0 - ft-spine<N> instead of the spine (bound: see mad_count.sh's
# `--fail-link`, mad_count.sh --help).  The bound after a spine failure counts the hosts
# present (absent ones hold no LID).  OpenSM's ftree refuses the
# partial-pod fabrics (not a complete fat tree) and falls back to minhop:
# such rows show status 4 and "minhop" as the engine that routed.  The
# results are in the top README ("Results: incomplete, oversubscribed and
# parallel-link fat trees").
#
# `--lmc 0,1,2` runs every fabric and engine once per LMC value (OpenSM
# with `lmc N`; `mad_count.sh --lmc N`, which also adds the line to
# opensm.conf).  The bound then counts every LID of a port: per leaf
# ceil((hosts * m * min(m, S) + leaves) / S / 64) blocks, m = 2^LMC, S the
# leaf's spines (a port's m LIDs are one aligned run and leave through
# min(m, S) distinct spines, so every port that uses the failed spine
# brings m LIDs into the rewritten blocks; lid_assign/README, "LMC").
# The table's last column, `spines`, is lftcheck's `lmc_spines_min` at
# bring-up / after the failure / after the restore: the fewest distinct
# spines the LIDs of a port leave a leaf through (`-` without LMC);
# bench.csv has the same three columns after `lmc`.  Results in the top
# README ("LFT MADs with LMC").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$here/bench_lib.sh"

fabrics=ft2-648,ft3-5832 engines=turnadd,ftree,minhop,updn which=0
counter=preload build=${TURNADD_BUILD:-$top} timeout_s=1200 out=''
relink_pace=0.2 link=0 mc_groups='' lmcs=0 kind=spine conf_extra=()
while (($#)); do
	case $1 in
	--fabrics) fabrics=${2:?}; shift ;;
	--engines) engines=${2:?}; shift ;;
	--lmc) lmcs=${2:?}; shift ;;
	--which) which=${2:?}; shift ;;
	--link) link=1 kind=link ;;
	--kind) kind=${2:?}; shift ;;
	--counter) counter=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--relink-pace) relink_pace=${2:?}; shift ;;
	--mcast-groups) mc_groups=${2:?}; shift ;;
	--conf-extra) conf_extra+=(--conf-extra "${2:?}"); shift ;;
	--out) out=${2:?}; shift ;;
	*) fab_other_option bench_reroute "$1" ;;
	esac
	shift
done
[[ $which =~ ^[0-9]+$ ]] || fab_usage
[[ $kind =~ ^(spine|link|leaf|group)$ ]] || {
	printf 'bench_reroute: bad --kind %s (spine, link, leaf or group)\n' \
		"$kind" >&2
	exit 2
}
[[ $lmcs =~ ^[0-7](,[0-7])*$ ]] || {
	printf 'bench_reroute: bad --lmc %s (values 0 to 7)\n' "$lmcs" >&2
	exit 2
}
build=$(cd "$build" && pwd)
topogen=$build/ibsim_topos/topogen
[[ -x $topogen ]] || {
	printf 'bench_reroute: %s not built (make, or --build DIR)\n' "$topogen" >&2
	exit 3
}
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/bench_reroute.XXXXXX")
fi
mkdir -p "$out/nets"
out=$(cd "$out" && pwd)

# global_peer SWITCH PREFIX: the first switch cabled to SWITCH in $net
# whose name does not start with PREFIX (another group), "" if none
global_peer() {
	awk -v sw="\"$1\"" -v pfx="$2" '
		/^Switch/ { on = ($NF == sw); next }
		/^$/ { on = 0 }
		on && match($0, /"[^"]*"/) {
			p = substr($0, RSTART + 1, RLENGTH - 2)
			if (p ~ /^dfp?[0-9]+-(spine[0-9]+|s[0-9]+)$/ &&
			    index(p, pfx) != 1) { print p; exit }
		}' "$net"
}

# group_fail PREFIX SPINE LEAF: fail (mad_count options) for --kind
group_fail() {
	local peer
	case $kind in
	spine) fail=(--fail "$2") ;;
	leaf) fail=(--fail "$3") ;;
	group) fail=(--fail-prefix "$1") ;;
	link)
		peer=$(global_peer "$2" "$1")
		[[ -n $peer ]] || {
			printf 'bench_reroute: %s has no global cable in %s\n' \
				"$2" "$net" >&2
			exit 2
		}
		fail=(--fail-link "$2" "$peer") ;;
	esac
	fail+=(--bound paths)
}

# fabric_setup NAME: sets net (a netfile), pace (--relink-pace) and fail
# (mad_count options)
fabric_setup() {
	bench_net bench_reroute "$1" "$out/nets" "$topogen"
	net=$bench_net_file
	case $bench_base in
	ft3-11664 | ft3-16000 | ft3-32768) pace=$relink_pace ;;
	*) pace=0 ;;
	esac
	if [[ $bench_base == dfp-* ]]; then
		group_fail "dfp$which-" "dfp$which-spine0" "dfp$which-leaf0"
	elif [[ $bench_base == df-* ]]; then
		group_fail "df$which-" "df$which-s0" "df$which-s0"
	elif [[ $kind == leaf || $kind == group ]]; then
		printf 'bench_reroute: --kind %s: Dragonfly+ and dragonfly fabrics only\n' \
			"$kind" >&2
		exit 2
	elif [[ $bench_base == ft3-* ]]; then
		fail=(--fail-prefix "dir$which-")
	elif ((link)); then
		fail=(--fail-link "ft-leaf0" "ft-spine$which")
	else
		fail=(--fail "ft-spine$which")
	fi
}

# value RUN_DIR PHASE COLUMN: from the run's summary.csv, "-" if none
value() {
	local v=''
	if [[ -r $1/summary.csv ]]; then
		v=$(awk -F, -v p="$2" -v c="$3" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$6 == p { print $col[c] }' "$1/summary.csv")
	fi
	printf '%s\n' "${v:--}"
}

csv=$out/bench.csv
echo "fabric,engine,hosts,switches,failed,bringup_mads,failure_mads,restore_mads,failure_bound,failure_ratio,restore_bound,restore_ratio,failure_verdict,failure_throughput,restore_verdict,restore_throughput,bringup_throughput,routed_by,status,wall_s,bringup_mft_mads,joins_mft_mads,failure_mft_mads,restore_mft_mads,lmc,bringup_lmc_spines_min,failure_lmc_spines_min,restore_lmc_spines_min,failure_through" >"$csv"
IFS=, read -ra fabric_list <<<"$fabrics"
IFS=, read -ra engine_list <<<"$engines"
IFS=, read -ra lmc_list <<<"$lmcs"
for fabric in "${fabric_list[@]}"; do
	fabric_setup "$fabric"
	hosts=$(grep -c '^Hca' "$net" || true)
	switches=$(grep -c '^Switch' "$net" || true)
	for lmc in "${lmc_list[@]}"; do
	for engine in "${engine_list[@]}"; do
		run=$out/$fabric-$engine
		((lmc == 0)) || run=$out/$fabric-lmc$lmc-$engine
		printf 'bench_reroute: %s, lmc %s, %s ...\n' "$fabric" "$lmc" \
			"$engine" >&2
		t0=$(date +%s%N)
		status=0
		"$here/mad_count.sh" --build "$build" --net "$net" \
			--engine "$engine" "${fail[@]}" --counter "$counter" \
			${mc_groups:+--mcast-groups "$mc_groups"} \
			--timeout "$timeout_s" --relink-pace "$pace" --rows 0 \
			--lmc "$lmc" "${conf_extra[@]}" \
			--out "$run" \
			>"$run.txt" 2>&1 || status=$?
		wall=$(bench_wall "$t0")
		if ((status)); then
			printf 'bench_reroute: %s %s: mad_count.sh exit %d: %s\n' \
				"$fabric" "$engine" "$status" \
				"$(grep -m1 'error' "$run.txt" || tail -n 1 "$run.txt")" >&2
		fi
		printf '%s,%s,%s,%s,%s' "$fabric" "$engine" "$hosts" "$switches" \
			"$(value "$run" failure failed)" >>"$csv"
		for f in "bringup lft_mads" "failure lft_mads" "restore lft_mads" \
			"failure bound" "failure ratio" "restore bound" \
			"restore ratio" "failure verdict" "failure throughput" \
			"restore verdict" "restore throughput" \
			"bringup throughput" "failure configured_by"; do
			# shellcheck disable=SC2086 # "PHASE COLUMN" pairs
			printf ',%s' "$(value "$run" $f)" >>"$csv"
		done
		printf ',%s,%s' "$status" "$wall" >>"$csv"
		for f in bringup joins failure restore; do
			printf ',%s' "$(value "$run" "$f" mft_mads)" >>"$csv"
		done
		printf ',%s' "$lmc" >>"$csv"
		for f in bringup failure restore; do
			printf ',%s' "$(value "$run" "$f" lmc_spines_min)" >>"$csv"
		done
		printf ',%s\n' "$(value "$run" failure through_blocks)" >>"$csv"
	done
	done
done

printf '\nLFT SubnSet MADs (counter: %s); bound: port-major (dfp-, df-: paths), see mad_count.sh\n' \
	"$counter"
awk -F, 'NR == 1 { next }
	{
		if (!h++)
			printf "%-9s %3s %-7s %-7s %8s %8s %8s %7s %6s %7s %-7s %10s %8s %-7s %6s %7s %8s\n", "fabric", "lmc", "engine", "failed", "bringup", "failure", "restore", "bound", "ratio", "through", "verdict", "throughput", "tp_up", "routed", "status", "wall_s", "spines"
		printf "%-9s %3s %-7s %-7s %8s %8s %8s %7s %6s %7s %-7s %10s %8s %-7s %6s %7s %8s\n", $1, $25, $2, $5, $6, $7, $8, $9, $10, $29, $13, $14, $17, $18, $19, $20, $26 "/" $27 "/" $28
	}' "$csv"
printf '(bound, ratio, verdict, throughput: after the failure; through (paths bound): the blocks\n'
printf ' of every route that crosses the failed part, which a reroute moving only those writes;\n'
printf ' tp_up: throughput at bring-up;\n'
printf ' spines: least distinct spines of a port'"'"'s LIDs from a leaf, bring-up/failure/restore)\n'
printf '\nMulticastForwardingTable SubnSet MADs per phase\n'
awk -F, 'NR == 1 { next }
	{
		if (!h++)
			printf "%-9s %-7s %8s %8s %8s %8s\n", "fabric", "engine", "bringup", "joins", "failure", "restore"
		printf "%-9s %-7s %8s %8s %8s %8s\n", $1, $2, $21, $22, $23, $24
	}' "$csv"
printf 'results: %s\n' "$out"
