#!/bin/bash
# SPDX-License-Identifier: MIT
# updn on a 2-level fat tree (roots detected by OpenSM): all reachable,
# deadlock-free.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

status=0
"$ROUTE_CHECK" --engine updn --net "$NETS/ft2-6x3.net" \
	>"$TEST_TMP/out" 2>&1 || status=$?
cat "$TEST_TMP/out"
expect_status 0 "$status" "route_check updn ft2-6x3"
expect_line "$TEST_TMP/out" \
	'^hosts=24 switches=9 host_pairs=552 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/out" ' cdg=acyclic$'
echo "$test_name: PASS"
