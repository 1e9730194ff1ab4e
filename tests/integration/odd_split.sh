#!/bin/bash
# SPDX-License-Identifier: MIT
# A fabric cut in two under turnadd: after the subnet is up, one link is
# unlinked on ibsim's console so that two of four switches (and their
# hosts) lose their only path to the SM.  OpenSM resweeps and only sees
# the SM's piece: that piece must be routed completely (lftcheck on the
# tables read back), turnadd must say what is gone since the previous
# routing, log no error, and OpenSM must keep running.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=odd_lib.sh
. "$(dirname "$0")/odd_lib.sh"
need_fabric
need_turnadd
make_tmpdir

# sA (SM) = sB - sC = sD, two parallel links where '=', 2 hosts a
# switch; sB[5] is the only link between the halves
{
	printf 'Switch 8 "sA"\n[1] "sA-h1"[1]\n[2] "sA-h2"[1]\n'
	printf '[5] "sB"[3]\n[6] "sB"[4]\n\n'
	printf 'Switch 8 "sB"\n[1] "sB-h1"[1]\n[2] "sB-h2"[1]\n'
	printf '[3] "sA"[5]\n[4] "sA"[6]\n[5] "sC"[3]\n\n'
	printf 'Switch 8 "sC"\n[1] "sC-h1"[1]\n[2] "sC-h2"[1]\n'
	printf '[3] "sB"[5]\n[5] "sD"[3]\n[6] "sD"[4]\n\n'
	printf 'Switch 8 "sD"\n[1] "sD-h1"[1]\n[2] "sD-h2"[1]\n'
	printf '[3] "sC"[5]\n[4] "sC"[6]\n\n'
	for sw in sA sB sC sD; do
		for h in 1 2; do
			printf 'Hca 1 "%s-h%s"\n[1] "%s"[%s]\n\n' \
				"$sw" "$h" "$sw" "$h"
		done
	done
} >"$TEST_TMP/split.net"

check_turnadd split "$TEST_TMP/split.net" --unlink 'sB[5]'
log=$TEST_TMP/split/opensm.log
# after the cut: the SM's piece only, complete
expect_line "$TEST_TMP/split.txt" \
	'^hosts=4 switches=2 host_pairs=12 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
expect_line "$TEST_TMP/split.txt" '^timing: subnet_up=[0-9.]+ resweep='
for sw in sC sD; do
	! grep -q "\"$sw\"" "$TEST_TMP/split/topology.txt" ||
		fail "split: $sw still in the read-back topology"
done
# the routing before the cut had all of it, the one after only the rest
turnadd_log split 'fabric: 4 switches \(1 connected piece\), 5 inter-switch links, 12 LIDs'
turnadd_log split 'fabric: 2 switches \(1 connected piece\), 2 inter-switch links, 6 LIDs'
# sC, sD: 2 switch LIDs + 4 host LIDs gone, said once
n=$(grep -c 'turnadd: gone since the previous routing' "$log" || true)
((n == 1)) || fail "split: $n 'gone' lines, expected 1"
turnadd_log split 'gone since the previous routing: 2 switches and 6 LIDs \(failed, or cut off from the SM\): no longer routed$'
! grep -E ' 0x01 -> turnadd:' "$log" ||
	fail "split: turnadd logged an error"
n=$(grep -c 'turnadd tables configured on all switches' "$log" || true)
((n >= 2)) || fail "split: turnadd configured tables $n times (bring-up and resweep expected)"
echo "$test_name: PASS"
