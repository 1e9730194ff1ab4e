#!/bin/bash
# SPDX-License-Identifier: MIT
# route_check --unlink: a spine and one more leaf uplink fail after the
# subnet is up; OpenSM resweeps and the checker sees the new fabric.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

status=0
"$ROUTE_CHECK" --engine minhop --net "$NETS/ft2-6x3.net" \
	--unlink ft-spine0 --unlink 'ft-leaf1[6]' \
	>"$TEST_TMP/out" 2>&1 || status=$?
cat "$TEST_TMP/out"
expect_status 0 "$status" "route_check minhop ft2-6x3 without ft-spine0"
# the spine is cut off: 8 switches are left, all hosts still reachable
expect_line "$TEST_TMP/out" \
	'^hosts=24 switches=8 host_pairs=552 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/out" '^timing: subnet_up=[0-9.]+ resweep=[0-9.]+ '
echo "$test_name: PASS"
