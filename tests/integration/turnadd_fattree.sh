#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd on 2-level fat trees (one and two links per leaf-spine pair).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN"
make_tmpdir

check_turnadd ft2-6x3 "$NETS/ft2-6x3.net"
"$TOPOGEN" fattree2 8 4 8 2 >"$TEST_TMP/ft2-8x4x2.net"
check_turnadd ft2-8x4x2 "$TEST_TMP/ft2-8x4x2.net"
echo "$test_name: PASS"
