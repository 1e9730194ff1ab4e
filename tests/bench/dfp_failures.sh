#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dfp_failures.sh: what a spine failure does to one-VL routes on
# Dragonfly+ fabrics of many shapes, the routing core alone
# (tests/bench/core_bench -K -S: the routing to return to kept, every
# host keeps its LID).  One row per shape and failed spine: the LFT
# blocks that change and the busiest channel under uniform traffic of
# minimal change and of the routing from scratch (the core's log line
# "failure: minimal change against routing from scratch"), which of
# them the default keeps ("held": within 2 % of the routing to return
# to, no routing from scratch made), and the same for option
# failure_routes nexthop (core_bench -N).  Blocks count the core's LID
# order (by switch), not the plugin's group-major LIDs, so they compare
# ways with each other, not with mad_count.sh.  Prints a Markdown table.
# Not part of make check.
#
#   dfp_failures.sh BUILD_DIR ["G L S H [N]|SPINE" ...]
#
# Default: 12 shapes (5 to 17 groups, 3 to 8 spines a group, one and
# two global cables a group pair), spines dfp1-spine0, dfp2-spine1 and
# spine0 of the last group (the group Turn-Prohibition removes last on
# these fabrics: results/dragonfly.md).

set -eu
build=${1:?usage: dfp_failures.sh BUILD_DIR ["G L S H [N]|SPINE" ...]}
shift
bench=$build/tests/bench/core_bench
[[ -x $bench ]] || { echo "dfp_failures.sh: no $bench" >&2; exit 2; }

if [[ $# -eq 0 ]]; then
	for shape in "5 4 4 4" "6 4 4 4" "7 4 4 4" "8 4 4 4" "9 4 4 4" \
		"9 4 4 4 2" "10 5 5 5" "12 6 6 6" "13 4 6 4" "6 6 3 6" \
		"8 8 4 8" "17 8 8 8"; do
		set -- "$@" "$shape|dfp1-spine0" "$shape|dfp2-spine1" \
			"$shape|dfp$((${shape%% *} - 1))-spine0"
	done
fi

# field N of "A / B" pairs in the log line: blocks (1), busiest (2)
pair() {
	sed -nE 's/.*: ([0-9]+) \/ ([0-9]+) LFT blocks change, busiest channel ([0-9.]+) \/ ([0-9.]+),.*/\1 \2 \3 \4/p' <<<"$1"
}

echo "| Dragonfly+ | spine down | kept | blocks: minimal change / from scratch | busiest channel: minimal change / from scratch | nexthop: blocks, busiest channel |"
echo "|---|---|---|---|---|---|"
kept_n=0 all=0
for c in "$@"; do
	spine=${c#*|}
	read -r -a shape <<<"${c%%|*}"
	out=$("$bench" -K -S -l -Q -g "$spine" dfplus "${shape[@]}" 2>&1)
	line=$(grep -E '^failure: minimal change against' <<<"$out" | tail -n 1)
	read -r mb sb mu su <<<"$(pair "$line")"
	case $line in
	*"from scratch taken"*) kept="from scratch" ;;
	"") kept="-" ;;
	*) kept="minimal change"; kept_n=$((kept_n + 1)) ;;
	esac
	# held to the routing to return to: no routing from scratch made
	held=$(grep -E '^failure: .*: kept, no routing from scratch' <<<"$out" |
		tail -n 1)
	if [[ -z $line && -n $held ]]; then
		kept="minimal change (held)"
		kept_n=$((kept_n + 1))
		mb=$(sed -nE 's/.*, ([0-9]+) LFT blocks change[ :(].*/\1/p' <<<"$held")
		mu=$(sed -nE 's/^resweep: peak=([0-9.]+).*/\1/p' <<<"$out")
		sb='' su=''
	fi
	all=$((all + 1))
	nh=$("$bench" -K -S -l -Q -N -g "$spine" dfplus "${shape[@]}" 2>&1)
	nb=$(sed -nE 's/^failure: next-hop repair.*, ([0-9]+) LFT blocks change.*/\1/p' <<<"$nh")
	np=$(sed -nE 's/^resweep: peak=([0-9.]+).*/\1/p' <<<"$nh")
	echo "| dfplus ${shape[*]} | $spine | $kept | ${mb:--} / ${sb:--} | ${mu:--} / ${su:--} | ${nb:--}, ${np:--} |"
done
echo
echo "minimal change kept in $kept_n of $all"
