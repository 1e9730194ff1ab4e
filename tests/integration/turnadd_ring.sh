#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd on rings (where minhop deadlocks): all reachable, acyclic.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN"
make_tmpdir

check_turnadd ring8 "$NETS/ring8.net"
"$TOPOGEN" ring 5 1 >"$TEST_TMP/ring5.net"
check_turnadd ring5 "$TEST_TMP/ring5.net"
"$TOPOGEN" torus 4 3 2 >"$TEST_TMP/torus4x3.net"
check_turnadd torus4x3 "$TEST_TMP/torus4x3.net"
echo "$test_name: PASS"
