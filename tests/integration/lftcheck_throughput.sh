#!/bin/bash
# SPDX-License-Identifier: MIT
# lftcheck --throughput on a hand-made 2-leaf, 2-spine fabric whose loads
# are known: 4 hosts, each sends 1/3 to every other host.
#  - every route over spine s3: 2 hosts x 2 remote hosts x 1/3 = 4/3 on
#    s1[3], s2[3], s3[1], s3[2]: throughput 3/4;
#  - h3, h1 over s3 and h4, h2 over s4: 2/3 on every spine link, the host
#    links (1.0) are the most loaded: throughput 1;
#  - the first, without s1's entry for h4: s2[3] still 4/3, and 2 x 1/3
#    of the 4.0 sent is not delivered;
#  - --through (the routes a failed spine or cable would move), below.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_built "$LFTCHECK"
make_tmpdir

run_tp() {	# NAME LFT [-t|--throughput]: output in $TEST_TMP/NAME.out
	status=0
	"$LFTCHECK" "$3" "$DATA/ft2x2.topo" "$DATA/$2" \
		>"$TEST_TMP/$1.out" 2>&1 || status=$?
}

run_tp onespine ft2x2-onespine.lft --throughput
expect_status 0 "$status" "one spine"
expect_line "$TEST_TMP/onespine.out" \
	'^throughput=0\.7500 max_link_load=1\.3333 max_link=s1\[3\] links_at_max=4$'

run_tp balanced ft2x2-balanced.lft -t
expect_status 0 "$status" "balanced"
expect_line "$TEST_TMP/balanced.out" \
	'^throughput=1\.0000 max_link_load=1\.0000 max_link=host-link links_at_max=4$'

run_tp drop ft2x2-drop.lft -t
expect_status 1 "$status" "an entry missing"
expect_line "$TEST_TMP/drop.out" \
	'^throughput=0\.7500 max_link_load=1\.3333 max_link=s2\[3\] links_at_max=2 undelivered=0\.166667$'

# without the option, no throughput line
"$LFTCHECK" "$DATA/ft2x2.topo" "$DATA/ft2x2-balanced.lft" >"$TEST_TMP/plain.out"
if grep -q '^throughput=' "$TEST_TMP/plain.out"; then
	fail "throughput printed without --throughput"
fi
# --through, on the balanced tables.  Spine s3 failed: s1's routes to
# h3 and s2 and s2's to h1 and s1 go straight into it (s3's own LID is
# left out); s4's routes never pass it.  The cable s1[3]-s3[1] failed:
# s1 sends h3, s2 and s3 over it, s3 sends h1, h2, s1 and s4 back over
# it (7 entries whose own next hop it is), and further on s2's routes to
# h1 and s1 (through s3) and s4's to s3 (through s1) cross it.  A name
# that is no switch is bad input.
"$LFTCHECK" -n 0 --through s3 "$DATA/ft2x2.topo" "$DATA/ft2x2-balanced.lft" \
	>"$TEST_TMP/through.out" 2>&1 || true
expect_line "$TEST_TMP/through.out" \
	'^through_switches=2 through_entries=4 through_blocks=2 through_hop_entries=4 through_hop_blocks=2$'
"$LFTCHECK" -n 0 --through s1:3 "$DATA/ft2x2.topo" \
	"$DATA/ft2x2-balanced.lft" >"$TEST_TMP/cable.out" 2>&1 || true
expect_line "$TEST_TMP/cable.out" \
	'^through_switches=4 through_entries=10 through_blocks=4 through_hop_entries=7 through_hop_blocks=2$'
status=0
"$LFTCHECK" --through h1 "$DATA/ft2x2.topo" "$DATA/ft2x2-balanced.lft" \
	>"$TEST_TMP/bad.out" 2>&1 || status=$?
expect_status 2 "$status" "--through a host"
expect_line "$TEST_TMP/bad.out" '^lftcheck: --through h1: no switch named h1$'
echo "$test_name: PASS"
