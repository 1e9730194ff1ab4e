#!/bin/bash
# SPDX-License-Identifier: MIT
#
# mad_count.sh: counts the LFT SubnSet MADs (attribute 0x0019) OpenSM
# sends at bring-up, after a switch failure and after its restore.
#
#   mad_count.sh --net NETFILE --engine ENGINE --fail NAME [options]
#
# Starts ibsim on NETFILE and OpenSM with ENGINE, waits until the subnet
# is up and quiet (no sweep ending, no MAD counted for --quiet seconds),
# unlinks the failed switches on ibsim's console, waits for the
# trap-driven resweep to settle, ReLinks them and waits again.  After each
# phase it reads the topology and every LFT back by directed routes
# (ibnetdiscover, lftread) and runs lftcheck --throughput on them.
#
# Options:
#   --engine LIST       routing_engine of opensm.conf: turnadd (loaded with
#                       event_plugin_name) or a built-in (ftree, minhop,
#                       updn, dnup, ...), with OpenSM's default LIDs
#   --net FILE          ibsim netfile (ibsim_topos/topogen)
#   --fail NAME         switch to fail (repeatable)
#   --fail-prefix PFX   fail every switch whose name starts with PFX, e.g.
#                       dir3- (a director of topogen fattree3) (repeatable)
#   --bound ports|paths the failure's bound: ports (default) the
#                       port-major formula below (fat trees), paths the
#                       64-LID blocks, switch by switch, of the LIDs
#                       whose bring-up route leaves that switch straight
#                       into a failed switch or cable (read from the
#                       bring-up tables by lftcheck --through: entries
#                       every reroute must change; any fabric); the
#                       blocks of the routes that cross the failed part
#                       further on (those a reroute moving only the
#                       routes that must move writes at most) are
#                       printed below the table and go to
#                       failure-through.txt
#   --fail-link A B     fail one link instead: the lowest-numbered port
#                       of switch A cabled to switch B (Unlink, then
#                       ReLink, of that port); bound: the 64-LID blocks
#                       of A and B whose bring-up entries used the link
#                       (read from the bring-up tables)
#   --counter KIND      preload (default): libmadcount.so preloaded into
#                       opensm logs each LFT Set it sends (method checked);
#                       ibsim: count "process_packet: packet (attr 0x19 mod
#                       0xBLOCK) reached host NAME port N" lines of ibsim -v
#                       (no method in them; OpenSM 3.3.23 sends no LFT Get,
#                       and the read-backs run outside the counted windows);
#                       both: the two at once, in the same run: the
#                       preload counts are reported, ibsim's per-switch
#                       tally goes to PHASE-ibsim.csv beside PHASE.csv, and
#                       a phase where they differ fails (status 1)
#   --no-restore        stop after the failure phase
#   --down-at-start     the failed switches are unlinked before OpenSM
#                       starts (a fabric that comes up in pieces): the
#                       bring-up routes the rest, there is no failure
#                       phase, and the restore relinks them (throughput
#                       after it: compare with a run without this option)
#   --no-check          count only: no read-back, no lftcheck
#   --no-bringup-check  no read-back and lftcheck after bring-up
#   --build DIR         build tree with scripts/lftcheck, scripts/lftread,
#                       scripts/madtally, scripts/.libs/libmadcount.so and
#                       plugin/.libs (default: $TURNADD_BUILD, else the
#                       source tree)
#   --plugin-dir DIR    libturnadd.so's directory (default: DIR/plugin/.libs)
#   --conf-extra LINE   extra opensm.conf line (repeatable)
#   --lmc N             OpenSM's lmc N (0-7; as --conf-extra 'lmc N'): the
#                       bound counts every host port's 2^N LIDs (below)
#   --quiet SECS        quiet time that ends a phase: no sweep ending, no
#                       LFT MAD, no OpenSM log line (default 1, plus 1 per
#                       200 switches); a sweep seen later, during the
#                       read-back, is reported as a warning
#   --relink-pace SECS  pause between the ReLink commands (default 0: all
#                       at once; failures are always injected at once).
#                       Relinking a whole 11,664-host director at once
#                       can deadlock ibsim and opensm (each blocked
#                       writing to the other); 0.2 avoids it (below)
#   --timeout SECS      bound for each phase and read-back (default 600)
#   --rows N            switches listed in the table (default 10; 0: none)
#   --mcast-groups N    after bring-up every host joins the IPoIB broadcast
#                       group and N new groups of random members get
#                       joined by SA requests (mcjoin, mcast_lib.sh), in a
#                       phase "joins" of its own (after the restore the
#                       hosts join again, as IPoIB does when its port
#                       comes back: restore phase); every check then also
#                       checks the multicast tables (lftcheck --mfts).
#                       mft_mads counts MulticastForwardingTable Sets
#                       (attribute 0x001B) per phase either way (ibsim
#                       counter: its "attr 0x1b" lines)
#   --mcast-seed S      picks the random members (default 1)
#   --mcast-max M       at most M members in each of the N groups
#                       (default: up to every host)
#   --out DIR           where the results go (default: a new dir in /tmp)
#   -v, --verbose       log the steps to stderr
#
# Exit status: 0 every check OK; 1 a check failed; 2 bad usage; 3 the
# fabric could not be run; 4 OpenSM fell back to another engine.
#
# Examples:
#
#     mad_count.sh --build BUILD --net ibsim_topos/ft2-36x18.net \
#         --engine ftree --fail ft-spine0 [--out DIR]
#     mad_count.sh --build BUILD --net ft3-5832.net --engine turnadd \
#         --fail-prefix dir3- --out DIR
#
# (BUILD: the build tree, default `$TURNADD_BUILD` or the source tree.)
# One command: ibsim on the net (own
# `IBSIM_SOCKNAME`, as every run of fabric_lib.sh), OpenSM with the engine
# (`turnadd` through `event_plugin_name`, or any built-in: ftree, minhop,
# updn, dnup, ... with OpenSM's default LIDs), then three phases:
#
# 1. bring-up: until the first `SUBNET UP` and then no sweep ending, no
#    LFT MAD counted and no OpenSM log line (trap notices) for `--quiet`
#    seconds (default 1 s + 1 s per 200 switches); a sweep that still
#    ends or sends LFT MADs later (during the read-back) is reported as a
#    warning (warnings.txt): a routing step longer than the quiet time
#    right after a `SUBNET UP` is not seen otherwise;
# 2. failure: `Unlink "NAME"` on ibsim's console for every switch given by
#    `--fail NAME` or `--fail-prefix PFX` at once; the neighbours' trap 128
#    makes OpenSM resweep; until a new `SUBNET UP` and quiet again;
# 3. restore: `ReLink "NAME"` for each (ibsim 0.10 keeps the unlinked
#    peers; relinking sends trap 128 too, OpenSM resweeps and finds the
#    switches again); until settled (`--no-restore` skips it;
#    `--relink-pace SECS` pauses between the ReLinks, see below).
#
# With `--down-at-start` the failed switches are unlinked before OpenSM
# starts (a fabric that comes up in pieces, or a director added later):
# the bring-up routes the rest, there is no failure phase, and the
# restore relinks them; compare its throughput with a run without the
# option (tests/integration/fabric_growth.sh does).
#
# After each phase: ibnetdiscover, lftread and `lftcheck --throughput`
# (`--no-check`: counts only; `--no-bringup-check`).  Output: a table on
# stdout, and in the out dir `summary.csv` (one row per phase: MADs,
# switches written, bound, ratio, verdict, throughput, the engine that
# configured the tables, seconds from the event to the last MAD;
# lmc_spines_min/mean: lftcheck's distinct next hops of a port's LIDs
# from each leaf, "-" without LMC; through_blocks: with --bound paths,
# after the failure, the blocks of the bring-up routes that cross the
# failed part, else "-"), `mad_counts.csv` (phase, switch,
# guid, lft_mads, blocks, mft_mads per switch; TOTAL rows),
# `mad_counts.json` (the same), and per phase the topology, LFTs,
# checker output and the raw MAD records; plus opensm.log.
#
#     net ft2-36x18.net, engine ftree, counter preload, failed: ft-spine0 (1 switches)
#     phase     LFT_MADs switches   bound  ratio verdict throughput max_load routed_by     seconds
#     bringup        594       54       -      - OK          1.0000   1.0000 ftree            0.49
#     failure        396       36      36  11.00 OK          0.5135   1.9474 ftree            0.33
#     restore        407       37      47   8.66 OK          1.0000   1.0000 ftree            0.33
#
# The bound: after the failure, the sum over leaves (switches with hosts)
# of ceil((hosts + leaves) * k / P / 64), k = the leaf's links to failed
# switches, P its inter-switch links (one spine of 18: ceil((hosts +
# leaves) / 18 / 64) blocks per leaf), i.e. the blocks that hold the LIDs
# routed through the failed switches when LIDs are port-major (the hosts'
# and the leaves' own, which other leaves reach through some spine too;
# on the complete fat trees this is the same number as hosts alone);
# after the restore, that plus the whole table (max LID / 64 + 1 blocks)
# of each returning switch.  With LMC L (m = 2^L LIDs a host port) the
# host term is hosts * m * min(m, P): a port's m LIDs are one aligned
# run that leaves through min(m, P) distinct spines (mad_lib.sh).
#
# A link instead of a switch: `--fail-link A B` unlinks the lowest port
# of switch A cabled to switch B (`Unlink "A"[p]`, later `ReLink
# "A"[p]`).  Its bound is read from the bring-up tables: the 64-LID blocks
# of A whose entries send out of that port plus those of B whose entries
# send back over the same cable, i.e. the entries whose routes must move.
# It is a lower bound when another link joins A and B (parallel links:
# the other routes can stay); with a single link, routes elsewhere that
# lead through it must move too and the bound says less.
#
# How MADs are counted (outside the engine)
# -----------------------------------------
#
# Two independent counters, `--counter preload|ibsim|both` (`both` runs
# the two in the same run, below):
#
# * `preload` (default): `libmadcount.so` is preloaded into opensm before
#   umad2sim.  It wraps libibumad's `umad_send()` (libosmvendor calls it
#   through the PLT), decodes the SMP and, if the send succeeded, appends
#   `<block> D <hops> 0,p1,..,pN` (directed route, class 0x81) or `<block>
#   L <dlid>` (class 0x01) to `MADCOUNT_LOG` for method Set (0x02) of
#   attribute 0x0019 only.  OpenSM 3.3.23 sends every LFT block by
#   directed route with permissive LIDs (`osm_req_set`); `madtally`
#   resolves each route from the node in ibnetdiscover's "Initiated from
#   node" line (the SM's node) over the topology read after the phase.
# * `ibsim`: ibsim runs with `-v` and logs every MAD it handles;
#   LFT blocks are the lines
#   `ibwarn: [PID] process_packet: packet (attr 0x19 mod 0xBLOCK) reached host NAME port N`
#   (N: the port the MAD came in on, not 0).  The line has no method, so
#   Get and Set look alike; OpenSM 3.3.23 sends no LFT Get (the one caller,
#   in osm_sw_info_rcv.c, is under `#if 0`) and the read-backs run outside
#   the counted windows (windows are line ranges of the log).  turnadd
#   does send LFT Gets, once, before the first routing of an OpenSM
#   (plugin/lft_read.h), to switches whose LinearFDBTop is not 0; in
#   mad_count.sh that is the bring-up on a fresh ibsim, whose switches all
#   report 0, so no Get falls in a counted window.
#
# For tests, `MADCOUNT_SPOIL_LFT_GET=N` makes the preload send the N-th
# LFT SubnGet of the process (from 1) with attribute modifier 0xffff, a
# block no switch has: ibsim answers with an error status, so that block
# stays unread (tests/integration/restart_lfts.sh).
#
# Likewise the plugin itself reads `TURNADD_TEST_FAIL=POINT:N[,POINT:N...]`
# (tests only): the N-th routing of the OpenSM process fails at POINT
# (`graph`, `prior`, `core` or `tables`), as running out of memory there
# would.  tests/integration/resweep_failures.sh uses it to check that a
# routing failing at a resweep leaves every switch its table (compared
# entry by entry on the read-backs), with one ERROR line and no fallback,
# and that at the first routing OpenSM still falls back to minhop.
#
# For diagnostics, `TURNADD_MEM_PROBE=1` in opensm's environment makes the
# plugin log one INFO line "memory at STEP" (VmRSS, VmHWM, the heap in use
# and free from mallinfo2) at each step of a sweep it sees: heavy sweep
# start and done, port-major LIDs done, routing start, routes computed,
# min-hop tables filled, forwarding tables start, subnet up.  bench_speed.sh
# passes its environment on: `TURNADD_MEM_PROBE=1 bash
# scripts/bench_speed.sh --fabrics ft3-16000 --engines turnadd` leaves the
# lines in DIR/runs/*/opensm.log.  Without it the plugin logs one line per
# routing, "memory kept until the next routing" (its routing memory and
# multicast state against the process's figures), and, after a sweep
# whose routing changed at least 65,536 LFT blocks, "free heap pages given
# back after the sweep" (see README, peak memory).
#
# Both agree switch by switch.  `--counter both` preloads the library
# and runs ibsim with `-v` at once: the preload counts are reported,
# ibsim's tally of the same phase goes to `PHASE-ibsim.csv` beside
# `PHASE.csv`, and a phase where the two differ is an error (status 1,
# warnings.txt).  tests/integration/mad_count_fabrics.sh checks it on a
# small 3-level fabric in one run (two separate runs could differ by an
# extra sweep under load; one run cannot); on ft2-36x18 with ftree and
# minhop the per-switch CSVs are identical.  Speed: on ft2-36x18 both take ~6 s
# for the three phases with read-backs (the MAD count is small); on
# the 5,832-host fabric the preload run takes 75 s (ftree).  The preload
# counter costs one short write per LFT MAD; ibsim -v writes a line per
# MAD of any kind and is the slower one on large fabrics.
#
# OpenSM 3.3.23 rewrites whole tables of switches whose ports changed
# -------------------------------------------------------------------
#
# `set_lft_block()` sends a block only if it differs, *unless*
# `p_sw->need_update` is set.  At the start of every heavy sweep OpenSM
# sets `need_update = 1` on every switch (`state_mgr_reset_switch_count`),
# and clears it in `osm_port_info_rcv.c` only if the switch's
# SwitchInfo.PortStateChange bit is clear.  ibsim (like real switches)
# sets that bit on every switch with a port that went down or up, i.e. on
# every leaf when a spine fails or returns.  So every leaf gets its whole
# LFT again (ftree on ft2-36x18: 396 = 36 leaves x 11 blocks), whatever the
# engine computed; only switches without port changes (the other spines)
# get just the differing blocks.  The paper's OpenSM 3.3.7 did not do this.
#
# ibsim and opensm can deadlock on a trap storm
# ---------------------------------------------
#
# Relinking all 54 switches of an 11,664-host director at once (54 ReLink
# commands back to back) left ibsim spinning on `write()` = EAGAIN to
# opensm's socket while opensm's threads were blocked writing to ibsim
# (seen once, with ftree; no SUBNET UP for 7 minutes).  With
# `--relink-pace 0.2` the same restore went through (238,474 MADs, one
# sweep).  Pacing the Unlinks instead is no good: OpenSM then starts
# sweeping before the director is gone and restarts, and the failure
# count grows (ftree, 11,664 hosts: 568,256 MADs instead of 227,242), so
# failures are always injected at once.  A phase that does not settle ends
# with an error after `--timeout`.
#
# Multicast
# ---------
#
# MFT Sets are counted like LFT Sets: libmadcount.so logs each
# SubnSet(MulticastForwardingTable, 0x001B) as an `mft ` line, madtally
# adds a `mft_mads` column per switch, and mad_count.sh's summary.csv a
# `mft_mads` column per phase (the ibsim counter counts its `attr 0x1b`
# lines).  `mad_count.sh
# --mcast-groups N [--mcast-seed S] [--mcast-max M]` adds a `joins`
# phase after bring-up and checks multicast in every phase;
# bench_reroute.sh passes `--mcast-groups` on and reports the MFT Sets
# per phase; `fault_campaign.sh --mcast-groups N` joins after bring-up,
# joins again after every relink/restore (as IPoIB does when its port
# comes back) and fails a step on any multicast finding (verdict
# `mcast`).
#
# The multicast check reads the MFTs of OpenSM's dump (opensm.mcfdbs,
# `log_flags` with 0x40); `mftread` reads them back from the switches by
# directed routes, in the same format.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mad_lib.sh
. "$here/mad_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mcast_lib.sh
. "$here/mcast_lib.sh"

engine='' net='' out='' counter=preload build=${TURNADD_BUILD:-$here/..}
plugin_dir='' quiet='' timeout_s=600 rows=10 pace=0
restore=1 check=1 check_bringup=1 down_at_start=0
fails=() prefixes=() conf_extra=() link_a='' link_b='' bound_kind=ports
mc_groups='' mc_seed=1 mc_max=0

while (($#)); do
	case $1 in
	--engine) engine=${2:?}; shift ;;
	--net) net=${2:?}; shift ;;
	--fail) fails+=("${2:?}"); shift ;;
	--fail-prefix) prefixes+=("${2:?}"); shift ;;
	--fail-link) link_a=${2:?} link_b=${3:?}; shift 2 ;;
	--bound) bound_kind=${2:?}; shift
		[[ $bound_kind =~ ^(ports|paths)$ ]] ||
			fab_die "bad --bound '$bound_kind' (ports or paths)" ;;
	--counter) counter=${2:?}; shift ;;
	--no-restore) restore=0 ;;
	--down-at-start) down_at_start=1 ;;
	--no-check) check=0 ;;
	--no-bringup-check) check_bringup=0 ;;
	--build) build=${2:?}; shift ;;
	--plugin-dir) plugin_dir=${2:?}; shift ;;
	--conf-extra) conf_extra+=("${2:?}"); shift ;;
	--lmc) [[ ${2:?} =~ ^[0-7]$ ]] || fab_die "bad --lmc '$2' (0 to 7)"
		conf_extra+=("lmc $2"); shift ;;
	--quiet) quiet=${2:?}; shift ;;
	--relink-pace) pace=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--rows) rows=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--mcast-groups) mc_groups=${2:?}; shift ;;
	--mcast-seed) mc_seed=${2:?}; shift ;;
	--mcast-max) mc_max=${2:?}; shift ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option mad_count "$1" ;;
	esac
	shift
done
[[ -n $engine && -n $net ]] || fab_usage
((${#fails[@]} + ${#prefixes[@]})) || [[ -n $link_a ]] || {
	printf 'mad_count: say what fails: --fail NAME, --fail-prefix PFX or --fail-link A B\n' >&2
	fab_usage
}
[[ -z $link_a ]] || ((${#fails[@]} + ${#prefixes[@]} == 0)) ||
	fab_die "--fail-link goes alone (no --fail, --fail-prefix)"
[[ $counter == preload || $counter == ibsim || $counter == both ]] ||
	fab_die "bad --counter '$counter' (preload, ibsim or both)"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || fab_die "bad --timeout '$timeout_s'"
[[ $rows =~ ^[0-9]+$ ]] || fab_die "bad --rows '$rows'"
[[ -z $quiet || $quiet =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
	fab_die "bad --quiet '$quiet'"
[[ $pace =~ ^[0-9]+(\.[0-9]+)?$ ]] || fab_die "bad --relink-pace '$pace'"
[[ -z $mc_groups || $mc_groups =~ ^[0-9]+$ ]] ||
	fab_die "bad --mcast-groups '$mc_groups'"
[[ $mc_seed =~ ^[0-9]+$ ]] || fab_die "bad --mcast-seed '$mc_seed'"
[[ $mc_max =~ ^[0-9]+$ ]] || fab_die "bad --mcast-max '$mc_max'"
[[ -r $net ]] || fab_die "cannot read netfile $net"
net=$(fab_abspath "$net")
fab_build_paths
madtally=$build/scripts/madtally
madlib=$build/scripts/.libs/libmadcount.so
for t in "$lftcheck" "$lftread" "$madtally"; do
	[[ -x $t ]] || fab_die "$t not built (make, or pass --build DIR)"
done
if [[ $counter != ibsim && ! -r $madlib ]]; then
	fab_die "$madlib not built (make, or pass --build DIR)"
fi
if [[ ,$engine, == *,turnadd,* && ! -e $plugin_dir/libturnadd.so ]]; then
	fab_die "no libturnadd.so in $plugin_dir"
fi

# the LMC OpenSM runs with (the last "lmc N" line wins, as in opensm.conf)
MAD_LMC=0
for l in ${conf_extra[@]+"${conf_extra[@]}"}; do
	if [[ $l =~ ^[[:space:]]*lmc[[:space:]]+([0-7])[[:space:]]*$ ]]; then
		MAD_LMC=${BASH_REMATCH[1]}
	fi
done
export MAD_LMC

# the switches (or the link) to fail, from the netfile
if [[ -n $link_a ]]; then
	link_port=$(mad_link_port "$net" "$link_a" "$link_b")
	[[ -n $link_port ]] ||
		fab_die "no link from switch '$link_a' to switch '$link_b' in $net"
	failed=("${link_a}[$link_port]")
	check_bringup=1
else
	[[ $bound_kind == ports ]] || check_bringup=1
	mapfile -t failed < <(mad_fail_list "$net" \
		${fails[@]+"${fails[@]}"} -- ${prefixes[@]+"${prefixes[@]}"})
	((${#failed[@]})) || fab_die "no switch of $net matches --fail/--fail-prefix"
fi
n_switches=$(grep -c '^Switch' "$net" || true)
if [[ -z $quiet ]]; then
	quiet=$((1 + n_switches / 200))
fi
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/mad_count.XXXXXX")
else
	mkdir -p "$out"
fi
out=$(cd "$out" && pwd)
rm -f "$out"/{summary,mad_counts}.csv "$out"/{mad_counts.json,warnings.txt}

fab_init
count_file=$FAB_DIR/madcount.log
: >"$count_file"
if [[ $counter != preload ]]; then
	FAB_IBSIM_OPTS=-v
	MAD_IBSIM_FILE=$FAB_DIR/ibsim.err
fi
if [[ $counter == ibsim ]]; then
	count_file=$MAD_IBSIM_FILE
else
	FAB_OSM_PRELOAD=$madlib
	FAB_OSM_ENV=("MADCOUNT_LOG=$FAB_DIR/madcount.log")
fi
fab_start_ibsim "$net"
t_start=$(date +%s%N)
if [[ -n $mc_groups ]]; then
	MC_MCJOIN=$build/scripts/mcjoin
	[[ -x $MC_MCJOIN ]] || fab_die "$MC_MCJOIN not built"
	# opensm.mcfdbs is written with the routing log flag only
	conf_extra+=("log_flags 0x43")
	MAD_MC_ARGS=(--mfts "$FAB_DIR/dump/opensm.mcfdbs"
		--mc-members "$FAB_DIR/mcjoin.out")
	: >"$FAB_DIR/mcjoin.out"
fi
if ((down_at_start)); then
	[[ -z $link_a ]] || fab_die "--down-at-start takes switches, not --fail-link"
	for sw in "${failed[@]}"; do
		fab_unlink "$sw"
	done
fi
fab_start_opensm "$engine" "$plugin_dir" ${conf_extra[@]+"${conf_extra[@]}"}
fab_wait_subnet_up "$timeout_s"

MAD_OUT=$out MAD_NET=$net MAD_ENGINE=$engine MAD_COUNTER=$counter
MAD_QUIET=$quiet MAD_TIMEOUT=$timeout_s MAD_COUNT_FILE=$count_file
MAD_TALLY=$madtally MAD_LFTCHECK=$lftcheck MAD_LFTREAD=$lftread
MAD_FAILED="${failed[*]}"
label=(${fails[@]+"${fails[@]}"} ${prefixes[@]+"${prefixes[@]/%/*}"})
[[ -z $link_a ]] || label=("${link_a}[$link_port]-$link_b")
MAD_FAILED_LABEL=$(IFS=+; printf '%s' "${label[*]}")
mad_summary_header

# bring-up: from the start to the first quiet point
mad_settle 0
mad_phase bringup 0 "$t_start" "$check_bringup" 0

if [[ -n $mc_groups ]]; then
	# joins: broadcast group by every host, then the new groups
	ups=$(fab_count_up)
	from=$(mad_lines)
	mad_mark
	t0=$(date +%s%N)
	mc_join_groups "$mc_groups" "$mc_seed" "$mc_max"
	mad_settle $((ups - 1))
	mad_phase joins "$from" "$t0" "$check" 0
fi

# failure: every failed switch unlinked at once (already down with
# --down-at-start: no failure phase, the bound still applies to the restore)
if ((!down_at_start)); then
	ups=$(fab_count_up)
	from=$(mad_lines)
	mad_mark
	t0=$(date +%s%N)
	for sw in "${failed[@]}"; do
		fab_unlink "$sw"
	done
	mad_settle "$ups"
fi
if [[ $bound_kind == paths ]]; then
	bound=$(mad_paths_bound "$out" ${failed[@]+"${failed[@]}"})
	if [[ -n $link_a ]]; then returning=(); else returning=("${failed[@]}"); fi
elif [[ -n $link_a ]]; then
	bound=$(mad_link_bound "$net" "$out/bringup-lfts.txt" "$link_a" \
		"$link_port")
	returning=()
else
	bound=$(mad_bound "$net" "${failed[@]}")
	returning=("${failed[@]}")
fi
((down_at_start)) || mad_phase failure "$from" "$t0" "$check" "$bound"

if ((restore)); then
	ups=$(fab_count_up)
	from=$(mad_lines)
	mad_mark
	t0=$(date +%s%N)
	for sw in "${failed[@]}"; do
		if [[ $sw =~ ^(.+)\[([0-9]+)\]$ ]]; then
			fab_console "ReLink \"${BASH_REMATCH[1]}\"[${BASH_REMATCH[2]}]"
		else
			fab_console "ReLink \"$sw\""
		fi
		sleep "$pace"
	done
	mad_settle "$ups"
	if [[ -n $mc_groups ]] && mc_has_hosts ${failed[@]+"${failed[@]}"}; then
		# hosts of a returning switch join again, as IPoIB does; their
		# MFT Sets belong to the restore phase
		mc_rejoin
		mad_settle $(($(fab_count_up) - 1))
	fi
	mad_phase restore "$from" "$t0" "$check" "$bound" \
		${returning[@]+"${returning[@]}"}
fi

cp -- "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.conf" "$out/"
mad_write_json
mad_print_table "$rows"
printf 'results: %s\n' "$out"
exit "$(mad_status)"
