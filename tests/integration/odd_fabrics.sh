#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd under real OpenSM on odd, small fabrics (ibsim), tables read
# back and judged by lftcheck (every host pair and host-to-switch route
# delivered, acyclic CDG), plus what each case is about:
#   single    one switch with hosts, the SM on a host
#   dual      dual-homed HCAs: a 2-port CA with a port on each of two
#             switches; both port LIDs reachable from every host, and a
#             route to the wrong port of the right CA is caught
#   parallel  two switches joined by 3 parallel links: kept apart and
#             all used (throughput 1, i.e. no link over its share)
#   transit   switches with no hosts (SM on one), in a cycle with the
#             leaves; and a fabric of 2 switches and no host at all
#   wide      a 128-port and a 64-port switch, hosts and links on ports
#             above 36 (OpenSM's LFTs and lftread past 36 ports)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=odd_lib.sh
. "$(dirname "$0")/odd_lib.sh"
need_fabric
need_turnadd
make_tmpdir

# --- single switch, SM on a host ---
cat >"$TEST_TMP/single.net" <<'EOF'
Hca 1 "h0"
[1] "sw"[1]

Switch 8 "sw"
[1] "h0"[1]
[2] "h1"[1]
[3] "h2"[1]

Hca 1 "h1"
[1] "sw"[2]

Hca 1 "h2"
[1] "sw"[3]
EOF
check_turnadd single "$TEST_TMP/single.net"
expect_line "$TEST_TMP/single.txt" \
	'^hosts=3 switches=1 host_pairs=6 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
turnadd_log single 'fabric: 1 switches \(1 connected piece\), 0 inter-switch links'
# the SM ran on h0 (ibsim's first port), as did the read-back: the
# switch is one hop out of h0's port 1
expect_line "$TEST_TMP/single/lfts.txt" '^Unicast lids .* of switch DR path 0,1 .*\(sw\):$'

# --- dual-homed HCAs ---
cat >"$TEST_TMP/dual.net" <<'EOF'
Switch 8 "swA"
[1] "hA"[1]
[2] "dual0"[1]
[3] "dual1"[1]
[7] "swB"[7]

Switch 8 "swB"
[1] "hB"[1]
[2] "dual0"[2]
[3] "dual1"[2]
[7] "swA"[7]

Hca 1 "hA"
[1] "swA"[1]

Hca 1 "hB"
[1] "swB"[1]

Hca 2 "dual0"
[1] "swA"[2]
[2] "swB"[2]

Hca 2 "dual1"
[1] "swA"[3]
[2] "swB"[3]
EOF
check_turnadd dual "$TEST_TMP/dual.net"
# 6 host ports: each port of a dual-homed CA is a destination of its own
expect_line "$TEST_TMP/dual.txt" \
	'^hosts=6 switches=2 host_pairs=30 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
topo=$TEST_TMP/dual/topology.txt lfts=$TEST_TMP/dual/lfts.txt
for node in dual0 dual1; do
	l1=$(port_lid "$topo" "$node" 1)
	l2=$(port_lid "$topo" "$node" 2)
	[[ $l1 =~ ^[1-9][0-9]*$ && $l2 =~ ^[1-9][0-9]*$ && $l1 != "$l2" ]] ||
		fail "dual: $node ports have LIDs '$l1' and '$l2'"
	# each port is reached on its own switch directly, and from the
	# other switch over the inter-switch link, never via the CA
	own=$((${node#dual} + 2))
	[[ $(lft_port "$lfts" swA "$l1") == "$own" &&
		$(lft_port "$lfts" swB "$l2") == "$own" ]] ||
		fail "dual: $node's ports not delivered on their own switches"
	p=$(lft_port "$lfts" swA "$l2")
	[[ $p == 7 ]] || fail "dual: swA sends $node port 2 (LID $l2) to port '$p', not 7"
	p=$(lft_port "$lfts" swB "$l1")
	[[ $p == 7 ]] || fail "dual: swB sends $node port 1 (LID $l1) to port '$p', not 7"
done
# the checker tells the ports of one CA apart: port 2's LID sent from swA
# to the same CA's port 1 is a failure
l2=$(port_lid "$topo" dual0 2)
lft_set "$lfts" swA "$l2" 2 >"$TEST_TMP/dual-wrong-port.lfts"
expect_lftcheck_fails dual "$topo" "$TEST_TMP/dual-wrong-port.lfts" \
	"^unreachable: .* to \"dual0\" lid $l2: delivered to the wrong node at swA$"

# --- parallel links ---
cat >"$TEST_TMP/parallel.net" <<'EOF'
Switch 8 "pA"
[1] "pA-h1"[1]
[2] "pA-h2"[1]
[3] "pA-h3"[1]
[5] "pB"[5]
[6] "pB"[6]
[7] "pB"[7]

Switch 8 "pB"
[1] "pB-h1"[1]
[2] "pB-h2"[1]
[3] "pB-h3"[1]
[5] "pA"[5]
[6] "pA"[6]
[7] "pA"[7]

Hca 1 "pA-h1"
[1] "pA"[1]

Hca 1 "pA-h2"
[1] "pA"[2]

Hca 1 "pA-h3"
[1] "pA"[3]

Hca 1 "pB-h1"
[1] "pB"[1]

Hca 1 "pB-h2"
[1] "pB"[2]

Hca 1 "pB-h3"
[1] "pB"[3]
EOF
check_turnadd parallel "$TEST_TMP/parallel.net"
turnadd_log parallel 'fabric: 2 switches \(1 connected piece\), 3 inter-switch links'
"$LFTCHECK" --throughput "$TEST_TMP/parallel/topology.txt" \
	"$TEST_TMP/parallel/lfts.txt" >"$TEST_TMP/parallel.tp" ||
	fail "parallel: lftcheck --throughput failed"
cat "$TEST_TMP/parallel.tp"
# 3 hosts a side over 3 links: balanced only if each link takes one
expect_line "$TEST_TMP/parallel.tp" '^throughput=1\.0000 '
for sw in pA pB; do
	other=pB
	[[ $sw == pB ]] && other=pA
	used=$(for h in 1 2 3; do
		lft_port "$TEST_TMP/parallel/lfts.txt" "$sw" \
			"$(port_lid "$TEST_TMP/parallel/topology.txt" "$other-h$h" 1)"
	done | sort -u | tr '\n' ' ')
	[[ $used == '5 6 7 ' ]] ||
		fail "parallel: $sw reaches $other's hosts over ports '$used', not 5 6 7"
done

# --- transit-only switches ---
# leaves lA, lB joined through t0 and t1, which have no hosts; the SM on
# t0 (first node); the cycle lA-t0-lB-t1 needs a prohibited turn
cat >"$TEST_TMP/transit.net" <<'EOF'
Switch 8 "t0"
[1] "lA"[5]
[2] "lB"[5]

Switch 8 "t1"
[1] "lA"[6]
[2] "lB"[6]

Switch 8 "lA"
[1] "lA-h1"[1]
[2] "lA-h2"[1]
[5] "t0"[1]
[6] "t1"[1]

Switch 8 "lB"
[1] "lB-h1"[1]
[2] "lB-h2"[1]
[5] "t0"[2]
[6] "t1"[2]

Hca 1 "lA-h1"
[1] "lA"[1]

Hca 1 "lA-h2"
[1] "lA"[2]

Hca 1 "lB-h1"
[1] "lB"[1]

Hca 1 "lB-h2"
[1] "lB"[2]
EOF
check_turnadd transit "$TEST_TMP/transit.net"
# both transit switches' LIDs are among the host-to-switch routes checked
expect_line "$TEST_TMP/transit.txt" \
	'^hosts=4 switches=4 host_pairs=12 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
turnadd_log transit 'fabric: 4 switches \(1 connected piece\), 4 inter-switch links, 8 LIDs \(4 host LIDs'

cat >"$TEST_TMP/nohost.net" <<'EOF'
Switch 8 "n0"
[1] "n1"[1]
[2] "n1"[2]

Switch 8 "n1"
[1] "n0"[1]
[2] "n0"[2]
EOF
check_turnadd nohost "$TEST_TMP/nohost.net"
topo=$TEST_TMP/nohost/topology.txt lfts=$TEST_TMP/nohost/lfts.txt
n0=$(switch_lid "$topo" n0) n1=$(switch_lid "$topo" n1)
[[ -n $n0 && -n $n1 ]] || fail "nohost: switch LIDs '$n0' '$n1'"
[[ $(lft_port "$lfts" n0 "$n0") == 0 && $(lft_port "$lfts" n1 "$n1") == 0 ]] ||
	fail "nohost: a switch does not deliver its own LID to port 0"
p=$(lft_port "$lfts" n0 "$n1")
[[ $p == 1 || $p == 2 ]] || fail "nohost: n0 sends n1's LID to port '$p'"
p=$(lft_port "$lfts" n1 "$n0")
[[ $p == 1 || $p == 2 ]] || fail "nohost: n1 sends n0's LID to port '$p'"

# --- 128- and 64-port switches ---
cat >"$TEST_TMP/wide.net" <<'EOF'
Switch 128 "w128"
[1] "w128-h1"[1]
[100] "w128-h100"[1]
[128] "w128-h128"[1]
[64] "w64"[33]
[127] "w64"[64]

Switch 64 "w64"
[2] "w64-h2"[1]
[63] "w64-h63"[1]
[33] "w128"[64]
[64] "w128"[127]

Hca 1 "w128-h1"
[1] "w128"[1]

Hca 1 "w128-h100"
[1] "w128"[100]

Hca 1 "w128-h128"
[1] "w128"[128]

Hca 1 "w64-h2"
[1] "w64"[2]

Hca 1 "w64-h63"
[1] "w64"[63]
EOF
check_turnadd wide "$TEST_TMP/wide.net"
topo=$TEST_TMP/wide/topology.txt lfts=$TEST_TMP/wide/lfts.txt
expect_line "$topo" '^Switch[[:space:]]+128 .*# "w128" '
expect_line "$topo" '^Switch[[:space:]]+64 .*# "w64" '
expect_line "$TEST_TMP/wide.txt" \
	'^hosts=5 switches=2 host_pairs=20 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
for h in 100 128; do
	p=$(lft_port "$lfts" w128 "$(port_lid "$topo" "w128-h$h" 1)")
	[[ $p == "$h" ]] || fail "wide: w128 sends w128-h$h's LID to port '$p'"
done
p=$(lft_port "$lfts" w64 "$(port_lid "$topo" w64-h63 1)")
[[ $p == 63 ]] || fail "wide: w64 sends w64-h63's LID to port '$p'"
# both parallel links, on ports 64/127 of w128, carry routes from w128
used=$(for h in 2 63; do
	lft_port "$lfts" w128 "$(port_lid "$topo" "w64-h$h" 1)"
done | sort -u | tr '\n' ' ')
[[ $used == '127 64 ' ]] ||
	fail "wide: w128 reaches w64's hosts over ports '$used', not 64 and 127"
echo "$test_name: PASS"
