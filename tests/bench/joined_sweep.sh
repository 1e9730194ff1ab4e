#!/bin/bash
# SPDX-License-Identifier: MIT
#
# joined_sweep.sh: intra- and inter-tree throughput of the routing core
# alone (tests/bench/quality_bench, tables judged by scripts/lftcheck
# --groups tA-,tB-) on two fat trees joined at each level, wired three
# ways (ft3join, ft3join-alt, quality_bench's ft3join-shift) and at
# seeded random positions (ft3join-rand), routed with the two-tree
# traffic file (topogen ft3join-traffic: 1 inside a tree, 1/100
# between), as a markdown table.  With --before OLD_BUILD each row also
# shows that build's figures (e.g. main before a routing change) and
# whether they moved.
#
#   joined_sweep.sh BUILD_DIR [--before OLD_BUILD_DIR] [--ks 4,8,16]
#                   [--joins top,middle,bottom] [--rand-seeds 1,2,3]
#
# Columns: intra / inter, the candidate the core kept (quality_bench's
# tp_candidate= field: tried = turn addition's first routes, kept =
# Turn-Prohibition's turns, root = the escape tree rooted where minor
# traffic turns, cut = the escape tree through every link between the
# trees), whether the channel dependency graph is acyclic and host
# pairs are all reachable.  K = 16 takes a few seconds a fabric; K = 32
# (--ks 32) about 3 minutes each.
set -euo pipefail

build=${1:?usage: joined_sweep.sh BUILD_DIR [--before OLD] [--ks L] [--joins L] [--rand-seeds L]}
shift
before=
ks=4,8,16
joins=top,middle,bottom
rand_seeds=1,2,3
while (($#)); do
	case $1 in
	--before) before=$2 ;;
	--ks) ks=$2 ;;
	--joins) joins=$2 ;;
	--rand-seeds) rand_seeds=$2 ;;
	*) echo "unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
for b in "$build" ${before:+"$before"}; do
	for t in tests/bench/quality_bench scripts/lftcheck ibsim_topos/topogen; do
		[ -x "$b/$t" ] || { echo "no $b/$t (make -C $b)" >&2; exit 1; }
	done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/ibsim_topos/topogen" ft3join-traffic >"$tmp/traffic"

# field NAME TEXT: the value of NAME=... in a tool's output
field() {
	sed -n "s/.*\<$1=\([^ ]*\).*/\1/p" <<<"$2" | head -n 1
}

# one BUILD FABRIC...: "intra / inter | kept | checks"
one() {
	local b=$1 out chk
	shift
	out=$("$b/tests/bench/quality_bench" -t "$tmp/traffic" -w "$tmp/r" "$@")
	chk=$("$b/scripts/lftcheck" -t --groups tA-,tB- "$tmp/r.topo" "$tmp/r.lft")
	echo "$(field intra_throughput "$chk") / $(field inter_throughput "$chk") | $(field tp_candidate "$out") | $(field cdg "$chk"), $(field unreachable_host_pairs "$chk") unreachable"
}

# row FABRIC...
row() {
	local now old moved=
	now=$(one "$build" "$@")
	if [ -n "$before" ]; then
		old=$(one "$before" "$@")
		moved=$(awk -v a="${old%% |*}" -v b="${now%% |*}" 'BEGIN {
			split(a, x, " / "); split(b, y, " / ")
			if (y[2] > x[2] + 1e-4) m = "up"
			else if (y[2] < x[2] - 1e-4) m = "DOWN"
			if (y[1] < x[1] - 1e-4) m = m (m ? " " : "") "INTRA DOWN"
			print m
		}')
		echo "| $* | ${old%% |*} | $now | $moved |"
	else
		echo "| $* | $now |"
	fi
}

if [ -n "$before" ]; then
	echo "| fabric | before intra / inter | intra / inter | kept | checks | moved |"
	echo "| --- | --- | --- | --- | --- | --- |"
else
	echo "| fabric | intra / inter | kept | checks |"
	echo "| --- | --- | --- | --- |"
fi
for k in ${ks//,/ }; do
	for w in ft3join ft3join-alt ft3join-shift; do
		for j in ${joins//,/ }; do
			row "$w" "$k" "$j"
		done
	done
	for j in ${joins//,/ }; do
		[ "$j" = top ] && continue	# top joins: 1.00 on every wiring
		for s in ${rand_seeds//,/ }; do
			row ft3join-rand "$k" "$j" "$s"
		done
	done
done
