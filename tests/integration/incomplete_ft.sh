#!/bin/bash
# SPDX-License-Identifier: MIT
# Fat trees as clusters are: hosts absent at bring-up, oversubscribed
# leaves, parallel links.  Measured from outside the engine (LFT Sets
# counted in opensm's process by libmadcount.so, tables read back from
# ibsim and judged by lftcheck):
#  1. mad_count.sh on three small fabrics, turnadd: a spine failure and
#     its restore (a link failure on the parallel-link one) cost no more
#     LFT MADs than the bound, tables reachable and acyclic after each:
#       topogen --absent 0.3 --seed 2 fattree2 12 6 6   (30 % absent)
#       topogen --absent 0.25 --seed 1 fattree2 8 4 8   (2:1, absent)
#       topogen fattree2 8 3 6 2, link ft-leaf0 - ft-spine1
#  1b. on the 2:1 one (LMC 0, 4 groups of 2 ranks) a leaf loses one
#     uplink (--fail-link ft-leaf1 ft-spine2), so the leaves differ in
#     neighbour count for a while: no host LID moves at the failure or
#     the restore (read back from the fabric), the LFT MADs stay within
#     the blocks an up/down reroute must rewrite (mad_count.sh's link
#     bound, plus on every other leaf the blocks of the LIDs it sent to
#     the spine for the leaf), and the restore's throughput is bring-up's.
#  2. the absent hosts of the first arrive (ReLink) under a running
#     OpenSM: no LID of a present port changes, no LFT entry of another
#     destination changes, and OpenSM sends exactly one LFT Set per
#     (switch, 64-LID block) whose entries changed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_mad_count
madlib=$top_builddir/scripts/.libs/libmadcount.so
make_tmpdir
unset TURNADD_CONFIG

# field RUN PHASE COLUMN: a value of mad_count.sh's summary.csv
field() {
	mad_field "$TEST_TMP/$1" "$2" "$3"
}

# count NAME FAIL-OPTIONS... -- TOPOGEN-ARGS...
count() {
	local name=$1 fail_opts=() status=0
	shift
	while [[ $1 != -- ]]; do
		fail_opts+=("$1")
		shift
	done
	shift
	"$TOPOGEN" "$@" >"$TEST_TMP/$name.net"
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$TEST_TMP/$name.net" \
		--engine turnadd "${fail_opts[@]}" --rows 0 --timeout 30 \
		--out "$TEST_TMP/$name" >"$TEST_TMP/$name.txt" 2>&1 || status=$?
	sed -n "/^phase/,/^\$/s/^/$name: /p" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "mad_count.sh on $name"
	for phase in failure restore; do
		local mads bound
		[[ $(field "$name" "$phase" verdict) == OK ]] ||
			fail "$name: tables not OK after the $phase"
		mads=$(field "$name" "$phase" lft_mads)
		bound=$(field "$name" "$phase" bound)
		((mads > 0)) || fail "$name: no LFT MAD after the $phase"
		((mads <= bound)) ||
			fail "$name: $phase: $mads LFT MADs > bound $bound"
	done
}

count absent30 --fail ft-spine2 -- --absent 0.3 --seed 2 fattree2 12 6 6
count oversub --fail ft-spine1 -- --absent 0.25 --seed 1 fattree2 8 4 8
count parallel --fail-link ft-leaf0 ft-spine1 -- fattree2 8 3 6 2

# 1b. A leaf's uplink down on the 2:1 fabric.  Before lid_assign kept
# the grouping of a fabric that lost its period (lid_assign/README, "no
# period for a while"), this regrouped into 8 groups: 23 of 60 LIDs
# moved, 59 LFT MADs, and the restore kept the 8 groups.
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "$0")/lid_lib.sh"
status=0
"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
	--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$TEST_TMP/oversub.net" \
	--engine turnadd --fail-link ft-leaf1 ft-spine2 --rows 0 --timeout 30 \
	--out "$TEST_TMP/uplink" >"$TEST_TMP/uplink.txt" 2>&1 || status=$?
sed -n '/^phase/,/^$/s/^/uplink: /p' "$TEST_TMP/uplink.txt"
expect_status 0 "$status" "mad_count.sh on the uplink failure"
for phase in bringup failure restore; do
	lid_extract "$TEST_TMP/uplink/$phase-topology.txt" |
		awk '$1 == "H" { print $5, $4 }' | sort >"$TEST_TMP/uplink-$phase.hosts"
done
(($(wc -l <"$TEST_TMP/uplink-bringup.hosts") > 40)) ||
	fail "uplink: too few host LIDs read back"
for phase in failure restore; do
	moved=$(join "$TEST_TMP/uplink-bringup.hosts" \
		"$TEST_TMP/uplink-$phase.hosts" | awk '$2 != $3' | head -n 3)
	[[ -z $moved ]] ||
		fail "uplink: host LIDs moved at the $phase (GUID old new): $moved"
done
# at every switch but the link's ends, the blocks of the LIDs ft-spine2
# sent over the link that the switch sent to ft-spine2 (they must climb
# through another spine)
reroute=$(awk -F'"' '
	FNR == NR {
		if (/^Switch/) { sw = $2; next }
		if (/^[A-Za-z]/) { sw = ""; next }
		if (sw != "" && $2 == "ft-spine2" && /^\[/) {
			p = $1; sub(/^\[/, "", p); sub(/\].*/, "", p)
			up[sw, p + 0] = 1
			if (sw == "ft-leaf1" && !bp) {
				bp = $3; sub(/^\[/, "", bp); sub(/\].*/, "", bp)
			}
		}
		next
	}
	FNR == 1 { pass++ }
	/^Unicast lids/ { sw = $0; sub(/.*\(/, "", sw); sub(/\).*/, "", sw); next }
	pass == 1 && sw == "ft-spine2" && /^0x/ {
		split($0, f, " ")
		if (f[2] + 0 == bp) over[f[1]] = 1
		next
	}
	pass == 2 && /^0x/ && sw != "ft-leaf1" && sw != "ft-spine2" {
		split($0, f, " ")
		if (!(f[1] in over) || !((sw, f[2] + 0) in up)) next
		h = tolower(substr(f[1], 3)); lid = 0
		for (i = 1; i <= length(h); i++)
			lid = lid * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		blk[sw, int(lid / 64)] = 1
	}
	END { for (k in blk) n++; print n + 0 }' "$TEST_TMP/oversub.net" \
	"$TEST_TMP/uplink/bringup-lfts.txt" "$TEST_TMP/uplink/bringup-lfts.txt")
for phase in failure restore; do
	[[ $(field uplink "$phase" verdict) == OK ]] ||
		fail "uplink: tables not OK after the $phase"
	mads=$(field uplink "$phase" lft_mads)
	bound=$(($(field uplink "$phase" bound) + reroute))
	printf 'uplink: %s: %d LFT MADs, bound %d (link %d + other leaves %d)\n' \
		"$phase" "$mads" "$bound" "$(field uplink "$phase" bound)" "$reroute"
	((mads > 0)) || fail "uplink: no LFT MAD after the $phase"
	((mads <= bound)) ||
		fail "uplink: $phase: $mads LFT MADs > bound $bound"
done
[[ $(field uplink restore throughput) == $(field uplink bringup throughput) ]] ||
	fail "uplink: throughput after the restore $(field uplink restore throughput), at bring-up $(field uplink bringup throughput)"

# 2. arrivals: the full fabric, the absent hosts unlinked before OpenSM
# starts and relinked after bring-up
net=$TEST_TMP/full.net
"$TOPOGEN" fattree2 12 6 6 >"$net"
mapfile -t absent < <(grep -o '^Hca.*' "$net" | cut -d'"' -f2 | sort >"$TEST_TMP/all" &&
	grep -o '^Hca.*' "$TEST_TMP/absent30.net" | cut -d'"' -f2 | sort |
	comm -23 "$TEST_TMP/all" -)
((${#absent[@]} > 10)) || fail "expected some absent hosts, got ${#absent[@]}"

fab_init
trap 'fab_cleanup; rm -rf -- "$TEST_TMP"' EXIT
FAB_OSM_PRELOAD=$madlib
FAB_OSM_ENV=("MADCOUNT_LOG=$FAB_DIR/madcount.log")
: >"$FAB_DIR/madcount.log"
fab_start_ibsim "$net"
for h in "${absent[@]}"; do
	fab_console "Unlink \"$h\""
done
fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR"
fab_wait_subnet_up 30
fab_engine_used turnadd || fail "turnadd did not route"
sleep 2
fab_read_back "$top_builddir/scripts/lftread" 30
cp "$FAB_DIR/topology.txt" "$TEST_TMP/before.topo"
cp "$FAB_DIR/lfts.txt" "$TEST_TMP/before.lfts"
sets0=$(wc -l <"$FAB_DIR/madcount.log")

n=$(fab_count_up)
for h in "${absent[@]}"; do
	fab_console "ReLink \"$h\""
done
fab_wait_resweep "$n" 20
sleep 3
fab_engine_used turnadd || fail "turnadd did not route after the arrivals"
fab_read_back "$top_builddir/scripts/lftread" 30
cp "$FAB_DIR/topology.txt" "$TEST_TMP/after.topo"
cp "$FAB_DIR/lfts.txt" "$TEST_TMP/after.lfts"
sets=$(($(wc -l <"$FAB_DIR/madcount.log") - sets0))
"$LFTCHECK" "$TEST_TMP/after.topo" "$TEST_TMP/after.lfts" \
	>"$TEST_TMP/after.check" 2>&1 ||
	fail "tables after the arrivals: $(tail -n 3 "$TEST_TMP/after.check")"

lid_extract "$TEST_TMP/before.topo" >"$TEST_TMP/before.ext"
lid_extract "$TEST_TMP/after.topo" >"$TEST_TMP/after.ext"
lid_pairs "$TEST_TMP/before.ext" >"$TEST_TMP/before.lids"
lid_pairs "$TEST_TMP/after.ext" >"$TEST_TMP/after.lids"
moved=$(join "$TEST_TMP/before.lids" "$TEST_TMP/after.lids" |
	awk '$2 != $3' | head -n 3)
[[ -z $moved ]] || fail "LIDs of present ports changed (GUID old new): $moved"
new_lids=$(join -v 2 "$TEST_TMP/before.lids" "$TEST_TMP/after.lids" |
	awk '{ print $2 }' | sort -n | tr '\n' ' ')
[[ $(wc -w <<<"$new_lids") == "${#absent[@]}" ]] ||
	fail "expected ${#absent[@]} new LIDs, got: $new_lids"

# "switch lid port" of every LFT entry
entries() {
	awk '/^Unicast lids/ { sw = $NF; next }
		/^0x/ { print sw, $1, $2 }' "$1" | sort
}
entries "$TEST_TMP/before.lfts" >"$TEST_TMP/before.ent"
entries "$TEST_TMP/after.lfts" >"$TEST_TMP/after.ent"
# changed or new entries: "switch lid"
comm -13 "$TEST_TMP/before.ent" "$TEST_TMP/after.ent" | cut -d' ' -f1,2 |
	sort -u >"$TEST_TMP/changed"
others=$(awk -v new="$new_lids" '
	BEGIN { n = split(new, a, " "); for (i = 1; i <= n; i++) isnew[a[i]] = 1 }
	{
		h = tolower(substr($2, 3)); lid = 0
		for (i = 1; i <= length(h); i++)
			lid = lid * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		if (!(lid in isnew)) print
	}' "$TEST_TMP/changed" | head -n 3)
[[ -z $others ]] ||
	fail "entries of destinations present before changed: $others"
blocks=$(awk '{
		h = tolower(substr($2, 3)); lid = 0
		for (i = 1; i <= length(h); i++)
			lid = lid * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		print $1, int(lid / 64)
	}' "$TEST_TMP/changed" | sort -u | wc -l)
printf 'arrivals: %d hosts, new LIDs %s\n' "${#absent[@]}" "$new_lids"
printf 'arrivals: %d entries changed, all of the new LIDs, in %d (switch, block) pairs; %d LFT Sets\n' \
	"$(wc -l <"$TEST_TMP/changed")" "$blocks" "$sets"
((blocks > 0)) || fail "no LFT entry for the new hosts"
((sets == blocks)) ||
	fail "$sets LFT Sets for $blocks changed (switch, block) pairs"
fab_cleanup
echo "$test_name: PASS"
