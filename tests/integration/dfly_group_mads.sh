#!/bin/bash
# SPDX-License-Identifier: MIT
# Group-major LIDs on a Dragonfly+ and a dragonfly under real OpenSM
# with turnadd on ibsim (lid_assign/README, "Group-major LIDs on
# Dragonfly+", "Group-major LIDs on dragonflies").  topogen dfplus 6 4 4
# 4 (6 groups of 4 leaves x 4 spines, 4 hosts a leaf: 144 LIDs, groups
# of 24 over 3 blocks) and dragonfly 6 3 3 19 (19 groups of 6 routers,
# 3 hosts each: 456 LIDs).  Asserted:
#  - the log names the group-major layout (Dragonfly+ / dragonfly);
#  - the LIDs of every group, read back with ibnetdiscover, are one
#    range holding no LID of another group;
#  - after a spine failure and a global cable failure (mad_count.sh
#    --bound paths): every pair reachable, CDG acyclic (lftcheck on the
#    tables read back), turnadd routed, no more LFT MADs than a stated
#    factor times the bound (the blocks whose bring-up entries lead
#    straight into the failed part; factors below), and no more than
#    the blocks of every bring-up route that crosses the failed part
#    (lftcheck --through: the routes that must move);
#  - the restore writes the bring-up tables back (read back, equal);
#  - with failure_routes nexthop the spine and cable failures send
#    fewer LFT MADs than minimal change, every pair still reachable
#    and the CDG acyclic;
#  - lid_layout port-major in turnadd.conf keeps the Dragonfly+
#    port-major (log line).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
make_tmpdir
# failure_routes minimal: the routing core's least change after a
# failure (its default, compared, takes a routing from scratch on these
# small shapes, which rewrites nearly every block whatever the LIDs);
# what is left to judge is the layout.  DFLY_LAYOUT (default auto) sets
# lid_layout, e.g. port-major to see the test fail.
printf 'failure_routes minimal\nlid_layout %s\n' "${DFLY_LAYOUT:-auto}" \
	>"$TEST_TMP/turnadd.conf"
export TURNADD_CONFIG=$TEST_TMP/turnadd.conf

# run NAME NETFILE FAIL...: mad_count.sh with the paths bound
run() {
	local name=$1 net=$2 status=0
	shift 2
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" \
		--engine turnadd "$@" --bound paths --rows 0 --timeout 30 \
		--out "$TEST_TMP/$name" >"$TEST_TMP/$name.txt" 2>&1 ||
		status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "mad_count.sh $name"
}

# group_ranges DIR PREFIX: every group's LIDs (switches and hosts of the
# names PREFIX<g>-...) in the bring-up topology lie in one range with
# no LID of another group
group_ranges() {
	awk -v pfx="$2" '
		match($0, /# "[^"]*"( base port 0)? lid [0-9]+/) {
			s = substr($0, RSTART, RLENGTH)
			split(s, f, "\"")
			name = f[2]
			n = split(s, w, " ")
			lid = w[n]
			if (index(name, pfx) != 1 || seen[lid]++)
				next
			g = substr(name, length(pfx) + 1)
			sub(/-.*/, "", g)
			grp[lid] = g
			if (!(g in lo) || lid < lo[g]) lo[g] = lid
			if (!(g in hi) || lid > hi[g]) hi[g] = lid
		}
		END {
			for (l in grp)
				for (g in lo)
					if (g != grp[l] && l + 0 >= lo[g] && l + 0 <= hi[g]) {
						printf "LID %d (group %s) inside group %s range %d-%d\n", l, grp[l], g, lo[g], hi[g]
						bad = 1
					}
			ng = 0
			for (g in lo) ng++
			printf "%d groups, %d LIDs\n", ng, length(grp)
			exit bad
		}' "$1/bringup-topology.txt" ||
		fail "$(basename "$1"): a group's LIDs are not one range"
}

# Measured (this machine; MADs / bound, failure and restore; port-major
# for comparison, its bound from its own bring-up tables):
#   dfplus 6 4 4 4, dfp3-spine0:            40 / 17, 43 / 20
#                                (port-major 54 / 24, 58 / 28)
#   the same, cable dfp3-spine0 - dfp4-spine0: 35 / 5, 35 / 5
#                                (port-major 46 / 8, 46 / 8)
#   dragonfly 6 3 3 19, router df3-s0:      118 / 21, 126 / 29
#                                (port-major 191 / 41, 200 / 50)
# The bound counts the entries whose next hop is the failed part; the
# minimal reroute also moves routes that cross it further on and, for a
# cable, the turn-restricted routes around it on the groups' other
# switches, hence the factors: 3 for a spine, 8 for a global cable, 6
# for a router.  A routing from scratch after the failure (every block
# of most switches: dfplus 6 4 4 2 with failure_routes compared, 91 /
# 12) fails them.

# check_phases NAME FACTOR: the failure and restore phases of run NAME
check_phases() {
	local name=$1 factor=$2 phase mads bound through
	for phase in failure restore; do
		[[ $(mad_field "$TEST_TMP/$name" "$phase" configured_by) == turnadd ]] ||
			fail "$name: OpenSM fell back after the $phase"
		expect_line "$TEST_TMP/$name/$phase-check.out" \
			' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
		expect_line "$TEST_TMP/$name/$phase-check.out" '^cdg.* cdg=acyclic$'
		mads=$(mad_field "$TEST_TMP/$name" "$phase" lft_mads)
		bound=$(mad_field "$TEST_TMP/$name" "$phase" bound)
		printf '%s %s: %d LFT MADs, bound %d\n' "$name" "$phase" \
			"$mads" "$bound"
		((mads <= bound * factor)) ||
			fail "$name $phase: $mads LFT MADs > $factor x bound $bound"
	done
	through=$(mad_field "$TEST_TMP/$name" failure through_blocks)
	[[ $through =~ ^[0-9]+$ ]] || fail "$name: no through_blocks from lftcheck"
	mads=$(mad_field "$TEST_TMP/$name" failure lft_mads)
	printf '%s failure: %d LFT MADs, routes crossing the failed part in %d blocks\n' \
		"$name" "$mads" "$through"
	((mads <= through)) ||
		fail "$name failure: $mads LFT MADs > the $through blocks of the routes that cross the failed part"
	cmp -s "$TEST_TMP/$name/bringup-lfts.txt" \
		"$TEST_TMP/$name/restore-lfts.txt" ||
		fail "$name: the tables after the restore differ from bring-up's"
}

dfp=$TEST_TMP/dfp.net
"$TOPOGEN" dfplus 6 4 4 4 >"$dfp"
# the global cable of dfp3-spine0: its first peer in another group
peer=$(awk '/^Switch/ { on = ($NF == "\"dfp3-spine0\""); next }
	on && match($0, /"dfp[0-9]+-spine[0-9]+"/) {
		p = substr($0, RSTART + 1, RLENGTH - 2)
		if (index(p, "dfp3-") != 1) { print p; exit }
	}' "$dfp")
[[ -n $peer ]] || fail "no global cable of dfp3-spine0 in $dfp"

run spine "$dfp" --fail dfp3-spine0
expect_line "$TEST_TMP/spine/opensm.log" \
	'turnadd: LID layout: group-major: Dragonfly\+ of 6 groups'
group_ranges "$TEST_TMP/spine" dfp
check_phases spine 3

run link "$dfp" --fail-link dfp3-spine0 "$peer"
check_phases link 8

# failure_routes nexthop: only the entries whose next hop went (and
# those the turn restrictions force behind them) change, so fewer LFT
# MADs than minimal change above (measured: spine 32 / 17, cable
# 23 / 5); every pair reachable, acyclic, the restore the bring-up's
printf 'failure_routes nexthop\nlid_layout %s\n' "${DFLY_LAYOUT:-auto}" \
	>"$TEST_TMP/turnadd.conf"
run nh-spine "$dfp" --fail dfp3-spine0
check_phases nh-spine 2
run nh-link "$dfp" --fail-link dfp3-spine0 "$peer"
check_phases nh-link 5
for kind in spine link; do
	nh=$(mad_field "$TEST_TMP/nh-$kind" failure lft_mads)
	mc=$(mad_field "$TEST_TMP/$kind" failure lft_mads)
	((nh < mc)) ||
		fail "$kind: failure_routes nexthop sent $nh LFT MADs, minimal change $mc"
done

# a classic dragonfly is group-major when asked (lid_layout group-major)
df=$TEST_TMP/df.net
"$TOPOGEN" dragonfly 6 3 3 19 >"$df"
printf 'failure_routes minimal\nlid_layout %s\n' \
	"${DFLY_LAYOUT:-group-major}" >"$TEST_TMP/turnadd.conf"
run router "$df" --fail df3-s0
expect_line "$TEST_TMP/router/opensm.log" \
	'turnadd: LID layout: group-major: dragonfly of 19 groups'
group_ranges "$TEST_TMP/router" df
check_phases router 6

printf 'lid_layout port-major\n' >"$TEST_TMP/turnadd.conf"
run asked "$dfp" --fail dfp3-spine0 --no-restore --no-check
expect_line "$TEST_TMP/asked/opensm.log" \
	'turnadd: LID layout: port-major: asked for \(layout port-major\)'
echo "$test_name: PASS"
