# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the resweep tests after test_env.sh: one fabric at a time
# (scripts/fabric_lib.sh) with OpenSM + turnadd under the LFT Set counter
# (scripts/libmadcount.so), events on ibsim's console, and per step the
# log lines of that step, the LFT Sets it cost and lftcheck's verdict on
# the tables read back from the simulator by directed routes.
#
#   rw_start NETFILE [CONF_LINE...]  ibsim + OpenSM (routing_engine
#                          turnadd,minhop: a fallback would show); env
#                          for opensm from RW_ENV (NAME=VALUE words)
#   rw_step LABEL CMD...   console commands, wait for the resweep
#                          (SIGHUP if no trap-driven sweep comes), read
#                          back: RW_LOG (the step's log lines), RW_MADS,
#                          RW_CHECK (lftcheck output)
#   rw_expect_turnadd LABEL   turnadd (not a fallback) configured the
#                          tables of the step, all pairs reachable, CDG
#                          acyclic on the one VL
#   rw_errors              turnadd ERROR lines of the step
#   rw_stop                stops OpenSM and ibsim (by PID)

: "${top_builddir:?source test_env.sh first}"
# shellcheck source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"
RW_LFTREAD=$top_builddir/scripts/lftread
RW_MADLIB=$top_builddir/scripts/.libs/libmadcount.so
RW_ENV=()
RW_LOG='' RW_MADS=0 RW_CHECK=''

rw_need() {
	need_built "$TOPOGEN" "$RW_LFTREAD"
	[[ -r $RW_MADLIB ]] || fail "$RW_MADLIB not built"
}

rw_start() {
	local net=$1
	shift
	fab_init
	trap 'fab_cleanup; rm -rf -- "$TEST_TMP"' EXIT
	: >"$FAB_DIR/madcount.log"
	# shellcheck disable=SC2034 # read by fab_start_opensm
	FAB_OSM_PRELOAD=$RW_MADLIB
	# shellcheck disable=SC2034
	FAB_OSM_ENV=("MADCOUNT_LOG=$FAB_DIR/madcount.log" ${RW_ENV[@]+"${RW_ENV[@]}"})
	fab_start_ibsim "$net"
	fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR" "$@"
	fab_wait_subnet_up 60
	rw_settle
	RW_LOG=$FAB_DIR/opensm.log
	RW_MADS=$(wc -l <"$FAB_DIR/madcount.log")
	rw_read_back bringup
}

rw_stop() {
	fab_cleanup
}

# until no SUBNET UP, LFT Set or log line came for 1.5 s (at most 40 s)
rw_settle() {
	local i last='' now quiet=0
	for ((i = 0; i < 400; i++)); do
		now="$(fab_count_up) $(wc -l <"$FAB_DIR/madcount.log") $(wc -l <"$FAB_DIR/opensm.log")"
		if [[ $now == "$last" ]]; then
			((++quiet >= 15)) && return 0
		else
			quiet=0
			last=$now
		fi
		sleep 0.1
	done
	fail "the fabric did not settle in 40 s"
}

rw_read_back() {
	RW_CHECK=$TEST_TMP/$1.check
	fab_read_back "$RW_LFTREAD" 60
	fab_run_lftcheck "$LFTCHECK" >"$RW_CHECK" || true
}

rw_step() {
	local label=$1 ups from mads i
	shift
	ups=$(fab_count_up)
	from=$(stat -c %s "$FAB_DIR/opensm.log")
	mads=$(wc -l <"$FAB_DIR/madcount.log")
	for c in "$@"; do
		fab_console "$c"
	done
	for ((i = 0; i < 200 && $(fab_count_up) <= ups; i++)); do
		# a lost trap: force the heavy sweep
		((i != 100)) || kill -HUP "$FAB_OPENSM_PID"
		kill -0 "$FAB_OPENSM_PID" 2>/dev/null || fail "$label: opensm died"
		sleep 0.1
	done
	(($(fab_count_up) > ups)) || fail "$label: no resweep in 20 s"
	rw_settle
	RW_LOG=$TEST_TMP/$label.log
	tail -c +$((from + 1)) "$FAB_DIR/opensm.log" >"$RW_LOG"
	RW_MADS=$(($(wc -l <"$FAB_DIR/madcount.log") - mads))
	rw_read_back "$label"
	printf '%s: %s LFT Sets; %s\n' "$label" "$RW_MADS" \
		"$(grep -E '^hosts=|^cdg=|cdg=' "$RW_CHECK" | tr '\n' ' ')"
}

rw_errors() {
	grep ' 0x01 -> turnadd' "$RW_LOG" || true
}

rw_expect_turnadd() {
	local label=$1 engines
	engines=$(sed -n 's/.* \([^ ]*\) tables configured on all switches.*/\1/p' \
		"$RW_LOG" | sort -u | tr '\n' ' ')
	[[ $engines == 'turnadd ' ]] || {
		sed 's/^/  | /' "$RW_LOG" >&2
		fail "$label: tables configured by '$engines', not turnadd alone"
	}
	grep -q ' unreachable_host_pairs=0 unreachable_host_to_switch=0$' \
		"$RW_CHECK" || {
		sed 's/^/  | /' "$RW_CHECK" >&2
		fail "$label: unreachable pairs after the step"
	}
	grep -q ' cdg=acyclic$' "$RW_CHECK" || {
		sed 's/^/  | /' "$RW_CHECK" >&2
		fail "$label: the channel dependency graph has a cycle"
	}
}
