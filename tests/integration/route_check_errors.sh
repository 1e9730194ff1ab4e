#!/bin/bash
# SPDX-License-Identifier: MIT
# route_check's own failure modes: usage, missing netfile, an OpenSM that
# never brings the subnet up (bounded wait), and a fallback engine.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

status=0
"$ROUTE_CHECK" --engine minhop >/dev/null 2>&1 || status=$?
expect_status 2 "$status" "usage error"

status=0
"$ROUTE_CHECK" --engine minhop --net "$TEST_TMP/none.net" \
	>"$TEST_TMP/missing" 2>&1 || status=$?
expect_status 3 "$status" "missing netfile"
expect_line "$TEST_TMP/missing" 'cannot read netfile'

# an "opensm" that never says SUBNET UP: the wait must end, and the
# process must be stopped (it is a single process: exec)
printf '#!/bin/sh\nexec sleep 30\n' >"$TEST_TMP/stuck-opensm"
chmod +x "$TEST_TMP/stuck-opensm"
status=0
start=$(date +%s)
OPENSM=$TEST_TMP/stuck-opensm "$ROUTE_CHECK" --engine minhop --timeout 1 \
	--net "$NETS/ring8.net" >"$TEST_TMP/stuck" 2>&1 || status=$?
expect_status 3 "$status" "opensm without SUBNET UP"
expect_line "$TEST_TMP/stuck" 'no SUBNET UP in .* after 1 s'
(($(date +%s) - start < 25)) || fail "bounded wait took too long (the stuck opensm sleeps 30 s)"

status=0
"$ROUTE_CHECK" --engine no-such-engine --net "$NETS/ft2-6x3.net" \
	>"$TEST_TMP/fallback" 2>&1 || status=$?
expect_status 4 "$status" "fallback to minhop"
expect_line "$TEST_TMP/fallback" 'OpenSM did not use no-such-engine'
echo "$test_name: PASS"
