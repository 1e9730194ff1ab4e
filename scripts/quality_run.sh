# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# quality_run.sh: one run of bench_quality.sh (sourced by it): one
# engine on one fabric under ibsim and OpenSM, its tables read back and
# judged by lftcheck, one row of quality.csv.
#
#   pick_roots NET      sets roots: the updn-best roots of the netfile
#   run_engine ENGINE   one_run ENGINE, then its row in $out/quality.csv
#                       (and its roots in $out/roots.csv) and a progress
#                       line on stdout
#   one_run ENGINE      a subshell (own ibsim, OpenSM, cleanup trap) that
#                       brings $net up with ENGINE and writes
#                       $rdir/result (key=value)
#   engine_osm_name E   the OpenSM engine a label stands for
#
# The sourcing script sets: out, fabric, family, size, seed, join, net,
# traffic (turnadd's traffic_file or ""), check_opts (lftcheck's
# options), updn_roots, keep, timeout_s, plugin_dir, lftcheck, lftread,
# run_no, runs_total, bench_t0; fabric_lib.sh is sourced before.
# shellcheck disable=SC2154 # those variables

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

# val KEY FILE: the value of "KEY=value" in lftcheck's output, "-" if none.
val() {
	local v
	v=$(grep -oE "(^| )$1=[^ ]+" "$2" 2>/dev/null | head -n 1) || true
	v=${v#* }
	v=${v#"$1="}
	printf '%s\n' "${v:--}"
}

# Switch names of a netfile in its order.
switch_names() {
	awk -F'"' '/^Switch[ \t]/ { print $2 }' "$1"
}

# The engine that configured the tables in the last routing, from the log.
routed_by() {
	grep -F 'tables configured on all switches' "$FAB_DIR/opensm.log" |
		tail -n 1 | sed -E 's/.*-> [a-z_]+: ([A-Za-z0-9_]+) tables configured.*/\1/'
}

# Virtual lanes the engine said it needed (OpenSM's log, INFO level).
vls_needed() {
	local n=1
	case $1 in
	dfsssp) n=$(grep -oE 'Virtual Lanes needed: [0-9]+' \
		"$FAB_DIR/opensm.log" | tail -n 1 | grep -oE '[0-9]+$') || n=- ;;
	lash) n=$(grep -oE 'Lanes needed: [0-9]+' "$FAB_DIR/opensm.log" |
		tail -n 1 | grep -oE '[0-9]+$') || n=- ;;
	esac
	printf '%s\n' "${n:--}"
}

# sls_used: the distinct SLs of turnadd's SL dump ("-" without one).
sls_used() {
	local dump=$FAB_DIR/dump/opensm-turnadd-sl.dump
	if [[ -s $dump ]]; then
		awk '{ print $3 }' "$dump" | sort -u | wc -l
	else
		echo -
	fi
}

# sl_verdict FILE: lftcheck --sl prints one cdg= per SL, then the
# verdict over all SLs; that verdict goes first, where val finds it.
sl_verdict() {
	local v
	v=$(grep -oE '(^| )cdg=[^ ]+' "$1" | tail -n 1) || true
	v=${v# }
	printf '%s\n' "${v:-cdg=-}" | cat - "$1" >"$1.sl"
	mv -- "$1.sl" "$1"
}

# lftcheck with the options of the fabric family into FILE; its status
# (1: unreachable or cycle) is part of the result, not an error.
evaluate() {
	local file=$1
	"$lftcheck" -n 3 "${check_opts[@]}" "$FAB_DIR/topology.txt" \
		"$FAB_DIR/lfts.txt" >"$file" 2>&1 || true
	grep -q '^verdict=' "$file" ||
		fab_die "lftcheck failed: $(head -n 3 "$file")"
}

# score FILE: the number updn-best maximises, as "primary secondary".
score() {
	if [[ $family == joined ]]; then
		printf '%s %s\n' "$(val intra_throughput "$1")" \
			"$(val inter_throughput "$1")"
	else
		printf '%s 0\n' "$(val throughput "$1")"
	fi
}

# better "a1 a2" "b1 b2": true if a beats b (numbers or "-").
better() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= 2; i++) {
			if (x[i] == "-") x[i] = -1
			if (y[i] == "-") y[i] = -1
		}
		exit !(x[1] > y[1] + 1e-9 ||
			(x[1] > y[1] - 1e-9 && x[2] > y[2] + 1e-9))
	}'
}

# try_roots RESULT: updn-best's loop over the roots, on the same ibsim
# (LIDs and topology stay; the first root is already routed and evaluated
# in RESULT).  OpenSM is restarted for each root: a SIGHUP sweep would
# keep every LFT port of the previous root that is still a min-hop port
# (osm_switch_recommend_path() prefers the existing entry unless the
# subnet's ignore_existing_lfts is set, which only a new OpenSM, a new
# switch or a port change sets), so its tables would depend on the order
# of the roots.  A fresh OpenSM routes as on a fresh fabric.
try_roots() {
	local result=$1 best_score r try=$FAB_DIR/try.out
	best_score=$(score "$result")
	best_root=${roots[0]}
	printf '%s,%s,%s\n' "$fabric" "${roots[0]}" "$(root_row "$result")" \
		>>"$rdir/roots.csv"
	for r in "${roots[@]:1}"; do
		fab_node_guid "$r" >"$FAB_DIR/root_guids"
		fab_stop_pid "$FAB_OPENSM_PID" 5
		FAB_OPENSM_PID=
		mv "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.log.prev"
		fab_start_opensm updn "$plugin_dir" \
			"root_guid_file $FAB_DIR/root_guids"
		fab_wait_subnet_up "$timeout_s"
		fab_sim_client "$timeout_s" "$lftread" "$FAB_DIR/topology.txt" \
			>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" ||
			fab_die "lftread failed: $(grep -v '^ibwarn' \
				"$FAB_DIR/lftread.err" | head -n 3)"
		evaluate "$try"
		[[ $(routed_by) == updn ]] || echo 'status=fallback' >>"$try"
		printf '%s,%s,%s\n' "$fabric" "$r" "$(root_row "$try")" \
			>>"$rdir/roots.csv"
		if [[ $(routed_by) == updn ]] &&
			better "$(score "$try")" "$best_score"; then
			best_score=$(score "$try")
			best_root=$r
			cp "$try" "$result"
			if ((keep)); then
				cp "$FAB_DIR/lfts.txt" "$rdir/lfts.txt"
			fi
		fi
	done
}

root_row() {
	local st=ok
	grep -q '^status=fallback' "$1" && st=fallback
	printf '%s,%s,%s,%s,%s,%s\n' "$st" "$(val throughput "$1")" \
		"$(val intra_throughput "$1")" "$(val inter_throughput "$1")" \
		"$(val cdg "$1")" "$(val unreachable_host_pairs "$1")"
}

# one_run ENGINE: a subshell (own ibsim, OpenSM, cleanup trap) that brings
# the fabric $net up with ENGINE and writes $rdir/result (key=value).
one_run() (
	set -e
	local engine=$1 osm_engine=$1 conf=() ta_conf='' up_s
	rm -rf "$rdir"
	mkdir -p "$rdir"
	fab_init
	trap 'save_run; fab_cleanup' EXIT
	fab_start_ibsim "$net"
	case $engine in
	turnadd | tp | turnadd-vls4)
		osm_engine=turnadd
		ta_conf=$rdir/turnadd.conf
		: >"$ta_conf"
		if [[ $engine == tp ]]; then
			echo 'mode turn_prohibition' >>"$ta_conf"
		fi
		if [[ $engine == turnadd-vls4 ]]; then
			# SL i to VL i, and the dump files (opensm-turnadd-sl.dump)
			echo 'vls 4' >>"$ta_conf"
			conf+=('qos TRUE' 'log_flags 0x43')
		fi
		if [[ -n $traffic ]]; then
			echo "traffic_file $traffic" >>"$ta_conf"
		fi
		# extra option lines for every turnadd run (bench_quality.sh)
		if [[ -n ${TURNADD_EXTRA:-} ]]; then
			printf '%s\n' "$TURNADD_EXTRA" >>"$ta_conf"
		fi
		# shellcheck disable=SC2034 # read by fab_start_opensm
		FAB_OSM_ENV=("TURNADD_CONFIG=$ta_conf") ;;
	updn-best)
		osm_engine=updn
		fab_node_guid "${roots[0]}" >"$FAB_DIR/root_guids"
		conf+=("root_guid_file $FAB_DIR/root_guids") ;;
	nue)
		# routes to switch LIDs under the same deadlock rule too, as
		# every other engine here does (lftcheck counts them)
		conf+=('nue_include_switches TRUE') ;;
	esac
	fab_start_opensm "$osm_engine" "$plugin_dir" ${conf[@]+"${conf[@]}"}
	fab_wait_subnet_up "$timeout_s"
	up_s=$(fab_elapsed)
	fab_read_back "$lftread" "$timeout_s"
	if [[ $engine == turnadd-vls4 ]]; then
		check_opts+=(--sl "$FAB_DIR/dump/opensm-turnadd-sl.dump")
	fi
	evaluate "$rdir/result"
	if [[ $engine == turnadd-vls4 ]]; then
		sl_verdict "$rdir/result"
	fi
	if ((keep)); then
		cp "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" "$rdir/"
	fi
	if [[ $engine == updn-best ]]; then
		try_roots "$rdir/result"
		echo "root=$best_root" >>"$rdir/result"
		echo "roots_tried=${#roots[@]}" >>"$rdir/result"
	fi
	{
		echo "routed_by=$(routed_by)"
		if [[ $engine == turnadd-vls4 ]]; then
			echo "vls=$(sls_used)"
		else
			echo "vls=$(vls_needed "$osm_engine")"
		fi
		echo "up_s=$up_s"
	} >>"$rdir/result"
)

# shellcheck disable=SC2317 # called from one_run's EXIT trap
save_run() {
	[[ -n ${FAB_DIR:-} && -d $FAB_DIR ]] || return 0
	if [[ -f $FAB_DIR/opensm.log ]]; then
		# the lines that say what the engine did, not the whole log
		grep -E 'tables configured|routing_engine|turnadd:|Lanes|root|ERR|fall|WRN' \
			"$FAB_DIR/opensm.log" | head -n 200 >"$rdir/opensm-excerpt.log" ||
			true
	fi
	cp "$FAB_DIR/opensm.conf" "$rdir/" 2>/dev/null || true
}

# run_engine ENGINE: one_run, then one CSV row.
run_engine() {
	local engine=$1 t0 wall rc=0 st note='' r c why
	t0=$(date +%s)
	rdir=$out/runs/$fabric-$engine
	# errexit stays on inside one_run (not a tested command)
	set +e
	one_run "$engine" 2>"$out/runs/$fabric-$engine.err"
	rc=$?
	set -e
	wall=$(($(date +%s) - t0))
	r=$rdir/result
	if ((rc)) || [[ ! -s $r ]] || ! grep -q '^routed_by=' "$r"; then
		st=failed
		note=$(grep -v '^ibwarn' "$out/runs/$fabric-$engine.err" |
			grep -m 1 -E 'error|exited|no SUBNET' | tr ',\n' ';;') || true
		note=${note:-exit $rc}
		: >>"$r"
	elif [[ $(val routed_by "$r") != "$(engine_osm_name "$engine")" ]]; then
		st=fallback
		note="OpenSM fell back to $(val routed_by "$r")"
		why=$(grep -m 1 -oE 'turnadd: [^ ]+:[0-9]+: .*|ERR [0-9A-F]+: .*' \
			"$rdir/opensm-excerpt.log" 2>/dev/null | tr ',' ';') || true
		if [[ -n $why ]]; then
			note="$note ($why)"
		fi
	else
		st=ok
	fi
	c=$(val cdg "$r")
	printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' \
		"$family" "$fabric" "$size" "$seed" "$join" \
		"$(val switches "$r")" "$(val hosts "$r")" "$engine" "$st" \
		"$(val routed_by "$r")" "$(val vls "$r")" \
		"$(val unreachable_host_pairs "$r")" \
		"$(val unreachable_host_to_switch "$r")" "$c" \
		"$(val throughput "$r")" "$(val intra_throughput "$r")" \
		"$(val inter_throughput "$r")" "$(val join_links "$r")" \
		"$(val prohibited_fraction "$r")" "$(val mean_sw_hops "$r")" \
		"$(val max_sw_hops "$r")" "$(val root "$r")" \
		"$(val roots_tried "$r")" "$(val up_s "$r")" "$wall" "$note" \
		"$(val perm_bandwidth "$r")" "$(val perm_worst_pattern "$r")" \
		>>"$out/quality.csv"
	if [[ -f $rdir/roots.csv ]]; then
		cat "$rdir/roots.csv" >>"$out/roots.csv"
	fi
	run_no=$((run_no + 1))
	printf '[%d/%d %4ds] %-22s %-9s %-8s thr=%s perm=%s intra=%s inter=%s cdg=%s unreach=%s vls=%s %s\n' \
		"$run_no" "$runs_total" "$(($(date +%s) - bench_t0))" "$fabric" \
		"$engine" "$st" "$(val throughput "$r")" \
		"$(val perm_bandwidth "$r")" \
		"$(val intra_throughput "$r")" "$(val inter_throughput "$r")" \
		"$c" "$(val unreachable_host_pairs "$r")" "$(val vls "$r")" \
		"$note"
}

engine_osm_name() {
	case $1 in
	tp | turnadd-vls4) echo turnadd ;;
	updn-best) echo updn ;;
	*) echo "$1" ;;
	esac
}

# pick_roots NET: sets roots to updn_roots switches spread evenly (all if
# 0 or not more switches than that).
pick_roots() {
	local all=() i n
	mapfile -t all < <(switch_names "$1")
	n=${#all[@]}
	roots=()
	if ((updn_roots == 0 || n <= updn_roots)); then
		roots=("${all[@]}")
		return 0
	fi
	for ((i = 0; i < updn_roots; i++)); do
		roots+=("${all[i * n / updn_roots]}")
	done
}

