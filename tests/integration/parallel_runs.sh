#!/bin/bash
# SPDX-License-Identifier: MIT
# Two fabrics at once: each run must see its own simulator (distinct
# IBSIM_SOCKNAME), not the other's.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
make_tmpdir

pids=()
for net in ring8 ft2-6x3 ring8 ft2-6x3; do
	"$ROUTE_CHECK" --engine minhop --net "$NETS/$net.net" \
		>"$TEST_TMP/$net.${#pids[@]}" 2>&1 &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	wait "$pid" || true	# ring8 has a CDG cycle: status 1
done
for f in "$TEST_TMP"/ring8.*; do
	expect_line "$f" '^hosts=16 switches=8 '
done
for f in "$TEST_TMP"/ft2-6x3.*; do
	expect_line "$f" '^hosts=24 switches=9 '
done
echo "$test_name: PASS"
