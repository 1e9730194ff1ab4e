#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_speed.sh: the routing speed and memory benchmark.  For each fabric
# and engine it runs ibsim and OpenSM, measures from OpenSM's own log how
# long the routing step takes at bring-up and at the resweep after one
# spine (2-level) or one director (3-level) fails, and reads opensm's
# peak memory (VmHWM) just before stopping it.  Prints a table, and the
# ratios ours/base (default turnadd/ftree) per fabric.  Not part of make
# check (the large fabrics take minutes and GBs).
#
#   bench_speed.sh [options]
#
# Options:
#   --fabrics LIST   comma-separated, from: ft2-648 (ibsim_topos/
#                    ft2-36x18.net: 36 leaves x 18 spines, 648 hosts),
#                    ft3-5832 (topogen fattree3 18 18 9 18 18), ft3-11664
#                    (topogen fattree3 18 36 18 18 18); larger, not by
#                    default (minutes and GBs each): ft2-2048 (topogen
#                    fattree2 64 32 32: 64-port leaf-spine), ft3-16000
#                    (topogen fattree3 20 40 20 20 20: 40-port, 2,000
#                    switches), ft3-32768 (topogen --switch-ports 64
#                    fattree3 32 32 32 32 32: 64-port, half the pods,
#                    3,072 switches; ibsim gets -L 49152); every name of
#                    bench_lib.sh --help
#                    (default: ft2-648,ft3-5832,ft3-11664)
#   --engines LIST   comma-separated (default: turnadd,ftree,updn,minhop)
#   --ours ENGINE    numerator of the ratios (default turnadd)
#   --base ENGINE    denominator of the ratios (default ftree)
#   --which N        fail spine ft-spine<N> / director dir<N>- / Dragonfly+
#                    spine dfp<N>-spine0 / dragonfly router df<N>-s0
#                    (default 0)
#   --repeat N       runs per fabric and engine (default 1); the table and
#                    the ratios use the median of the runs
#   --build DIR      build tree with ibsim_topos/topogen and plugin/.libs
#                    (default: $TURNADD_BUILD, else _build in the source
#                    tree, which is then made: packages installed
#                    (install-deps.sh), configured and built)
#   --plugin-dir DIR libturnadd.so's directory (default: DIR/plugin/.libs)
#   --conf-extra LINE  an extra opensm.conf line for every engine
#                    (repeatable; e.g. 'qos TRUE', which turnadd's option
#                    vls needs for its layers, and TURNADD_CONFIG in the
#                    environment names turnadd.conf)
#   --quiet SECS     quiet time that ends a phase: no sweep ending and no
#                    OpenSM log line (default 1, plus 1 per 200 switches)
#   --timeout SECS   bound for each phase (default 1200)
#   --out DIR        results (default: a new dir in /tmp): speed.csv (one
#                    row per run), medians.csv (per fabric and engine),
#                    ratios.csv, speed.png (routing step against fabric
#                    size, if gnuplot is installed), and per run its
#                    opensm.log and opensm.conf in DIR/runs/FABRIC-ENGINE-REP/
#   --merge LIST     run nothing: join the rows of these speed.csv files
#                    (comma-separated, e.g. runs made at different times
#                    on the same machine) into DIR/speed.csv and print and
#                    plot them as one run (medians over the joined rows)
#   -v, --verbose    log the steps to stderr
#
# What is measured (same way for every engine, from OpenSM's log; the
# routing engine's own timings are not used, except as a cross-check):
#   route_s  OpenSM's routing step: osm_ucast_mgr_process(), from the
#            VERBOSE box "LID ASSIGNMENT COMPLETE - STARTING SWITCH TABLE
#            CONFIG" (osm_state_mgr.c, logged just before the call) to
#            "<engine> tables configured on all switches" (INFO,
#            osm_ucast_mgr.c, at its end).  It covers the LFT allocation,
#            the engine's build_lid_matrices and ucast_build_fwd_tables,
#            and the queuing of the LFT MADs (not their delivery).
#   sweep_s  the whole heavy sweep that ended with that routing: from
#            "INITIATING HEAVY SWEEP" to the next "SUBNET UP": discovery,
#            the event plugins (turnadd's port-major LIDs run there, at
#            OSM_EVENT_ID_HEAVY_SWEEP_DONE), LIDs, routing, LFT and
#            multicast MADs delivered through ibsim, link states.
#   hwm_mb   opensm's VmHWM (peak resident set) from /proc/PID/status,
#            read after the resweep settled, right before opensm is
#            stopped (hwm_up_mb: the same, read before the failure).
# The log verbosity is raised for osm_state_mgr.c and osm_ucast_mgr.c only
# (a per_module_logging_file with 0x07), so the log stays small and the
# routing step is not slowed down by logging.  If a phase runs more than
# one routing step (e.g. a sweep restarted by late traps), route_s and
# sweep_s are those of the last one and "routings" says how many ran.
# Timestamps have microseconds; a run across the end of a month is not
# handled.
#
# speed.csv columns: fabric, engine, rep, hosts, switches, failed,
# up_routings, up_route_s, up_build_s, up_sweep_s, fail_routings,
# fail_route_s, fail_build_s, fail_sweep_s, hwm_up_mb, hwm_mb,
# routed_by (after the failure), self_up_s, self_fail_s (turnadd's own
# "graph + routing" seconds, "-" for other engines), status (0 ok, 3 the
# fabric could not be run, 4 a fallback engine routed), wall_s.
# build_s is from "building routing with 'X' routing algorithm..."
# (VERBOSE, after the LFT allocation) to the end of the routing step.
#
# Examples:
#
#     bench_speed.sh [--build BUILD] [--fabrics ft2-648,ft3-5832,ft3-11664] \
#         [--engines turnadd,ftree,updn,minhop] [--repeat N] [--out DIR]
#     TURNADD_MEM_PROBE=1 bash scripts/bench_speed.sh --fabrics ft3-16000 \
#         --engines turnadd      # turnadd's "memory at STEP" lines too
#
# Without --build (and no TURNADD_BUILD) it installs the packages it needs
# (install-deps.sh) and builds the tree into _build first, so `bash
# scripts/bench_speed.sh --repeat 2` is the whole command on a fresh
# clone.  Each run: ibsim and OpenSM (own IBSIM_SOCKNAME, stopped by PID,
# bounded waits: fabric_lib.sh), bring-up until quiet, then the spine or
# director unlinked at once, until the resweep is quiet (mad_lib.sh's
# settle, with no MAD counter); the runs of the engines are interleaved
# (--repeat).  The environment is passed on to opensm.
#
# Output: the table (medians over the runs), the ratios ours/base per
# fabric for the routing step at bring-up and at the resweep, the whole
# sweeps and the memory; in DIR: speed.csv (one row per run),
# medians.csv, ratios.csv, speed.png (the routing step against the
# number of hosts, log-log, per engine, bring-up and resweep; gnuplot),
# and every run's opensm.log and opensm.conf in
# DIR/runs/FABRIC-ENGINE-REP/.  A run whose tables were made by a
# fallback engine gets status 4.
#
# fabric_lib.sh gives ibsim -L 49152 above 20,000 nodes (its switches
# hold LFTs to LID 30,720 otherwise, and OpenSM takes the lowest
# LinearFDBCap as the end of the LID space), and waits for ibsim 10 s
# plus 20 s per MB of netfile.  The large fabrics (one run each on a
# loaded machine) are in results/speed/large.txt: 11,664 and 16,000 hosts
# come up and reroute; 32,768 hosts did not come up there (ibsim starved
# of CPU while reading the netfile; ibsim_topos/README).  The
# turnadd/ftree ratios need a quiet machine: on a loaded one the load
# differs by a factor of several between the engines' runs.
#
# The routing core alone (no OpenSM, no simulator) is timed by
# tests/bench/core_bench (built by make):
#
#     tests/bench/core_bench -g dir0- fattree3 18 36 18 18 18
#
# routes the 11,664-host fabric, then again with director 0 gone (the
# routing memory of the first run as the prior), and prints seconds (wall
# and CPU), turns, cycle-check work and how many destinations kept their
# routes.  Options: -p numbers the host LIDs port-major, as the plugin
# sees them; -R adds the restore (director back, the resweep's routing
# as the prior); -a PERMILLE leaves hosts out; -H prints a hash of each
# phase's routes and turn decisions; -L keeps the routing memory as the
# plugin does, reading the latest routing's ports from simulated switch
# tables (tests/unit/lft_sim.c) instead of its own copy (the hashes must
# be those without -L; it prints the bytes the memory keeps after each
# routing); also ring, mesh, torus and ft3join fabrics.  Two scripts use
# it:
#
#     tests/bench/core_times.sh BUILD [RUNS] [ft3-5832 ft3-11664 ft2-2048 ft3-16000 ft3-32768]
#     tests/bench/core_hashes.sh BUILD [--big] >hashes.txt
#
# core_times.sh prints the median wall and CPU seconds per fabric (the
# CPU seconds are steadier when other jobs share the machine).
# core_hashes.sh prints the hashes on 36 fabrics and modes (fat trees
# full, oversubscribed, with parallel links, with absent hosts, 3-level;
# random nets with a switch gone; ring, mesh, tori; joined fat trees;
# the turn_prohibition and no_prohibition modes; a seed; --big adds
# 5,832 and 11,664 hosts): a change of the core that is meant for speed
# must give the same hashes.  The core's times on 11,664 hosts and the
# larger fabrics: results/speed/core.txt; profiles:
# results/speed/profile-*.txt.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mad_lib.sh
. "$here/mad_lib.sh"
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$here/bench_lib.sh"
# shellcheck source-path=SCRIPTDIR source=speed_report.sh
. "$here/speed_report.sh"
# shellcheck source-path=SCRIPTDIR source=ensure_build.sh
. "$here/ensure_build.sh"

fabrics=ft2-648,ft3-5832,ft3-11664 engines=turnadd,ftree,updn,minhop
ours=turnadd base=ftree which=0 repeat=1 build=${TURNADD_BUILD:-}
plugin_dir='' quiet_opt='' timeout_s=1200 out='' merge='' conf_extra=()
while (($#)); do
	case $1 in
	--conf-extra) conf_extra+=("${2:?}"); shift ;;
	--fabrics) fabrics=${2:?}; shift ;;
	--engines) engines=${2:?}; shift ;;
	--ours) ours=${2:?}; shift ;;
	--base) base=${2:?}; shift ;;
	--which) which=${2:?}; shift ;;
	--repeat) repeat=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--plugin-dir) plugin_dir=${2:?}; shift ;;
	--quiet) quiet_opt=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--merge) merge=${2:?}; shift ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option bench_speed "$1" ;;
	esac
	shift
done
[[ $which =~ ^[0-9]+$ ]] || fab_usage
[[ $repeat =~ ^[1-9][0-9]*$ ]] || fab_die "bad --repeat '$repeat'"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || fab_die "bad --timeout '$timeout_s'"
[[ -z $quiet_opt || $quiet_opt =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
	fab_die "bad --quiet '$quiet_opt'"
if [[ -n $merge ]]; then
	build=.
elif [[ -z $build ]]; then
	ensure_build >&2
fi
fab_build_paths
topogen=$build/ibsim_topos/topogen
[[ -n $merge || -x $topogen ]] || fab_die "$topogen not built (make, or --build DIR)"
if [[ -z $merge && ,$engines, == *,turnadd,* && ! -e $plugin_dir/libturnadd.so ]]; then
	fab_die "no libturnadd.so in $plugin_dir (make, or --plugin-dir DIR)"
fi
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/bench_speed.XXXXXX")
fi
mkdir -p "$out/nets" "$out/runs"
out=$(cd "$out" && pwd)

# fabric_setup NAME: sets net (a netfile, made by topogen once per out
# dir) and fail_names (2-level: a spine; Dragonfly+: spine 0 of group
# --which; dragonfly: its router 0) or fail_prefixes (a director)
fabric_setup() {
	fail_names=() fail_prefixes=()
	bench_net bench_speed "$1" "$out/nets" "$topogen"
	net=$bench_net_file
	case $bench_base in
	ft2-*) fail_names=("ft-spine$which") ;;
	dfp-*) fail_names=("dfp$which-spine0") ;;
	df-*) fail_names=("df$which-s0") ;;
	*) fail_prefixes=("dir$which-") ;;
	esac
}

# VmHWM of a process in MB (one decimal), "-" if it is gone.
vm_hwm_mb() {
	awk '$1 == "VmHWM:" { printf "%.1f\n", $2 / 1024; f = 1 }
		END { if (!f) print "-" }' "/proc/$1/status" 2>/dev/null ||
		printf -- '-\n'
}

# run_one ENGINE RUN_DIR FAILED...: one fabric run, in a subshell (the
# EXIT trap of fabric_lib.sh stops ibsim and OpenSM when it ends).
# Writes RUN_DIR/run.txt (key=value) and copies opensm.log/conf there.
run_one() {
	local engine=$1 run=$2 sw ups
	shift 2
	fab_init
	# keep the log when the run ends, however it ends
	# shellcheck disable=SC2064 # $run is fixed for this run
	trap "cp -f -- \"\$FAB_DIR\"/opensm.{log,conf} \"$run/\" 2>/dev/null || true; fab_cleanup" EXIT
	printf 'osm_state_mgr.c 0x07\nosm_ucast_mgr.c 0x07\n' \
		>"$FAB_DIR/per-module-logging.conf"
	: >"$FAB_DIR/no-mads"
	MAD_COUNT_FILE=$FAB_DIR/no-mads MAD_QUIET=$quiet MAD_TIMEOUT=$timeout_s
	fab_start_ibsim "$net"
	fab_start_opensm "$engine" "$plugin_dir" \
		"per_module_logging_file $FAB_DIR/per-module-logging.conf" \
		${conf_extra[@]+"${conf_extra[@]}"}
	fab_wait_subnet_up "$timeout_s"
	mad_settle 0
	{
		printf 'opensm_exe=%s\n' "$(readlink "/proc/$FAB_OPENSM_PID/exe" || true)"
		printf 'up_lines=%s\n' "$(wc -l <"$FAB_DIR/opensm.log")"
		printf 'hwm_up_mb=%s\n' "$(vm_hwm_mb "$FAB_OPENSM_PID")"
	} >"$run/run.txt"
	ups=$(fab_count_up)
	for sw in "$@"; do
		fab_unlink "$sw"
	done
	mad_settle "$ups"
	printf 'hwm_mb=%s\n' "$(vm_hwm_mb "$FAB_OPENSM_PID")" >>"$run/run.txt"
}

# run_value RUN_DIR KEY: a value of the run's run.txt ("" if none)
run_value() {
	if [[ -r $1/run.txt ]]; then
		sed -n "s/^$2=//p" "$1/run.txt" | head -n 1
	fi
}

# parse_window LOG FROM TO: the routing steps logged in lines FROM..TO;
# prints "routings route_s build_s sweep_s routed_by self_s".
parse_window() {
	awk -v from="$2" -v to="$3" '
		BEGIN {
			split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", m, " ")
			for (i = 1; i <= 12; i++) mon[m[i]] = i
			n = 0; route = build = sweep = self = "-"; by = "none"
		}
		NR > to { exit }
		# a log record: "Mon DD HH:MM:SS USECS [TID] 0xLL -> text"
		$1 in mon && $4 ~ /^[0-9]+$/ && $5 ~ /^\[/ {
			split($3, hms, ":")
			cur = ((mon[$1] * 31 + $2) * 24 + hms[1]) * 3600 + \
				hms[2] * 60 + hms[3] + $4 / 1e6
		}
		NR < from { next }
		/INITIATING HEAVY SWEEP/ { hs = cur }
		/STARTING SWITCH TABLE CONFIG/ { box = cur; bld = "" }
		/building routing with .* routing algorithm/ && bld == "" { bld = cur }
		/ tables configured on all switches/ {
			n++
			route = sprintf("%.3f", cur - box)
			build = bld == "" ? "-" : sprintf("%.3f", cur - bld)
			by = $0
			sub(/ tables configured on all switches.*/, "", by)
			sub(/.* /, "", by)
			hs_route = hs; sweep = "-"; pending = 1
		}
		/ -> SUBNET UP$/ && pending {
			sweep = sprintf("%.3f", cur - hs_route); pending = 0
		}
		/turnadd: routes: .* graph [0-9.]+ s, routing [0-9.]+ s/ {
			s = $0; sub(/.* graph /, "", s); g = s + 0
			sub(/.*, routing /, "", s); self = sprintf("%.3f", g + s)
		}
		END { printf "%d %s %s %s %s %s\n", n, route, build, sweep, by, self }
	' "$1"
}

csv=$out/speed.csv
echo "fabric,engine,rep,hosts,switches,failed,up_routings,up_route_s,up_build_s,up_sweep_s,fail_routings,fail_route_s,fail_build_s,fail_sweep_s,hwm_up_mb,hwm_mb,routed_by,self_up_s,self_fail_s,status,wall_s" >"$csv"
IFS=, read -ra fabric_list <<<"$fabrics"
if [[ -n $merge ]]; then
	# the joined rows stand for the runs; the engines are theirs
	fabric_list=()
	IFS=, read -ra merge_list <<<"$merge"
	for f in "${merge_list[@]}"; do
		[[ -r $f ]] || fab_die "--merge: cannot read $f"
		[[ $(head -n 1 "$f") == "$(head -n 1 "$csv")" ]] ||
			fab_die "--merge: $f: not a speed.csv of this version (header differs)"
		tail -n +2 "$f" >>"$csv"
	done
	engines=$(tail -n +2 "$csv" | cut -d, -f2 | awk '!seen[$0]++' |
		paste -sd, -)
fi
IFS=, read -ra engine_list <<<"$engines"
for fabric in "${fabric_list[@]}"; do
	fabric_setup "$fabric"
	hosts=$(grep -c '^Hca' "$net" || true)
	switches=$(grep -c '^Switch' "$net" || true)
	quiet=${quiet_opt:-$((1 + switches / 200))}
	mapfile -t failed < <(mad_fail_list "$net" \
		${fail_names[@]+"${fail_names[@]}"} -- \
		${fail_prefixes[@]+"${fail_prefixes[@]}"})
	((${#failed[@]})) || fab_die "no switch of $net to fail"
	label=${fail_names[0]:-${fail_prefixes[0]:-}*}
	for ((rep = 1; rep <= repeat; rep++)); do
		for engine in "${engine_list[@]}"; do
			run=$out/runs/$fabric-$engine-$rep
			rm -rf -- "$run"
			mkdir -p "$run"
			printf 'bench_speed: %s, %s, run %d ...\n' "$fabric" \
				"$engine" "$rep" >&2
			t0=$(date +%s%N)
			# a subshell of its own per run; errexit must hold in it,
			# so it is not run as part of an || list
			set +e
			(
				set -euo pipefail
				run_one "$engine" "$run" "${failed[@]}"
			) >"$run/stdout.txt" 2>&1
			status=$?
			set -e
			wall=$(bench_wall "$t0")
			if ((status)); then
				printf 'bench_speed: %s %s: run failed (exit %d): %s\n' \
					"$fabric" "$engine" "$status" \
					"$(grep -m1 'error' "$run/stdout.txt" ||
						tail -n 1 "$run/stdout.txt")" >&2
			fi
			up_lines=$(run_value "$run" up_lines)
			hwm_up=$(run_value "$run" hwm_up_mb)
			hwm=$(run_value "$run" hwm_mb)
			if [[ -r $run/opensm.log && -n $up_lines ]]; then
				read -r up_n up_route up_build up_sweep up_by up_self \
					< <(parse_window "$run/opensm.log" 1 "$up_lines")
				read -r f_n f_route f_build f_sweep f_by f_self \
					< <(parse_window "$run/opensm.log" \
						"$((up_lines + 1))" 999999999)
			else
				up_n=0 up_route=- up_build=- up_sweep=- up_by=none up_self=-
				f_n=0 f_route=- f_build=- f_sweep=- f_by=none f_self=-
			fi
			if ((status == 0)) && [[ $up_by != "$engine" || $f_by != "$engine" ]]; then
				printf 'bench_speed: %s %s: tables configured by %s / %s (fallback)\n' \
					"$fabric" "$engine" "$up_by" "$f_by" >&2
				status=4
			fi
			printf '%s\n' "$fabric,$engine,$rep,$hosts,$switches,$label,$up_n,$up_route,$up_build,$up_sweep,$f_n,$f_route,$f_build,$f_sweep,${hwm_up:--},${hwm:--},$f_by,$up_self,$f_self,$status,$wall" >>"$csv"
		done
	done
done

speed_table "$out" "$ours" "$base"
plot_speed "$out" "$engines"
printf '\n(route_up/sweep_up: bring-up; route_fl/sweep_fl: the resweep after the failure; see --help)\n'
printf 'CSV:\n'
cat "$csv"
printf '\nratios CSV:\n'
cat "$out/ratios.csv"
printf 'results: %s\n' "$out"
