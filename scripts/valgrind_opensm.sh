#!/bin/bash
# SPDX-License-Identifier: MIT
#
# valgrind_opensm.sh: runs OpenSM with the turnadd plugin under valgrind
# memcheck through a bring-up, a spine failure and its restore, and
# summarises the memory errors and definite leaks of our code.
#
#   valgrind_opensm.sh [--build DIR] [--net NETFILE] [--fail NAME] [options]
#
# ibsim on NETFILE (own IBSIM_SOCKNAME, fabric_lib.sh), OpenSM with
# `routing_engine turnadd` and `event_plugin_name turnadd` started as
#   valgrind --leak-check=full --errors-for-leak-kinds=definite
#            --track-origins=no --error-exitcode=99 --keep-debuginfo=yes
#            --num-callers=40 --log-file=OUT/valgrind.log opensm ...
# (umad2sim stays in LD_PRELOAD: valgrind passes it on to opensm after
# its own preloads; checked in /proc/PID/maps).  Phases: bring-up until
# SUBNET UP and quiet; `Unlink "NAME"` on ibsim's console, until a new
# SUBNET UP and quiet; `ReLink "NAME"`, the same.  Then SIGTERM to
# opensm's PID (valgrind writes its report when opensm exits) and a
# bounded wait for the exit, before ibsim is stopped.
#
# Options:
#   --build DIR       build tree with plugin/.libs/libturnadd.so (default:
#                     $TURNADD_BUILD, else the source tree)
#   --plugin-dir DIR  libturnadd.so's directory (default: DIR/plugin/.libs)
#   --net FILE        ibsim netfile (default: ibsim_topos/ft2-6x3.net)
#   --fail NAME       the switch unlinked and relinked (default: ft-spine0)
#   --quiet SECS      quiet time that ends a phase (default 5)
#   --timeout SECS    bound for each phase (default 900)
#   --stop-timeout S  bound for opensm's exit after SIGTERM (default 600)
#   --valgrind-opt O  extra valgrind option (repeatable)
#   --out DIR         results (default: a new dir in /tmp)
#   -v, --verbose     log the steps to stderr
#
# A valgrind record (error or leak, one per context) is "ours" if one of
# its stacks (the error's, or where the block was allocated/freed) has a
# frame in libturnadd.so or in a source file of plugin/, plugin/core/ or
# lid_assign/ (matched by file name); the rest (OpenSM, umad2sim, libc)
# are listed as not ours.  Output in the out dir: valgrind.log,
# ours.txt and not_ours.txt (the records), summary.txt (also printed),
# opensm.log, opensm.conf.
#
# Exit status: 0 no error and no definite leak from our code; 1 some (or
# valgrind's report is missing); 3 the fabric could not be run (a phase
# timed out, a process died, opensm did not exit after SIGTERM); 4 the
# tables were not made by turnadd.
#
# Example:
#
#     valgrind_opensm.sh --build BUILD [--net ibsim_topos/ft2-6x3.net] \
#         [--fail ft-spine0] [--out DIR] [--valgrind-opt OPT]
#
# --keep-debuginfo keeps our frames named after OpenSM dlclose()s the
# plugin at exit.  Not part of make check.
#
# ft2-6x3 (this machine, 9 s in all): no error and no definitely lost
# block from our code (none of the still-reachable blocks is ours
# either).  Not ours: umad2sim's `read()` reads up to 24 bytes past its
# 288-byte buffer (4 contexts, from `umad_recv`), a `write()` of
# uninitialised bytes (osm_vendor_send → umad_send → umad2sim), and 2
# blocks definitely lost by OpenSM (35 bytes strdup'ed in
# `osm_subn_parse_conf_file`, 320 bytes from `osm_vendor_get`).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"
# shellcheck source-path=SCRIPTDIR source=mad_lib.sh
. "$here/mad_lib.sh"

build=${TURNADD_BUILD:-$src} plugin_dir='' net=$src/ibsim_topos/ft2-6x3.net
fail=ft-spine0 quiet=5 timeout_s=900 stop_s=600 out='' vg_extra=()
while (($#)); do
	case $1 in
	--build) build=${2:?}; shift ;;
	--plugin-dir) plugin_dir=${2:?}; shift ;;
	--net) net=${2:?}; shift ;;
	--fail) fail=${2:?}; shift ;;
	--quiet) quiet=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--stop-timeout) stop_s=${2:?}; shift ;;
	--valgrind-opt) vg_extra+=("${2:?}"); shift ;;
	--out) out=${2:?}; shift ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	*) fab_other_option valgrind_opensm "$1" ;;
	esac
	shift
done
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || fab_die "bad --timeout '$timeout_s'"
[[ $stop_s =~ ^[1-9][0-9]*$ ]] || fab_die "bad --stop-timeout '$stop_s'"
[[ $quiet =~ ^[0-9]+(\.[0-9]+)?$ ]] || fab_die "bad --quiet '$quiet'"
[[ -r $net ]] || fab_die "cannot read netfile $net"
net=$(fab_abspath "$net")
mad_fail_list "$net" "$fail" -- >/dev/null
fab_build_paths
[[ -e $plugin_dir/libturnadd.so ]] || fab_die "no libturnadd.so in $plugin_dir"
fab_require valgrind
if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/valgrind_opensm.XXXXXX")
else
	mkdir -p "$out"
fi
out=$(cd "$out" && pwd)
vglog=$out/valgrind.log
rm -f -- "$vglog" "$out"/{ours,not_ours,summary}.txt

# our source files, by name (frames with debug info show "(file.c:LINE)")
ours_re=$(cd "$src" && find plugin plugin/core lid_assign -maxdepth 1 \
	-name '*.[ch]' -printf '%f\n' | sed 's/\./\\./g' | sort -u | paste -sd'|')
[[ -n $ours_re ]] || fab_die "no sources of plugin/ or lid_assign/ in $src"

t_begin=$(date +%s)
fab_init
FAB_OSM_WRAPPER=(valgrind --leak-check=full --errors-for-leak-kinds=definite
	--track-origins=no --error-exitcode=99 --keep-debuginfo=yes
	--num-callers=40 "--log-file=$vglog" ${vg_extra[@]+"${vg_extra[@]}"})
fab_start_ibsim "$net"
fab_start_opensm turnadd "$plugin_dir"
osm_pid=$FAB_OPENSM_PID
fab_wait_subnet_up "$timeout_s"
grep -qF libumad2sim "/proc/$osm_pid/maps" ||
	fab_die "umad2sim is not mapped in opensm under valgrind (LD_PRELOAD lost)"
grep -qF libturnadd.so "/proc/$osm_pid/maps" ||
	fab_die "libturnadd.so is not mapped in opensm"

MAD_QUIET=$quiet MAD_TIMEOUT=$timeout_s MAD_COUNT_FILE=$FAB_DIR/opensm.log
engine_ok=1
phase_done() {
	local used
	used=$(grep -F "tables configured on all switches" "$FAB_DIR/opensm.log" |
		tail -n 1 | sed 's/.* \([^ ]*\) tables configured.*/\1/')
	[[ $used == turnadd ]] || engine_ok=0
	printf 'phase %-8s done at %4d s, %d sweeps, tables by %s\n' "$1" \
		$(($(date +%s) - t_begin)) "$(fab_count_up)" "${used:-none}"
}
mad_settle 0
phase_done bringup
ups=$(fab_count_up)
fab_unlink "$fail"
mad_settle "$ups"
phase_done failure
ups=$(fab_count_up)
fab_console "ReLink \"$fail\""
mad_settle "$ups"
phase_done restore

# graceful stop by PID, while ibsim still answers; valgrind reports at exit
t_stop=$(date +%s)
kill -TERM "$osm_pid" 2>/dev/null || true
osm_rc=''
for ((i = 0; i < stop_s * 10; i++)); do
	if ! kill -0 "$osm_pid" 2>/dev/null; then
		osm_rc=0
		wait "$osm_pid" || osm_rc=$?
		break
	fi
	sleep 0.1
done
FAB_OPENSM_PID=
if [[ -z $osm_rc ]]; then
	kill -KILL "$osm_pid" 2>/dev/null || true
	wait "$osm_pid" 2>/dev/null || true
	fab_die "opensm did not exit within $stop_s s of SIGTERM (killed)"
fi
t_end=$(date +%s)
printf 'opensm exited %d s after SIGTERM, status %d\n' $((t_end - t_stop)) "$osm_rc"
cp -- "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.conf" "$out/"

[[ -s $vglog ]] || fab_die "no valgrind log $vglog"
# Split the log into records (blocks separated by an empty "==PID== "
# line) that have a stack; classify each.
awk -v ours_re="($ours_re):[0-9]+\\)|libturnadd\\.so" \
	-v ours="$out/ours.txt" -v theirs="$out/not_ours.txt" '
	function bytes(head,   w) {	# "1,234 (+...) bytes in ..."
		split(head, w, " "); gsub(/,/, "", w[1]); return w[1] + 0
	}
	function flush(   kind, is_ours, head) {
		if (n && stack) {
			head = first
			if (head ~ /are definitely lost in loss record/) kind = "definite"
			else if (head ~ /lost in loss record|still reachable in loss record/) kind = "otherleak"
			else kind = "error"
			is_ours = (text ~ ours_re)
			if (kind != "otherleak") {
				f = is_ours ? ours : theirs
				print text > f
				if (is_ours) c_ours[kind]++; else c_theirs[kind]++
				if (is_ours) {
					if (kind == "definite") b_ours += bytes(head)
					list_ours[++nl] = kind ": " head " @ " ourframe
				} else {
					if (kind == "definite") b_theirs += bytes(head)
					list_theirs[++nt] = kind ": " head " @ " topframe
				}
			}
		}
		n = 0; stack = 0; text = ""; first = ""; ourframe = ""; topframe = ""
	}
	{
		line = $0
		sub(/^==[0-9]+== ?/, "", line)
		if (line ~ /^[ \t]*$/) { flush(); next }
		if (line ~ /^Thread [0-9]+:$/ && n == 0) next
		if (n == 0) first = line
		n++
		text = text line "\n"
		if (line ~ /^ +(at|by) 0x/) {
			stack = 1
			fr = line; sub(/^ +(at|by) 0x[0-9A-Fa-f]+: /, "", fr)
			if (topframe == "" && fr !~ /^(malloc|calloc|realloc|free|memcpy|memmove|memset|strlen|strdup)[ @]/) topframe = fr
			if (ourframe == "" && fr ~ ours_re) ourframe = fr
		}
	}
	END {
		flush()
		printf "ours_errors=%d ours_definite_leaks=%d ours_definite_bytes=%d\n", c_ours["error"], c_ours["definite"], b_ours
		printf "other_errors=%d other_definite_leaks=%d other_definite_bytes=%d\n", c_theirs["error"], c_theirs["definite"], b_theirs
		for (i = 1; i <= nl; i++) print "ours: " list_ours[i]
		for (i = 1; i <= nt; i++) print "not ours: " list_theirs[i]
	}' "$vglog" >"$out/records.txt"
touch "$out/ours.txt" "$out/not_ours.txt"

{
	printf 'net %s, failed %s, opensm exit status %s (99: valgrind saw errors), %d s in all\n' \
		"$(basename "$net")" "$fail" "$osm_rc" $((t_end - t_begin))
	grep -E 'ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:' "$vglog" |
		sed 's/^==[0-9]*== /valgrind: /'
	cat "$out/records.txt"
	printf 'files: %s/{valgrind.log,ours.txt,not_ours.txt}\n' "$out"
} | tee "$out/summary.txt"

grep -q 'ERROR SUMMARY' "$vglog" || {
	printf 'valgrind_opensm: valgrind wrote no ERROR SUMMARY\n' >&2
	exit 1
}
if ! sed -n 1p "$out/records.txt" | grep -q '^ours_errors=0 ours_definite_leaks=0 '; then
	exit 1
fi
((engine_ok)) || exit 4
exit 0
