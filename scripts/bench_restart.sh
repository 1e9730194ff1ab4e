#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_restart.sh: LFT Set MADs and time of an OpenSM restart with
# turnadd.  Starts ibsim on NETFILE and OpenSM with turnadd, waits until
# the bring-up is quiet, stops OpenSM by PID, optionally sends one ibsim
# console command (e.g. 'Unlink "ft-spine0"') while no SM runs, starts a
# new OpenSM on the same fabric and counts the LFT Sets it sends
# (scripts/libmadcount.so preloaded into opensm).  Not part of make check.
#
#   bench_restart.sh --build BUILD --net NETFILE [--between CMD]
#                    [--conf-extra LINE]... [--timeout SECS]
#
# --conf-extra adds opensm.conf lines to both OpenSMs; TURNADD_CONFIG
# (e.g. a file with "lft_read_on_start no") applies to both as well.
# Prints: bring-up and restart LFT Sets, seconds to SUBNET UP, and
# turnadd's "LFT read" log lines of the restart.  Exit status 0; 2 an unknown
# option; 3 no --build or --net, or the fabric could not be run.
#
# Example:
#
#     bench_restart.sh --build _build --net ibsim_topos/ft2-36x18.net \
#         --between 'Unlink "ft-spine0"'
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"

build='' net='' between='' timeout_s=900 extra=()
while (($#)); do
	case $1 in
	--build) build=${2:?}; shift ;;
	--net) net=${2:?}; shift ;;
	--between) between=${2:?}; shift ;;
	--conf-extra) extra+=("${2:?}"); shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	*) fab_other_option bench_restart "$1" ;;
	esac
	shift
done
[[ -n $build && -n $net ]] || fab_die "--build and --net are needed"
build=$(cd "$build" && pwd)
net=$(cd "$(dirname "$net")" && pwd)/$(basename "$net")
[[ -r $build/scripts/.libs/libmadcount.so ]] ||
	fab_die "no libmadcount.so in $build (make)"

fab_init
fab_start_ibsim "$net"
FAB_OSM_PRELOAD=$build/scripts/.libs/libmadcount.so
FAB_OSM_ENV=("MADCOUNT_LOG=$FAB_DIR/madcount.log")

sets() {
	if [[ -r $FAB_DIR/madcount.log ]]; then
		wc -l <"$FAB_DIR/madcount.log"
	else
		echo 0
	fi
}

# until no LFT Set for 2 s
settle() {
	local n m
	n=$(sets)
	while sleep 2; m=$(sets); [[ $m != "$n" ]]; do n=$m; done
}

# run_sm WHAT: one OpenSM until its tables are out; prints its Sets and
# seconds (not in a subshell: FAB_OPENSM_PID must reach the caller)
run_sm() {
	local before t0 t1
	before=$(sets)
	t0=$(date +%s.%N)
	fab_start_opensm turnadd "$build/plugin/.libs" \
		${extra[@]+"${extra[@]}"}
	fab_wait_subnet_up "$timeout_s"
	t1=$(date +%s.%N)
	settle
	printf '%s: %s LFT Sets, SUBNET UP after %.1f s\n' "$1" \
		"$(($(sets) - before))" "$(echo "$t1 - $t0" | bc)"
}

run_sm bring-up
fab_stop_pid "$FAB_OPENSM_PID" 5
FAB_OPENSM_PID=
mv "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.bringup.log"
if [[ -n $between ]]; then
	fab_console "$between"
	sleep 1
fi
run_sm restart
grep -E 'turnadd: LFT read' "$FAB_DIR/opensm.log" | sed 's/^.* -> /  /' || true
