#!/bin/bash
# SPDX-License-Identifier: MIT
# LMC > 0 under real OpenSM and ibsim: a port's 2^LMC LIDs climb through
# distinct spines, and a spine failure and restore cost no more LFT MADs
# than the bound for one aligned LID run a port (mad_count.sh --lmc: per
# leaf ceil((hosts * m * min(m, S) + leaves) / S / 64) blocks, m = 2^LMC,
# S spines; after the restore plus the spine's whole table).  Two fat
# trees: 8 leaves x 4 spines x 4 hosts with LMC 1 (bound 8 / 11: one
# block a leaf) and 12 x 6 x 6 with LMC 2 (bound 48 / 55: four blocks a
# leaf, the LIDs of 48 ports of 4 LIDs and 2 leaves).  The tables read
# back (lftread) are judged by lftcheck: every LID of every port
# reachable, CDG acyclic, and with --lmc-spread-min 2^LMC no port's LIDs
# on fewer than min(2^LMC, S) spines from any leaf, at bring-up and
# after the restore, and min(2^LMC, S - 1) while the spine is down (a
# LID displaced from the failed spine must not join a sibling's); a
# table with one LID moved onto its sibling's spine must fail that
# check.  MADs are counted by libmadcount.so in opensm.  On a 3-level
# tree with hosts absent, a director failure that makes 2^LMC stop
# dividing the spines (LMC 1 and 2) moves no host LID (read back from
# the fabric at every phase), nor does its restore one switch a second
# (LMC 2: while part of the director is back the leaves differ in
# neighbour count, the fabric has no period).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=odd_lib.sh
. "$(dirname "$0")/odd_lib.sh"
# shellcheck source-path=SCRIPTDIR source=reroute_lib.sh
. "$(dirname "$0")/reroute_lib.sh"
need_mad_count
make_tmpdir

# run NAME LMC SPINES TOPOGEN-ARGS...
run() {
	local name=$1 lmc=$2 spines=$3 phase mads bound m want up out
	shift 3
	"$TOPOGEN" "$@" >"$TEST_TMP/$name.net"
	mad_run "$name" "$TEST_TMP/$name.net" --engine turnadd --lmc "$lmc" \
		--fail ft-spine1 --timeout 60
	m=$((1 << lmc))
	for phase in bringup failure restore; do
		phase_ok "$name" "$phase" turnadd
		up=$spines
		[[ $phase == failure ]] && up=$((spines - 1))
		want=$((m < up ? m : up))
		out=$TEST_TMP/$name-$phase.spread
		"$LFTCHECK" --lmc-spread-min "$m" \
			"$TEST_TMP/$name/$phase-topology.txt" \
			"$TEST_TMP/$name/$phase-lfts.txt" >"$out" 2>&1 ||
			{ cat "$out" >&2; fail "$name: lftcheck --lmc-spread-min $m after $phase"; }
		expect_line "$out" "^lmc_lids=$m .* lmc_spines_min=$want .*lmc_spread_short=0\$"
		expect_line "$out" '^hosts=[0-9]+ switches=[0-9]+ host_pairs=[0-9]+ unreachable_host_pairs=0 unreachable_host_to_switch=0$'
	done
	for phase in failure restore; do
		phase_mads "$name" "$phase"
		((mads <= bound)) ||
			fail "$name: $mads LFT MADs after $phase > bound $bound"
	done
}

run lmc1 1 4 fattree2 8 4 4
[[ $(field lmc1 failure bound) == 8 ]] || fail "lmc1: bound not 8"
run lmc2 2 6 fattree2 12 6 6
[[ $(field lmc2 failure bound) == 48 ]] || fail "lmc2: bound not 48"

# host_lids RUN PHASE: "GUID LID" of every host port, read back from
# the fabric (the phase's topology, as mad_count.sh discovered it)
host_lids() {
	sed -nE 's/^\[[0-9]+\]\(([0-9a-f]+)\).*# lid ([0-9]+) lmc .*/\1 \2/p' \
		"$TEST_TMP/$1/$2-topology.txt" | sort
}

# no_move NAME LMC PACE FAIL-PREFIX TOPOGEN-ARGS...: a director failure
# and restore on a 3-level tree with hosts absent, where the failure
# makes 2^LMC stop dividing the spines a leaf reaches (P 6 -> 5): tables
# OK, and no host port's LID moves during the failure (taking an old
# layout of one group a rank for the spine sets of the survivors would
# regroup it: 184 LFT MADs instead of 32 at LMC 1, ft-leaf0-h1 2 -> 90)
# nor after the restore.  PACE > 0: the director's switches are
# relinked PACE seconds apart (mad_count.sh --relink-pace), so sweeps
# see part of it back, leaves with P and P - 1 uplinks; then no port
# may move at any sweep either (the plugin's "M moved" log; regrouping
# into one group a rank there moves 69 host LIDs, 751 LFT MADs at the
# restore instead of 124, LMC 2)
no_move() {
	local name=$1 lmc=$2 pace=$3 prefix=$4 phase n moved
	local paced=()
	shift 4
	((pace > 0)) && paced=(--relink-pace "$pace")
	"$TOPOGEN" "$@" >"$TEST_TMP/$name.net"
	mad_run "$name" "$TEST_TMP/$name.net" --engine turnadd --lmc "$lmc" \
		--fail-prefix "$prefix" "${paced[@]}" --timeout 60
	host_lids "$name" bringup >"$TEST_TMP/$name-bringup.lids"
	n=$(wc -l <"$TEST_TMP/$name-bringup.lids")
	((n > 0)) || fail "$name: no host LID read back"
	for phase in bringup failure restore; do
		phase_ok "$name" "$phase" turnadd
		[[ $phase == bringup ]] && continue
		host_lids "$name" "$phase" >"$TEST_TMP/$name-$phase.lids"
		moved=$(join "$TEST_TMP/$name-bringup.lids" \
			"$TEST_TMP/$name-$phase.lids" | awk '$2 != $3' |
			wc -l)
		printf '%s: %s: %d of %d host LIDs moved\n' "$name" "$phase" \
			"$moved" "$n"
		((moved == 0)) || {
			join "$TEST_TMP/$name-bringup.lids" \
				"$TEST_TMP/$name-$phase.lids" |
				awk '$2 != $3' | head -n 5 >&2
			fail "$name: $moved host LIDs moved at $phase"
		}
	done
	((pace > 0)) || return 0
	# every sweep of the plugin: "..., K kept, P placed, ..., M moved;"
	moved=$(sed -nE 's/.*port-major LIDs: .* ([0-9]+) moved;.*/\1/p' \
		"$TEST_TMP/$name/opensm.log" | paste -sd ' ')
	n=$(wc -w <<<"$moved")
	printf '%s: ports moved at each of %d sweeps: %s\n' "$name" "$n" \
		"$moved"
	((n >= 4)) || fail "$name: only $n port-major LID sweeps logged"
	[[ -z $(tr -d ' 0' <<<"$moved") ]] ||
		fail "$name: ports moved at a sweep: $moved"
}

no_move abs1 1 0 dir2- --absent 0.15 --seed 5 fattree3 6 4 2 4 6
no_move abs2 2 0 dir2- --absent 0.15 --seed 5 fattree3 6 4 2 4 6
no_move abs2p 2 1 dir2- --absent 0.15 --seed 5 fattree3 6 4 2 4 6

# the checker can fail: on ft-leaf0, send the second LID of a host on
# ft-leaf3 through the spine of its first LID
topo=$TEST_TMP/lmc1/bringup-topology.txt lfts=$TEST_TMP/lmc1/bringup-lfts.txt
b=$(sed -nE 's/^\[[0-9]+\]\([0-9a-f]+\).*# lid ([0-9]+) lmc 1 "ft-leaf3" .*/\1/p' "$topo" | head -n 1)
[[ -n $b ]] || fail "no host port on ft-leaf3"
p0=$(lft_port "$lfts" ft-leaf0 "$b")
p1=$(lft_port "$lfts" ft-leaf0 $((b + 1)))
[[ -n $p0 && -n $p1 && $p0 != "$p1" ]] ||
	fail "ft-leaf0: LIDs $b and $((b + 1)) not on two ports ($p0, $p1)"
lft_set "$lfts" ft-leaf0 $((b + 1)) "$p0" >"$TEST_TMP/same.lfts"
status=0
"$LFTCHECK" --lmc-spread-min 2 "$topo" "$TEST_TMP/same.lfts" \
	>"$TEST_TMP/same.out" 2>&1 || status=$?
expect_status 1 "$status" "lftcheck --lmc-spread-min 2 (two LIDs on one spine)"
expect_line "$TEST_TMP/same.out" '^lmc_lids=2 .* lmc_spines_min=1 .*lmc_spread_short=1$'
expect_line "$TEST_TMP/same.out" '^verdict=FAIL$'
echo "$test_name: PASS"
