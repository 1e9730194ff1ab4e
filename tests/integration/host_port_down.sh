#!/bin/bash
# SPDX-License-Identifier: MIT
# A host's link goes down on ft2-6x3 routed by turnadd: OpenSM resweeps,
# turnadd keeps every route (the host's LID keeps its entries), so no
# LFT block differs and OpenSM must send no LFT SubnSet at all, though
# the leaf saw a port change state (OpenSM 3.3.23 marks such a switch for
# a whole-table rewrite; the plugin clears that mark, lft_update
# changed_blocks).  Counted outside OpenSM and the engine: ibsim -v logs
# every LFT block (attribute 0x19) that reaches a switch.  The same steps
# with "lft_update opensm" (OpenSM's own rule) must send that leaf's
# table again, which shows the count sees the rewrite it rules out.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
# shellcheck source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"
make_tmpdir

# LFT blocks that reached a switch, by ibsim's log
lft_sets() {
	cat "$FAB_DIR/ibsim.out" "$FAB_DIR/ibsim.err" 2>/dev/null |
		grep -c 'process_packet: packet (attr 0x19 mod ' || true
}

# until the count stays put for 2 s (bounded)
settle() {
	local n i
	for ((i = 0; i < 40; i++)); do
		n=$(lft_sets)
		sleep 1
		if [[ $(lft_sets) == "$n" ]]; then
			sleep 1
			[[ $(lft_sets) == "$n" ]] && return 0
		fi
	done
	fail "LFT Sets still moving after 40 s"
}

# run MODE: in a subshell (own ibsim and OpenSM, stopped by PID at its
# exit); writes "bringup resweep" Set counts to $TEST_TMP/MODE.sets
run() {
	local mode=$1
	(
		printf 'lft_update %s\n' "$mode" >"$TEST_TMP/$mode.conf"
		export TURNADD_CONFIG=$TEST_TMP/$mode.conf
		export FAB_IBSIM_OPTS=-v
		fab_init
		fab_start_ibsim "$NETS/ft2-6x3.net"
		fab_start_opensm turnadd "$TURNADD_PLUGIN_DIR"
		fab_wait_subnet_up 60
		settle
		up=$(lft_sets)
		ups=$(fab_count_up)
		fab_unlink 'ft-leaf2[1]'
		fab_wait_resweep "$ups" 60
		settle
		fab_engine_used turnadd ||
			fail "$mode: OpenSM did not route with turnadd"
		grep -q 'ERR' "$FAB_DIR/opensm.log" &&
			grep 'ERR' "$FAB_DIR/opensm.log" >&2
		echo "$up $(($(lft_sets) - up))" >"$TEST_TMP/$mode.sets"
	)
}

run changed_blocks
run opensm
read -r up_cb re_cb <"$TEST_TMP/changed_blocks.sets"
read -r up_os re_os <"$TEST_TMP/opensm.sets"
printf 'lft_update changed_blocks: bring-up %d LFT Sets, after the host link went down %d\n' "$up_cb" "$re_cb"
printf 'lft_update opensm:         bring-up %d LFT Sets, after the host link went down %d\n' "$up_os" "$re_os"
((up_cb > 0 && up_os > 0)) || fail "no LFT Set counted at bring-up"
((re_os > 0)) ||
	fail "lft_update opensm: the leaf's table was not sent again (the count misses rewrites)"
((re_cb == 0)) ||
	fail "lft_update changed_blocks: $re_cb LFT Sets after a host link went down, expected 0"
echo "$test_name: PASS"
