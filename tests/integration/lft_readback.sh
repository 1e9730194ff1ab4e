#!/bin/bash
# SPDX-License-Identifier: MIT
# Reading the LFTs back must be exact where infiniband-diags 44's dump
# tools are not: a LinearFDBTop that starts a new block of 64 LIDs (127
# leaves + 2 spines + 127 hosts = LID 256), and switches with more than
# 128 ports.  minhop routes these 2-level trees fully.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_built "$TOPOGEN"
make_tmpdir

for spec in "127 2 1 1" "140 2 1 1"; do
	read -r leaves spines hosts links <<<"$spec"
	name=ft2-${leaves}x$spines
	"$TOPOGEN" fattree2 "$leaves" "$spines" "$hosts" "$links" \
		>"$TEST_TMP/$name.net"
	status=0
	"$ROUTE_CHECK" --engine minhop --net "$TEST_TMP/$name.net" \
		>"$TEST_TMP/$name.out" 2>&1 || status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.out"
	expect_status 0 "$status" "route_check minhop $name"
	expect_line "$TEST_TMP/$name.out" \
		"^hosts=$leaves switches=$((leaves + spines)) .* unreachable_host_pairs=0 unreachable_host_to_switch=0$"
done
echo "$test_name: PASS"
