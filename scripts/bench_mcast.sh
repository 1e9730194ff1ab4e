#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_mcast.sh: multicast with turnadd's trees.  For each fabric and
# number of groups, mad_count.sh --mcast-groups N brings the fabric up,
# lets every host join the IPoIB broadcast group and N groups of random
# members (real SA joins, mcjoin), fails one switch and brings it back,
# counting LFT and MulticastForwardingTable Sets per phase and checking
# unicast + multicast after every phase (lftcheck --mfts).  Not part of
# make check.
#
#   bench_mcast.sh [--fabrics LIST] [--groups LIST] [--build DIR] [--out DIR]
#
#   --fabrics  ft2-648 (ibsim_topos/ft2-36x18.net, spine ft-spine0 fails),
#              random60 (topogen random 60 10 10 1, rnd-sw30 fails)
#              (default: both)
#   --groups   default 1,10,100
#   --max M    members of each group at most (default 32; the broadcast
#              group always has every host)
#
# bench.csv: fabric, groups, phase, lft_mads, mft_mads, seconds, verdict,
# trees_changed (groups whose tree the phase rebuilt or changed, from
# turnadd's log lines), then a table on stdout.
#
# Example:
#
#     bench_mcast.sh [--fabrics ft2-648,random60] [--groups 1,10,100] \
#         [--max 32] [--build BUILD] [--out DIR]
#
# runs mad_count.sh --mcast-groups for each fabric and group count (one
# switch fails and returns: ft-spine0, rnd-sw30 of `topogen random 60
# 10 10 1`) and writes bench.csv: LFT and MFT Sets, seconds and verdict
# per phase, and the trees the failure and the restore changed (turnadd's
# `rebuilt`/`partly kept`/`escape tree` lines).
#
# tests/integration/mcast_trees.sh (make check, about 2 min): on
# random20, broadcast + 10 groups, OpenSM's own trees (`mcast_trees
# opensm`) with turnadd's unicast give `cdg=CYCLE` while the unicast
# tables alone are acyclic; turnadd's trees give an acyclic CDG with
# every member reached once, also after a group's members all leave (no
# entry left for its MLID), after `rnd-sw7` fails (its 5 hosts gone from
# the groups) and after it returns and its hosts join again.
# tests/unit/test_mcast checks the core's trees on 18 random nets and a
# fat tree.
#
# Fault campaigns with multicast (broadcast + 10 groups, this machine,
# loaded): `fault_campaign.sh --net ibsim_topos/random20.net --cycles 12
# --restore-every 4 --mcast-groups 10` (seed 1), the same on `topogen
# random 40 10 4 3` (--seed 5) and on `topogen fattree2 8 4 4` (--seed
# 7): every step OK (12 cycles each: link, leaf-spine, spine, leaf and
# multi failures, relinks, restores; unicast + multicast acyclic, every
# joined port still in the fabric reached once, no stale entry).  Not
# run with multicast: the other campaigns and bench_quality.sh's full
# fabric list.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"

fabrics=ft2-648,random60 groups=1,10,100 build=${TURNADD_BUILD:-$top} out='' max=32
while (($#)); do
	case $1 in
	--fabrics) fabrics=${2:?}; shift ;;
	--groups) groups=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--max) max=${2:?}; shift ;;
	*) fab_other_option bench_mcast "$1" ;;
	esac
	shift
done
build=$(cd "$build" && pwd)
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/bench_mcast.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
csv=$out/bench.csv
echo "fabric,groups,phase,lft_mads,mft_mads,seconds,verdict,trees_changed" >"$csv"
IFS=, read -ra fl <<<"$fabrics"
IFS=, read -ra gl <<<"$groups"
for fabric in "${fl[@]}"; do
	case $fabric in
	ft2-648) net=$top/ibsim_topos/ft2-36x18.net fail=ft-spine0 ;;
	random60)
		net=$out/random60.net fail=rnd-sw30
		"$build/ibsim_topos/topogen" random 60 10 10 1 >"$net" ;;
	*) echo "bench_mcast: unknown fabric $fabric" >&2; exit 2 ;;
	esac
	for n in "${gl[@]}"; do
		run=$out/$fabric-$n
		echo "bench_mcast: $fabric, $n groups ..." >&2
		"$here/mad_count.sh" --build "$build" --engine turnadd \
			--net "$net" --fail "$fail" --mcast-groups "$n" --mcast-max "$max" \
			--rows 0 --out "$run" >"$run.txt" 2>&1 || true
		# turnadd's tree lines per phase: between the SUBNET UPs
		awk -F, -v f="$fabric" -v n="$n" -v logfile="$run/opensm.log" '
			BEGIN {
				# trees changed by the failure sweep (from
				# the turnadd "gone since" line to its SUBNET UP)
				# and by the restore (the next sweep)
				while ((getline l < logfile) > 0) {
					if (l ~ /SUBNET UP/) up++
					if (l ~ /turnadd: gone since/) gone = 1
					if (l ~ /turnadd: multicast MLID/ &&
					    l ~ /(rebuilt|partly kept|escape tree)/) {
						if (up == 1 && gone) ch[2]++
						if (up == 2) ch[3]++
					}
				}
			}
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{
				ph = $c["phase"]
				t = "-"
				if (ph == "failure") t = ch[2] + 0
				if (ph == "restore") t = ch[3] + 0
				print f "," n "," ph "," $c["lft_mads"] "," \
					$c["mft_mads"] "," $c["seconds"] "," \
					$c["verdict"] "," t
			}' "$run/summary.csv" >>"$csv" 2>/dev/null ||
			echo "$fabric,$n,-,-,-,-,ERROR,-" >>"$csv"
	done
done
column -s, -t <"$csv"
echo "results: $out"
