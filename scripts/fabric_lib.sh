# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# fabric_lib.sh: run one simulated InfiniBand fabric (ibsim + OpenSM under
# umad2sim), read its topology and forwarding tables back, and clean up.
# Source it from a bash script that uses `set -euo pipefail`.
#
#   fab_init                    per-run temp dir, unique IBSIM_SOCKNAME,
#                               cleanup trap on EXIT
#   fab_start_ibsim NETFILE     ibsim -s, console on a FIFO
#   fab_node_guid NAME          node GUID of a node (by ibsim name), via a
#                               discovery before the SM runs
#   fab_start_opensm ENGINE [PLUGIN_DIR] [CONF_LINE...]
#   fab_wait_subnet_up [SECS]   bounded wait for "SUBNET UP" in the log
#   fab_engine_used ENGINE      did ENGINE (not a fallback) fill the LFTs?
#   fab_unlink SPEC             "NAME" or "NAME[PORT]": unlink on the console
#   fab_wait_resweep N [SECS]   wait for more than N "SUBNET UP" lines
#   fab_read_back READER        ibnetdiscover + every LFT into the run dir
#   fab_run_lftcheck LFTCHECK   prints the checker's report, returns its status
#   fab_lid_switches [TOPOLOGY] "LID 0xSWITCHGUID sw|host" per LID of an
#                               ibnetdiscover file (default: the read-back's)
#   fab_sl2vl_row LID [PORT]    the SL-to-VL map read back from LID (a
#                               switch: output port PORT): VL of SL 0..15
#   fab_console CMD             sends a command to the ibsim console
#   fab_cleanup                 stops what was started, by PID (also on EXIT)
#   fab_build_paths             build, plugin_dir, lftcheck, lftread of a
#                               build tree
#   fab_help, fab_usage, fab_other_option PROG OPTION
#                               a script's --help / usage error (its header)
#
# Every run has its own IBSIM_SOCKNAME (ibsim and its clients meet on
# abstract sockets named after it), so parallel runs never cross-connect.
# Processes are stopped only by the PIDs recorded here, never by name.
#
# Environment knobs: FAB_KEEP=1 keeps the run dir; FAB_TMPDIR (default
# TMPDIR or /tmp) says where run dirs go; UMAD2SIM, IBSIM, OPENSM,
# IBNETDISCOVER, DUMP_FTS override the tools' paths; FAB_SIM_HOST names the
# node the SM attaches to (default: ibsim's first port, the first node of
# the netfile); FAB_VERBOSE=1 logs steps to stderr.  FAB_IBSIM_OPTS adds
# options to ibsim (e.g. -v); FAB_OSM_PRELOAD names libraries preloaded
# into opensm before umad2sim and FAB_OSM_ENV (an array of NAME=VALUE)
# extra environment for opensm (mad_count.sh's MAD counter uses both).
# FAB_OSM_WRAPPER (an array) is a command put in front of opensm, which
# must exec it with the same PID (valgrind_opensm.sh: valgrind).
#
# What a run does
# ---------------
#
# 1. `mktemp -d` run dir; `IBSIM_SOCKNAME=ta-fab-<pid>-<mktemp suffix>`, so
#    parallel runs never share a simulator; `trap` on EXIT stops everything
#    by the recorded PIDs (OpenSM first, TERM then KILL after 5 s; then
#    `Quit` on the ibsim console, then TERM/KILL) and removes the run dir
#    (`FAB_KEEP=1` keeps it).
# 2. `ibsim -s -N -S -P NETFILE` with its console on a FIFO (the script holds
#    a writer fd, so ibsim never reads EOF; `fab_console CMD` sends e.g.
#    `Unlink "sw"[3]`).  ibsim's defaults allow 2048 nodes, 256 switches and
#    13312 ports (a switch takes ports+1); the script counts the netfile and
#    passes larger `-N -S -P` when needed.  Ready when its last socket
#    (`@$IBSIM_SOCKNAME:out9` in /proc/net/unix) exists.  ibsim serves at
#    most 10 clients at a time.
# 3. `opensm -F opensm.conf -f opensm.log` under `LD_PRELOAD=libumad2sim.so`,
#    with `OSM_CACHE_DIR`/`OSM_TMP_DIR`/`dump_files_dir` in the run dir,
#    `force_log_flush TRUE`, `sweep_interval 0`, `routing_engine ENGINE`;
#    for `turnadd` also `event_plugin_name turnadd` and the plugin dir first
#    on `LD_LIBRARY_PATH`.  `--root NAME` resolves switch names to GUIDs by
#    an ibnetdiscover before OpenSM starts and writes a `root_guid_file`.
#    The SM attaches where ibsim's first port is (the first node of the
#    netfile; topogen puts a switch first), or at `FAB_SIM_HOST`.
# 4. Bounded wait (`--timeout`, default 60 s) for `SUBNET UP` in the log;
#    fails early if opensm exits.  With `--unlink NAME` / `--unlink 'NAME[PORT]'` the
#    script then unlinks on the ibsim console, waits (bounded) for another
#    `SUBNET UP` (OpenSM logs one per completed heavy sweep) and for no
#    further one within 0.5 s, and checks the rerouted tables.  A switch cut
#    off entirely is not discovered after the cut, so it is not counted.
# 5. `ibnetdiscover` (topology, LIDs) and `lftread` (LFTs), both by directed
#    routes, bounded by `timeout`.
# 6. `lftcheck`.

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

FAB_UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
FAB_IBSIM=${IBSIM:-ibsim}
FAB_OPENSM=${OPENSM:-/usr/sbin/opensm}
FAB_IBNETDISCOVER=${IBNETDISCOVER:-ibnetdiscover}
FAB_DUMP_FTS=${DUMP_FTS:-dump_fts}

FAB_DIR=
FAB_IBSIM_PID=
FAB_OPENSM_PID=
FAB_CON_FD=
FAB_T0=
FAB_ENV=()
FAB_OSM_ENV=()
FAB_OSM_WRAPPER=()

fab_log() {
	if [[ ${FAB_VERBOSE:-0} == 1 ]]; then
		printf 'fabric: %s\n' "$*" >&2
	fi
}

fab_die() {
	printf 'fabric: error: %s\n' "$*" >&2
	exit 3
}

# The calling script's header comment, from line 4 up to its "set -euo
# pipefail": fab_help prints it on stdout and exits 0 (its --help),
# fab_usage on stderr and exits 2 (a usage error).
fab_header() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

fab_help() {
	fab_header
	exit 0
}

fab_usage() {
	fab_header >&2
	exit 2
}

# fab_other_option PROG OPTION: the last case of a script's option loop:
# -h, --help: fab_help; anything else: says PROG does not know it, and
# fab_usage.
fab_other_option() {
	case $2 in
	-h | --help) fab_help ;;
	esac
	printf '%s: unknown option %s\n' "$1" "$2" >&2
	fab_usage
}

# For a script run on a build tree: its variables build (made absolute)
# and plugin_dir (default build/plugin/.libs; made absolute), and
# lftcheck and lftread, the tools built there.
# shellcheck disable=SC2034 # lftcheck, lftread: the sourcing script's
fab_build_paths() {
	build=$(cd "$build" && pwd) || fab_die "no build dir $build"
	plugin_dir=${plugin_dir:-$build/plugin/.libs}
	[[ $plugin_dir == /* ]] || plugin_dir=$PWD/$plugin_dir
	lftcheck=$build/scripts/lftcheck
	lftread=$build/scripts/lftread
}

# Seconds since fab_init, with milliseconds.
fab_elapsed() {
	local now
	now=$(date +%s%N)
	printf '%d.%03d' $(((now - FAB_T0) / 1000000000)) \
		$(((now - FAB_T0) / 1000000 % 1000))
}

# Prints PATH made absolute if it is relative and names a file by a path
# (clients run in the run dir); bare command names are left to PATH.
fab_abspath() {
	case $1 in
	/* | '') printf '%s\n' "$1" ;;
	*/*) printf '%s/%s\n' "$PWD" "$1" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

fab_require() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 ||
			fab_die "required tool not found: $tool"
	done
}

fab_init() {
	local base=${FAB_TMPDIR:-${TMPDIR:-/tmp}}
	fab_require "$FAB_IBSIM" "$FAB_OPENSM" "$FAB_IBNETDISCOVER" \
		"$FAB_DUMP_FTS" timeout mkfifo
	[[ -r $FAB_UMAD2SIM ]] ||
		fab_die "umad2sim not found at $FAB_UMAD2SIM (package ibsim-utils)"
	FAB_UMAD2SIM=$(fab_abspath "$FAB_UMAD2SIM")
	FAB_OPENSM=$(fab_abspath "$FAB_OPENSM")
	FAB_IBNETDISCOVER=$(fab_abspath "$FAB_IBNETDISCOVER")
	FAB_DUMP_FTS=$(fab_abspath "$FAB_DUMP_FTS")
	FAB_DIR=$(mktemp -d "$base/fabric.$$.XXXXXX") ||
		fab_die "cannot create a run dir in $base"
	FAB_T0=$(date +%s%N)
	# unique per run: PID plus the random suffix of the run dir
	IBSIM_SOCKNAME="ta-fab-$$-${FAB_DIR##*.}"
	export IBSIM_SOCKNAME
	trap fab_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	fab_log "run dir $FAB_DIR, IBSIM_SOCKNAME=$IBSIM_SOCKNAME"
}

# Node, switch and port counts for ibsim's -N -S -P (its defaults allow
# 2048 nodes, 256 switches, 13312 ports; a switch uses ports+1 slots).
# Above 20,000 nodes also -L 49152: ibsim's switches then hold LFTs up
# to the last unicast LID (by default 30,720, which OpenSM takes as the
# end of the LID space; port-major LIDs of 32,768 hosts end at 36,863).
fab_ibsim_limits() {
	awk '
		/^Switch[ \t]/ { s++; n++; p += $2 + 1 }
		/^(Hca|Ca)[ \t]/ { n++; p += $2 }
		END {
			big = n > 20000
			n += 16; s += 16; p += 64
			if (n < 2048) n = 2048
			if (s < 256) s = 256
			if (p < 13312) p = 13312
			printf "-N %d -S %d -P %d%s\n", n, s, p,
				big ? " -L 49152" : ""
		}' "$1"
}

# Waits until a file contains a fixed string; returns 1 after SECS.
fab_wait_for() {
	local file=$1 text=$2 secs=$3 pid=${4:-} i
	for ((i = 0; i < secs * 20; i++)); do
		if [[ -f $file ]] && grep -qF -- "$text" "$file"; then
			return 0
		fi
		if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
			return 2
		fi
		sleep 0.05
	done
	return 1
}

fab_start_ibsim() {
	local net=$1 limits fifo i secs
	[[ -r $net ]] || fab_die "cannot read netfile $net"
	limits=$(fab_ibsim_limits "$net")
	# ibsim parses the netfile first: 10 s, plus 20 s per MB (a 3-level
	# fabric of 16,000 hosts is 5 MB; a loaded machine parses slowly)
	secs=$((10 + $(stat -c %s "$net") / 50000))
	fifo=$FAB_DIR/ibsim.console
	mkfifo "$fifo"
	# shellcheck disable=SC2086 # $limits, FAB_IBSIM_OPTS: option lists
	"$FAB_IBSIM" -s $limits ${FAB_IBSIM_OPTS:-} "$net" <"$fifo" \
		>"$FAB_DIR/ibsim.out" 2>"$FAB_DIR/ibsim.err" &
	FAB_IBSIM_PID=$!
	# our writer keeps the console open, so ibsim never reads EOF
	exec {FAB_CON_FD}>"$fifo"
	# ready once the last of its sockets (client slot 9) is bound
	for ((i = 0; i < secs * 20; i++)); do
		if grep -qF "@$IBSIM_SOCKNAME:out9" /proc/net/unix; then
			fab_log "ibsim ready after $(fab_elapsed) s"
			return 0
		fi
		kill -0 "$FAB_IBSIM_PID" 2>/dev/null ||
			fab_die "ibsim exited: $(tail -n 5 "$FAB_DIR/ibsim.err" \
				"$FAB_DIR/ibsim.out" 2>/dev/null)"
		sleep 0.05
	done
	fab_die "ibsim not ready after $secs s (see $FAB_DIR/ibsim.err)"
}

fab_console() {
	if [[ -z $FAB_CON_FD ]] || ! kill -0 "$FAB_IBSIM_PID" 2>/dev/null; then
		fab_die "ibsim is not running"
	fi
	printf '%s\n' "$*" 1>&"$FAB_CON_FD"
}

# Environment for a client of the simulator: umad2sim preloaded, and
# SIM_HOST if FAB_SIM_HOST names the node to attach to.
fab_client_env() {
	FAB_ENV=("LD_PRELOAD=$FAB_UMAD2SIM")
	if [[ -n ${FAB_SIM_HOST:-} ]]; then
		FAB_ENV+=("SIM_HOST=$FAB_SIM_HOST")
	fi
}

# Runs a client of the simulator, bounded in time, in the run dir:
# umad2sim makes a fake sysfs tree "./sys-<pid>" in the working directory
# (left behind if the client is killed).
fab_sim_client() {
	local secs=$1
	shift
	fab_client_env
	(cd "$FAB_DIR" && exec env "${FAB_ENV[@]}" timeout -k 2 "$secs" "$@")
}

# Prints the node GUID of the node named NAME (its ibsim name, which is
# the node description), e.g. to write an updn root_guid_file.
fab_node_guid() {
	local name=$1 pre=$FAB_DIR/pre-topology.txt guid
	if [[ ! -s $pre ]]; then
		fab_sim_client 30 "$FAB_IBNETDISCOVER" >"$pre" \
			2>"$FAB_DIR/pre-ibnetdiscover.err" ||
			fab_die "ibnetdiscover failed: $(head -n 3 \
				"$FAB_DIR/pre-ibnetdiscover.err")"
	fi
	guid=$(awk -v name="$name" -F'"' '
		/^(Switch|Ca|Rt)[ \t]/ && $4 == name {
			sub(/^[SHR]-/, "", $2); print "0x" $2; exit
		}' "$pre")
	[[ -n $guid ]] || fab_die "no node named '$name' in the fabric"
	printf '%s\n' "$guid"
}

# fab_start_opensm ENGINE [PLUGIN_DIR] [CONF_LINE...]
# PLUGIN_DIR (may be empty) is put first on LD_LIBRARY_PATH; when the
# engine list names turnadd, the plugin is loaded with event_plugin_name.
fab_start_opensm() {
	local engine=$1 plugin_dir=${2:-} conf=$FAB_DIR/opensm.conf line
	shift 2 || shift $#
	mkdir -p "$FAB_DIR/cache" "$FAB_DIR/dump"
	{
		echo "routing_engine $engine"
		echo "log_file $FAB_DIR/opensm.log"
		echo "force_log_flush TRUE"
		echo "dump_files_dir $FAB_DIR/dump/"
		echo "partition_config_file $FAB_DIR/partitions.conf"
		echo "sweep_interval 0"
		if [[ ,$engine, == *,turnadd,* ]]; then
			echo "event_plugin_name turnadd"
		fi
		for line in "$@"; do
			printf '%s\n' "$line"
		done
	} >"$conf"
	fab_client_env
	if [[ -n ${FAB_OSM_PRELOAD:-} ]]; then
		FAB_ENV[0]="LD_PRELOAD=$FAB_OSM_PRELOAD:$FAB_UMAD2SIM"
	fi
	FAB_ENV+=(${FAB_OSM_ENV[@]+"${FAB_OSM_ENV[@]}"})
	# in the run dir (see fab_sim_client); exec keeps $! opensm's PID
	(cd "$FAB_DIR" && exec env "${FAB_ENV[@]}" \
		OSM_CACHE_DIR="$FAB_DIR/cache" OSM_TMP_DIR="$FAB_DIR" \
		LD_LIBRARY_PATH="${plugin_dir:+$plugin_dir:}${LD_LIBRARY_PATH:-}" \
		${FAB_OSM_WRAPPER[@]+"${FAB_OSM_WRAPPER[@]}"} \
		"$FAB_OPENSM" -F "$conf" -f "$FAB_DIR/opensm.log" \
		>"$FAB_DIR/opensm.out" 2>&1 </dev/null) &
	FAB_OPENSM_PID=$!
	fab_log "opensm started (pid $FAB_OPENSM_PID, engine $engine)"
}

fab_wait_subnet_up() {
	local secs=${1:-30} rc=0
	fab_wait_for "$FAB_DIR/opensm.log" "SUBNET UP" "$secs" \
		"$FAB_OPENSM_PID" || rc=$?
	case $rc in
	0) fab_log "subnet up after $(fab_elapsed) s" ;;
	2) fab_die "opensm exited before SUBNET UP: $(tail -n 5 \
		"$FAB_DIR/opensm.out" "$FAB_DIR/opensm.log" 2>/dev/null)" ;;
	*) fab_die "no SUBNET UP in $FAB_DIR/opensm.log after $secs s" ;;
	esac
}

# Number of "SUBNET UP" lines in the log (one per completed heavy sweep).
fab_count_up() {
	grep -cF "SUBNET UP" "$FAB_DIR/opensm.log" || true
}

# Unlinks a node (all ports) or one port, "NAME" or "NAME[PORT]", through
# the ibsim console; the neighbour's trap makes OpenSM resweep.
fab_unlink() {
	local spec=$1
	if [[ $spec =~ ^(.+)\[([0-9]+)\]$ ]]; then
		fab_console "Unlink \"${BASH_REMATCH[1]}\"[${BASH_REMATCH[2]}]"
	else
		fab_console "Unlink \"$spec\""
	fi
	fab_log "unlinked $spec"
}

# Waits until the log has more than N "SUBNET UP" lines (a resweep done)
# and no further sweep ends within half a second.
fab_wait_resweep() {
	local n=$1 secs=${2:-30} i
	for ((i = 0; i < secs * 20; i++)); do
		if (($(fab_count_up) > n)); then
			# settled when no further sweep ends within 0.5 s
			n=$(fab_count_up)
			sleep 0.5
			if (($(fab_count_up) == n)); then
				fab_log "resweep done after $(fab_elapsed) s"
				return 0
			fi
		fi
		kill -0 "$FAB_OPENSM_PID" 2>/dev/null ||
			fab_die "opensm exited during the resweep"
		sleep 0.05
	done
	fab_die "no resweep (new SUBNET UP) in $FAB_DIR/opensm.log after $secs s"
}

# True if the log says ENGINE (the first of a list) configured the tables
# in the last sweep, false if OpenSM fell back to another engine.
fab_engine_used() {
	grep -F "tables configured on all switches" "$FAB_DIR/opensm.log" |
		tail -n 1 | grep -qF -- "${1%%,*} tables configured"
}

# Topology with LIDs and every switch's LFT, via directed routes (so
# reading does not depend on the tables being checked).  READER is the
# path of lftread (exact), or "dump_fts" (infiniband-diags; it leaves out
# some entries, see lftread.c).
fab_read_back() {
	local reader=$1 secs=${2:-60}
	fab_sim_client "$secs" "$FAB_IBNETDISCOVER" \
		>"$FAB_DIR/topology.txt" 2>"$FAB_DIR/ibnetdiscover.err" ||
		fab_die "ibnetdiscover failed: $(head -n 3 \
			"$FAB_DIR/ibnetdiscover.err")"
	if [[ $reader == dump_fts ]]; then
		fab_sim_client "$secs" "$FAB_DUMP_FTS" -n \
			>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" ||
			fab_die "dump_fts failed: $(head -n 3 \
				"$FAB_DIR/lftread.err")"
	else
		fab_sim_client "$secs" "$reader" "$FAB_DIR/topology.txt" \
			>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" ||
			fab_die "lftread failed: $(grep -v '^ibwarn' \
				"$FAB_DIR/lftread.err" | head -n 3)"
	fi
	fab_log "read back after $(fab_elapsed) s"
}

# "LID 0xSWITCHGUID KIND" for every LID of an ibnetdiscover file: a
# switch's own (KIND sw), a host port's with the switch it is cabled to
# (KIND host)
fab_lid_switches() {
	awk '
		/^Switch/ { match($0, /"S-[0-9a-f]+"/)
			g = "0x" substr($0, RSTART + 3, RLENGTH - 4)
			match($0, /base port 0 lid [0-9]+/)
			split(substr($0, RSTART, RLENGTH), w, " ")
			print w[5], g, "sw"; next }
		/^(Ca|Hca)/ { ca = 1; next }
		/^$/ { ca = 0 }
		ca && /^\[/ && /"S-/ { match($0, /"S-[0-9a-f]+"/)
			g = "0x" substr($0, RSTART + 3, RLENGTH - 4)
			match($0, /# lid [0-9]+/)
			split(substr($0, RSTART, RLENGTH), w, " ")
			print w[3], g, "host" }' "${1:-$FAB_DIR/topology.txt}"
}

# The SL-to-VL map of LID (input ports' first row; a switch's output
# port PORT) read back by smpquery: 16 VLs, SL 0 first; nothing if none
# is read
fab_sl2vl_row() {
	# shellcheck disable=SC2086 # $2: empty for a host
	fab_sim_client 10 smpquery sl2vl "$1" ${2:-} 2>/dev/null |
		awk '/^ports:/ { n = split($0, c, "|"); row = ""
			for (i = 2; i <= n && i <= 17; i++)
				row = row (i > 2 ? " " : "") c[i] + 0
			print row; exit }'
}

fab_run_lftcheck() {
	local lftcheck=$1 rc=0
	"$lftcheck" "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$FAB_DIR/lftcheck.out" 2>&1 || rc=$?
	cat "$FAB_DIR/lftcheck.out"
	return "$rc"
}

# Waits up to SECS for a child process to end; 1 if it is still there.
fab_wait_exit() {
	local pid=$1 secs=$2 i
	for ((i = 0; i < secs * 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		return 1
	fi
	wait "$pid" 2>/dev/null || true
}

# Stops one child process by PID: TERM, then KILL after SECS.
fab_stop_pid() {
	local pid=$1 secs=$2
	kill -TERM "$pid" 2>/dev/null || true
	if ! fab_wait_exit "$pid" "$secs"; then
		printf 'fabric: pid %s ignored SIGTERM for %s s, killing\n' \
			"$pid" "$secs" >&2
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
}

fab_cleanup() {
	# a console write to an ibsim that is gone must fail, not kill us
	trap '' PIPE
	# OpenSM first, while ibsim still answers (else its exit hangs)
	if [[ -n $FAB_OPENSM_PID ]]; then
		fab_stop_pid "$FAB_OPENSM_PID" 5
		FAB_OPENSM_PID=
	fi
	if [[ -n $FAB_IBSIM_PID ]]; then
		if [[ -n $FAB_CON_FD ]]; then
			printf 'Quit\n' 1>&"$FAB_CON_FD" 2>/dev/null || true
		fi
		fab_wait_exit "$FAB_IBSIM_PID" 1 ||
			fab_stop_pid "$FAB_IBSIM_PID" 2
		FAB_IBSIM_PID=
	fi
	if [[ -n $FAB_CON_FD ]]; then
		exec {FAB_CON_FD}>&-
		FAB_CON_FD=
	fi
	if [[ -n $FAB_DIR && -d $FAB_DIR ]]; then
		if [[ ${FAB_KEEP:-0} == 1 ]]; then
			printf 'fabric: kept run dir %s\n' "$FAB_DIR" >&2
		else
			rm -rf -- "$FAB_DIR"
		fi
		FAB_DIR=
	fi
}
