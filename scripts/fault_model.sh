# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# fault_model.sh: fault_campaign.sh's model of the fabric (sourced by it):
# every link of an ibsim netfile, which of them are down, and which
# switches and hosts are still connected to the SM's switch.
#
#   model_load NETFILE  fills the arrays below from NETFILE (fab_die on a
#                       netfile it cannot use)
#   model_component     COMP[switch]=1 for the switches connected to the
#                       SM's switch; COMP_SW and COMP_HOSTS count them
#   down_links          prints how many links are down
#
# Links by index i: L_A[i] (a switch), L_PA[i], L_B[i], L_PB[i] (its
# ends), L_SS[i] (1: switch-to-switch, 0: to a host), L_DOWN[i].
# SWITCHES in netfile order; SW_HOSTS[sw] hosts cabled to sw;
# SW_LINKS[sw] its link indexes; SM_SW the SM's switch; GROUP_SW[sw]=1
# for switches with hosts named by a prefix in GROUP_PREFIXES (set it
# before model_load).

L_A=() L_PA=() L_B=() L_PB=() L_SS=() L_DOWN=()
SWITCHES=()
declare -A SW_HOSTS=() SW_LINKS=() COMP=() GROUP_SW=()
GROUP_PREFIXES=()
SM_SW=''
COMP_SW=0 COMP_HOSTS=0

# Every link once: "A PA B PB KIND" (A a switch; KIND ss or sh), after
# "sm NAME" (the first node: ibsim's first port, where the SM attaches)
# and "sw NAME" lines.
model_parse() {
	awk '
		function name(s,   q) { split(s, q, "\""); return q[2] }
		/^(Switch|Hca|Ca)[ \t]/ {
			cur = name($0); type[cur] = ($1 == "Switch") ? "S" : "H"
			if (first == "") first = cur
			if (type[cur] == "S") sw[++ns] = cur
			next
		}
		/^\[[0-9]+\]/ && cur != "" && type[cur] == "S" {
			p = substr($0, 2); sub(/\].*/, "", p)
			rest = $0; sub(/^\[[0-9]+\][ \t]*/, "", rest)
			peer = name(rest)
			pp = rest; sub(/^"[^"]*"\[/, "", pp); sub(/\].*/, "", pp)
			n++; la[n] = cur; lp[n] = p + 0; lb[n] = peer; lq[n] = pp + 0
		}
		END {
			print "sm", first
			for (i = 1; i <= ns; i++) print "sw", sw[i]
			for (i = 1; i <= n; i++) {
				if (type[lb[i]] == "H") {
					print "l", la[i], lp[i], lb[i], lq[i], "sh"
				} else if (la[i] < lb[i] ||
					   (la[i] == lb[i] && lp[i] < lq[i])) {
					print "l", la[i], lp[i], lb[i], lq[i], "ss"
				}
			}
		}' "$1"
}

model_load() {
	local tag a pa b pb kind first='' i pfx
	while read -r tag a pa b pb kind; do
		case $tag in
		sm) first=$a ;;
		sw) SWITCHES+=("$a"); SW_HOSTS[$a]=0; SW_LINKS[$a]='' ;;
		l)
			i=${#L_A[@]}
			L_A+=("$a") L_PA+=("$pa") L_B+=("$b") L_PB+=("$pb")
			L_DOWN+=(0)
			SW_LINKS[$a]+=" $i"
			if [[ $kind == ss ]]; then
				L_SS+=(1)
				SW_LINKS[$b]+=" $i"
			else
				L_SS+=(0)
				SW_HOSTS[$a]=$((SW_HOSTS[$a] + 1))
				for pfx in ${GROUP_PREFIXES[@]+"${GROUP_PREFIXES[@]}"}; do
					[[ $b != "$pfx"* ]] || GROUP_SW[$a]=1
				done
				[[ $b != "$first" ]] || SM_SW=$a
			fi
			;;
		esac
	done < <(model_parse "$1")
	[[ -n $SM_SW ]] || SM_SW=$first
	[[ -n ${SW_HOSTS[$SM_SW]+x} ]] ||
		fab_die "cannot tell the SM's switch in $1 (first node $first)"
	((${#SWITCHES[@]} > 1)) || fab_die "$1 has fewer than 2 switches"
}

# COMP[switch]=1 for the switches connected to the SM's switch by up
# links; COMP_SW, COMP_HOSTS count them and their attached hosts.
model_component() {
	local queue=("$SM_SW") s i o head=0
	COMP=([$SM_SW]=1)
	COMP_SW=1 COMP_HOSTS=0
	while ((head < ${#queue[@]})); do
		s=${queue[head++]}
		for i in ${SW_LINKS[$s]}; do
			((L_DOWN[i] == 0)) || continue
			if ((L_SS[i] == 0)); then
				COMP_HOSTS=$((COMP_HOSTS + 1))
				continue
			fi
			o=${L_A[i]}
			[[ $o != "$s" ]] || o=${L_B[i]}
			[[ -z ${COMP[$o]+x} ]] || continue
			COMP[$o]=1
			COMP_SW=$((COMP_SW + 1))
			queue+=("$o")
		done
	done
}

down_links() {
	local i n=0
	for ((i = 0; i < ${#L_A[@]}; i++)); do
		n=$((n + L_DOWN[i]))
	done
	printf '%d\n' "$n"
}
