#!/bin/bash
# SPDX-License-Identifier: MIT
#
# layers_table.sh: the routing core's routes over 1 to 4 layers (option
# vls, plugin/DESIGN.md "Layers") on dragonflies, random nets, a torus,
# HyperX and a fat tree: per fabric and N the busiest channel under
# uniform traffic, permutation bandwidth (core_bench -Q), the layers
# the routes taken may use (1: every path on layer 0; "spread": routed
# with neighbour spreading, ta_layer_route.c) and the paths per layer.
#
#   layers_table.sh BUILD_DIR
set -euo pipefail

bench=${1:?usage: layers_table.sh BUILD_DIR}/tests/bench/core_bench

echo "| fabric | N | busiest channel | perm | layers taken | paths per layer | cpu s |"
echo "|---|---|---|---|---|---|---|"
while read -r fabric; do
	for n in 1 2 3 4; do
		# shellcheck disable=SC2086
		out=$("$bench" -Q -V "$n" $fabric)
		peak=$(sed -n 's/^bring-up: peak=\([^ ]*\) perm=.*/\1/p' <<<"$out")
		perm=$(sed -n 's/^bring-up: peak=.* perm=\(.*\)/\1/p' <<<"$out")
		cpu=$(sed -n 's/^bring-up: .* cpu=\([^ ]*\) .*/\1/p' <<<"$out")
		taken=$(sed -n 's/^bring-up: layers_taken=\([0-9]*\) .*/\1/p' <<<"$out")
		paths=$(sed -n 's/^bring-up: .*paths_per_layer=\(.*\)/\1/p' <<<"$out")
		grep -q '^bring-up: layers_taken=.* spread=1 ' <<<"$out" &&
			taken="$taken spread"
		echo "| $fabric | $n | $peak | $perm | ${taken:--} | ${paths:--} | $cpu |"
	done
done <<'FABRICS'
dragonfly 6 3 3 19
dragonfly 4 2 2
dragonfly 8 4 4
dragonfly 5 2 3
dragonfly 6 2 3
dragonfly 10 5 5 51
random 60 10 10 1
random 80 12 8 2
torus 6 6 2
hyperx 2 5 2
fattree2 8 4 4 1
FABRICS
