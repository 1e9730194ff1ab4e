#!/bin/bash
# SPDX-License-Identifier: MIT
# Four fabrics at once, two engines on two fabrics: each run must see its
# own simulator (distinct IBSIM_SOCKNAME), not another's, and each must
# get its own verdict from lftcheck on the tables read back: minhop on
# ring8 has a channel dependency cycle (exit 1), turnadd on ring8 and
# both engines on the fat tree ft2-6x3 route every pair without one
# (exit 0).  A run attached to another run's fabric, or routed by the
# wrong engine, shows the wrong sizes, verdict or status.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir

# engine net status cdg hosts switches
runs=(
	"minhop ring8 1 CYCLE 16 8"
	"turnadd ring8 0 acyclic 16 8"
	"minhop ft2-6x3 0 acyclic 24 9"
	"turnadd ft2-6x3 0 acyclic 24 9"
)
pids=()
for k in "${!runs[@]}"; do
	read -r engine net _ <<<"${runs[k]}"
	"$ROUTE_CHECK" --engine "$engine" --plugin-dir "$TURNADD_PLUGIN_DIR" \
		--net "$NETS/$net.net" --out "$TEST_TMP/out$k" \
		>"$TEST_TMP/run$k" 2>&1 &
	pids+=($!)
done
for k in "${!runs[@]}"; do
	read -r engine net want cdg hosts sws <<<"${runs[k]}"
	status=0
	wait "${pids[k]}" || status=$?
	f=$TEST_TMP/run$k
	sed "s/^/$engine $net: /" "$f"
	expect_status "$want" "$status" "$engine on $net"
	expect_line "$f" "^hosts=$hosts switches=$sws "
	expect_line "$f" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
	expect_line "$f" "^cdg_channels=[0-9]+ cdg_edges=[0-9]+ cdg=$cdg"
	grep -qF "$engine tables configured" "$TEST_TMP/out$k/opensm.log" ||
		fail "$engine on $net: OpenSM did not route with $engine"
done
echo "$test_name: PASS"
