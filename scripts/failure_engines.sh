#!/bin/bash
# SPDX-License-Identifier: MIT
#
# failure_engines.sh: one switch fails on a fabric of each class, and
# the tables each engine leaves after OpenSM's resweep are read back from
# ibsim and judged by lftcheck: uniform throughput (-t), permutation
# bandwidth (--perm=100), and whether the channel dependency graph of
# unicast is acyclic on one VL.  turnadd reroutes from its memory
# (minimal change, or a routing from scratch where that is more than 2 %
# below it off fat trees); OpenSM's engines route the fabric as it is
# after the failure.  One route_check.sh run per fabric and engine.
#
#   failure_engines.sh [--build DIR] [--engines LIST] [--classes LIST]
#                      [--out DIR]
#
# Options:
#   --build DIR      build tree (default: $TURNADD_BUILD, else _build in
#                    the source tree)
#   --engines LIST   comma-separated (default: turnadd,minhop,dfsssp)
#   --classes LIST   comma-separated, from: ft (topogen fattree2 8 4 4,
#                    ft-spine1 fails), ftj (ft3join 4 middle, tB-core1),
#                    rnd (random 40 10 4 3, rnd-sw7), torus (torus 6 6 2,
#                    torus-sw14), hyperx (hyperx 2 5 2, hx-1-2),
#                    df (dragonfly 4 2 2, df3-s1), dfp (dfplus 6 4 4 4,
#                    dfp2-spine0) (default: all)
#   --bringup        no failure: the tables of the bring-up (the same
#                    fabrics whole, for comparison)
#   --out DIR        results (default: a new dir in /tmp): DIR/table.txt,
#                    DIR/CLASS-ENGINE/ (route_check.sh --out, lftcheck)
#   -h, --help       this text
#
# Output: one line per fabric and engine: uniform and permutation
# throughput after the failure, the CDG verdict on one VL, and the
# engine that made the tables (OpenSM falls back to minhop when one
# cannot route).  dfsssp and lash spread paths over several VLs: their
# CDG on one VL is expected to be cyclic.
#
# Example:
#   bash scripts/failure_engines.sh --classes rnd,dfp --engines turnadd,minhop
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TURNADD_BUILD:-$top/_build}
engines=turnadd,minhop,dfsssp
classes=ft,ftj,rnd,torus,hyperx,df,dfp
out=
bringup=0
while (($#)); do
	case $1 in
	--build) build=$2; shift 2 ;;
	--engines) engines=$2; shift 2 ;;
	--classes) classes=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--bringup) bringup=1; shift ;;
	-h | --help) sed -n '4,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "failure_engines.sh: unknown option $1 (--help)" >&2; exit 2 ;;
	esac
done
build=$(cd "$build" && pwd)
topogen=$build/ibsim_topos/topogen
lftcheck=$build/scripts/lftcheck
[[ -x $topogen && -x $lftcheck ]] || {
	echo "failure_engines.sh: build $build first (make)" >&2
	exit 2
}
out=${out:-$(mktemp -d /tmp/failure_engines.XXXXXX)}
mkdir -p "$out"

declare -A ARGS=(
	[ft]="fattree2 8 4 4" [ftj]="ft3join 4 middle"
	[rnd]="random 40 10 4 3" [torus]="torus 6 6 2"
	[hyperx]="hyperx 2 5 2" [df]="dragonfly 4 2 2"
	[dfp]="dfplus 6 4 4 4")
declare -A FAIL=(
	[ft]=ft-spine1 [ftj]=tB-core1 [rnd]=rnd-sw7 [torus]=torus-sw14
	[hyperx]=hx-1-2 [df]=df3-s1 [dfp]=dfp2-spine0)

printf '%-7s %-8s %-10s %9s %9s  %-8s %s\n' class engine failed uniform \
	permut cdg routed_by | tee "$out/table.txt"
IFS=, read -r -a cls <<<"$classes"
IFS=, read -r -a engs <<<"$engines"
for c in "${cls[@]}"; do
	[[ -n ${ARGS[$c]:-} ]] || {
		echo "failure_engines.sh: unknown class $c" >&2
		exit 2
	}
	# shellcheck disable=SC2086 # the generator's words
	"$topogen" ${ARGS[$c]} >"$out/$c.net"
	for e in "${engs[@]}"; do
		d=$out/$c-$e
		mkdir -p "$d"
		unlink=(--unlink "${FAIL[$c]}")
		((bringup)) && unlink=()
		TURNADD_PLUGIN_DIR=$build/plugin/.libs LFTCHECK=$lftcheck \
			LFTREAD=$build/scripts/lftread \
			bash "$top/scripts/route_check.sh" --engine "$e" \
			--net "$out/$c.net" ${unlink[@]+"${unlink[@]}"} \
			--allow-fallback --timeout 300 --out "$d" \
			>"$d/route_check.out" 2>&1 || true
		tp=- perm=- cdg=- by=-
		if [[ -s $d/lfts.txt && -s $d/topology.txt ]]; then
			"$lftcheck" -t --perm=100 "$d/topology.txt" "$d/lfts.txt" \
				>"$d/lftcheck.tp" 2>&1 || true
			tp=$(sed -n 's/^throughput=\([0-9.]*\).*/\1/p' "$d/lftcheck.tp" | head -n 1)
			perm=$(sed -n 's/^perm_bandwidth=\([0-9.]*\).*/\1/p' "$d/lftcheck.tp" | head -n 1)
			cdg=$(grep -o 'cdg=[A-Za-z]*' "$d/lftcheck.tp" | head -n 1)
		fi
		by=$(grep -F "tables configured on all switches" \
			"$d/opensm.log" 2>/dev/null | tail -n 1 |
			sed 's/.*: \([a-zA-Z0-9_]*\) tables configured.*/\1/')
		printf '%-7s %-8s %-10s %9s %9s  %-8s %s\n' "$c" "$e" \
			"$( ((bringup)) && echo none || echo "${FAIL[$c]}")" "${tp:--}" "${perm:--}" "${cdg#cdg=}" \
			"${by:--}" | tee -a "$out/table.txt"
	done
done
echo "results: $out"
