#!/bin/bash
# SPDX-License-Identifier: MIT
# updn on a random 20-switch net (10 switch ports, parallel links).  On
# such a net OpenSM finds no Up*/Down* root by itself and falls back to
# minhop, so the root is given; route_check fails on a fallback.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

status=0
"$ROUTE_CHECK" --engine updn --root rnd-sw0 --net "$NETS/random20.net" \
	>"$TEST_TMP/out" 2>&1 || status=$?
cat "$TEST_TMP/out"
expect_status 0 "$status" "route_check updn random20"
expect_line "$TEST_TMP/out" \
	'^hosts=100 switches=20 host_pairs=9900 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/out" ' cdg=acyclic$'
echo "$test_name: PASS"
