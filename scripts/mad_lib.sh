# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# mad_lib.sh: the phases of mad_count.sh (sourced after fabric_lib.sh).
#
#   mad_fail_list NET NAME... -- PREFIX...   switches of NET to fail
#   mad_bound NET FAILED...      LFT blocks a port-major failure needs
#   mad_link_port NET A B        A's lowest port cabled to B
#   mad_link_bound NET LFTS A P  blocks whose entries used link A[P]
#   mad_lines                    records in the counter's log so far
#   mad_mark                     a phase starts: with both counters, notes
#                                where ibsim's log stands
#   mad_settle MIN_UPS           waits until a sweep past MIN_UPS ended and
#                                nothing moved for MAD_QUIET seconds
#   mad_phase NAME FROM T0 CHECK BOUND [RETURNING...]
#                                tallies the records after line FROM, reads
#                                back and checks (CHECK=1), appends results
#   mad_summary_header, mad_write_json, mad_print_table ROWS, mad_status
#
# Settings (set by mad_count.sh): MAD_OUT, MAD_NET, MAD_ENGINE,
# MAD_COUNTER (preload, ibsim or both), MAD_IBSIM_FILE (ibsim's -v log
# unless preload), MAD_QUIET, MAD_TIMEOUT, MAD_COUNT_FILE,
# MAD_TALLY, MAD_LFTCHECK, MAD_LFTREAD, MAD_FAILED (names, one string),
# MAD_FAILED_LABEL (what was asked: names and PREFIX*, joined by +).

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

MAD_LAST_CHANGE=0
MAD_IBSIM_FROM=0
MAD_SETTLED=''
MAD_WORST=0

# Prints the switch names of NET given exactly (before --) or by prefix
# (after --), each once, in netfile order; unknown exact names are fatal.
mad_fail_list() {
	local net=$1 names=() prefixes=() seen=0 n
	shift
	while (($#)); do
		if [[ $1 == -- ]]; then
			seen=1
		elif ((seen)); then
			prefixes+=("$1")
		else
			names+=("$1")
		fi
		shift
	done
	for n in ${names[@]+"${names[@]}"}; do
		awk -F'"' -v n="$n" '/^Switch[ \t]/ && $2 == n { f = 1 }
			END { exit !f }' "$net" ||
			fab_die "no switch named '$n' in $net"
	done
	awk -F'"' -v names="${names[*]:-}" -v prefixes="${prefixes[*]:-}" '
		BEGIN {
			nn = split(names, nm, " "); np = split(prefixes, pf, " ")
		}
		/^Switch[ \t]/ {
			hit = 0
			for (i = 1; i <= nn; i++) if ($2 == nm[i]) hit = 1
			for (i = 1; i <= np; i++)
				if (index($2, pf[i]) == 1) hit = 1
			if (hit) print $2
		}' "$net"
}

# Sum over leaves (switches with hosts) of ceil((hosts * m * min(m, P)
# + leaves) * k / P / 64), k the leaf's links to failed switches, P its
# inter-switch links, m = 2^MAD_LMC (default LMC 0: m = 1): the host LIDs
# and the leaves' own LIDs that other leaves reach through some spine,
# spread evenly.  With LMC a port's m LIDs form one aligned run (OpenSM)
# and leave through min(m, P) distinct spines, so the blocks a spine's
# failure touches hold the whole runs of hosts * min(m, P) / P ports.
mad_bound() {
	local net=$1
	shift
	awk -F'"' -v failed="$*" -v m=$((1 << ${MAD_LMC:-0})) '
		BEGIN { n = split(failed, f, " "); for (i = 1; i <= n; i++) dead[f[i]] = 1 }
		/^Switch[ \t]/ { cur = $2; sw[cur] = 1; next }
		/^(Hca|Ca)[ \t]/ { cur = ""; hosts++; next }
		/^\[/ && cur != "" { peer[cur, ++np[cur]] = $2 }
		END {
			for (s in sw) {
				for (i = 1; i <= np[s]; i++)
					if (!(peer[s, i] in sw)) { leaves++; break }
			}
			for (s in sw) {
				h = 0; p = 0; k = 0
				for (i = 1; i <= np[s]; i++) {
					q = peer[s, i]
					if (q in sw) { p++; if (q in dead) k++ }
					else h++
				}
				w = m < p ? m : p
				if (h && k && p && !(s in dead))
					b += int(((hosts * m * w + leaves) * k + p * 64 - 1) / (p * 64))
			}
			print b + 0
		}' "$net"
}

# mad_paths_bound OUT FAILED...: lftcheck --through on the bring-up
# read-back (OUT/bringup-topology.txt, OUT/bringup-lfts.txt) for the
# failed switches ("NAME") or cables ("NAME[PORT]"): prints
# through_hop_blocks, the blocks whose entries every reroute must
# change; the whole line goes to OUT/failure-through.txt
mad_paths_bound() {
	local out=$1 f parts=()
	shift
	for f in "$@"; do
		if [[ $f =~ ^(.+)\[([0-9]+)\]$ ]]; then
			parts+=(--through "${BASH_REMATCH[1]}:${BASH_REMATCH[2]}")
		else
			parts+=(--through "$f")
		fi
	done
	"$MAD_LFTCHECK" -n 0 "${parts[@]}" "$out/bringup-topology.txt" \
		"$out/bringup-lfts.txt" 2>&1 | grep '^through_\|^lftcheck:' \
		>"$out/failure-through.txt" || true
	sed -n 's/.*through_hop_blocks=\([0-9]*\).*/\1/p' \
		"$out/failure-through.txt" | grep . ||
		fab_die "lftcheck --through failed: $(cat "$out/failure-through.txt")"
}

# mad_link_port NET A B: the lowest port of switch A cabled to switch B
mad_link_port() {
	awk -F'"' -v a="$2" -v b="$3" '
		/^Switch[ \t]/ { cur = $2; next }
		/^[A-Za-z]/ { cur = ""; next }
		cur == a && /^\[/ && $2 == b {
			p = $1; sub(/^\[/, "", p); sub(/\].*/, "", p)
			if (best == "" || p + 0 < best + 0) best = p
		}
		END { if (best != "") print best }' "$1"
}

# mad_link_bound NET LFTS A PORT: the bound of a link failure, the
# 64-LID blocks whose entries must move: at A those sent out of PORT, at
# the far end those sent back over the same cable (LFTS: lftread's
# output from before the failure)
mad_link_bound() {
	local net=$1 lfts=$2 a=$3 port=$4 b bport
	read -r b bport < <(awk -F'"' -v a="$a" -v p="$port" '
		/^Switch[ \t]/ { cur = $2; next }
		/^[A-Za-z]/ { cur = ""; next }
		cur == a && index($1, "[" p "]") == 1 {
			q = $3; sub(/^\[/, "", q); sub(/\].*/, "", q)
			print $2, q; exit
		}' "$net")
	[[ -n $b ]] || fab_die "no cable on ${a}[$port] in $net"
	awk -v a="$a" -v pa="$port" -v b="$b" -v pb="$bport" '
		/^Unicast lids/ {
			sw = $NF; sub(/^\(/, "", sw); sub(/\):$/, "", sw); next
		}
		/^0x/ && ((sw == a && $2 + 0 == pa) || (sw == b && $2 + 0 == pb)) {
			lid = 0; h = tolower(substr($1, 3))
			for (i = 1; i <= length(h); i++)
				lid = lid * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			blk[sw, int(lid / 64)] = 1
		}
		END { for (k in blk) n++; print n + 0 }' "$lfts"
}

mad_lines() {
	local n
	n=$(wc -l <"$MAD_COUNT_FILE")
	printf '%d\n' "$n"
}

mad_mark() {
	if [[ $MAD_COUNTER == both ]]; then
		MAD_IBSIM_FROM=$(wc -l <"$MAD_IBSIM_FILE")
	fi
}

# Waits until more than MIN_UPS "SUBNET UP" lines are logged and neither
# their number nor the counter's log changed for MAD_QUIET seconds.
# MAD_LAST_CHANGE: when the last change was seen (ns since the epoch).
mad_settle() {
	local min_ups=$1 sig last='' now since deadline ups quiet_ns
	quiet_ns=$(awk -v q="$MAD_QUIET" 'BEGIN { printf "%d", q * 1e9 }')
	since=$(date +%s%N)
	deadline=$((since + MAD_TIMEOUT * 1000000000))
	while :; do
		kill -0 "$FAB_OPENSM_PID" 2>/dev/null ||
			fab_die "opensm exited: $(tail -n 3 "$FAB_DIR/opensm.log")"
		ups=$(fab_count_up)
		# opensm.log grows with trap notices and sweep results too
		sig="$ups $(stat -c %s "$MAD_COUNT_FILE" "$FAB_DIR/opensm.log" \
			${MAD_IBSIM_FILE:+"$MAD_IBSIM_FILE"})"
		now=$(date +%s%N)
		if [[ $sig != "$last" ]]; then
			last=$sig
			since=$now
		elif ((ups > min_ups && now - since >= quiet_ns)); then
			MAD_LAST_CHANGE=$since
			MAD_SETTLED="$ups $(mad_lines)"
			fab_log "settled: $ups sweeps, $(mad_lines) records"
			return 0
		fi
		((now < deadline)) ||
			fab_die "no quiet subnet after $MAD_TIMEOUT s (sweeps: $ups)"
		sleep 0.1
	done
}

# The topology as ibnetdiscover sees it from the SM's node.
mad_discover() {
	fab_sim_client "$MAD_TIMEOUT" "$FAB_IBNETDISCOVER" \
		>"$FAB_DIR/topology.txt" 2>"$FAB_DIR/ibnetdiscover.err" ||
		fab_die "ibnetdiscover failed: $(head -n 3 \
			"$FAB_DIR/ibnetdiscover.err")"
}

# ibsim -v lines of LFT blocks reaching a switch -> madtally's CSV.
# The port in "reached host NAME port N" is where the MAD came in.
mad_tally_ibsim() {
	local topo=$1 window=$2
	awk '
		FNR == NR {
			if ($0 ~ /^Switch[ \t]/) {
				split($0, q, "\"")
				name = q[4]; guid = q[2]; sub(/^S-/, "0x", guid)
				order[++n] = name; g[name] = guid
			}
			next
		}
		match($0, /process_packet: packet \(attr 0x1b mod 0x[0-9a-f]+\) reached host .* port [0-9]+$/) {
			s = $0; sub(/.*\(attr 0x1b mod 0x[0-9a-f]+\) reached host /, "", s)
			sub(/ port [0-9]+$/, "", s)
			mft[s]++
			next
		}
		match($0, /process_packet: packet \(attr 0x19 mod 0x[0-9a-f]+\) reached host .* port [0-9]+$/) {
			s = $0; sub(/.*\(attr 0x19 mod 0x/, "", s)
			blk = s; sub(/\).*/, "", blk)
			sub(/^[0-9a-f]+\) reached host /, "", s); sub(/ port [0-9]+$/, "", s)
			mads[s]++
			if (!((s, blk) in seen)) { seen[s, blk] = 1; blocks[s]++ }
		}
		END {
			print "switch,guid,lft_mads,blocks,mft_mads"
			for (i = 1; i <= n; i++) {
				s = order[i]
				printf "%s,%s,%d,%d,%d\n", s, g[s], mads[s], blocks[s], mft[s]
				delete mads[s]
				delete mft[s]
			}
			for (s in mads) u += mads[s]
			for (s in mft) u += mft[s]
			if (u) printf "(unresolved),,%d,,\n", u
		}' "$topo" "$window"
}

# mad_ibsim_window NAME FROM TO: madtally's CSV of ibsim's log lines
# FROM+1..TO (LFT and MFT blocks only).
mad_ibsim_window() {
	sed -n "$(($2 + 1)),${3}p" "$MAD_IBSIM_FILE" |
		grep -E 'attr 0x1[9b] ' >"$FAB_DIR/$1.window" || true
	mad_tally_ibsim "$FAB_DIR/topology.txt" "$FAB_DIR/$1.window"
}

# Max LID of a topology (ibnetdiscover output).
mad_max_lid() {
	grep -o 'lid [0-9]*' "$1" | awk '$2 > m { m = $2 } END { print m + 0 }'
}

mad_csv_get() {	# FILE KEY: value of key=value in lftcheck's output
	sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" | head -n 1
}

mad_summary_header() {
	printf '%s\n' "net,engine,counter,failed,failed_switches,phase,lft_mads,switches_written,bound,ratio,verdict,throughput,max_link_load,max_link,configured_by,seconds,mft_mads,lmc_spines_min,lmc_spines_mean,through_blocks" \
		>"$MAD_OUT/summary.csv"
	printf 'phase,switch,guid,lft_mads,blocks,mft_mads\n' >"$MAD_OUT/mad_counts.csv"
}

# mad_phase NAME FROM T0 CHECK BOUND [RETURNING...]
mad_phase() {
	local name=$1 from=$2 t0=$3 check=$4 bound=$5 to csv total written
	local verdict=- tput=- mload=- mlink=- ratio=- by secs max_lid rc=0 mft
	local lmin=- lmean=- ibsim_to=0 through=
	shift 5
	to=$(mad_lines)
	[[ $MAD_COUNTER != both ]] || ibsim_to=$(wc -l <"$MAD_IBSIM_FILE")
	secs=$(awk -v a="$t0" -v b="$MAD_LAST_CHANGE" \
		'BEGIN { d = (b - a) / 1e9; printf "%.2f", d < 0 ? 0 : d }')
	by=$(grep -F "tables configured on all switches" \
		"$FAB_DIR/opensm.log" | tail -n 1 |
		sed 's/.* \([^ ]*\) tables configured on all switches.*/\1/')
	[[ ,$MAD_ENGINE, == *,"${by:-none}",* && $by == "${MAD_ENGINE%%,*}" ]] ||
		MAD_WORST=4
	mad_discover
	cp -- "$FAB_DIR/topology.txt" "$MAD_OUT/$name-topology.txt"
	csv=$MAD_OUT/$name.csv
	if [[ $MAD_COUNTER == ibsim ]]; then
		mad_ibsim_window "$name" "$from" "$to" >"$csv"
	else
		if [[ $MAD_COUNTER == both ]]; then
			# both counters over the same phase of the same run
			mad_ibsim_window "$name" "$MAD_IBSIM_FROM" "$ibsim_to" \
				>"$MAD_OUT/$name-ibsim.csv"
		fi
		sed -n "$((from + 1)),${to}p" "$MAD_COUNT_FILE" >"$MAD_OUT/$name.mads"
		"$MAD_TALLY" "$FAB_DIR/topology.txt" "$MAD_OUT/$name.mads" >"$csv" ||
			fab_die "madtally failed on the $name phase"
		if [[ $MAD_COUNTER == both ]] &&
			! cmp -s "$csv" "$MAD_OUT/$name-ibsim.csv"; then
			printf 'mad_count: %s: the two counters disagree (%s, %s)\n' \
				"$name" "$csv" "$MAD_OUT/$name-ibsim.csv" |
				tee -a "$MAD_OUT/warnings.txt" >&2
			((MAD_WORST)) || MAD_WORST=1
		fi
	fi
	total=$(awk -F, 'NR > 1 { t += $3 } END { print t + 0 }' "$csv")
	# MulticastForwardingTable Sets
	mft=$(awk -F, 'NR > 1 { t += $5 } END { print t + 0 }' "$csv")
	written=$(awk -F, 'NR > 1 && $3 > 0 && $1 != "(unresolved)" { w++ }
		END { print w + 0 }' "$csv")
	awk -F, -v p="$name" -v t="$total" 'NR > 1 { print p "," $0 }
		END { print p ",TOTAL,," t "," }' "$csv" >>"$MAD_OUT/mad_counts.csv"
	if (($# && bound > 0)); then
		# the returning switches get their whole table, block by block
		max_lid=$(mad_max_lid "$FAB_DIR/topology.txt")
		bound=$((bound + $# * (max_lid / 64 + 1)))
	fi
	if ((check)); then
		fab_read_back "$MAD_LFTREAD" "$MAD_TIMEOUT"
		"$MAD_LFTCHECK" --throughput \
			${MAD_MC_ARGS[@]+"${MAD_MC_ARGS[@]}"} "$FAB_DIR/topology.txt" \
			"$FAB_DIR/lfts.txt" >"$MAD_OUT/$name-check.out" 2>&1 ||
			rc=$?
		cp -- "$FAB_DIR/lfts.txt" "$MAD_OUT/$name-lfts.txt"
		((rc == 0)) || { ((MAD_WORST)) || MAD_WORST=1; }
		verdict=$(mad_csv_get "$MAD_OUT/$name-check.out" verdict)
		tput=$(mad_csv_get "$MAD_OUT/$name-check.out" throughput)
		mload=$(mad_csv_get "$MAD_OUT/$name-check.out" max_link_load)
		mlink=$(mad_csv_get "$MAD_OUT/$name-check.out" max_link)
		[[ -n $verdict ]] || verdict=ERROR
		lmin=$(mad_csv_get "$MAD_OUT/$name-check.out" lmc_spines_min)
		lmean=$(mad_csv_get "$MAD_OUT/$name-check.out" lmc_spines_mean)
		lmin=${lmin:--} lmean=${lmean:--}
	fi
	if ((bound > 0)); then
		ratio=$(awk -v a="$total" -v b="$bound" \
			'BEGIN { printf "%.2f", a / b }')
	else
		bound=-
	fi
	# --bound paths: the blocks of the routes that cross the failed part
	[[ ! -s $MAD_OUT/$name-through.txt ]] ||
		through=$(mad_csv_get "$MAD_OUT/$name-through.txt" through_blocks)
	mad_check_late "$name"
	printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' \
		"$(basename "$MAD_NET")" "$MAD_ENGINE" "$MAD_COUNTER" \
		"$MAD_FAILED_LABEL" "$(wc -w <<<"$MAD_FAILED")" "$name" \
		"$total" "$written" "$bound" "$ratio" "$verdict" "$tput" \
		"$mload" "$mlink" "${by:-none}" "$secs" "$mft" "$lmin" "$lmean" \
		"${through:--}" >>"$MAD_OUT/summary.csv"
	fab_log "$name: $total LFT MADs to $written switches, $mft MFT MADs"
}

# A sweep that ends or sends LFT MADs after the phase was deemed settled
# (e.g. during the read-back) means the quiet time was too short.
mad_check_late() {
	local now
	now="$(fab_count_up) $(mad_lines)"
	if [[ $now != "$MAD_SETTLED" ]]; then
		printf 'mad_count: warning: %s: OpenSM went on after the phase was deemed settled (sweeps, records: %s, then %s); counts may be short: use a longer --quiet\n' \
			"$1" "$MAD_SETTLED" "$now" | tee -a "$MAD_OUT/warnings.txt" >&2
	fi
}

mad_status() {
	printf '%d\n' "$MAD_WORST"
}

# mad_counts.json from summary.csv and mad_counts.csv.
mad_write_json() {
	awk -F, -v failed="$MAD_FAILED" '
		function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
		function num(s) { return s == "-" || s == "" ? "null" : s }
		FNR == NR {
			if (FNR > 1 && $2 != "TOTAL") {
				ps[$1] = ps[$1] (ps[$1] == "" ? "" : ",\n") \
					"      {\"switch\": " q($2) ", \"guid\": " q($3) \
					", \"lft_mads\": " $4 ", \"blocks\": " num($5) "}"
			}
			next
		}
		FNR == 1 { next }
		{
			if (!head) {
				head = 1
				n = split(failed, f, " ")
				printf "{\n  \"net\": %s,\n  \"engine\": %s,\n  \"counter\": %s,\n", q($1), q($2), q($3)
				printf "  \"failed\": ["
				for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? ", " : ""), q(f[i])
				printf "],\n  \"phases\": [\n"
			} else printf ",\n"
			printf "    {\"phase\": %s, \"lft_mads\": %s, \"switches_written\": %s, ", q($6), $7, $8
			printf "\"bound\": %s, \"ratio\": %s, \"verdict\": %s, ", num($9), num($10), $11 == "-" ? "null" : q($11)
			printf "\"throughput\": %s, \"max_link_load\": %s, \"max_link\": %s, ", num($12), num($13), $14 == "-" ? "null" : q($14)
			printf "\"configured_by\": %s, \"seconds\": %s,\n", q($15), $16
			printf "     \"per_switch\": [\n%s\n     ]}", ps[$6]
		}
		END { printf "\n  ]\n}\n" }' \
		"$MAD_OUT/mad_counts.csv" "$MAD_OUT/summary.csv" \
		>"$MAD_OUT/mad_counts.json"
}

# The readable table: phases, then switch kinds (names without digits),
# then the ROWS switches with the most MADs after the failure.
mad_print_table() {
	local rows=$1
	printf '\nnet %s, engine %s, counter %s, failed: %s (%d switches)\n' \
		"$(basename "$MAD_NET")" "$MAD_ENGINE" "$MAD_COUNTER" \
		"$MAD_FAILED_LABEL" "$(wc -w <<<"$MAD_FAILED")"
	awk -F, 'NR == 1 {
			printf "%-8s %9s %8s %7s %6s %-7s %10s %8s %-13s %7s\n", "phase", "LFT_MADs", "switches", "bound", "ratio", "verdict", "throughput", "max_load", "routed_by", "seconds"
			next
		}
		{ printf "%-8s %9s %8s %7s %6s %-7s %10s %8s %-13s %7s\n", $6, $7, $8, $9, $10, $11, $12, $13, $15, $16 }' \
		"$MAD_OUT/summary.csv"
	if [[ -s $MAD_OUT/failure-through.txt ]]; then
		printf '\nbound (paths): %s blocks hold an entry whose bring-up route leads straight into the failed part (every reroute writes them: the bound above); %s blocks hold a route that crosses it further on too (a reroute that moves only the routes that must move writes no other block)\n' \
			"$(mad_csv_get "$MAD_OUT/failure-through.txt" through_hop_blocks)" \
			"$(mad_csv_get "$MAD_OUT/failure-through.txt" through_blocks)"
	fi
	printf '\nLFT MADs by switch kind (name with digits as N):\n'
	awk -F, 'NR > 1 && $2 != "TOTAL" && $2 != "(unresolved)" {
			k = $2; gsub(/[0-9]+/, "N", k)
			if (!(k in seen)) { seen[k] = 1; kinds[++nk] = k }
			if (!(($1, $2) in sw)) { sw[$1, $2] = 1; nsw[$1, k]++ }
			c[$1, k] += $4
			if (!($1 in ph)) { ph[$1] = 1; phases[++np] = $1 }
		}
		END {
			printf "  %-16s", "kind"
			for (j = 1; j <= np; j++) printf " %9s %6s", phases[j], "sw"
			printf "\n"
			for (i = 1; i <= nk; i++) {
				printf "  %-16s", kinds[i]
				for (j = 1; j <= np; j++)
					printf " %9d %6d", c[phases[j], kinds[i]], nsw[phases[j], kinds[i]]
				printf "\n"
			}
		}' "$MAD_OUT/mad_counts.csv"
	if ((rows > 0)); then
		printf '\nswitches with the most LFT MADs after the failure (of %s):\n' \
			"$(awk -F, '$1 == "failure" && $2 != "TOTAL" && $4 > 0' \
				"$MAD_OUT/mad_counts.csv" | wc -l) written"
		awk -F, '$1 == "failure" && $2 != "TOTAL" && $4 > 0 {
				printf "  %-24s %6d MADs %6s blocks\n", $2, $4, $5
			}' "$MAD_OUT/mad_counts.csv" | sort -k2,2nr -s | head -n "$rows"
	fi
	printf '\n'
}
