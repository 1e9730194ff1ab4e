#!/bin/bash
# SPDX-License-Identifier: MIT
# minhop on a ring: every pair is reachable, but the channel dependency
# graph has a cycle.  Shows that the checker can fail.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

status=0
"$ROUTE_CHECK" --engine minhop --net "$NETS/ring8.net" \
	>"$TEST_TMP/out" 2>&1 || status=$?
cat "$TEST_TMP/out"
expect_status 1 "$status" "route_check minhop ring8"
expect_line "$TEST_TMP/out" \
	'^hosts=16 switches=8 host_pairs=240 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/out" ' cdg=CYCLE len=[0-9]+: ring-sw[0-9]+\[[0-9]+\]->'
echo "$test_name: PASS"
