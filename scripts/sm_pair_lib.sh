# shellcheck shell=bash disable=SC2034
# SPDX-License-Identifier: MIT
#
# sm_pair_lib.sh: a master and a standby OpenSM with turnadd on one
# fabric run by fabric_lib.sh (source that first), each in its own
# directory as on its own machine: own opensm.conf, log, cache and dump
# dir, nothing shared.  Used by fault_campaign.sh's takeover steps and
# tests/integration/standby_takeover.sh.
#
#   SMP_POLL_CONF               OpenSM options that make a standby give
#                               up on a silent master after 2 SMInfo
#                               polls 1 s apart (add them to both SMs)
#   smp_start DIR PLUGIN_DIR PRIORITY [CONF_LINE...]
#                               OpenSM with turnadd in DIR (made if
#                               needed; a previous opensm.log there is
#                               kept as opensm.log.N), sm_priority
#                               PRIORITY; its PID in SMP_PID.
#                               FAB_SIM_HOST says where it attaches,
#                               FAB_OSM_PRELOAD and FAB_OSM_ENV as for
#                               fab_start_opensm
#   smp_kill PID                SIGKILL to an OpenSM (as a crash or a
#                               power loss: no goodbye to ibsim), reaped
#   smp_ups DIR                 SUBNET UP lines in DIR's log
#   smp_wait_master DIR N SECS  until DIR's OpenSM logged "Entering
#                               MASTER state" and more than N SUBNET UP
#                               lines; 1 after SECS
#   smp_wait_standby DIR SECS   until DIR's OpenSM logged "Entering
#                               STANDBY state"; 1 after SECS

SMP_POLL_CONF=("sminfo_polling_timeout 1000" "polling_retry_number 2")
SMP_PID=

smp_start() {
	local dir=$1 plugin=$2 prio=$3 n=1
	shift 3
	mkdir -p "$dir"
	if [[ -e $dir/opensm.log ]]; then
		while [[ -e $dir/opensm.log.$n ]]; do
			n=$((n + 1))
		done
		mv -- "$dir/opensm.log" "$dir/opensm.log.$n"
	fi
	local saved=$FAB_OPENSM_PID
	FAB_DIR=$dir fab_start_opensm turnadd "$plugin" "sm_priority $prio" "$@"
	SMP_PID=$FAB_OPENSM_PID
	FAB_OPENSM_PID=$saved
}

smp_kill() {
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

smp_ups() {
	grep -cF "SUBNET UP" "$1/opensm.log" 2>/dev/null || true
}

smp_wait_master() {
	local dir=$1 n=$2 secs=$3 i
	for ((i = 0; i < secs * 10; i++)); do
		if grep -qF "Entering MASTER state" "$dir/opensm.log" 2>/dev/null &&
			(($(smp_ups "$dir") > n)); then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

smp_wait_standby() {
	local rc=0
	fab_wait_for "$1/opensm.log" "Entering STANDBY state" "$2" || rc=$?
	return "$rc"
}
