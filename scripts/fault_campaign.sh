#!/bin/bash
# SPDX-License-Identifier: MIT
#
# fault_campaign.sh: a seeded campaign of random failures and restores on
# a simulated fabric routed by turnadd, checking the tables after each.
#
#   fault_campaign.sh --net NETFILE [options]
#
# Starts ibsim on NETFILE and OpenSM with the turnadd plugin
# (event_plugin_name turnadd, routing_engine turnadd), then runs --cycles
# cycles.  Each cycle is one event on ibsim's console, chosen by a PRNG
# (bash $RANDOM seeded with --seed) from a model of the fabric's links:
#
#   link       Unlink "sw"[port]: one inter-switch link (either end)
#   leafspine  one link between a switch with hosts and one without
#   spine      Unlink "sw": a whole switch without hosts
#   leaf       Unlink "sw": a switch with hosts (they are cut off too)
#   multi      2 to 4 of the above at once
#   relink     ReLink one failed link or switch
#   restore    ReLink everything (every --restore-every cycles, and
#              after the last cycle as step "final")
#   takeover   SIGKILL to the master OpenSM; a standby takes over
#              (every --takeover-every cycles)
#
# The switch the SM (and the read-back) attaches to is never failed
# whole.  After each event: wait until OpenSM's resweep has ended and
# nothing moved for --quiet seconds (bounded by --step-timeout; if the
# model says the SM's part of the fabric changed but no sweep comes
# within --sweep-wait s, a lost trap is noted and OpenSM gets SIGHUP,
# which forces a heavy sweep), read the topology (ibnetdiscover) and
# every LFT (lftread) back by directed routes and run lftcheck (with
# -t and --perm for the throughputs, see Quality below).  The
# read-back only holds the part of the fabric connected to the SM's node,
# so lftcheck counts exactly the host pairs that are still physically
# connected; the script checks that those hosts and switches are the ones
# its own model of the failed links says are connected.
#
# A step breaks a property if: a connected host pair or host-to-switch
# route is unreachable, a port has no LID, the CDG has a cycle, OpenSM
# died, OpenSM logged an ERROR (level 0x01) line from turnadd, the tables
# were made by another engine, the subnet did not settle in time, or the
# read-back (or ibsim's answer to a console command) disagrees with the
# model.
#
# Options:
#   --net FILE           ibsim netfile (ibsim_topos/topogen)
#   --cycles N           events (default 100)
#   --seed N             PRNG seed (default 1); the same seed, net and
#                        options give the same events
#   --build DIR          build tree with scripts/lftcheck, scripts/lftread,
#                        scripts/.libs/libmadcount.so, plugin/.libs
#                        (default: $TURNADD_BUILD, else the source tree)
#   --plugin-dir DIR     libturnadd.so's directory (default DIR/plugin/.libs)
#   --out DIR            results (default: a new dir in /tmp)
#   --timeout SECS       time budget of the whole campaign (default 3000):
#                        no cycle starts after it; the cycles not run are
#                        reported
#   --step-timeout SECS  bound for one settle or read-back (default 60)
#   --quiet SECS         quiet time that ends a step (default 1, plus 1
#                        per 200 switches)
#   --sweep-wait SECS    wait for a trap-driven sweep before SIGHUP
#                        (default 10)
#   --restore-every N    ReLink everything every N cycles (default 10)
#   --lmc N              OpenSM's lmc N (0 to 7; default: OpenSM's 0):
#                        every port 2^N LIDs, all checked by lftcheck
#   --mcast-groups N     multicast too (mcast_lib.sh): after bring-up every
#                        host joins the IPoIB broadcast group and N new
#                        groups get random members by SA joins; after each
#                        relink/restore the hosts join again (as IPoIB
#                        does); every step also checks the multicast
#                        tables (lftcheck --mfts: every member reached
#                        once, CDG of unicast and multicast together); a
#                        failure there is verdict "mcast"
#   --takeover-every N   every N-th cycle (before a restore due then) is a
#                        takeover: a standby OpenSM starts (own host: a
#                        host of the SM's switch, own dir, cache and log,
#                        sm_priority 14 below the master's 15) and, once
#                        STANDBY, the master gets SIGKILL; the standby
#                        becomes master and sweeps, the LFT Sets are
#                        counted, the tables read back.  The next standby
#                        starts on the killed master's host (its own dir
#                        and cache again, one priority lower); at most 15
#                        takeovers (priorities 14 to 0), the cycles after
#                        are as without the option.  (Under ibsim a
#                        master that gets a new standby's trap 144 can
#                        stop sweeping for good: its SMInfo query of the
#                        standby never completes.  So no standby runs
#                        between takeovers.)
#   --perm N             permutations for the permutation throughput
#                        (lftcheck --perm=N; default 100)
#   --tp-margin F        flag a step whose uniform or permutation
#                        throughput is below the from-scratch reference,
#                        and one of them below the bring-up's, by more
#                        than F (default 0.02)
#   --strict             quality flags make a step bad (exit status 1)
#   --only KIND          every failure cycle fails KIND (link, leafspine,
#                        spine, leaf, multi) instead of the kind drawn
#   --ref-lids same|fresh  the reference routes the fabric with the LIDs
#                        it holds (same, default: a guid2lid file of
#                        them, as a restarted OpenSM keeps them) or with
#                        the LIDs a fresh OpenSM gives it (fresh); the
#                        routing from scratch depends on the LID order
#   --ref-cache FILE     the references of fabric states (default
#                        OUT/refs.csv); give a file of an earlier campaign
#                        on the same net to reuse its runs
#   --keep-all           keep every step's read-back, not only bad ones
#   --vls N              turnadd's option vls N (routes over N layers,
#                        the SL of each path its layer): OpenSM with qos
#                        TRUE (SL i on VL i) and its dump files, every
#                        check then builds one channel dependency graph
#                        per SL from the tables read back and the SLs of
#                        opensm-turnadd-sl.dump (lftcheck --sl); the
#                        references route with vls N too
#   --failure-routes M   turnadd's option failure_routes M (compared,
#                        minimal or nexthop; default: turnadd's compared)
#   --escape-root NAME   turnadd's escape_root option set to switch NAME
#                        (not the SM's switch); 10% of the failure
#                        cycles then fail that switch ("root")
#   --traffic FILE       turnadd's traffic_file option set to a copy of
#                        FILE; 10% of the failure cycles fail a switch
#                        holding hosts of a group FILE names by prefix
#                        ("groupsw"), and before 30% of the cycles the
#                        copy is removed, or restored if it was removed
#                        (the ERROR lines saying that the last good
#                        traffic groups stay in force are counted as
#                        config_errors, not as engine errors)
#   --dry-run            no fabric: only write the events of the seed to
#                        actions.log (they depend on the model alone, so a
#                        real run with the same options sends the same)
#   -v, --verbose        log the steps to stderr
#
# Quality: every step's tables also give lftcheck -t's uniform
# throughput and --perm's permutation throughput (perm_bandwidth).  Each
# is compared with what turnadd gets routing the same fabric state from
# scratch (campaign_ref.sh: a second ibsim on the netfile without the
# down links, a fresh OpenSM given the fabric's LIDs; cached per state): "tp_low" if either is
# below it by more than --tp-margin and either is below the bring-up's by
# more than that too (uniform throughput scaled to the hosts left: with
# fewer hosts sending, the same routes load a channel less): the step
# left the fabric worse than before the faults and than a routing from
# scratch of it.  A step with nothing down (restore,
# final, a relink of the last link, a takeover then) must give the
# bring-up's throughputs within 1e-4, else "not_bringup".  The flags are
# reported (steps.csv quality column, summary.csv, the table) and keep
# the step's read-back; with --strict they also make it bad.
#
# Output: a table on stdout; in the out dir steps.csv (one row per step:
# action, what is down, settle, LFT MADs, reachability, cdg (of unicast,
# with --mcast-groups of unicast and multicast together), throughput,
# perm_bandwidth, their references, quality, master), summary.csv (one
# row), actions.log (the console commands of each cycle), refs.csv (the
# references), opensm.log (with takeovers: the OpenSMs of the SM's node
# opensm.log, .1, ... and of the standby's host standby-opensm.log...), and
# for every bad or flagged step a dir step-NNN with its topology, LFTs
# and lftcheck output.
#
# Example:
#   fault_campaign.sh --build _build --net ibsim_topos/ft2-6x3.net \
#       --cycles 10 --restore-every 5 --takeover-every 4 --out /tmp/ft
#
# Exit status: 0 every step OK; 1 a step broke a property (or, with
# --strict, was quality-flagged); 2 bad usage; 3 the fabric could not be
# run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mcast_lib.sh
. "$here/mcast_lib.sh"
# shellcheck source-path=SCRIPTDIR source=fault_model.sh
. "$here/fault_model.sh"
# shellcheck source-path=SCRIPTDIR source=fault_events.sh
. "$here/fault_events.sh"
# shellcheck source-path=SCRIPTDIR source=campaign_ref.sh
. "$here/campaign_ref.sh"
# shellcheck source-path=SCRIPTDIR source=sm_pair_lib.sh
. "$here/sm_pair_lib.sh"
# shellcheck source-path=SCRIPTDIR source=campaign_step.sh
. "$here/campaign_step.sh"
# shellcheck source-path=SCRIPTDIR source=campaign_report.sh
. "$here/campaign_report.sh"

net='' out='' cycles=100 seed=1 build=${TURNADD_BUILD:-$here/..}
plugin_dir='' budget=3000 step_timeout=60 quiet='' sweep_wait=10
restore_every=10 keep_all=0 dry_run=0 root_name='' traffic=''
failure_routes=''
mc_groups='' MC_ARGS=() R_MC=0 lmc_conf=() takeover_every=0 perm=100 vls=1
tp_margin=0.02 strict=0 only_kind=
while (($#)); do
	case $1 in
	--net) net=${2:?}; shift ;;
	--cycles) cycles=${2:?}; shift ;;
	--seed) seed=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--plugin-dir) plugin_dir=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--timeout) budget=${2:?}; shift ;;
	--step-timeout) step_timeout=${2:?}; shift ;;
	--quiet) quiet=${2:?}; shift ;;
	--sweep-wait) sweep_wait=${2:?}; shift ;;
	--restore-every) restore_every=${2:?}; shift ;;
	--keep-all) keep_all=1 ;;
	--takeover-every) takeover_every=${2:?}; shift ;;
	--perm) perm=${2:?}; shift ;;
	--tp-margin) tp_margin=${2:?}; shift ;;
	--strict) strict=1 ;;
	--only) only_kind=${2:?}; shift
		[[ $only_kind =~ ^(link|leafspine|spine|leaf|multi)$ ]] ||
			fab_die "bad --only '$only_kind'" ;;
	--ref-cache) REF_FILE=$(fab_abspath "${2:?}"); shift ;;
	--ref-lids) REF_LIDS=${2:?}; shift
		[[ $REF_LIDS =~ ^(same|fresh)$ ]] ||
			fab_die "bad --ref-lids '$REF_LIDS' (same or fresh)" ;;
	--failure-routes) failure_routes=${2:?}; shift
		[[ $failure_routes =~ ^(compared|minimal|nexthop)$ ]] ||
			fab_die "bad --failure-routes '$failure_routes'" ;;
	--escape-root) root_name=${2:?}; shift ;;
	--traffic) traffic=${2:?}; shift ;;
	--mcast-groups) mc_groups=${2:?}; shift ;;
	--lmc) [[ ${2:?} =~ ^[0-7]$ ]] || fab_die "bad --lmc '$2' (0 to 7)"
		lmc_conf=("lmc $2"); shift ;;
	--vls) [[ ${2:?} =~ ^[1-8]$ ]] || fab_die "bad --vls '$2' (1 to 8)"
		vls=$2; shift ;;
	--dry-run) dry_run=1 ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option fault_campaign "$1" ;;
	esac
	shift
done
[[ -n $net ]] || fab_usage
for v in cycles seed budget step_timeout sweep_wait restore_every \
	takeover_every perm; do
	[[ ${!v} =~ ^[0-9]+$ ]] || {
		printf 'fault_campaign: bad --%s %s\n' "${v//_/-}" "${!v}" >&2
		fab_usage
	}
done
((budget > 0 && step_timeout > 0 && sweep_wait > 0 && restore_every > 0)) ||
	fab_usage
[[ $tp_margin =~ ^0?\.[0-9]+$|^0$ ]] || fab_die "bad --tp-margin '$tp_margin'"
[[ -z $quiet || $quiet =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
	fab_die "bad --quiet '$quiet'"
[[ -r $net ]] || fab_die "cannot read netfile $net"
[[ -z $traffic || -r $traffic ]] || fab_die "cannot read traffic file $traffic"
net=$(fab_abspath "$net")
fab_build_paths
madlib=$build/scripts/.libs/libmadcount.so
for t in "$lftcheck" "$lftread"; do
	[[ -x $t ]] || fab_die "$t not built (make, or pass --build DIR)"
done
[[ -r $madlib ]] || fab_die "$madlib not built (make, or pass --build DIR)"
[[ -e $plugin_dir/libturnadd.so ]] || fab_die "no libturnadd.so in $plugin_dir"

# ---- the campaign ----

if [[ -n $traffic ]]; then
	# group prefixes of the traffic file (GUID groups are not modelled)
	mapfile -t GROUP_PREFIXES < <(awk '$1 == "group" && $3 == "prefix" { print $4 }' "$traffic")
fi
model_load "$net"
model_component
if [[ -n $root_name ]]; then
	[[ -n ${SW_HOSTS[$root_name]+x} ]] || fab_die "no switch named '$root_name' in $net"
	[[ $root_name != "$SM_SW" ]] || fab_die "--escape-root $root_name: the SM's switch is never failed"
fi
n_switches=${#SWITCHES[@]}
if [[ -z $quiet ]]; then
	quiet=$((1 + n_switches / 200))
fi
quiet_ns=$(awk -v q="$quiet" 'BEGIN { printf "%d", q * 1e9 }')
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/fault_campaign.XXXXXX")
else
	mkdir -p "$out"
fi
out=$(cd "$out" && pwd)
rm -rf -- "$out"/step-[0-9]* "$out"/{steps,summary}.csv \
	"$out"/{steps.tmp,actions.log,refs.err} "$out"/opensm.log* \
	"$out"/standby-opensm.log*
: >"$out/actions.log"
: >"$out/steps.tmp"
rm -f -- "$out/traffic" "$out/traffic.away" "$out/turnadd.conf"

RANDOM=$seed
t_start=$(now_ns)
# shellcheck disable=SC2317 # called from the EXIT trap
on_exit() {
	[[ -z ${SB_PID:-} ]] || fab_stop_pid "$SB_PID" 5
	local f
	if [[ -n $FAB_DIR && -f $FAB_DIR/opensm.log ]]; then
		cp -- "$FAB_DIR"/opensm.log* "$out/" 2>/dev/null || true
		for f in "$FAB_DIR"/sm-b/opensm.log*; do
			[[ ! -f $f ]] || cp -- "$f" "$out/standby-${f##*/}" || true
		done
	fi
	fab_cleanup
}
# the master's node (ibsim's first) and dir (the run dir)
SM_HOST=$(awk '/^(Switch|Hca|Ca)[ \t]/ { split($0, q, "\""); print q[2]; exit }' "$net")
SB_HOST='' SB_PID='' SB_DIR='' SM_PRIO=14 SB_CONF=()
LC_TP_ARGS=(-t "--perm=$perm")
if ((vls > 1)); then
	# SL i on VL i (qos), and the dump files with the SL of every path
	lmc_conf+=("qos TRUE" "log_flags 0x43")
	SL_DUMP=opensm-turnadd-sl.dump
fi
sm_conf=(${lmc_conf[@]+"${lmc_conf[@]}"})
if ((takeover_every)); then
	# the standby: a host of the SM's switch (never cut off)
	SB_HOST=$(awk -v sw="$SM_SW" '
		/^(Switch|Hca|Ca)[ \t]/ { split($0, q, "\""); cur = q[2]; t = $1 }
		t != "Switch" && /^\[[0-9]+\]/ && index($0, "\"" sw "\"") { h = cur }
		END { print h }' "$net")
	[[ -n $SB_HOST ]] ||
		fab_die "--takeover-every: no host on the SM's switch $SM_SW"
	sm_conf+=("${SMP_POLL_CONF[@]}")
fi
SB_CONF=(${sm_conf[@]+"${sm_conf[@]}"})
if ((!dry_run)); then
	fab_init
	trap on_exit EXIT
	MADLOG=$FAB_DIR/madcount.log
	: >"$MADLOG"
	FAB_OSM_PRELOAD=$madlib
	FAB_OSM_ENV=("MADCOUNT_LOG=$MADLOG")
	fab_start_ibsim "$net"
	if [[ -n $root_name || -n $traffic || -n $failure_routes ]] ||
		((vls > 1)); then
		: >"$out/turnadd.conf"
		((vls == 1)) || printf 'vls %s\n' "$vls" >>"$out/turnadd.conf"
		[[ -z $failure_routes ]] ||
			printf 'failure_routes %s\n' "$failure_routes" \
				>>"$out/turnadd.conf"
		if [[ -n $root_name ]]; then
			printf 'escape_root %s\n' "$(fab_node_guid "$root_name")" \
				>>"$out/turnadd.conf"
		fi
		if [[ -n $traffic ]]; then
			cp -- "$traffic" "$out/traffic"
			printf 'traffic_file %s\n' "$out/traffic" >>"$out/turnadd.conf"
		fi
		FAB_OSM_ENV+=("TURNADD_CONFIG=$out/turnadd.conf")
		REF_ENV=("TURNADD_CONFIG=$out/turnadd.conf")
	fi
	SM_DIR=$FAB_DIR
	((takeover_every == 0)) || sm_conf+=("sm_priority 15")
	if [[ -n $mc_groups ]]; then
		# opensm.mcfdbs is written with the routing log flag only
		fab_start_opensm turnadd "$plugin_dir" "log_flags 0x43" \
			${sm_conf[@]+"${sm_conf[@]}"}
		SB_CONF+=("log_flags 0x43")
		MC_MCJOIN=$build/scripts/mcjoin
		MC_ARGS=(--mfts "$FAB_DIR/dump/opensm.mcfdbs"
			--mc-members "$FAB_DIR/mcjoin.out")
		fab_wait_subnet_up "$step_timeout"
		mc_join_groups "$mc_groups" "$seed"
		sleep 1
	else
		fab_start_opensm turnadd "$plugin_dir" \
			${sm_conf[@]+"${sm_conf[@]}"}
		fab_wait_subnet_up "$step_timeout"
	fi
	# the first standby's host and dir (it starts at the first takeover)
	SPARE_DIR=$FAB_DIR/sm-b SPARE_HOST=$SB_HOST
fi

# step 0: the bring-up
run_step bringup -
done_cycles=0 stopped=''
for ((cycle = 1; cycle <= cycles; cycle++)); do
	if ((CRASHED)); then
		stopped="opensm died"
		break
	fi
	if (($(now_ns) - t_start >= budget * 1000000000)); then
		stopped="time budget of $budget s"
		break
	fi
	kind=''
	if [[ -n $traffic ]] && { rnd 100; ((RND < 30)); }; then
		toggle_traffic
	fi
	if ((takeover_every && cycle % takeover_every == 0 && SM_PRIO >= 0)); then
		kind=takeover
	elif ((cycle % restore_every == 0)); then
		relink_all
		kind=restore
	elif (($(down_links) > 0)) && { rnd 100; ((RND < 25)); }; then
		relink_one
		kind=relink
	else
		draw_failure
		kind=$KIND
	fi
	run_step "cycle$cycle" "$kind"
	[[ $kind != takeover ]] || SM_PRIO=$((SM_PRIO - 1))
	done_cycles=$cycle
done
if ((!CRASHED)) && (($(down_links) > 0)); then
	relink_all
	run_step final restore
fi
if ((dry_run)); then
	cat "$out/actions.log"
	rm -f -- "$out/steps.tmp"
	exit 0
fi
MAD_FROM[STEP]=$(mad_records)
report_write
report_print
if ((BAD_STEPS)); then
	((takeover_every == 0)) || more_opts=" --takeover-every $takeover_every"
	((strict == 0)) || more_opts+=" --strict"
	[[ -z $only_kind ]] || more_opts+=" --only $only_kind"
	printf 'fault_campaign: %d step(s) broke a property; reproduce with: %s --net %s --seed %s --cycles %s --restore-every %s%s%s%s\n' \
		"$BAD_STEPS" "$0" "$net" "$seed" "$cycles" "$restore_every" \
		"${root_name:+ --escape-root $root_name}" \
		"${traffic:+ --traffic $traffic}" \
		"${more_opts:-}" >&2
	exit 1
fi
if ((Q_STEPS)); then
	printf 'fault_campaign: %d step(s) quality-flagged (see the quality column)\n' \
		"$Q_STEPS" >&2
fi
exit 0
