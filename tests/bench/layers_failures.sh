#!/bin/bash
# SPDX-License-Identifier: MIT
#
# layers_failures.sh: what a switch failure does to routes over layers
# (option vls), the routing core alone (tests/bench/core_bench -K -S:
# the routing to return to kept, every host keeps its LID).  One row per
# fabric, failed switch and vls: the routing kept at the resweep
# (minimal change, or the routing from scratch), the LFT blocks that
# change and the paths that change layer (SL), from the core's log.
# Prints a Markdown table.  Not part of make check.
#
#   layers_failures.sh BUILD_DIR [VLS ...]     (default vls: 2 3)

set -eu
build=${1:?usage: layers_failures.sh BUILD_DIR [VLS ...]}
shift
[[ $# -gt 0 ]] || set -- 2 3
bench=$build/tests/bench/core_bench
[[ -x $bench ]] || { echo "layers_failures.sh: no $bench" >&2; exit 2; }

cases=(
	"df1-s2|dragonfly 5 2 3" "df1-s2|dragonfly 8 4 4"
	"df5-s3|dragonfly 6 3 3 19" "df7-s0|dragonfly 6 3 3 19"
	"df2-s1|dragonfly 6 3 3 19" "df0-s1|dragonfly 4 9 2"
	"df0-s0|dragonfly 4 2 2" "rnd-sw13|random 60 10 10 1"
	"rnd-sw7|random 80 12 8 2" "torus-sw5|torus 6 6 2"
)

echo "| fabric | switch down | vls | routing kept | LFT blocks that change | paths that change SL |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
	gone=${c%%|*}
	read -r -a fabric <<<"${c#*|}"
	for v in "$@"; do
		out=$("$bench" -K -S -l -V "$v" -g "$gone" "${fabric[@]}" 2>&1)
		line=$(grep -E '^failure: minimal change (against|within)' <<<"$out" | tail -n 1)
		# the paths that change layer: minimal change's, or those of
		# the routing from scratch (its second routing's where taken)
		sl=$(grep '^layers:' <<<"$out" | sed -nE \
			-e 's/.*again; ([0-9]+) change.*/\1/p' \
			-e 's/^layers: ([0-9]+) paths of minimal.*/\1/p' \
			-e 's/^layers: the routing from scratch again.*: ([0-9]+) \/ [0-9]+ paths change layer.*: taken$/\1/p' |
			tail -n 1)
		case $line in
		"failure: minimal change within"*)
			kept="minimal change (within 2 % of the routing to return to)"
			blocks=$(sed -E 's/.*, ([0-9]+) LFT blocks change.*/\1/' <<<"$line")
			sl=$(sed -E 's/.*, ([0-9]+) paths change layer.*/\1/' <<<"$line") ;;
		*"from scratch taken"*)
			kept="from scratch"
			blocks=$(sed -E 's/.*: [0-9]+ \/ ([0-9]+) LFT.*/\1/' <<<"$line") ;;
		*"within 2 % of the routing to return to"*)
			kept="minimal change (within 2 % of the routing to return to)"
			blocks=$(sed -E 's/.*: ([0-9]+) \/ [0-9]+ LFT.*/\1/' <<<"$line") ;;
		"")
			kept="-"; blocks="-" ;;
		*)
			kept="minimal change (within 2 % of from scratch)"
			blocks=$(sed -E 's/.*: ([0-9]+) \/ [0-9]+ LFT.*/\1/' <<<"$line") ;;
		esac
		echo "| ${fabric[*]} | $gone | $v | $kept | $blocks | ${sl:--} |"
	done
done
