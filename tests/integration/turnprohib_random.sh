#!/bin/bash
# SPDX-License-Identifier: MIT
# The paper's reference method under real OpenSM: turnadd with mode
# turn_prohibition routes random20 (20 switches, parallel links) with
# every pair reachable and an acyclic channel dependency graph, as read
# back from ibsim and judged by lftcheck; the log names the mode and
# the prohibition, and warns of no deadlock risk.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir

printf 'mode turn_prohibition\n' >"$TEST_TMP/tp.conf"
export TURNADD_CONFIG=$TEST_TMP/tp.conf
check_turnadd random20 "$NETS/random20.net"
log=$TEST_TMP/random20/opensm.log
expect_line "$log" 'turnadd: options from .*: mode turn-prohibition'
expect_line "$log" 'turnadd: turn prohibition: 20 switches removed'
expect_line "$log" 'turnadd: turns: [0-9]+ considered, [0-9]+ allowed, [1-9][0-9]* prohibited'
expect_line "$log" 'turnadd: routes: 0 unreachable'
! grep -q 'routes may deadlock' "$log" ||
	fail "turn_prohibition is deadlock-free but was logged as not"
echo "$test_name: PASS"
