# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# bench_lib.sh: what bench_reroute.sh and bench_speed.sh share.  Sourced
# (after fabric_lib.sh) by a bash script that uses `set -euo pipefail`;
# run alone it prints this text.
#
#   bench_net PROG NAME DIR TOPOGEN
#       sets bench_net_file to the netfile of the benchmark fabric NAME
#       and bench_base to NAME without its suffixes.  ft2-648 is
#       ibsim_topos/ft2-36x18.net; every other name is DIR/NAME.net,
#       written by TOPOGEN unless it is there.  An unknown name: "PROG:
#       unknown fabric NAME" on stderr, exit 2.
#   bench_wall T0
#       seconds since T0 (a `date +%s%N` value), one decimal.
#
# Fabric names (topogen arguments):
#   ft2-648      fattree2 36 18 18 (36 leaves x 18 spines, 648 hosts)
#   ft2-os24     fattree2 24 12 24 (24 hosts over 12 spines: 2:1)
#   ft2-os20     fattree2 36 16 20 (36-port leaves, 20 hosts, 16 spines)
#   ft2-os24x16  fattree2 40 16 24 (40-port leaves, 24 hosts, 16 spines)
#   ft2-par2     fattree2 36 9 18 2 (2 parallel links a leaf-spine pair)
#   ft2-par3     fattree2 24 6 18 3
#   ft3-648      fattree3 18 6 3 6 18 (36 leaves, 18 directors of 6 line
#                + 3 fabric switches)
#   ft3-5832     fattree3 18 18 9 18 18
#   ft3-11664    fattree3 18 36 18 18 18
#   ft2-2048     fattree2 64 32 32 (64-port leaf-spine)
#   ft3-16000    fattree3 20 40 20 20 20 (40-port 3-level, 2,000 switches)
#   ft3-32768    --switch-ports 64 fattree3 32 32 32 32 32 (64-port
#                3-level with half its pods, 3,072 switches, 35,840 LIDs)
#   dfp-96       dfplus 6 4 4 4 (Dragonfly+: 6 groups of 4 leaves x 4
#                spines, 4 hosts a leaf; switches dfp<g>-leaf<i>,
#                dfp<g>-spine<j>)
#   dfp-216      dfplus 9 4 4 4 2 (2 global cables a group pair)
#   dfp-1088     dfplus 17 8 8 8 (17 groups of 8 leaves x 8 spines)
#   dfp-10496    dfplus 41 16 16 16 (41 groups of 16 leaves x 16 spines,
#                16 hosts a leaf: 1,312 switches; for bench_speed.sh)
#   df-72        dragonfly 4 2 2 (9 groups of 4 routers, 2 global cables
#                and 2 hosts a router; switches df<g>-s<i>)
#   df-342       dragonfly 6 3 3 19 (19 groups of 6 routers)
#   df-456       dragonfly 6 3 4 (19 groups of 6 routers, 4 hosts each)
#   df-1056      dragonfly 8 4 4 (33 groups of 8 routers)
#   df-5256      dragonfly 12 6 6 73 (73 groups of 12 routers, 6 global
#                cables and 6 hosts a router: 876 switches)
# Suffixes for an incomplete fabric: -aPP-sN: PP % of the hosts absent,
# seed N (topogen --absent 0.PP --seed N); -pK (3-level): odd pods keep K
# leaves (topogen --partial-pods K); e.g. ft2-648-a30-s1, ft3-5832-p9-a50-s2.

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

bench_net() {
	local prog=$1 name=$2 dir=$3 topogen=$4 shape=() gen=() a
	bench_base=$name
	while [[ $bench_base =~ ^(.*)-(p[0-9]+|a[0-9][0-9]-s[0-9]+)$ ]]; do
		bench_base=${BASH_REMATCH[1]}
		case ${BASH_REMATCH[2]} in
		p*) shape+=(--partial-pods "${BASH_REMATCH[2]#p}") ;;
		a*) a=${BASH_REMATCH[2]}
			shape+=(--absent "0.${a:1:2}" --seed "${a#*-s}") ;;
		esac
	done
	case $bench_base in
	ft2-648) gen=(fattree2 36 18 18) ;;
	ft2-os24) gen=(fattree2 24 12 24) ;;
	ft2-os20) gen=(fattree2 36 16 20) ;;
	ft2-os24x16) gen=(fattree2 40 16 24) ;;
	ft2-par2) gen=(fattree2 36 9 18 2) ;;
	ft2-par3) gen=(fattree2 24 6 18 3) ;;
	ft3-648) gen=(fattree3 18 6 3 6 18) ;;
	ft3-5832) gen=(fattree3 18 18 9 18 18) ;;
	ft3-11664) gen=(fattree3 18 36 18 18 18) ;;
	ft2-2048) gen=(fattree2 64 32 32) ;;
	ft3-16000) gen=(fattree3 20 40 20 20 20) ;;
	ft3-32768) gen=(--switch-ports 64 fattree3 32 32 32 32 32) ;;
	dfp-96) gen=(dfplus 6 4 4 4) ;;
	dfp-216) gen=(dfplus 9 4 4 4 2) ;;
	dfp-1088) gen=(dfplus 17 8 8 8) ;;
	dfp-10496) gen=(dfplus 41 16 16 16) ;;
	df-72) gen=(dragonfly 4 2 2) ;;
	df-342) gen=(dragonfly 6 3 3 19) ;;
	df-456) gen=(dragonfly 6 3 4) ;;
	df-1056) gen=(dragonfly 8 4 4) ;;
	df-5256) gen=(dragonfly 12 6 6 73) ;;
	*)
		printf '%s: unknown fabric %s\n' "$prog" "$name" >&2
		exit 2 ;;
	esac
	if [[ $name == ft2-648 ]]; then
		bench_net_file=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." &&
			pwd)/ibsim_topos/ft2-36x18.net
	else
		bench_net_file=$dir/$name.net
		[[ -s $bench_net_file ]] || "$topogen" ${shape[@]+"${shape[@]}"} \
			"${gen[@]}" >"$bench_net_file"
	fi
}

bench_wall() {
	awk -v a="$1" -v b="$(date +%s%N)" \
		'BEGIN { printf "%.1f", (b - a) / 1e9 }'
}
