#!/bin/bash
# SPDX-License-Identifier: MIT
# lftcheck's routing-quality figures on hand-made fabrics whose loads and
# turns are known (lftcheck-data/two2*, tri*; the drawings are in the
# .topo files).  Throughput = 1 / (load of the most loaded link
# direction, host links included), every link direction carrying 1.0.
#
# two2 (a-s1 with a-h1 a-h2, b-s2 with b-h3 b-h4, one link on port 3):
#  uniform: each host sends 1/3 to each of the 3 others; the 2 x 2 pairs
#    from a-s1 to b-s2 all cross a-s1[3]: 4 x 1/3 = 4/3, the same on
#    b-s2[3] back: throughput 3/4, 2 links at the max.
#  groups a-, b- (one switch each): p = 1 join link, n = 2 hosts a group.
#    intra: a-h1 sends 1.0 to a-h2 (its only partner) and back: every
#    host link carries 1.0, the inter-switch link nothing: 1.
#    inter: each host sends p/n = 1/2, 1/4 to each of b-h3, b-h4; a-s1[3]
#    carries 2 x 1/2 = 1.0, the host links 1/2: 1, bottleneck a-s1[3].
#  turns: each switch has one inter-switch port: no turns, T = U = 0.
# two2p (the same with a second, parallel link on port 4):
#  spread (b-h3 over port 3, b-h4 over port 4, and back likewise):
#    each link direction carries 2 x 1/3 = 2/3 < 1.0 of the host links:
#    uniform throughput 1; inter: p = 2, each host sends 1.0, 1/2 to each
#    remote host: 2 x 1/2 = 1.0 per link direction: 1.
#  onelink (a bad routing, everything over port 3): a-s1[3] carries 4/3
#    (uniform, 3/4) and 2 x 1.0 = 2.0 (inter, 1/2).
#  turns: the two parallel links are different links: each switch has
#    2 x 1 turns, T = 4; every route is one hop, U = 0, fraction 1.
# tri (a-s1, a-s2 joined by 2 parallel links on ports 2, 3; b-s3 on a-s1[4]
#  and a-s2[4]; one host each):
#  turns: a-s1 and a-s2 have 3 inter-switch ports (3 x 2 = 6 turns each),
#    b-s3 has 2 (2 turns): T = 14.  tri.lft uses the turns at a-s2
#    2->4 (a-s1 to b-h3), 4->2 (b-s3 to a-h1), 4->3 (b-s3 to a-s1's LID):
#    U = 3, prohibited_fraction = 11/14 = 0.7857.  tri-bad.lft also sends
#    b-s3's route to a-h2 over a-s1 (turn 4->2 there): U = 4, 10/14.
#  uniform on tri-bad: a-s1[2] carries a-h1->a-h2, a-h1->b-h3 and the
#    transit b-h3->a-h2, 3 x 1/2 = 3/2: throughput 2/3.
#  groups of unequal size (a-: 2 hosts, b-: 1; p = 2 join links): the n of
#    p/n is the sender's group, so a-h1, a-h2 send 2/2 = 1.0 to b-h3, b-h3
#    sends 2/1 = 2.0, 1.0 to each: b-h3's host link carries 2.0: inter
#    1/2 (it would be 1/4 with the receiver's n: a-s2[4] carrying 4.0).
#    intra: a-h1 <-> a-h2 1.0 each, b-h3 alone sends nothing: 1.
# permutations (--perm; --perm=0: the shifts only, hosts ranked by name;
#  a flow gets 1 / (flows on the most shared link direction of its path)):
#  two2, hosts a-h1 a-h2 b-h3 b-h4: shift 1 (h1->h2, h2->h3, h3->h4,
#    h4->h1) and shift 3 put at most one flow on a-s1[3] and b-s2[3]: 4 x
#    1.0 each; shift 2 (h1->h3, h2->h4 both on a-s1[3], back likewise):
#    4 x 1/2.  Mean (4 + 2 + 4) / 12 = 0.8333, worst pattern 0.5.
#  ft2x2-onespine (everything over s3): the same, 0.8333; ft2x2-balanced
#    (h3, h4 reached over s3, s4, h1, h2 likewise): every link direction
#    carries the flows to one host only, so 1.0 for ANY permutation, the
#    random ones too; onespine's random ones lose where both of s1's
#    hosts send to s2 (1/2 then): strictly between 1/2 and 1.
#  ft2x2-drop (s1 has no entry for h4; s2 sends to h2 over s3): shift 1
#    4 x 1.0; shift 2 h1->h3 1.0, h2->h4 0 (undelivered), h3->h1 and
#    h4->h2 share s2[3]: 1/2 each; shift 3 h1->h4 0, the others 1.0:
#    (4 + 2 + 3) / 12 = 0.75, 2 undelivered flows.
#  tri-bad, hosts a-h1 a-h2 b-h3: shift 1 one flow a link: 3 x 1.0;
#    shift 2 a-h1->b-h3 and b-h3->a-h2 share a-s1[2] (1/2 each),
#    a-h2->a-h1 1.0: (3 + 2) / 6 = 0.8333, worst pattern 2/3.
# line3-loop.lft: its CDG has 4 edges; 2 of them are the U-turns of the
#  loop s2[3]->s3[2]->s2[3] (back over the same link at s3 and at s2),
#  which are not turns: U = 2 (s2's 2->3 and 3->2).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$LFTCHECK"
make_tmpdir

# run NAME TOPO LFT [options...]: output in $TEST_TMP/NAME.out, $status
run() {
	local name=$1 topo=$2 lft=$3
	shift 3
	status=0
	"$LFTCHECK" "$@" "$DATA/$topo" "$DATA/$lft" >"$TEST_TMP/$name.out" \
		2>&1 || status=$?
}

out() { echo "$TEST_TMP/$1.out"; }

run two2 two2.topo two2.lft -t --groups a-,b-
expect_status 0 "$status" "two2"
expect_line "$(out two2)" \
	'^throughput=0\.7500 max_link_load=1\.3333 max_link=a-s1\[3\] links_at_max=2$'
expect_line "$(out two2)" \
	'^intra_throughput=1\.0000 inter_throughput=1\.0000 join_links=1 hosts_a=2 hosts_b=2 '
expect_line "$(out two2)" \
	' intra_max_link=host-link inter_max_link_load=1\.0000 inter_max_link=a-s1\[3\]$'
expect_line "$(out two2)" \
	'^turns_total=0 turns_used=0 prohibited_fraction=0\.0000$'
expect_line "$(out two2)" '^max_sw_hops=1 mean_sw_hops=0\.667$'

run spread two2p.topo two2p-spread.lft -t --groups a-,b-
expect_status 0 "$status" "two2p spread"
expect_line "$(out spread)" \
	'^throughput=1\.0000 max_link_load=1\.0000 max_link=host-link '
expect_line "$(out spread)" \
	'^intra_throughput=1\.0000 inter_throughput=1\.0000 join_links=2 hosts_a=2 hosts_b=2 '
expect_line "$(out spread)" \
	'^turns_total=4 turns_used=0 prohibited_fraction=1\.0000$'

run onelink two2p.topo two2p-onelink.lft -t --groups a-,b-
expect_status 0 "$status" "two2p onelink"
expect_line "$(out onelink)" \
	'^throughput=0\.7500 max_link_load=1\.3333 max_link=a-s1\[3\] links_at_max=2$'
expect_line "$(out onelink)" \
	'^intra_throughput=1\.0000 inter_throughput=0\.5000 join_links=2 '
expect_line "$(out onelink)" \
	' inter_max_link_load=2\.0000 inter_max_link=a-s1\[3\]$'

run tri tri.topo tri.lft --turns --groups a-,b-
expect_status 0 "$status" "tri"
expect_line "$(out tri)" \
	'^turns_total=14 turns_used=3 prohibited_fraction=0\.7857$'
expect_line "$(out tri)" '^cdg_channels=7 cdg_edges=3 cdg=acyclic$'
expect_line "$(out tri)" \
	'^intra_throughput=1\.0000 inter_throughput=0\.5000 join_links=2 hosts_a=2 hosts_b=1 '
if grep -q '^throughput=' "$(out tri)"; then
	fail "--turns printed the uniform throughput"
fi

run tribad tri.topo tri-bad.lft -t
expect_status 0 "$status" "tri-bad"
expect_line "$(out tribad)" \
	'^throughput=0\.6667 max_link_load=1\.5000 max_link=a-s1\[2\] links_at_max=1$'
expect_line "$(out tribad)" \
	'^turns_total=14 turns_used=4 prohibited_fraction=0\.7143$'
expect_line "$(out tribad)" '^max_sw_hops=2 mean_sw_hops=1\.500$'
if grep -q '^intra_throughput=' "$(out tribad)"; then
	fail "group throughput printed without --groups"
fi

run loop line3.topo line3-loop.lft --turns
expect_status 1 "$status" "line3 loop"
expect_line "$(out loop)" ' cdg_edges=4 cdg=CYCLE '
expect_line "$(out loop)" \
	'^turns_total=2 turns_used=2 prohibited_fraction=0\.0000$'

# bad --groups: exit 2 and a message naming the problem
run neither two2.topo two2.lft --groups a-h1,b-
expect_status 2 "$status" "a host in neither group"
expect_line "$(out neither)" \
	'^lftcheck: .*two2\.topo:23: host "a-h2" is in neither group'
run nojoin two2.topo two2.lft --groups a-,b-h
expect_status 2 "$status" "groups not joined by a link"
expect_line "$(out nojoin)" 'no link joins a switch of "a-" to a switch of "b-h"'
run overlap two2.topo two2.lft --groups a,a-
expect_status 2 "$status" "one prefix starts with the other"
expect_line "$(out overlap)" "^lftcheck: --groups: 'a,a-': one prefix"
run oneprefix two2.topo two2.lft --groups a-
expect_status 2 "$status" "one prefix only"
expect_line "$(out oneprefix)" '^lftcheck: --groups: .*want two non-empty'

# permutation bandwidth (hand-worked above)
run ptwo2 two2.topo two2.lft --perm=0
expect_line "$(out ptwo2)" \
	'^perm_bandwidth=0\.8333 perm_random=- perm_shift=0\.8333 perm_worst_pattern=0\.5000 perm_patterns=3 perm_shifts=3 perm_undelivered_flows=0$'
if grep -q '^throughput=' "$(out ptwo2)"; then
	fail "--perm printed the uniform throughput"
fi
run pone ft2x2.topo ft2x2-onespine.lft --perm=0
expect_line "$(out pone)" '^perm_bandwidth=0\.8333 .* perm_worst_pattern=0\.5000 '
run pbal ft2x2.topo ft2x2-balanced.lft --perm
expect_line "$(out pbal)" \
	'^perm_bandwidth=1\.0000 perm_random=1\.0000 perm_shift=1\.0000 perm_worst_pattern=1\.0000 perm_patterns=103 perm_shifts=3 perm_undelivered_flows=0$'
run pone_r ft2x2.topo ft2x2-onespine.lft --perm=200 --perm-seed 9
expect_line "$(out pone_r)" ' perm_patterns=203 perm_shifts=3 '
r=$(sed -nE 's/.* perm_random=([0-9.]+) .*/\1/p' "$(out pone_r)")
awk -v r="$r" 'BEGIN { exit !(r > 0.5 && r < 1) }' ||
	fail "onespine random permutations: $r, want strictly between 0.5 and 1"
run pdrop ft2x2.topo ft2x2-drop.lft --perm=0
expect_status 1 "$status" "ft2x2-drop --perm"
expect_line "$(out pdrop)" \
	'^perm_bandwidth=0\.7500 .* perm_undelivered_flows=2$'
run ptri tri.topo tri-bad.lft --perm=0
expect_line "$(out ptri)" \
	'^perm_bandwidth=0\.8333 perm_random=- perm_shift=0\.8333 perm_worst_pattern=0\.6667 perm_patterns=2 perm_shifts=2 '
run pbadn two2.topo two2.lft --perm=-1
expect_status 2 "$status" "--perm=-1"
expect_line "$(out pbadn)" "^lftcheck: bad --perm '-1'"

"$LFTCHECK" --help >"$TEST_TMP/help.out"
for opt in --throughput --turns --groups --perm; do
	grep -q -- "$opt" "$TEST_TMP/help.out" || fail "--help lacks $opt"
done
echo "$test_name: PASS"
