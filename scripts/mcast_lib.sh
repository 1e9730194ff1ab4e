# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# mcast_lib.sh: multicast on a fabric run by fabric_lib.sh (source both).
#
#   mc_host_guids TOPOLOGY        port GUIDs of the CA ports, one a line
#   mc_pick SEED COUNT            COUNT lines of stdin, picked by SEED
#   mc_join MGID GUIDFILE [-c|-l] mcjoin from the SM's node; its output
#                                 is appended to $FAB_DIR/mcjoin.out
#   mc_join_groups N SEED [MAX]   every host joins the IPoIB broadcast
#                                 group, then N new groups (ff12:e001::1..N)
#                                 get random members (2 to MAX, default
#                                 all hosts)
#   mc_has_hosts NAME...          true if a host is cabled to one of
#                                 these switches (of the joins' topology)
#   mc_rejoin                     the same joins again (ports that are
#                                 gone fail; that is not an error)
#   mc_check LFTCHECK [MFTS]      lftcheck with the multicast tables
#                                 (default: OpenSM's dump) and the joins
#
# MCJOIN names the join client (default: mcjoin next to this file).
#
# Groups are joined for real, by SA requests, never written into
# OpenSM's state:
#
#     mcjoin [-t TIMEOUT_MS] [-l | -c] [-q QKEY] [-p PKEY] MGID GUIDFILE|-
#
# (run under umad2sim: `fab_sim_client`, or `mc_join` of mcast_lib.sh)
# sends one SubnAdmSet(MCMemberRecord) per port GUID of GUIDFILE (full
# member, on the port's behalf: a proxy join, allowed as all ports share
# the default P_Key) to the SM's LID, QP1; `-c` creates a new group with
# the first join (Q_Key, P_Key, TClass, SL, FlowLabel given), `-l`
# leaves (SubnAdmDelete).  One line per port: `joined MGID 0xGUID mlid
# 0xMLID`, or `failed ... status 0xSTATUS`.  The IPoIB broadcast group
# `ff12:401b:ffff::ffff:ffff` exists from the first sweep; new groups
# use `ff12:e001::N` (an IPoIB signature 401b/601b would make OpenSM
# demand the matching broadcast group).  mcast_lib.sh: `mc_join_groups N
# SEED [MAX]` (every host into the broadcast group, then N groups of 2
# to MAX random hosts), `mc_rejoin`, `mc_check`.

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

MC_BCAST=ff12:401b:ffff::ffff:ffff
MC_MCJOIN=${MCJOIN:-$(dirname "${BASH_SOURCE[0]}")/mcjoin}

mc_host_guids() {
	awk '/^(Ca|Hca)[ \t]/ { ca = 1; next }
	     /^(Switch|Rt)[ \t]/ { ca = 0; next }
	     ca && /^\[[0-9]+\]\(/ {
		g = $1; sub(/^\[[0-9]+\]\(/, "", g); sub(/\).*/, "", g)
		print "0x" g
	     }' "$1"
}

mc_pick() {
	local seed=$1 count=$2
	awk -v seed="$seed" -v count="$count" '
		{ line[NR] = $0 }
		END {
			srand(seed)
			for (i = NR; i > 1; i--) {
				j = int(rand() * i) + 1
				t = line[i]; line[i] = line[j]; line[j] = t
			}
			for (i = 1; i <= count && i <= NR; i++)
				print line[i]
		}'
}

mc_join() {
	local mgid=$1 file=$2 opt=${3:-}
	fab_sim_client 120 "$(fab_abspath "$MC_MCJOIN")" ${opt:+"$opt"} \
		"$mgid" "$file" >>"$FAB_DIR/mcjoin.out" \
		2>>"$FAB_DIR/mcjoin.err"
}

mc_join_groups() {
	local n=$1 seed=$2 max=${3:-0} all=$FAB_DIR/hosts.guids k cnt total
	fab_sim_client 60 "$FAB_IBNETDISCOVER" >"$FAB_DIR/mc-topology.txt" \
		2>/dev/null || fab_die "ibnetdiscover failed"
	mc_host_guids "$FAB_DIR/mc-topology.txt" >"$all"
	total=$(wc -l <"$all")
	((total >= 2)) || fab_die "fewer than 2 hosts to join"
	((max < 2 || max > total)) || total=$max
	mc_join "$MC_BCAST" "$all" || fab_die "broadcast join failed: $(tail -n 3 \
		"$FAB_DIR/mcjoin.out" "$FAB_DIR/mcjoin.err")"
	for ((k = 1; k <= n; k++)); do
		cnt=$(((seed * 7919 + k * 104729) % (total - 1) + 2))
		mc_pick $((seed * 1000 + k)) "$cnt" <"$all" \
			>"$FAB_DIR/group$k.guids"
		mc_join "ff12:e001::$(printf '%x' "$k")" \
			"$FAB_DIR/group$k.guids" -c ||
			fab_die "join of group $k failed: $(tail -n 3 \
				"$FAB_DIR/mcjoin.out" "$FAB_DIR/mcjoin.err")"
	done
}

mc_has_hosts() {
	local names
	names=$(printf '%s\n' "$@")
	awk -v names="$names" '
		BEGIN { n = split(names, a, "\n"); for (i = 1; i <= n; i++) sw[a[i]] = 1 }
		/^(Ca|Hca)[ \t]/ { ca = 1; next }
		/^(Switch|Rt)[ \t]/ { ca = 0; next }
		ca && /^\[/ {
			k = split($0, q, "\"")
			# ... "S-guid"[p] # lid L lmc M "switch name" lid ...
			if (k >= 5 && q[4] in sw) found = 1
		}
		END { exit found ? 0 : 1 }' "$FAB_DIR/mc-topology.txt"
}

mc_rejoin() {
	local f k
	mc_join "$MC_BCAST" "$FAB_DIR/hosts.guids" || true
	for f in "$FAB_DIR"/group*.guids; do
		[[ -e $f ]] || continue
		k=${f##*/group}
		k=${k%.guids}
		mc_join "ff12:e001::$(printf '%x' "$k")" "$f" -c || true
	done
}

mc_check() {
	local lftcheck=$1 mfts=${2:-$FAB_DIR/dump/opensm.mcfdbs}
	"$lftcheck" -n 5 --mfts "$mfts" --mc-members "$FAB_DIR/mcjoin.out" \
		"$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt"
}
