#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd under OpenSM on ibsim routes two 4-ary 3-level fat trees joined
# at the top, middle and bottom (topogen ft3join 4 LEVEL: 32 hosts, 40
# switches) with the traffic file of topogen ft3join-traffic: the file is
# accepted, every host pair is reachable and the CDG is acyclic (judged
# by lftcheck on the tables read back from the switches), and the file
# has its effect: the traffic inside each tree, which it weighs 100 times
# the traffic between them, gets the full bisection of its tree
# (lftcheck --groups: intra-tree throughput exactly 1, the host links
# being the busiest).  Without the file, or with its weights ignored,
# the middle and bottom joins do worse inside the trees (tests/unit/
# test_balance.c works the loads out).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$TOPOGEN"
need_fabric
need_turnadd
make_tmpdir

traffic=$TEST_TMP/ft3join.traffic
"$TOPOGEN" ft3join-traffic >"$traffic"
printf 'traffic_file %s\n' "$traffic" >"$TEST_TMP/turnadd.conf"
export TURNADD_CONFIG=$TEST_TMP/turnadd.conf

for level in top middle bottom; do
	"$TOPOGEN" ft3join 4 "$level" >"$TEST_TMP/$level.net"
	check_turnadd "$level" "$TEST_TMP/$level.net"
	expect_line "$TEST_TMP/$level.txt" \
		'^hosts=32 switches=40 host_pairs=992 '
	expect_line "$TEST_TMP/$level/opensm.log" \
		"turnadd: options from .*traffic $traffic\$"
	expect_line "$TEST_TMP/$level/opensm.log" \
		'turnadd: fabric: 40 switches \(1 connected piece\), 68 inter-switch links'
	"$LFTCHECK" --groups tA-,tB- "$TEST_TMP/$level/topology.txt" \
		"$TEST_TMP/$level/lfts.txt" >"$TEST_TMP/$level.groups" ||
		fail "$level: lftcheck --groups exited $?"
	sed "s/^/$level: /" "$TEST_TMP/$level.groups" | grep throughput || true
	expect_line "$TEST_TMP/$level.groups" \
		'^intra_throughput=1\.0000( |$)'
done
echo "$test_name: PASS"
