#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd on 2-level fat trees (one and two links per leaf-spine pair),
# also after a spine and a link fail.
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
# rerouting after failures: a whole spine, and one of two parallel links
check_turnadd ft2-8x4x2-fail "$TEST_TMP/ft2-8x4x2.net" \
	--unlink ft-spine1 --unlink 'ft-leaf3[10]'
echo "$test_name: PASS"
