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
#
# The switch the SM (and the read-back) attaches to is never failed
# whole.  After each event: wait until OpenSM's resweep has ended and
# nothing moved for --quiet seconds (bounded by --step-timeout; if the
# model says the SM's part of the fabric changed but no sweep comes
# within --sweep-wait s, a lost trap is noted and OpenSM gets SIGHUP,
# which forces a heavy sweep), read the topology (ibnetdiscover) and
# every LFT (lftread) back by directed routes and run lftcheck.  The
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
#   --keep-all           keep every step's read-back, not only bad ones
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
# Output: a table on stdout; in the out dir steps.csv (one row per step),
# summary.csv (one row), actions.log (the console commands of each
# cycle), opensm.log, and for every bad step a dir step-NNN with its
# topology, LFTs and lftcheck output.
#
# Exit status: 0 every step OK; 1 a step broke a property; 2 bad usage;
# 3 the fabric could not be run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mcast_lib.sh
. "$here/mcast_lib.sh"
# shellcheck source-path=SCRIPTDIR source=fault_model.sh
. "$here/fault_model.sh"

net='' out='' cycles=100 seed=1 build=${TURNADD_BUILD:-$here/..}
plugin_dir='' budget=3000 step_timeout=60 quiet='' sweep_wait=10
restore_every=10 keep_all=0 dry_run=0 root_name='' traffic=''
mc_groups='' MC_ARGS=() R_MC=0 lmc_conf=()
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
	--escape-root) root_name=${2:?}; shift ;;
	--traffic) traffic=${2:?}; shift ;;
	--mcast-groups) mc_groups=${2:?}; shift ;;
	--lmc) [[ ${2:?} =~ ^[0-7]$ ]] || fab_die "bad --lmc '$2' (0 to 7)"
		lmc_conf=("lmc $2"); shift ;;
	--dry-run) dry_run=1 ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option fault_campaign "$1" ;;
	esac
	shift
done
[[ -n $net ]] || fab_usage
for v in cycles seed budget step_timeout sweep_wait restore_every; do
	[[ ${!v} =~ ^[0-9]+$ ]] || {
		printf 'fault_campaign: bad --%s %s\n' "${v//_/-}" "${!v}" >&2
		fab_usage
	}
done
((budget > 0 && step_timeout > 0 && sweep_wait > 0 && restore_every > 0)) ||
	fab_usage
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

# ---- the PRNG: every draw in this shell, never in a subshell ----

RND=0
rnd() {	# RND = uniform in 0 .. $1 - 1
	RND=$((((RANDOM << 15) | RANDOM) % $1))
}

# ---- events ----

CMDS=()		# console commands of the current step
TOUCHED=()	# switches at the ends of links that changed
FAILED_ITEMS=0

log_action() {
	printf '%s\n' "$*" >>"$out/actions.log"
}

fail_link() {
	local i=$1
	if ((RANDOM % 2)); then
		CMDS+=("Unlink \"${L_A[i]}\"[${L_PA[i]}]")
	else
		CMDS+=("Unlink \"${L_B[i]}\"[${L_PB[i]}]")
	fi
	L_DOWN[i]=1
	TOUCHED+=("${L_A[i]}" "${L_B[i]}")
	FAILED_ITEMS=$((FAILED_ITEMS + 1))
}

fail_switch() {
	local s=$1 i
	CMDS+=("Unlink \"$s\"")
	for i in ${SW_LINKS[$s]}; do
		if ((L_DOWN[i] == 0)); then
			L_DOWN[i]=1
			TOUCHED+=("${L_A[i]}")
			((L_SS[i] == 0)) || TOUCHED+=("${L_B[i]}")
		fi
	done
	FAILED_ITEMS=$((FAILED_ITEMS + 1))
}

# Candidates, in model order: CAND=(...)
CAND=()
cand_links() {	# $1: any or leafspine
	local i ha hb
	CAND=()
	for ((i = 0; i < ${#L_A[@]}; i++)); do
		((L_SS[i] && !L_DOWN[i])) || continue
		[[ -n ${COMP[${L_A[i]}]+x} || -n ${COMP[${L_B[i]}]+x} ]] ||
			continue
		if [[ $1 == leafspine ]]; then
			ha=${SW_HOSTS[${L_A[i]}]} hb=${SW_HOSTS[${L_B[i]}]}
			((ha > 0 && hb == 0 || ha == 0 && hb > 0)) || continue
		fi
		CAND+=("$i")
	done
}

cand_switches() {	# $1: spine (no hosts), leaf (hosts) or any
	local s i up
	CAND=()
	for s in "${SWITCHES[@]}"; do
		[[ $s != "$SM_SW" && -n ${COMP[$s]+x} ]] || continue
		case $1 in
		spine) ((SW_HOSTS[$s] == 0)) || continue ;;
		leaf) ((SW_HOSTS[$s] > 0)) || continue ;;
		esac
		up=0
		for i in ${SW_LINKS[$s]}; do
			if ((L_SS[i] && !L_DOWN[i])); then
				up=1
				break
			fi
		done
		((up)) && CAND+=("$s")
	done
	return 0
}

# The escape root or a switch with a named group's hosts, if it is up,
# connected to the SM and not the SM's switch: CAND=(...)
cand_named() {	# $1: root or groupsw
	local s i up
	CAND=()
	for s in "${SWITCHES[@]}"; do
		[[ $s != "$SM_SW" && -n ${COMP[$s]+x} ]] || continue
		if [[ $1 == root ]]; then
			[[ $s == "$root_name" ]] || continue
		else
			[[ -n ${GROUP_SW[$s]+x} ]] || continue
		fi
		up=0
		for i in ${SW_LINKS[$s]}; do
			((L_DOWN[i])) || up=1
		done
		((up)) && CAND+=("$s")
	done
	return 0
}

# One failure of KIND (link, leafspine, spine, leaf; falls back to other
# kinds when there is no candidate), into CMDS.  1 if nothing can fail.
fail_one() {
	local kind=$1 k order
	case $kind in
	spine | leaf | root | groupsw) order="$kind any link" ;;
	*) order="$kind link any" ;;
	esac
	for k in $order; do
		case $k in
		link | leafspine) cand_links "$k" ;;
		spine | leaf | any) cand_switches "$k" ;;
		root | groupsw) cand_named "$k" ;;
		esac
		((${#CAND[@]})) || continue
		rnd "${#CAND[@]}"
		case $k in
		link | leafspine) fail_link "${CAND[RND]}" ;;
		*) fail_switch "${CAND[RND]}" ;;
		esac
		STEP_KINDS+=("$k")
		model_component
		return 0
	done
	return 1
}

# ReLink one failed thing: a down inter-switch link (by one of its
# ports) or a switch with down links (ReLink "sw": all its ports).
relink_one() {
	local i s o
	CAND=()
	for ((i = 0; i < ${#L_A[@]}; i++)); do
		((L_DOWN[i])) && CAND+=("$i")
	done
	((${#CAND[@]})) || return 1
	rnd "${#CAND[@]}"
	i=${CAND[RND]}
	if ((L_SS[i])) && ((RANDOM % 2)); then
		CMDS+=("ReLink \"${L_A[i]}\"[${L_PA[i]}]")
		L_DOWN[i]=0
		TOUCHED+=("${L_A[i]}" "${L_B[i]}")
		return 0
	fi
	s=${L_A[i]}
	if ((L_SS[i])) && ((RANDOM % 2)); then
		s=${L_B[i]}
	fi
	CMDS+=("ReLink \"$s\"")
	for o in ${SW_LINKS[$s]}; do
		if ((L_DOWN[o])); then
			L_DOWN[o]=0
			TOUCHED+=("${L_A[o]}")
			((L_SS[o] == 0)) || TOUCHED+=("${L_B[o]}")
		fi
	done
	return 0
}

# ReLink "sw" for switches with down links, most down links first
# (the failed switches themselves), until every link is up.
relink_all() {
	local s i n best best_n
	while :; do
		best='' best_n=0
		for s in "${SWITCHES[@]}"; do
			n=0
			for i in ${SW_LINKS[$s]}; do
				n=$((n + L_DOWN[i]))
			done
			if ((n > best_n)); then
				best=$s best_n=$n
			fi
		done
		[[ -n $best ]] || return 0
		CMDS+=("ReLink \"$best\"")
		for i in ${SW_LINKS[$best]}; do
			if ((L_DOWN[i])); then
				L_DOWN[i]=0
				TOUCHED+=("${L_A[i]}")
				((L_SS[i] == 0)) || TOUCHED+=("${L_B[i]}")
			fi
		done
	done
}

# ---- turnadd's configured parts: escape root and traffic file ----

TRAFFIC_AWAY=0
# removes the traffic file's copy, or restores it (dry run: only logs)
toggle_traffic() {
	if ((TRAFFIC_AWAY)); then
		log_action "traffic file restored"
		((dry_run)) || mv -- "$out/traffic.away" "$out/traffic"
		TRAFFIC_AWAY=0
	else
		log_action "traffic file removed"
		((dry_run)) || mv -- "$out/traffic" "$out/traffic.away"
		TRAFFIC_AWAY=1
	fi
}

# ---- OpenSM, its log and the MAD counter ----

count_ups() {
	fab_count_up
}

mad_records() {
	local n
	n=$(wc -l <"$MADLOG")
	printf '%d\n' "$n"
}

log_size() {
	stat -c %s "$FAB_DIR/opensm.log"
}

# ibsim's answers to bad console commands ("# port 3 ... is not linked",
# "# no previous link stored"): the model and the simulator disagree
console_errors() {
	local n
	n=$(grep -o '> # ' "$FAB_DIR/ibsim.out" | wc -l)
	printf '%d\n' "$n"
}

opensm_alive() {
	kill -0 "$FAB_OPENSM_PID" 2>/dev/null
}

now_ns() {
	date +%s%N
}

# settle MIN_UPS WANT_SWEEP: until more than MIN_UPS sweeps ended (if
# WANT_SWEEP) and the sweep count, the MAD log and opensm.log did not
# change for the quiet time.  SETTLE: ok, timeout or crash; LOST_TRAP=1
# if a SIGHUP had to force the sweep.
SETTLE='' LOST_TRAP=0
settle() {
	local min_ups=$1 want=$2 sig last='' now since start deadline ups
	local hup_at
	start=$(now_ns)
	since=$start
	deadline=$((start + step_timeout * 1000000000))
	hup_at=$((start + sweep_wait * 1000000000))
	LOST_TRAP=0
	while :; do
		if ! opensm_alive; then
			SETTLE=crash
			return 0
		fi
		ups=$(count_ups)
		sig="$ups $(stat -c %s "$MADLOG" "$FAB_DIR/opensm.log")"
		now=$(now_ns)
		if [[ $sig != "$last" ]]; then
			last=$sig
			since=$now
		elif ((now - since >= quiet_ns && (!want || ups > min_ups))); then
			SETTLE=ok
			return 0
		fi
		if ((want && ups <= min_ups && !LOST_TRAP && now >= hup_at)); then
			# the trap did not make it to the SM: force a sweep
			LOST_TRAP=1
			kill -HUP "$FAB_OPENSM_PID" 2>/dev/null || true
			fab_log "no sweep after $sweep_wait s: SIGHUP"
		fi
		if ((now >= deadline)); then
			SETTLE=timeout
			return 0
		fi
		sleep 0.1
	done
}

# ---- read-back and check ----

# Fills R_* from the read-back and lftcheck; READBACK: ok or failed.
R_HOSTS=0 R_SWITCHES=0 R_UNREACH=0 R_UNREACH_SW=0 R_NOLID=0 R_NOLID_H=0
R_CDG='' READBACK=''
kv() {	# FILE KEY
	sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" | head -n 1
}

read_check() {
	local rc=0 f=$FAB_DIR/lftcheck.out
	READBACK=failed
	R_HOSTS=0 R_SWITCHES=0 R_UNREACH=0 R_UNREACH_SW=0 R_NOLID=0 R_NOLID_H=0
	R_CDG=-
	fab_sim_client "$step_timeout" "$FAB_IBNETDISCOVER" \
		>"$FAB_DIR/topology.txt" 2>"$FAB_DIR/ibnetdiscover.err" ||
		return 0
	fab_sim_client "$step_timeout" "$lftread" "$FAB_DIR/topology.txt" \
		>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" || return 0
	"$lftcheck" -n 5 ${MC_ARGS[@]+"${MC_ARGS[@]}"} \
		"$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$f" 2>&1 || rc=$?
	((rc <= 1)) || return 0
	READBACK=ok
	R_MC=0
	if ((${#MC_ARGS[@]})); then
		R_MC=$(awk '/^mcast_groups=/ { for (i = 1; i <= NF; i++)
			if ($i ~ /^mcast_(missed|duplicates|loops|dead_ends|joined_not_in_tables|stale_groups)=/) {
				split($i, kv, "="); t += kv[2] } }
			END { print t + 0 }' "$f")
	fi
	R_HOSTS=$(kv "$f" hosts)
	R_SWITCHES=$(kv "$f" switches)
	R_UNREACH=$(kv "$f" unreachable_host_pairs)
	R_UNREACH_SW=$(kv "$f" unreachable_host_to_switch)
	R_NOLID_H=$(($(kv "$f" hosts_without_lid) + 0))
	R_NOLID=$((R_NOLID_H + $(kv "$f" switches_without_lid) + 0))
	R_CDG=$(kv "$f" cdg)
	: "${R_HOSTS:=0}" "${R_SWITCHES:=0}" "${R_UNREACH:=0}" \
		"${R_UNREACH_SW:=0}" "${R_CDG:=-}"
}

# ---- one step: commands, settle, check, a CSV row ----

STEP=0 BAD_STEPS=0 CRASHED=0
STEP_KINDS=()
declare -a MAD_FROM=()

# run_step LABEL KIND: sends CMDS, settles, checks, appends a row.
run_step() {
	local label=$1 kind=$2 ups from log_from t0 want=0 s c
	local eng_err osm_err fallback=0 mismatch=0 verdict=OK why=() routed
	local secs late=0 ups_settled ups_after dir con_from cfg_err
	# a sweep is due if a switch at a changed link is (still) connected
	# to the SM: its trap 128 reaches it
	model_component
	for s in ${TOUCHED[@]+"${TOUCHED[@]}"}; do
		if [[ -n ${COMP[$s]+x} ]]; then
			want=1
			break
		fi
	done
	if ((dry_run)); then
		log_action "step $STEP ($label $kind):" \
			${CMDS[@]+"${CMDS[@]/#/ }"}
		STEP=$((STEP + 1))
		CMDS=() TOUCHED=() FAILED_ITEMS=0 STEP_KINDS=()
		return 0
	fi
	ups=$(count_ups)
	from=$(mad_records)
	log_from=$(log_size)
	con_from=$(console_errors)
	# the bring-up's MADs were sent before its step starts
	[[ $label != bringup ]] || from=0
	MAD_FROM[STEP]=$from
	t0=$(now_ns)
	log_action "step $STEP ($label $kind):" ${CMDS[@]+"${CMDS[@]/#/ }"}
	for c in ${CMDS[@]+"${CMDS[@]}"}; do
		fab_console "$c"
	done
	settle "$ups" "$want"
	secs=$(awk -v a="$t0" -v b="$(now_ns)" \
		'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	ups_settled=$(count_ups)
	if [[ $SETTLE == crash ]]; then
		CRASHED=1
		READBACK=skipped
		R_HOSTS=0 R_SWITCHES=0 R_UNREACH=0 R_UNREACH_SW=0 R_NOLID=0
		R_NOLID_H=0 R_CDG=-
	else
		if ((${#MC_ARGS[@]})) && [[ $kind == restore || $kind == relink ]]; then
			# returning hosts join their groups again
			mc_rejoin
			sleep 1
		fi
		read_check
	fi
	ups_after=$(count_ups)
	# a sweep that ended during the read-back: the quiet time was too
	# short (its MADs still count for this step, see steps.csv)
	((ups_after == ups_settled)) || late=1
	eng_err=$(tail -c +$((log_from + 1)) "$FAB_DIR/opensm.log" |
		grep ' 0x01 -> .*turnadd' |
		grep -vc 'turnadd keeps routing with the last good options' || true)
	cfg_err=$(tail -c +$((log_from + 1)) "$FAB_DIR/opensm.log" |
		grep -c ' 0x01 -> .*turnadd keeps routing with the last good options' || true)
	osm_err=$(tail -c +$((log_from + 1)) "$FAB_DIR/opensm.log" |
		grep -c ' 0x01 -> ' || true)
	routed=$(tail -c +$((log_from + 1)) "$FAB_DIR/opensm.log" |
		{ grep -F 'tables configured on all switches' || true; } |
		sed 's/.* \([^ ]*\) tables configured on all switches.*/\1/' |
		sort -u | tr '\n' '+' | sed 's/+$//')
	if [[ -n $routed && $routed != turnadd ]]; then
		fallback=1
	fi
	if [[ $READBACK == ok ]] &&
		((R_HOSTS + R_NOLID_H != COMP_HOSTS || R_SWITCHES != COMP_SW)); then
		mismatch=1
	fi
	(($(console_errors) == con_from)) || mismatch=1
	((CRASHED == 0)) || why+=(crash)
	[[ $SETTLE != timeout ]] || why+=(unsettled)
	[[ $READBACK == ok || $READBACK == skipped ]] || why+=(readback)
	((R_UNREACH == 0 && R_UNREACH_SW == 0)) || why+=(unreachable)
	((R_NOLID == 0)) || why+=(no_lid)
	[[ $R_CDG != CYCLE ]] || why+=(cdg_cycle)
	((R_MC == 0)) || why+=(mcast)
	((eng_err == 0)) || why+=(engine_error)
	((fallback == 0)) || why+=(fallback)
	((mismatch == 0)) || why+=(model_mismatch)
	if ((${#why[@]})); then
		verdict=$(IFS=+; printf '%s' "${why[*]}")
		BAD_STEPS=$((BAD_STEPS + 1))
	fi
	if ((${#why[@]} || keep_all)); then
		dir=$out/step-$(printf '%03d' "$STEP")
		mkdir -p "$dir"
		for s in topology.txt lfts.txt lftcheck.out; do
			[[ ! -f $FAB_DIR/$s ]] || cp -- "$FAB_DIR/$s" "$dir/"
		done
	fi
	printf '%s,%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%d,%d,%d,%s,%d,%d,%d,%d,%s,%s,%d\n' \
		"$STEP" "$label" "$kind" "$FAILED_ITEMS" "${#CMDS[@]}" \
		"$(down_links)" "$COMP_SW" "$COMP_HOSTS" "$want" "$LOST_TRAP" \
		"$SETTLE" "$secs" "$((ups_after - ups))" "-" \
		"$R_HOSTS" "$R_SWITCHES" "$R_UNREACH" "$R_UNREACH_SW" \
		"$R_NOLID" "$mismatch" "$eng_err" "${R_CDG}" "$osm_err" \
		"$fallback" "$CRASHED" "$late" "${routed:--}" "$verdict" \
		"$cfg_err" >>"$out/steps.tmp"
	fab_log "step $STEP $label $kind: $SETTLE in $secs s, $verdict"
	STEP=$((STEP + 1))
	CMDS=() TOUCHED=() FAILED_ITEMS=0 STEP_KINDS=()
}

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
	"$out"/{steps.tmp,actions.log,opensm.log}
: >"$out/actions.log"
: >"$out/steps.tmp"
rm -f -- "$out/traffic" "$out/traffic.away" "$out/turnadd.conf"

RANDOM=$seed
t_start=$(now_ns)
# shellcheck disable=SC2317 # called from the EXIT trap
on_exit() {
	if [[ -n $FAB_DIR && -f $FAB_DIR/opensm.log ]]; then
		cp -- "$FAB_DIR/opensm.log" "$out/" 2>/dev/null || true
	fi
	fab_cleanup
}
if ((!dry_run)); then
	fab_init
	trap on_exit EXIT
	MADLOG=$FAB_DIR/madcount.log
	: >"$MADLOG"
	FAB_OSM_PRELOAD=$madlib
	FAB_OSM_ENV=("MADCOUNT_LOG=$MADLOG")
	fab_start_ibsim "$net"
	if [[ -n $root_name || -n $traffic ]]; then
		: >"$out/turnadd.conf"
		if [[ -n $root_name ]]; then
			printf 'escape_root %s\n' "$(fab_node_guid "$root_name")" \
				>>"$out/turnadd.conf"
		fi
		if [[ -n $traffic ]]; then
			cp -- "$traffic" "$out/traffic"
			printf 'traffic_file %s\n' "$out/traffic" >>"$out/turnadd.conf"
		fi
		FAB_OSM_ENV+=("TURNADD_CONFIG=$out/turnadd.conf")
	fi
	if [[ -n $mc_groups ]]; then
		# opensm.mcfdbs is written with the routing log flag only
		fab_start_opensm turnadd "$plugin_dir" "log_flags 0x43" \
			${lmc_conf[@]+"${lmc_conf[@]}"}
		MC_MCJOIN=$build/scripts/mcjoin
		MC_ARGS=(--mfts "$FAB_DIR/dump/opensm.mcfdbs"
			--mc-members "$FAB_DIR/mcjoin.out")
		fab_wait_subnet_up "$step_timeout"
		mc_join_groups "$mc_groups" "$seed"
		sleep 1
	else
		fab_start_opensm turnadd "$plugin_dir" \
			${lmc_conf[@]+"${lmc_conf[@]}"}
		fab_wait_subnet_up "$step_timeout"
	fi
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
	if ((cycle % restore_every == 0)); then
		relink_all
		kind=restore
	elif (($(down_links) > 0)) && { rnd 100; ((RND < 25)); }; then
		relink_one
		kind=relink
	else
		rnd 100
		pick=$RND named=''
		if [[ -n $root_name ]]; then
			rnd 10
			((RND)) || named=root
		fi
		if [[ -z $named && -n $traffic ]]; then
			rnd 10
			((RND)) || named=groupsw
		fi
		RND=$pick
		if [[ -n $named ]]; then
			kind=$named
		elif ((RND < 25)); then
			kind='link'
		elif ((RND < 45)); then
			kind=leafspine
		elif ((RND < 65)); then
			kind=spine
		elif ((RND < 80)); then
			kind=leaf
		else
			kind=multi
		fi
		if [[ $kind == multi ]]; then
			rnd 3
			n_multi=$((RND + 2))
			for ((k = 0; k < n_multi; k++)); do
				rnd 3
				case $RND in
				0) fail_one link || true ;;
				1) fail_one spine || true ;;
				2) fail_one leaf || true ;;
				esac
			done
			kind="multi:$(IFS=/; printf '%s' "${STEP_KINDS[*]}")"
		else
			fail_one "$kind" || true
			kind=${STEP_KINDS[0]:-none}
		fi
		if ((${#CMDS[@]} == 0)); then
			# nothing left to fail: restore instead
			relink_all
			kind=restore
		fi
	fi
	run_step "cycle$cycle" "$kind"
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

# ---- results ----

# MADs of a step: from its commands to the next step's (late MADs of a
# sweep that ended during the read-back are the step's too)
{
	printf '%s\n' "step,label,action,failed_items,commands,down_links,connected_switches,connected_hosts,sweep_expected,lost_trap,settle,seconds,sweeps,lft_mads,hosts,switches,unreachable_pairs,unreachable_host_to_switch,no_lid,model_mismatch,engine_errors,cdg,osm_errors,fallback,crashed,late_sweep,routed_by,verdict,config_errors"
	i=0
	while IFS=, read -r -a row; do
		row[13]=$((MAD_FROM[i + 1] - MAD_FROM[i]))
		(IFS=,; printf '%s\n' "${row[*]}")
		i=$((i + 1))
	done <"$out/steps.tmp"
} >"$out/steps.csv"
rm -f -- "$out/steps.tmp"

# min, median, max of the steps' LFT MADs (bring-up excluded)
mads=$(awk -F, 'NR > 1 && $2 != "bringup" { print $14 }' "$out/steps.csv" |
	sort -n | awk '{ v[NR] = $1 }
		END {
			if (!NR) { print "- - -"; exit }
			med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			print v[1], med, v[NR]
		}')
awk -F, -v net="$(basename "$net")" -v seed="$seed" -v planned="$cycles" \
	-v mads="$mads" \
	-v done_cycles="$done_cycles" -v stopped="${stopped:-}" \
	-v toggles="$(grep -c '^traffic file' "$out/actions.log" || true)" \
	-v secs="$(awk -v a="$t_start" -v b="$(now_ns)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }')" '
	NR == 1 { next }
	$2 == "bringup" { bring = $14 }
	$2 != "bringup" {
		steps++
		failed += $4
		if ($3 ~ /restore|relink/) restores++
	}
	{
		unreach += $17; unreach_sw += $18; nolid += $19
		mism += $20; eng += $21; if ($22 == "CYCLE") cyc++
		osm += $23; fb += $24; crash = $25 > crash ? $25 : crash
		late += $26; lost += $10; cfg += $29
		if ($12 != "" && $11 == "timeout") unsettled++
		if ($28 != "OK") bad++
	}
	END {
		split(mads, m, " ")
		print "net,seed,cycles_planned,cycles_run,steps,failures_injected,restores,unreachable_connected_pairs,unreachable_host_to_switch,no_lid,cdg_cycles,crashes,engine_errors,fallbacks,unsettled,model_mismatches,lost_traps,late_sweeps,osm_error_lines,bringup_mads,mads_min,mads_median,mads_max,bad_steps,seconds,stopped,config_errors,traffic_toggles"
		printf "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%d,%s,%s,%d,%d\n", \
			net, seed, planned, done_cycles, steps, failed, restores, \
			unreach, unreach_sw, nolid, cyc, crash, eng, fb, unsettled, \
			mism, lost, late, osm, bring, m[1], m[2], m[3], bad, secs, \
			stopped, cfg, toggles
	}' "$out/steps.csv" >"$out/summary.csv"

print_summary() {
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ for (i = 1; i <= NF; i++) v[i] = $i }
		END {
			printf "\nfault campaign on %s, seed %s: %d of %d cycles (%d steps with the restores) in %s s%s\n", \
				v[1], v[2], v[4], v[3], v[5], v[25], \
				v[26] != "" ? ", stopped: " v[26] : ""
			printf "  %-34s %s\n", "failures injected", v[6]
			printf "  %-34s %s\n", "restore steps", v[7]
			printf "  %-34s %s\n", "unreachable connected host pairs", v[8]
			printf "  %-34s %s\n", "unreachable host-to-switch routes", v[9]
			printf "  %-34s %s\n", "ports without a LID", v[10]
			printf "  %-34s %s\n", "steps with a CDG cycle", v[11]
			printf "  %-34s %s\n", "OpenSM crashes", v[12]
			printf "  %-34s %s\n", "turnadd ERROR lines", v[13]
			printf "  %-34s %s\n", "steps routed by a fallback", v[14]
			printf "  %-34s %s\n", "steps not settled in time", v[15]
			printf "  %-34s %s\n", "read-back vs model mismatches", v[16]
			printf "  %-34s %s\n", "lost traps (SIGHUP sweeps)", v[17]
			printf "  %-34s %s\n", "sweeps ending in the read-back", v[18]
			printf "  %-34s %s\n", "OpenSM ERROR lines (all)", v[19]
			printf "  %-34s %s\n", "LFT MADs at bring-up", v[20]
			printf "  %-34s %s / %s / %s\n", "LFT MADs per step min/median/max", v[21], v[22], v[23]
			printf "  %-34s %s\n", "kept-configuration ERROR lines", v[27]
			printf "  %-34s %s\n", "traffic file removals/restores", v[28]
			printf "  %-34s %s\n", "bad steps", v[24]
		}' "$out/summary.csv"
	printf '\n%-5s %-10s %-28s %5s %5s %6s %7s %6s %5s %s\n' step label \
		action down hosts MADs unreach cdg err verdict
	awk -F, 'NR > 1 {
		printf "%-5s %-10s %-28s %5s %5s %6s %7s %6s %5s %s\n", $1, $2, \
			substr($3, 1, 28), $6, $15, $14, $17 + $18, \
			$22 == "acyclic" ? "ok" : $22, $21, $28
	}' "$out/steps.csv"
	printf '\nresults: %s\n' "$out"
}
print_summary
if ((BAD_STEPS)); then
	printf 'fault_campaign: %d step(s) broke a property; reproduce with: %s --net %s --seed %s --cycles %s --restore-every %s%s%s\n' \
		"$BAD_STEPS" "$0" "$net" "$seed" "$cycles" "$restore_every" \
		"${root_name:+ --escape-root $root_name}" \
		"${traffic:+ --traffic $traffic}" >&2
	exit 1
fi
exit 0
