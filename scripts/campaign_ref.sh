# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: MIT
#
# campaign_ref.sh: fault_campaign.sh's reference throughput (sourced by
# it after fault_model.sh): what turnadd gets when it routes the fabric
# as it is now (the failed links and switches taken out) from scratch.
#
#   ref_quality        REF_TP, REF_PERM (uniform and permutation
#                      throughput) for the model's current state: from
#                      the cache, else by a run of its own; "-" if that
#                      run failed
#   ref_netfile OUT    writes the netfile with every down link's ports
#                      left out (a failed switch stays, unlinked)
#
# The run of its own: a second ibsim (its own IBSIM_SOCKNAME and run
# dir) on that netfile, a fresh OpenSM with turnadd (empty cache, same
# options as the campaign's), the tables read back by lftread and
# checked by the same lftcheck options.  Its OpenSM starts with a
# guid2lid file of the LIDs the campaign's fabric holds now (read back
# by ibnetdiscover), so the reference routes the same fabric with the
# same LIDs (REF_LIDS=fresh: an empty cache, OpenSM's own LIDs).
# Nothing else is shared with the campaign's fabric.  With nothing down the reference is the bring-up's
# (that too was routed from scratch).  States are cached by the set of
# down links in REF_FILE (net checksum, lmc, perm, down links, tp,
# perm, seconds a line), so a campaign that repeats a state, or a later
# campaign given the same file, runs it once.  The key is the set of
# down links and a checksum of the LIDs (and the netfile, lmc and
# lftcheck options): with
# --traffic, a state's reference is routed with the traffic file as it
# was (present or removed) when the state first came.
#
# (SC2154: the sourcing script sets them.)  Reads the sourcing script's lftcheck, lftread, plugin_dir, net,
# step_timeout, LC_TP_ARGS, lmc_conf and out; REF_ENV: environment of
# the reference OpenSM (NAME=VALUE words); REF_BRINGUP: "TP PERM".

REF_SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/campaign_ref.sh
REF_TP=- REF_PERM=- REF_FILE='' REF_ENV=() REF_BRINGUP='- -' REF_RUNS=0
REF_SUM='' REF_LIDS=same

# ref_guid2lid TOPOLOGY: a guid2lid file (port GUID, first and last LID)
# of every port with a LID in an ibnetdiscover topology: switch port 0
# ("base port 0 lid N lmc L") and host ports ("[p](portguid) ... # lid
# N lmc L"), each followed by a blank line as OpenSM writes it
ref_guid2lid() {
	awk '
		/^Switch[ \t]/ {
			split($0, q, "\""); g = q[2]; sub(/^S-/, "", g)
			if (match($0, /base port 0 lid [0-9]+ lmc [0-9]+/)) {
				split(substr($0, RSTART, RLENGTH), w, " ")
				out(g, w[5], w[7])
			}
			sw = 1; next
		}
		/^(Ca|Hca|Rt)[ \t]/ { sw = 0; next }
		/^\[[0-9]+\]\(/ && !sw {
			g = $0; sub(/^[^(]*\(/, "", g); sub(/\).*/, "", g)
			if (match($0, /# lid [0-9]+ lmc [0-9]+/)) {
				split(substr($0, RSTART, RLENGTH), w, " ")
				out(g, w[3], w[5])
			}
		}
		function out(g, lid, lmc) {
			while (length(g) < 16) g = "0" g
			printf "0x%s %d %d\n\n", tolower(g), lid, lid + 2 ^ lmc - 1
		}' "$1"
}

ref_key() {
	local i k=''
	for ((i = 0; i < ${#L_A[@]}; i++)); do
		((L_DOWN[i] == 0)) || k+="$i."
	done
	printf '%s\n' "${k:-none}"
}

ref_netfile() {
	local i
	for ((i = 0; i < ${#L_A[@]}; i++)); do
		((L_DOWN[i])) || continue
		printf '%s\t%s\n%s\t%s\n' "${L_A[i]}" "${L_PA[i]}" \
			"${L_B[i]}" "${L_PB[i]}"
	done | awk -F'\t' '
		NR == FNR { drop[$1 "\t" $2] = 1; next }
		/^(Switch|Hca|Ca)[ \t]/ { split($0, q, "\""); cur = q[2] }
		/^\[[0-9]+\]/ {
			p = substr($0, 2); sub(/\].*/, "", p)
			if ((cur "\t" (p + 0)) in drop) next
		}
		{ print }' - "$net" >"$1"
}

# ref_run NETFILE: prints "TP PERM" of a from-scratch routing by a bash
# of its own running this file (below), whose fabric_lib.sh EXIT trap
# stops its ibsim and OpenSM
ref_run() {
	env ${REF_ENV[@]+"${REF_ENV[@]}"} "$BASH" "$REF_SELF" "$1" "$2" \
		"$plugin_dir" "$lftread" "$lftcheck" "$step_timeout" \
		${lmc_conf[@]+"${lmc_conf[@]}"} -- "${LC_TP_ARGS[@]}" \
		2>>"$out/refs.err"
}

ref_quality() {
	local key line t0 res secs g2l=-
	key=$(ref_key)
	if [[ $key == none ]]; then
		read -r REF_TP REF_PERM <<<"$REF_BRINGUP"
		return 0
	fi
	if [[ $REF_LIDS == same ]]; then
		g2l=$out/ref.guid2lid
		ref_guid2lid "$FAB_DIR/topology.txt" >"$g2l"
		key+=":lids$(cksum <"$g2l" | cut -d' ' -f1)"
	fi
	if [[ -z $REF_SUM ]]; then
		REF_SUM="$(cksum <"$net" | cut -d' ' -f1) lmc=${lmc_conf[*]:-0} ${LC_TP_ARGS[*]}"
		REF_SUM=${REF_SUM// /_}
	fi
	[[ -n $REF_FILE ]] || REF_FILE=$out/refs.csv
	line=$(awk -F, -v s="$REF_SUM" -v k="$key" \
		'$1 == s && $2 == k { l = $3 " " $4 } END { print l }' \
		"$REF_FILE" 2>/dev/null || true)
	if [[ -n $line ]]; then
		read -r REF_TP REF_PERM <<<"$line"
		return 0
	fi
	t0=$(date +%s)
	ref_netfile "$out/ref.net"
	res=$(ref_run "$out/ref.net" "$g2l" || true)
	read -r REF_TP REF_PERM <<<"${res:-- -}"
	: "${REF_TP:=-}" "${REF_PERM:=-}"
	secs=$(($(date +%s) - t0))
	REF_RUNS=$((REF_RUNS + 1))
	fab_log "reference for $key: $REF_TP $REF_PERM in $secs s"
	if [[ $REF_TP != - && $REF_PERM != - ]]; then
		printf '%s,%s,%s,%s,%s\n' "$REF_SUM" "$key" "$REF_TP" \
			"$REF_PERM" "$secs" >>"$REF_FILE"
	fi
}

# Run as a script: NETFILE GUID2LID|- PLUGIN_DIR LFTREAD LFTCHECK SECS
# [CONF_LINE...] -- LFTCHECK_OPTION...: the from-scratch run, "TP PERM"
# on stdout.
ref_main() {
	local reduced=$1 g2l=$2 plugin=$3 reader=$4 checker=$5 secs=$6
	local conf=() last='' now i f
	shift 6
	while (($#)) && [[ $1 != -- ]]; do
		conf+=("$1")
		shift
	done
	shift
	set -euo pipefail
	# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
	. "$(dirname "$REF_SELF")/fabric_lib.sh"
	fab_init
	fab_start_ibsim "$reduced"
	if [[ $g2l != - ]]; then
		mkdir -p "$FAB_DIR/cache"
		cp "$g2l" "$FAB_DIR/cache/guid2lid"
	fi
	fab_start_opensm turnadd "$plugin" ${conf[@]+"${conf[@]}"}
	fab_wait_subnet_up "$secs"
	for ((i = 0; i < secs; i++)); do
		now=$(stat -c %s "$FAB_DIR/opensm.log")
		[[ $now != "$last" ]] || break
		last=$now
		sleep 1
	done
	fab_read_back "$reader" "$secs" >/dev/null
	f=$FAB_DIR/lftcheck.out
	"$checker" -n 0 "$@" "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$f" 2>&1 || true
	printf '%s %s\n' "$(sed -n 's/^throughput=\([^ ]*\).*/\1/p' "$f")" \
		"$(sed -n 's/.*\bperm_bandwidth=\([^ ]*\).*/\1/p' "$f")"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	ref_main "$@"
fi
