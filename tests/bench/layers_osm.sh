#!/bin/bash
# SPDX-License-Identifier: MIT
#
# layers_osm.sh: turnadd over 1 to 4 layers (option vls) against dfsssp
# under OpenSM and ibsim: uniform throughput and permutation bandwidth
# of the tables read back (lftcheck -t --perm=100), SLs used, and the
# verdict of every SL's channel dependency graph (turnadd: lftcheck --sl
# on opensm-turnadd-sl.dump).  OpenSM runs with qos TRUE (SL i to VL i)
# and dump files on.  Prints a Markdown table.  Not part of make check.
#
#   layers_osm.sh BUILD_DIR "TOPOGEN ARGS" ["TOPOGEN ARGS" ...]
#
# e.g. layers_osm.sh _build "dragonfly 6 3 3 19" "random 60 10 10 1"
set -euo pipefail

build=$(cd "${1:?usage: layers_osm.sh BUILD_DIR \"TOPOGEN ARGS\"...}" && pwd)
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/fabric_lib.sh
. "$src/scripts/fabric_lib.sh"
lftcheck=$build/scripts/lftcheck
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers_osm.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

# val KEY FILE: the value of KEY= in lftcheck's output
val() {
	grep -oE "(^| )$1=[^ ]+" "$2" | head -n 1 | sed 's/.*=//'
}

# one ENGINE VLS NET: prints a table row
one() (
	local engine=$1 vls=$2 net=$3 out=$tmp/check.txt sl=() sls cdg
	printf 'vls %s\n' "$vls" >"$tmp/turnadd.conf"
	export TURNADD_CONFIG=$tmp/turnadd.conf
	fab_init
	fab_start_ibsim "$net"
	fab_start_opensm "$engine" "$build/plugin/.libs" 'qos TRUE' \
		'log_flags 0x43'
	fab_wait_subnet_up 600
	fab_engine_used "$engine" || fab_die "$engine: OpenSM fell back"
	fab_read_back "$build/scripts/lftread" 600
	if [[ $engine == turnadd ]]; then
		sl=(--sl "$FAB_DIR/dump/opensm-turnadd-sl.dump")
		sls=$(awk '{ print $3 }' "$FAB_DIR/dump/opensm-turnadd-sl.dump" |
			sort -un | wc -l)
	else
		sls=$(grep -oE 'Virtual Lanes needed: [0-9]+' \
			"$FAB_DIR/opensm.log" | tail -n 1 | grep -oE '[0-9]+$' ||
			echo -)
	fi
	"$lftcheck" -t --perm=100 ${sl[@]+"${sl[@]}"} "$FAB_DIR/topology.txt" \
		"$FAB_DIR/lfts.txt" >"$out" 2>&1 || true
	cdg=$(grep -oE "cdg=[A-Za-z]+" "$out" | tail -n 1)
	[[ $engine == turnadd ]] || cdg="cdg=- (VLs by dfsssp)"
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$label" \
		"$engine${vls:+ vls $vls}" "$(val throughput "$out")" \
		"$(val perm_bandwidth "$out")" "$sls" "${cdg#cdg=}" \
		"$(val unreachable_host_pairs "$out")"
)

echo '| fabric | engine | uniform | perm | SLs used | CDG per SL | unreachable pairs |'
echo '|---|---|---|---|---|---|---|'
for spec in "$@"; do
	# shellcheck disable=SC2086 # spec: the generator's arguments
	"$build/ibsim_topos/topogen" $spec >"$tmp/net"
	label=$spec
	for v in 1 2 3 4; do
		one turnadd "$v" "$tmp/net"
	done
	one dfsssp '' "$tmp/net"
done
