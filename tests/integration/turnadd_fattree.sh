#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd on 2-level fat trees (one and two links per leaf-spine pair),
# also after a spine and a link fail.  Balance: ft2-8x4x2 has as many
# up-links as hosts on every leaf (8 = 4 spines x 2 links), so evenly
# spread routes give every inter-switch link at most the load of a host
# link: lftcheck -t's throughput must be exactly 1, the host links the
# busiest (routes piled onto the first equal link would give about 1/7).
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
"$LFTCHECK" -t "$TEST_TMP/ft2-8x4x2/topology.txt" \
	"$TEST_TMP/ft2-8x4x2/lfts.txt" >"$TEST_TMP/ft2-8x4x2.tp" ||
	fail "lftcheck -t on ft2-8x4x2 exited $?"
grep '^throughput=' "$TEST_TMP/ft2-8x4x2.tp" || true
expect_line "$TEST_TMP/ft2-8x4x2.tp" \
	'^throughput=1\.0000 max_link_load=1\.0000 max_link=host-link '
# rerouting after failures: a whole spine, and one of two parallel links
check_turnadd ft2-8x4x2-fail "$TEST_TMP/ft2-8x4x2.net" \
	--unlink ft-spine1 --unlink 'ft-leaf3[10]'
echo "$test_name: PASS"
