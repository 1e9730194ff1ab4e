# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: MIT
#
# fault_events.sh: fault_campaign.sh's events (sourced by it after
# fault_model.sh): what fails or comes back at each cycle, drawn from the
# model alone by bash's $RANDOM, as console commands for ibsim.
#
#   rnd N             RND = uniform in 0 .. N - 1 (draw in this shell,
#                     never in a subshell)
#   fail_one KIND     one failure of KIND (link, leafspine, spine, leaf,
#                     root, groupsw; falls back to other kinds when there
#                     is no candidate) into CMDS; 1 if nothing can fail
#   relink_one        ReLink one failed link or switch into CMDS
#   relink_all        ReLink until every link is up, into CMDS
#   draw_failure      one failure cycle into CMDS, its kind in KIND
#                     (link, leafspine, spine, leaf, root, groupsw,
#                     multi:..., or restore when nothing can fail);
#                     only_kind, if set, replaces the kind drawn
#   toggle_traffic    removes or restores the traffic file's copy
#   log_action TEXT   a line of $out/actions.log
#
# CMDS: console commands of the current step; TOUCHED: switches at the
# ends of links that changed; FAILED_ITEMS, STEP_KINDS: what failed.
# Reads the sourcing script's out, dry_run, root_name, traffic and
# only_kind.

RND=0
rnd() {	# RND = uniform in 0 .. $1 - 1
	RND=$((((RANDOM << 15) | RANDOM) % $1))
}

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

# set_switch_links SW DOWN: every link of SW to DOWN (1 down, 0 up), the
# ends of those that change touched
set_switch_links() {
	local i
	for i in ${SW_LINKS[$1]}; do
		((L_DOWN[i] != $2)) || continue
		L_DOWN[i]=$2
		TOUCHED+=("${L_A[i]}")
		((L_SS[i] == 0)) || TOUCHED+=("${L_B[i]}")
	done
	return 0
}

fail_switch() {
	CMDS+=("Unlink \"$1\"")
	set_switch_links "$1" 1
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
	local i s
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
	set_switch_links "$s" 0
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
		set_switch_links "$best" 0
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

KIND=''
draw_failure() {
	local pick named k n_multi
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
		KIND=$named
	elif ((RND < 25)); then
		KIND='link'
	elif ((RND < 45)); then
		KIND=leafspine
	elif ((RND < 65)); then
		KIND=spine
	elif ((RND < 80)); then
		KIND=leaf
	else
		KIND=multi
	fi
	[[ -z $only_kind ]] || KIND=$only_kind
	if [[ $KIND == multi ]]; then
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
		KIND="multi:$(IFS=/; printf '%s' "${STEP_KINDS[*]}")"
	else
		fail_one "$KIND" || true
		KIND=${STEP_KINDS[0]:-none}
	fi
	if ((${#CMDS[@]} == 0)); then
		# nothing left to fail: restore instead
		relink_all
		KIND=restore
	fi
}
