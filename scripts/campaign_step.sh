# shellcheck shell=bash disable=SC2154,SC2034
# SPDX-License-Identifier: MIT
#
# campaign_step.sh: one step of fault_campaign.sh (sourced by it after
# fault_model.sh, fault_events.sh and campaign_ref.sh): the console
# commands (or the master's death), the wait until OpenSM settled, the
# read-back and lftcheck, the quality and a row of steps.tmp.
#
#   run_step LABEL KIND   sends CMDS (KIND takeover: SIGKILL to the
#                         master instead), settles, checks, appends a row
#   settle MIN_UPS WANT   SETTLE ok/timeout/crash, LOST_TRAP
#   read_check            R_* from the read-back and lftcheck
#   mad_records           LFT Sets counted so far (every OpenSM)
#
# The master: SM_DIR (its dir: opensm.log, dump/), FAB_OPENSM_PID; the
# standby (takeover steps): SB_DIR, SB_PID, SB_HOST; SM_PRIO the next
# standby's priority.  Reads the sourcing script's options.

# ---- OpenSM, its log and the MAD counter ----

count_ups() {
	grep -cF "SUBNET UP" "$SM_DIR/opensm.log" 2>/dev/null || true
}

mad_records() {
	local n
	n=$(grep -vc '^mft ' "$MADLOG" || true)
	printf '%d\n' "$n"
}

log_size() {
	stat -c %s "$SM_DIR/opensm.log"
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
		sig="$ups $(stat -c %s "$MADLOG" "$SM_DIR/opensm.log")"
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

# ---- the takeover ----

# SIGKILL to the master; the standby (SB_*) becomes SM_DIR and
# FAB_OPENSM_PID; TK_UPS: the SUBNET UP lines of its log before.
TK_UPS=0
takeover_kill() {
	TK_UPS=$(smp_ups "$SB_DIR")
	smp_kill "$FAB_OPENSM_PID"
	SPARE_DIR=$SM_DIR SPARE_HOST=$SM_HOST
	SM_DIR=$SB_DIR SM_HOST=$SB_HOST FAB_OPENSM_PID=$SB_PID SB_PID=''
	if ((${#MC_ARGS[@]})); then
		MC_ARGS[1]=$SM_DIR/dump/opensm.mcfdbs
	fi
}

# A standby starts below the master's priority at SPARE_HOST (the host
# of the master killed last, or the first standby's), in its own dir
# (its cache kept, as on a restarted machine), once the master is quiet.
# It starts at the takeover, not before: under ibsim a master that gets
# a new standby's trap 144 can stop sweeping (its SMInfo query of the
# standby never completes, see tests/integration/standby_takeover.sh),
# which later steps would take for lost sweeps.
SPARE_DIR='' SPARE_HOST=''
takeover_restart() {
	settle "$(count_ups)" 0
	SB_DIR=$SPARE_DIR SB_HOST=$SPARE_HOST
	FAB_SIM_HOST=$SB_HOST smp_start "$SB_DIR" "$plugin_dir" "$SM_PRIO" \
		"${SB_CONF[@]}"
	SB_PID=$SMP_PID
	smp_wait_standby "$SB_DIR" "$step_timeout" ||
		fab_log "new standby not STANDBY after $step_timeout s"
	# its first sweep as standby
	sleep 1
}

# ---- read-back and check ----

# Fills R_* from the read-back and lftcheck; READBACK: ok or failed.
R_HOSTS=0 R_SWITCHES=0 R_UNREACH=0 R_UNREACH_SW=0 R_NOLID=0 R_NOLID_H=0
R_CDG='' READBACK='' R_TP=- R_PERM=-
kv() {	# FILE KEY
	sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" | head -n 1
}

read_reset() {
	R_HOSTS=0 R_SWITCHES=0 R_UNREACH=0 R_UNREACH_SW=0 R_NOLID=0 R_NOLID_H=0
	R_CDG=- R_TP=- R_PERM=-
}

read_check() {
	local rc=0 f=$FAB_DIR/lftcheck.out
	READBACK=failed
	read_reset
	fab_sim_client "$step_timeout" "$FAB_IBNETDISCOVER" \
		>"$FAB_DIR/topology.txt" 2>"$FAB_DIR/ibnetdiscover.err" ||
		return 0
	fab_sim_client "$step_timeout" "$lftread" "$FAB_DIR/topology.txt" \
		>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" || return 0
	local sl=()
	[[ -z ${SL_DUMP:-} ]] || sl=(--sl "$SM_DIR/dump/$SL_DUMP")
	"$lftcheck" -n 5 "${LC_TP_ARGS[@]}" ${MC_ARGS[@]+"${MC_ARGS[@]}"} \
		${sl[@]+"${sl[@]}"} "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
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
	# per SL: the verdict over every SL's graph
	[[ -z ${SL_DUMP:-} ]] ||
		R_CDG=$(sed -n 's/^sl_layers=.*\bcdg=\([^ ]*\).*/\1/p' "$f")
	R_TP=$(sed -n 's/^throughput=\([^ ]*\).*/\1/p' "$f")
	R_PERM=$(kv "$f" perm_bandwidth)
	: "${R_HOSTS:=0}" "${R_SWITCHES:=0}" "${R_UNREACH:=0}" \
		"${R_UNREACH_SW:=0}" "${R_CDG:=-}" "${R_TP:=-}" "${R_PERM:=-}"
}

# Q_FLAGS: tp_low (uniform or permutation throughput below the
# reference by more than --tp-margin, and one of them below the
# bring-up's by more than that, uniform scaled to the hosts left: worse
# than before the faults and than a routing from scratch), not_bringup
# (nothing down, and not the bring-up's throughput within 1e-4); "OK"
# if neither.
quality() {
	local label=$1
	Q_FLAGS=OK
	REF_TP=- REF_PERM=-
	[[ $R_TP != - && $R_PERM != - ]] || return 0
	if [[ $label == bringup ]]; then
		REF_BRINGUP="$R_TP $R_PERM"
		BRINGUP_HOSTS=$R_HOSTS
	fi
	ref_quality
	Q_FLAGS=$(awk -v t="$R_TP" -v p="$R_PERM" -v rt="$REF_TP" \
		-v rp="$REF_PERM" -v bt="${REF_BRINGUP% *}" \
		-v bp="${REF_BRINGUP#* }" -v down="$(down_links)" \
		-v hb="${BRINGUP_HOSTS:-0}" -v h="$R_HOSTS" \
		-v m="$tp_margin" 'BEGIN {
			f = ""
			# the bring-up uniform throughput the same routes give
			# with the hosts left
			bs = hb > 1 && h > 1 ? bt * (hb - 1) / (h - 1) : bt
			if (rt != "-" && (t < rt * (1 - m) || p < rp * (1 - m)) &&
			    (t < bs * (1 - m) || p < bp * (1 - m)))
				f = "tp_low"
			d = t - bt; e = p - bp
			if (down == 0 && (d > 1e-4 || d < -1e-4 || e > 1e-4 || e < -1e-4))
				f = f (f == "" ? "" : "+") "not_bringup"
			print f == "" ? "OK" : f
		}')
}

# ---- one step: commands, settle, check, a CSV row ----

STEP=0 BAD_STEPS=0 CRASHED=0 Q_STEPS=0 Q_FLAGS=OK
STEP_KINDS=()
declare -a MAD_FROM=()

# run_step LABEL KIND: sends CMDS (or kills the master), settles,
# checks, appends a row.
run_step() {
	local label=$1 kind=$2 ups from log_from t0 want=0 s c
	local eng_err osm_err fallback=0 mismatch=0 verdict=OK why=() routed
	local secs late=0 ups_settled ups_after dir con_from cfg_err new_log
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
	from=$(mad_records)
	log_from=$(log_size)
	con_from=$(console_errors)
	# the bring-up's MADs were sent before its step starts
	[[ $label != bringup ]] || from=0
	MAD_FROM[STEP]=$from
	t0=$(now_ns)
	log_action "step $STEP ($label $kind):" ${CMDS[@]+"${CMDS[@]/#/ }"}
	if [[ $kind == takeover ]]; then
		want=1
		[[ -n $SB_PID ]] || takeover_restart
		log_from=$(stat -c %s "$SB_DIR/opensm.log")
		takeover_kill
		ups=$TK_UPS
		smp_wait_master "$SM_DIR" "$ups" "$step_timeout" ||
			fab_log "standby not MASTER after $step_timeout s"
	else
		ups=$(count_ups)
		for c in ${CMDS[@]+"${CMDS[@]}"}; do
			fab_console "$c"
		done
	fi
	new_log=$SM_DIR/opensm.log
	settle "$ups" "$want"
	secs=$(awk -v a="$t0" -v b="$(now_ns)" \
		'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	ups_settled=$(count_ups)
	if [[ $SETTLE == crash ]]; then
		CRASHED=1
		READBACK=skipped
		read_reset
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
	tail -c +$((log_from + 1)) "$new_log" >"$FAB_DIR/step.log"
	eng_err=$(grep ' 0x01 -> .*turnadd' "$FAB_DIR/step.log" |
		grep -vc 'turnadd keeps routing with the last good options' || true)
	cfg_err=$(grep -c ' 0x01 -> .*turnadd keeps routing with the last good options' \
		"$FAB_DIR/step.log" || true)
	osm_err=$(grep -c ' 0x01 -> ' "$FAB_DIR/step.log" || true)
	routed=$({ grep -F 'tables configured on all switches' \
		"$FAB_DIR/step.log" || true; } |
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
	quality "$label"
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
	if [[ $Q_FLAGS != OK ]]; then
		Q_STEPS=$((Q_STEPS + 1))
		((!strict)) || why+=("$Q_FLAGS")
	fi
	if ((${#why[@]})); then
		verdict=$(IFS=+; printf '%s' "${why[*]}")
		BAD_STEPS=$((BAD_STEPS + 1))
	fi
	if ((${#why[@]} || keep_all)) || [[ $Q_FLAGS != OK ]]; then
		dir=$out/step-$(printf '%03d' "$STEP")
		mkdir -p "$dir"
		for s in topology.txt lfts.txt lftcheck.out; do
			[[ ! -f $FAB_DIR/$s ]] || cp -- "$FAB_DIR/$s" "$dir/"
		done
	fi
	printf '%s,%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%d,%d,%d,%s,%d,%d,%d,%d,%s,%s,%d,%s,%s,%s,%s,%s,%s\n' \
		"$STEP" "$label" "$kind" "$FAILED_ITEMS" "${#CMDS[@]}" \
		"$(down_links)" "$COMP_SW" "$COMP_HOSTS" "$want" "$LOST_TRAP" \
		"$SETTLE" "$secs" "$((ups_after - ups))" "-" \
		"$R_HOSTS" "$R_SWITCHES" "$R_UNREACH" "$R_UNREACH_SW" \
		"$R_NOLID" "$mismatch" "$eng_err" "${R_CDG}" "$osm_err" \
		"$fallback" "$CRASHED" "$late" "${routed:--}" "$verdict" \
		"$cfg_err" "$R_TP" "$R_PERM" "$REF_TP" "$REF_PERM" "$Q_FLAGS" \
		"$SM_HOST" >>"$out/steps.tmp"
	fab_log "step $STEP $label $kind: $SETTLE in $secs s, $verdict, tp $R_TP/$REF_TP perm $R_PERM/$REF_PERM $Q_FLAGS"
	STEP=$((STEP + 1))
	CMDS=() TOUCHED=() FAILED_ITEMS=0 STEP_KINDS=()
}
