#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tp_orders.sh: what option tp_orders (Turn-Prohibition's removal
# orders tried at bring-up, the least loaded kept) buys and costs, the
# routing core alone (tests/bench/core_bench -O N -Q).  One row per
# fabric and order count: the busiest channel under uniform traffic
# (lower is better), permutation bandwidth (higher is better) and the
# bring-up's CPU seconds.  Prints a Markdown table.  Not part of make
# check.
#
#   tp_orders.sh BUILD_DIR [ORDERS] ["FABRIC" ...]
#
# ORDERS: comma-separated counts (default 1,2,4,8); FABRIC: core_bench's
# fabric arguments, e.g. "dragonfly 8 4 4" (default: 18 fabrics of six
# classes).

set -eu
build=${1:?usage: tp_orders.sh BUILD_DIR [ORDERS] ["FABRIC" ...]}
shift
orders=${1:-1,2,4,8}
[[ $# -gt 0 ]] && shift
bench=$build/tests/bench/core_bench
[[ -x $bench ]] || { echo "tp_orders.sh: no $bench" >&2; exit 2; }
[[ $orders =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "tp_orders.sh: bad ORDERS '$orders'" >&2; exit 2; }

if [[ $# -eq 0 ]]; then
	set -- "dragonfly 4 2 2" "dragonfly 5 2 3" "dragonfly 6 3 4" \
		"dragonfly 6 3 3 19" "dragonfly 8 4 4" "dragonfly 4 9 2" \
		"random 50 10 10 1" "random 60 10 10 2" "random 80 12 8 2" \
		"random 100 10 10 3" "random 30 8 3 11" \
		"torus 6 6 2" "torus 8 4 3" "hyperx 2 5 2" "hyperx 3 3 2" \
		"dfplus 6 4 4 4" "dfplus 9 4 4 4 2" "dfplus 17 8 8 8"
fi

echo "| fabric | orders | busiest channel | permutation bandwidth | bring-up cpu s |"
echo "|---|---|---|---|---|"
for f in "$@"; do
	read -r -a fab <<<"$f"
	for k in ${orders//,/ }; do
		out=$("$bench" -O "$k" -Q "${fab[@]}" 2>&1)
		read -r peak perm <<<"$(sed -nE 's/^bring-up: peak=([0-9.]+) perm=([0-9.]+).*/\1 \2/p' <<<"$out")"
		cpu=$(sed -nE 's/^bring-up: switches=.* cpu=([0-9.]+) .*/\1/p' <<<"$out")
		echo "| $f | $k | ${peak:--} | ${perm:--} | ${cpu:--} |"
	done
done
