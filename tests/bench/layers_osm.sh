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
#   layers_osm.sh BUILD_DIR [--time] [--vls LIST] "TOPOGEN ARGS" ...
#
# --vls LIST: the vls values of turnadd's rows, comma-separated
# (default 1,2,3,4); with a LIST the dfsssp row is left out.
#
# e.g. layers_osm.sh _build "dragonfly 6 3 3 19" "random 60 10 10 1"
#
# --time: the routing step's seconds instead, as scripts/bench_speed.sh
# measures it (route_s: OpenSM's log from "STARTING SWITCH TABLE CONFIG"
# to "tables configured on all switches"; osm_state_mgr.c and
# osm_ucast_mgr.c log at VERBOSE, the rest at OpenSM's default level, so
# no dump files, and no read-back), with turnadd's own graph + routing
# seconds and the layers it took (its log), dfsssp's VLs.
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

# route_s LOG: "route_s self_s" of the last routing step in OpenSM's log
# ("-" where none), as bench_speed.sh's parse_window
route_s() {
	awk '
		BEGIN {
			split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", m, " ")
			for (i = 1; i <= 12; i++) mon[m[i]] = i
			r = self = "-"
		}
		$1 in mon && $4 ~ /^[0-9]+$/ && $5 ~ /^\[/ {
			split($3, hms, ":")
			cur = ((mon[$1] * 31 + $2) * 24 + hms[1]) * 3600 + \
				hms[2] * 60 + hms[3] + $4 / 1e6
		}
		/STARTING SWITCH TABLE CONFIG/ { box = cur }
		/ tables configured on all switches/ && box != "" {
			r = sprintf("%.3f", cur - box)
		}
		/turnadd: routes: .* graph [0-9.]+ s, routing [0-9.]+ s/ {
			s = $0; sub(/.* graph /, "", s); g = s + 0
			sub(/.*, routing /, "", s); self = sprintf("%.3f", g + s)
		}
		END { print r, self }' "$1"
}

# timed ENGINE VLS NET: prints a row of the --time table
timed() (
	local engine=$1 vls=$2 net=$3 log times layers
	printf 'vls %s\n' "$vls" >"$tmp/turnadd.conf"
	# shellcheck disable=SC2030 # each run's subshell has its own
	export TURNADD_CONFIG=$tmp/turnadd.conf
	fab_init
	printf 'osm_state_mgr.c 0x07\nosm_ucast_mgr.c 0x07\n' \
		>"$FAB_DIR/per-module-logging.conf"
	fab_start_ibsim "$net"
	fab_start_opensm "$engine" "$build/plugin/.libs" 'qos TRUE' \
		"per_module_logging_file $FAB_DIR/per-module-logging.conf"
	fab_wait_subnet_up 900
	fab_engine_used "$engine" || fab_die "$engine: OpenSM fell back"
	log=$FAB_DIR/opensm.log
	times=$(route_s "$log")
	if [[ $engine == turnadd ]]; then
		layers=$(grep -oE 'vls [0-9]+: [0-9]+ layers? taken' "$log" |
			tail -n 1 | grep -oE '[0-9]+ layers? taken' || echo '1 layer')
	else
		layers="$(grep -oE 'Virtual Lanes needed: [0-9]+' "$log" |
			tail -n 1 | grep -oE '[0-9]+$' || echo -) VLs"
	fi
	printf '| %s | %s | %s | %s | %s |\n' "$label" \
		"$engine${vls:+ vls $vls}" "${times% *}" "${times#* }" \
		"${layers% taken}"
)

# one ENGINE VLS NET: prints a table row
one() (
	local engine=$1 vls=$2 net=$3 out=$tmp/check.txt sl=() sls cdg
	printf 'vls %s\n' "$vls" >"$tmp/turnadd.conf"
	# shellcheck disable=SC2031 # each run's subshell has its own
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

time_only=0 vls_list=1,2,3,4 dfsssp=1
while [[ ${1:-} == --* ]]; do
	case $1 in
	--time) time_only=1; shift ;;
	--vls)
		vls_list=${2:?--vls needs a list}
		[[ $vls_list =~ ^[1-8](,[1-8])*$ ]] || fab_die "bad --vls '$vls_list'"
		dfsssp=0
		shift 2 ;;
	*) fab_die "unknown option $1" ;;
	esac
done
if ((time_only)); then
	echo "| fabric | engine | routing s | turnadd's own s | layers / VLs |"
	echo '|---|---|---|---|---|'
else
	echo '| fabric | engine | uniform | perm | SLs used | CDG per SL | unreachable pairs |'
	echo '|---|---|---|---|---|---|---|'
fi
for spec in "$@"; do
	# shellcheck disable=SC2086 # spec: the generator's arguments
	"$build/ibsim_topos/topogen" $spec >"$tmp/net"
	label=$spec
	run=one
	((!time_only)) || run=timed
	for v in ${vls_list//,/ }; do
		$run turnadd "$v" "$tmp/net"
	done
	((!dfsssp)) || $run dfsssp '' "$tmp/net"
done
