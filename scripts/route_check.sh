#!/bin/bash
# SPDX-License-Identifier: MIT
#
# route_check.sh: bring a simulated fabric up with one OpenSM routing
# engine and check the forwarding tables with lftcheck.
#
#   route_check.sh --engine ENGINE --net NETFILE [options]
#
# Options:
#   --engine LIST       routing_engine of opensm.conf (e.g. minhop, updn,
#                       turnadd); "turnadd" also sets event_plugin_name
#   --net FILE          ibsim netfile (see ibsim_topos/topogen)
#   --conf-extra LINE   extra opensm.conf line (repeatable)
#   --root NAME         an Up*/Down* root switch (ibsim node name,
#                       repeatable): written to a root_guid_file
#   --allow-fallback    do not fail when OpenSM fell back to another engine
#   --unlink SPEC       after the subnet is up, unlink node NAME (all ports)
#                       or one port, NAME[PORT], on the ibsim console, wait
#                       for OpenSM's resweep, then check (repeatable; all
#                       are unlinked at once)
#   --plugin-dir DIR    put DIR first on LD_LIBRARY_PATH for opensm
#                       (default: $TURNADD_PLUGIN_DIR)
#   --lftcheck PATH     the checker (default: $LFTCHECK, else lftcheck next
#                       to this script)
#   --lftread PATH      the LFT reader (default: $LFTREAD, else lftread
#                       next to lftcheck); "dump_fts" uses infiniband-diags'
#                       dump_fts instead (misses some entries, see lftread.c)
#   --timeout SECS      bound for the bring-up (default 60)
#   --out DIR           copy opensm.log, opensm.conf, topology.txt, lfts.txt
#                       and lftcheck.out into DIR
#   -v, --verbose       log the steps and their timings to stderr
#
# Output: lftcheck's report (lftcheck(8)), e.g.
#
#     hosts=100 switches=20 host_pairs=9900 unreachable_host_pairs=0 unreachable_host_to_switch=0
#     max_sw_hops=3 mean_sw_hops=1.520
#     cdg_channels=200 cdg_edges=538 cdg=acyclic
#     verdict=OK
#     timing: subnet_up=0.273 read_back=0.387 checked=0.392 (s since start)
#
# or, with a cycle, `cdg=CYCLE len=K: sw[p]->sw[p]->...->sw[p]` (the first
# channel repeated at the end; `sw[p]` = leaving switch `sw` by port `p`),
# plus up to 10 `unreachable: ...` lines naming the source switch, the
# destination, the reason and the switch where the route fails.
#
# Exit status: that of lftcheck: 0 all reachable and the CDG acyclic, 1
# not, 2 bad input (2 also for bad usage of this script); 3 the fabric
# could not be run (tool missing, timeout, a process died); 4 the tables
# were made by a fallback engine: OpenSM logs `<engine> tables configured
# on all switches`, and that is not the first engine of --engine (e.g.
# `updn` without a root on a random net, or a plugin that did not load).
# --allow-fallback turns 4 off.
#
# Examples:
#
#     ibsim_topos/topogen random 30 8 4 7 > /tmp/r30.net
#     LFTCHECK=$BUILD/scripts/lftcheck scripts/route_check.sh \
#         --engine turnadd --plugin-dir $BUILD/plugin/.libs --net /tmp/r30.net
#     scripts/route_check.sh --lftcheck $BUILD/scripts/lftcheck \
#         --engine updn --root rnd-sw0 --net ibsim_topos/random20.net -v --out /tmp/run
#
# `lftcheck TOPOLOGY LFTS` can be run alone on the saved files (--out DIR
# keeps topology.txt, lfts.txt, opensm.log, opensm.conf), or on a real
# fabric's ibnetdiscover (or ibnetdiscover -p) and dump_lfts / ibroute
# output (README "Checking a real fabric", lftcheck(8)).  lftcheck,
# lftread and turnadd-lids are installed by `make install` and the Debian
# package, with man pages.  How a run goes (ibsim, OpenSM, the waits, the
# read-back, the cleanup): `bash scripts/fabric_lib.sh --help`.
#
# Timings (this machine, minhop unless said):
#
# | fabric | subnet up | read-back | check | total |
# | --- | --- | --- | --- | --- |
# | ring8 (8 sw, 16 hosts) | 0.12 s | 0.06 s | <0.01 s | 0.25 s |
# | random20 (20 sw x 10 ports, 100 hosts), updn | 0.27 s | 0.11 s | <0.01 s | 0.45 s |
# | fattree2 36x18, 648 hosts | 0.66 s | 0.5 s | 0.01 s | 1.3 s |
# | random 300 sw x 8 ports, 1200 hosts | 1.6 s | 2.0 s | 0.06 s | 3.8 s |
# | fattree2 200x100, 8000 hosts | 14.4 s | 7.4 s | 0.26 s | 22 s |
#
# OpenSM 3.3.23's `updn` finds no root by itself on random nets and falls
# back to minhop (hence --root).  With a root, on random nets of 100 and
# 300 switches its tables contain down-then-up turns and the CDG has
# cycles (each dependency of the reported cycle checked against a real
# route), e.g. `topogen random 100 10 5 7`, root rnd-sw0.  On
# random20.net with root rnd-sw0 it is acyclic.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"

engine='' net='' out='' timeout_s=60
plugin_dir=${TURNADD_PLUGIN_DIR:-}
lftcheck=${LFTCHECK:-$here/lftcheck}
lftread=${LFTREAD:-}
conf_extra=() roots=() unlinks=() allow_fallback=0
while (($#)); do
	case $1 in
	--engine) engine=${2:?}; shift ;;
	--net) net=${2:?}; shift ;;
	--conf-extra) conf_extra+=("${2:?}"); shift ;;
	--root) roots+=("${2:?}"); shift ;;
	--allow-fallback) allow_fallback=1 ;;
	--unlink) unlinks+=("${2:?}"); shift ;;
	--plugin-dir) plugin_dir=${2:?}; shift ;;
	--lftcheck) lftcheck=${2:?}; shift ;;
	--lftread) lftread=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option route_check "$1" ;;
	esac
	shift
done
[[ -n $engine && -n $net ]] || fab_usage
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || fab_die "bad --timeout '$timeout_s'"
[[ -x $lftcheck ]] || fab_die "lftcheck not found at $lftcheck (build it, or pass --lftcheck)"
lftread=${lftread:-$(dirname "$lftcheck")/lftread}
if [[ $lftread != dump_fts ]]; then
	lftread=$(fab_abspath "$lftread")
fi
if [[ -n $plugin_dir && $plugin_dir != /* ]]; then
	plugin_dir=$PWD/$plugin_dir	# opensm runs in the run dir
fi
[[ $lftread == dump_fts || -x $lftread ]] ||
	fab_die "lftread not found at $lftread (build it, or pass --lftread)"
if [[ ,$engine, == *,turnadd,* && -n $plugin_dir &&
	! -e $plugin_dir/libturnadd.so ]]; then
	fab_die "no libturnadd.so in $plugin_dir"
fi

# shellcheck disable=SC2317 # called from the EXIT trap
save_outputs() {
	local f
	[[ -n $out ]] || return 0
	mkdir -p "$out"
	for f in opensm.log opensm.conf topology.txt lfts.txt lftcheck.out \
		lftread.err ibsim.out ibsim.err; do
		if [[ -f $FAB_DIR/$f ]]; then
			cp -- "$FAB_DIR/$f" "$out/"
		fi
	done
}

fab_init
trap 'save_outputs; fab_cleanup' EXIT
fab_start_ibsim "$net"
if ((${#roots[@]})); then
	for r in "${roots[@]}"; do
		fab_node_guid "$r"
	done >"$FAB_DIR/root_guids"
	conf_extra+=("root_guid_file $FAB_DIR/root_guids")
fi
fab_start_opensm "$engine" "$plugin_dir" ${conf_extra[@]+"${conf_extra[@]}"}
fab_wait_subnet_up "$timeout_s"
t_up=$(fab_elapsed)
if ((${#unlinks[@]})); then
	ups=$(fab_count_up)
	for u in "${unlinks[@]}"; do
		fab_unlink "$u"
	done
	fab_wait_resweep "$ups" "$timeout_s"
	t_up="$t_up resweep=$(fab_elapsed)"
fi
fallback=0
if ! fab_engine_used "$engine"; then
	printf 'route_check: OpenSM did not use %s: %s\n' "${engine%%,*}" \
		"$(grep -F 'tables configured' "$FAB_DIR/opensm.log" | tail -n 1)" >&2
	fallback=1
fi
fab_read_back "$lftread" "$timeout_s"
t_read=$(fab_elapsed)
rc=0
fab_run_lftcheck "$lftcheck" || rc=$?
printf 'timing: subnet_up=%s read_back=%s checked=%s (s since start)\n' \
	"$t_up" "$t_read" "$(fab_elapsed)"
if ((rc == 0 && fallback && !allow_fallback)); then
	rc=4
fi
exit "$rc"
