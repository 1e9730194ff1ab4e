#!/bin/bash
# SPDX-License-Identifier: MIT
# The routing-quality benchmark's fabrics as topogen writes them, checked
# on the netfile alone (netfile_stats.awk reads the file, the expected
# numbers are worked out here from K): two K-ary 3-level fat trees joined
# at the top, middle or bottom (K = 4, 8), and the paper's random nets
# (10 switch ports and 10 hosts a switch).  Also: the checker catches a
# broken netfile, and topogen rejects a bad K with a message.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$TOPOGEN"
make_tmpdir
STATS=$top_srcdir/tests/integration/netfile_stats.awk

# stats NETFILE: the facts, one name=value a line, into $TEST_TMP/stats
stats() {
	awk -f "$STATS" "$1" >"$TEST_TMP/stats"
}

# expect WHAT NAME=VALUE...: each fact has that value
expect() {
	local what=$1 kv got
	shift
	for kv in "$@"; do
		got=$(sed -n "s/^${kv%%=*}=//p" "$TEST_TMP/stats")
		[[ $got == "${kv#*=}" ]] ||
			fail "$what: ${kv%%=*} is '$got', expected '${kv#*=}'"
	done
}

# ft3join K LEVEL LEVEL_NUMBER [ft3join-alt]
# ft3join-alt joins other positions: at the top core (a, m) to core (m, a),
# so only the k/2 cores with a = m meet their namesake; in the middle and
# at the bottom whole pods (k/2 switches each) of half of tree A's pods,
# never to the same pod of B.
check_ft3join() {
	local k=$1 lvl=$2 l=$3 gen=${4:-ft3join} net h per_pod t same
	net=$TEST_TMP/$gen-$k-$lvl.net
	"$TOPOGEN" "$gen" "$k" "$lvl" >"$net"
	stats "$net"
	h=$((k / 2))
	per_pod=$((k / 4))-$((k / 4)) same=$((k * k / 4))
	[[ $lvl == top ]] && per_pod=0-0
	if [[ $gen == ft3join-alt ]]; then
		per_pod=0-$h same=0
		[[ $lvl == top ]] && per_pod=0-0 same=$h
	fi
	expect "$gen $k $lvl" first_node=Switch \
		hosts=$((k * k * k / 2)) switches=$((5 * k * k / 2)) \
		links=$((k * k * k + k * k / 4)) \
		bad_ports=0 bad_links=0 bad_levels=0 components=1 \
		other_nodes=0 name_level_mismatch=0 \
		"sw_ports_$k=$((2 * k * k))" "sw_ports_$((k + 1))=$((k * k / 2))" \
		sw_unused_ports=0 \
		join_links=$((k * k / 4)) "join_levels=$l-$l:$((k * k / 4))" \
		join_same_name=$same join_multi=0 \
		join_per_pod=$per_pod joined_ports=$((k + 1))-$((k + 1))
	for t in tA tB; do
		expect "$gen $k $lvl tree $t" \
			"${t}_hosts=$((k * k * k / 4))" \
			"${t}_switches=$((5 * k * k / 4))" "${t}_components=1" \
			"${t}_level_1=$((k * k / 2))" \
			"${t}_level_2=$((k * k / 2))" \
			"${t}_level_3=$((k * k / 4))" \
			"${t}_hosts_per_edge=$h-$h" \
			"${t}_ports_1=0-0/$h-$h" "${t}_ports_2=$h-$h/$h-$h" \
			"${t}_ports_3=$k-$k/0-0"
	done
	echo "$gen $k $lvl: OK ($((k * k * k / 2)) hosts," \
		"$((k * k / 4)) join links)"
}

for k in 4 8; do
	check_ft3join "$k" top 3
	check_ft3join "$k" middle 2
	check_ft3join "$k" bottom 1
	check_ft3join "$k" top 3 ft3join-alt
	check_ft3join "$k" middle 2 ft3join-alt
	check_ft3join "$k" bottom 1 ft3join-alt
done

# The checker itself: a port above the declared count, a link one end
# does not list, a second tree-crossing link on one switch.
net=$TEST_TMP/ft3join-4-middle.net
sed '0,/^Switch\t5 /s//Switch\t4 /' "$net" >"$TEST_TMP/bad1.net"
stats "$TEST_TMP/bad1.net"
grep -q '^bad_ports=0$' "$TEST_TMP/stats" &&
	fail "checker missed a port above the declared count"
sed '0,/^\[4\]/{/^\[4\]/d}' "$net" >"$TEST_TMP/bad2.net"
stats "$TEST_TMP/bad2.net"
grep -q '^bad_links=0$' "$TEST_TMP/stats" &&
	fail "checker missed a one-sided link"
echo "checker: catches broken netfiles"

# The paper's random nets: N switches, 10 switch-to-switch ports and 10
# hosts each; connected, no self link (bad_links), every port used.
for n in 10 50 100; do
	for seed in 1 2; do
		net=$TEST_TMP/random-$n-$seed.net
		"$TOPOGEN" random "$n" 10 10 "$seed" >"$net"
		stats "$net"
		expect "random $n seed $seed" first_node=Switch \
			switches="$n" hosts=$((10 * n)) links=$((5 * n)) \
			bad_ports=0 bad_links=0 components=1 \
			sw_link_ends=10-10 sw_hosts=10-10
		"$TOPOGEN" random "$n" 10 10 "$seed" | cmp -s - "$net" ||
			fail "random $n seed $seed: not reproducible"
	done
done
"$TOPOGEN" random 50 10 10 2 | cmp -s - "$TEST_TMP/random-50-1.net" &&
	fail "random 50: seeds 1 and 2 give the same net"
echo "random 10/50/100 switches, seeds 1 and 2: OK"

# bad K: exit 2 with a message saying what is wrong
bad_k() {
	local status=0
	"$TOPOGEN" ft3join "$1" "$2" >/dev/null 2>"$TEST_TMP/err" || status=$?
	expect_status 2 "$status" "topogen ft3join $1 $2"
	expect_line "$TEST_TMP/err" "$3"
}
bad_k 5 top 'K = 5: K must be even and >= 4'
bad_k 2 middle 'K = 2: K must be even and >= 4'
bad_k 46 bottom 'K = 46: .* exceed the 49151 unicast LIDs'
bad_k 300 top 'needs K \+ 1 = 301 ports, ibsim allows 254'
bad_k 4 side "join level 'side' is not top, middle or bottom"
echo "bad K rejected"
echo "$test_name: PASS"
