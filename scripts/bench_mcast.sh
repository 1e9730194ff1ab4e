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
