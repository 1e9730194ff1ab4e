#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tp_candidate_sweep.sh: uniform throughput of the routing core alone
# (tests/bench/quality_bench) on random nets, turn addition without the
# TP candidate (option tp_candidate no), with it (the default) and mode
# turn_prohibition, as a markdown table of means over the seeds, with
# how many nets kept TP's turns and the core's routing seconds with and
# without the candidate (CPU-bound; noisy on a shared machine).
#
#   tp_candidate_sweep.sh BUILD_DIR [--sizes 10,20,...] [--seeds 1,2,3]
#                         [--wiring PORTS:HOSTS[,PORTS:HOSTS...]] [--perm]
#
# --perm adds the permutation bandwidth of scripts/lftcheck --perm (the
# mean over 100 random permutations and the shifts of each flow's
# 1 / sharing of its most shared link), from the tables quality_bench -w
# writes.
# Defaults: sizes 10..100 by 10, seeds 1,2,3, wiring 10:10 (topogen
# random N 10 10 SEED, the turn-addition paper's nets).
set -euo pipefail

build=${1:?usage: tp_candidate_sweep.sh BUILD_DIR [--sizes L] [--seeds L] [--wiring L]}
shift
sizes=10,20,30,40,50,60,70,80,90,100
seeds=1,2,3
wiring=10:10
perm=0
while (($#)); do
	case $1 in
	--sizes) sizes=$2 ;;
	--seeds) seeds=$2 ;;
	--wiring) wiring=$2 ;;
	--perm) perm=1; shift; continue ;;
	*) echo "unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
qb=$build/tests/bench/quality_bench
[ -x "$qb" ] || { echo "no $qb (make -C $build tests/bench/quality_bench)" >&2; exit 1; }

# field NAME LINE: the value of NAME=... in a tool's output
field() {
	sed -n "s/.*\<$1=\([^ ]*\).*/\1/p" <<<"$2"
}

# one MODE_OPTION N PORTS HOSTS SEED: "throughput seconds kept perm"
one() {
	local opt=$1 out perm=-
	shift
	if [ -n "$lftcheck" ]; then
		# shellcheck disable=SC2086
		out=$("$qb" $opt -w "$tmp/r" random "$@")
		perm=$(field perm_bandwidth "$("$lftcheck" --perm "$tmp/r.topo" "$tmp/r.lft")")
	else
		# shellcheck disable=SC2086
		out=$("$qb" $opt random "$@")
	fi
	echo "$(field throughput "$out") $(field seconds "$out") $(field tp_candidate "$out") $perm"
}

if ((perm)); then
	lftcheck=$build/scripts/lftcheck
	[ -x "$lftcheck" ] || { echo "no $lftcheck" >&2; exit 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
else
	lftcheck=
fi

echo "| ports:hosts | N | seeds | turnadd alone | with the candidate | tp | TP kept | x turnadd | x tp | perm alone | perm with | perm tp | s alone | s with |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for w in ${wiring//,/ }; do
	ports=${w%%:*}
	hosts=${w##*:}
	for n in ${sizes//,/ }; do
		rows=
		for seed in ${seeds//,/ }; do
			rows+="$(one -n "$n" "$ports" "$hosts" "$seed") $(one "" "$n" "$ports" "$hosts" "$seed") $(one "-m turn_prohibition" "$n" "$ports" "$hosts" "$seed")"$'\n'
		done
		awk -v w="$w" -v n="$n" '
			NF == 12 {
				c++; off += $1; so += $2; on += $5; sn += $6
				k += $7 == "kept"; tp += $9
				po += $4; pn += $8; pt += $12
			}
			END {
				perm = $4 != "-"
				printf "| %s | %d | %d | %.4f | %.4f | %.4f | %d | %.2f | %.2f |", w, n, c, off / c, on / c, tp / c, k, on / off, on / tp
				if (perm)
					printf " %.4f | %.4f | %.4f |", po / c, pn / c, pt / c
				else
					printf " - | - | - |"
				printf " %.3f | %.3f |\n", so / c, sn / c
			}' <<<"$rows"
	done
done
