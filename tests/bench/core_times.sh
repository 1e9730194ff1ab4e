#!/bin/bash
# SPDX-License-Identifier: MIT
#
# core_times.sh: times the routing core alone (tests/bench/core_bench,
# host LIDs port-major as the plugin sees them) at bring-up and at the
# resweep after director 0 (spine 0) failed, on the fat trees of
# scripts/bench_speed.sh, and prints the median of RUNS runs: wall
# seconds and CPU seconds (the CPU time is steadier when other jobs
# share the machine; on an idle machine the two agree).
#
#   core_times.sh BUILD_DIR [RUNS] [FABRIC...]
#
# FABRIC: ft3-5832, ft3-11664 (default: both), ft2-2048, ft3-16000,
# ft3-32768 (3,072 switches, 35,840 LIDs: about 1 GB and a minute).
set -euo pipefail

bench=${1:?usage: core_times.sh BUILD_DIR [RUNS] [FABRIC...]}/tests/bench/core_bench
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
fabrics=("$@")
((${#fabrics[@]})) || fabrics=(ft3-5832 ft3-11664)

args() {
	case $1 in
	ft3-5832) echo "-g dir0- fattree3 18 18 9 18 18" ;;
	ft3-11664) echo "-g dir0- fattree3 18 36 18 18 18" ;;
	ft2-2048) echo "-g ft-spine0 fattree2 64 32 32 1" ;;
	ft3-16000) echo "-g dir0- fattree3 20 40 20 20 20" ;;
	ft3-32768) echo "-g dir0- fattree3 32 32 32 32 32" ;;
	*) echo "core_times: unknown fabric $1" >&2; exit 2 ;;
	esac
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '%-10s %6s %8s %8s %8s %8s %9s\n' fabric runs up_wall up_cpu \
	fl_wall fl_cpu visits_up
for f in "${fabrics[@]}"; do
	a=$(args "$f")
	out=$(mktemp)
	for ((r = 0; r < runs; r++)); do
		# shellcheck disable=SC2086 # $a: the fabric's arguments
		"$bench" -p $a >>"$out"
	done
	val() { grep "^$1:" "$out" | sed "s/.* $2=\([0-9.]*\).*/\1/" | median; }
	printf '%-10s %6d %8s %8s %8s %8s %9s\n' "$f" "$runs" \
		"$(val bring-up seconds)" "$(val bring-up cpu)" \
		"$(val resweep seconds)" "$(val resweep cpu)" \
		"$(val bring-up visits)"
	rm -f "$out"
done
