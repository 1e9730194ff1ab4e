#!/bin/bash
# SPDX-License-Identifier: MIT
#
# mutate.sh: the mutation run.  Applies single-line mutations of the
# routing core, the LID order and the OpenSM adapter, one at a time, to a
# temporary copy of the source tree, rebuilds there, runs the tests that
# should catch each one (make check TESTS=...), and prints whether they
# did (killed) or not (SURVIVED).  The tree you run it from is never
# written to: the copy (git's tracked and untracked, not ignored, files,
# so uncommitted edits are included) lives in a temp dir removed at exit,
# also when interrupted.  Not part of make check; the full list takes
# about 20-30 minutes on 2 cores.
#
#   scripts/mutate.sh [options]
#
# Options:
#   --list           print the mutations (id, file, tests) and exit
#   --only IDS       run only these mutations (comma-separated ids)
#   --jobs N         make -j N (default 2)
#   --timeout SECS   bound for one mutation's tests (default 1200; a run
#                    that hits it counts as killed: the tests did not pass)
#   --no-baseline    skip the first run of every listed test on the
#                    unmutated copy (which must pass, or a kill means
#                    nothing)
#   --keep           keep the temp dir (printed at the end)
#
# Each mutation replaces one exact string, which must occur exactly once
# in its file ("\t" and "\n" in it stand for a tab and a newline); when
# the code has changed so that it no longer does, the mutation is
# reported "stale" and needs updating here.  A mutation that no longer
# compiles is reported "nobuild".  Exit status: 0 if every mutation was
# killed, 1 if one survived, was stale or did not build, 2 on bad usage,
# 3 if the copy could not be built or the baseline failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)

# The mutations: blocks of "key: value" lines, a blank line between.
#   id     short name;  file  path in the source tree
#   from   the exact text replaced;  to  its replacement
#   tests  what make check runs (TESTS=...)
#   what   what the mutation breaks (one line)
mutations() {
	cat <<'EOF'
id: traffic-weights-ignored
file: plugin/core/ta_flow.c
from: ta_traffic_weight(tr, gs, gd);
to: 1.0;
tests: tests/unit/test_balance tests/integration/ft3join_turnadd.sh
what: the traffic estimate weighs every host pair alike, whatever the traffic file says

id: traffic-one-direction
file: plugin/core/ta_traffic.c
from: t->w[(size_t)b * n + (size_t)a] = wls[i].v;
to: (void)0;
tests: tests/unit/test_ft3join_traffic tests/unit/test_balance
what: a weight line sets the weight of one direction only

id: traffic-default-weight
file: plugin/core/ta_traffic.c
from: t->w[i] = t->default_weight;
to: t->w[i] = 1.0;
tests: tests/unit/test_parsers tests/unit/test_parse_errors tests/unit/test_ft3join_traffic
what: default_weight is ignored (every pair no weight line covers gets 1.0)

id: no-spreading
file: plugin/core/ta_intree.c
from: return (q + (t->leaf_rot && t->has_host[s] ? t->leaf_rot[s] : 0)) %\n\t       peers;
to: return 0 * (q + peers);
tests: tests/unit/test_balance tests/integration/turnadd_fattree.sh
what: the route choice always takes the lowest-numbered equal neighbour

id: no-parallel-spreading
file: plugin/core/ta_intree.c
from: c = first + (q / peers) % (end - first);
to: c = first;
tests: tests/unit/test_balance tests/integration/turnadd_fattree.sh
what: of parallel links to the chosen neighbour, always the first

id: home-ignored
file: plugin/core/ta_intree.c
from: if (g->sw[v].ends[cand[c]].port == home)
to: if (0)
tests: tests/unit/test_reroute tests/integration/reroute_mads.sh
what: a resweep forgets each switch's home port (routes move needlessly)

id: reverse-turn-unchecked
file: plugin/core/ta_cdg.c
from: goto prohibit;\t/* dropping an edge keeps the order valid */
to: ;\t/* dropping an edge keeps the order valid */
tests: tests/unit/test_cdg tests/unit/test_fig18 tests/integration/turnadd_ring.sh
what: of a turn pair, the second direction is allowed without a cycle check

id: weights-not-ordering
file: plugin/core/ta_turnadd.c
from: p->wq = quantise(
to: p->wq = 0 * quantise(
tests: tests/unit/test_fig18 tests/unit/test_balance
what: turn pairs are not decided heaviest first

id: escape-turns-not-allowed
file: plugin/core/ta_escape.c
from: ta_cdg_allow(c, s, i, j);
to: (void)0;
tests: tests/unit/test_properties tests/unit/test_turnprohib
what: the escape tree's turns are not allowed before turn addition

id: turn-decisions-not-carried
file: plugin/core/ta_engine.c
from: kept = j->o->mode == TA_MODE_TURN_ADDITION ? carry_turns(j) : 0;
to: kept = 0;
tests: tests/unit/test_reroute tests/integration/reroute_mads.sh
what: a resweep decides every turn afresh instead of keeping the prior's

id: lid-group-by-port
file: lid_assign/lid_groups.c
from: p->rank = p->sw_port - 1u;\n\t\t\tp->group = p->rank % w->rank_groups;
to: p->rank = p->sw_port - 1u;\n\t\t\tp->group = 0;
tests: tests/unit/test_lid_order tests/integration/lid_order.sh
what: hosts are not grouped by their switch port (no port-major order)

id: lmc-spread-unscaled
file: plugin/core/ta_engine.c
from: spread[d] += (x->port ? x->port - 1u : x->sw) * m;
to: spread[d] += (x->port ? x->port - 1u : x->sw) + 0 * m;
tests: tests/unit/test_lmc_layout tests/integration/lmc_reroute.sh
what: with LMC a port's extra LIDs take the next ranks' spines (the old spread): a spine's LIDs scatter over the groups

id: lids-not-written
file: plugin/lid_sweep.c
from: osm_db_guid2lid_set(mgr->p_g2l, p->guid, p->lid, nhi);
to: (void)nhi;
tests: tests/integration/lid_order.sh
what: the adapter never hands the port-major LIDs to OpenSM's LID manager

id: need-update-kept
file: plugin/lft_write.c
from: sw->need_update = 0;\n\t\t\tst->tables_trusted++;
to: st->tables_trusted++;
tests: tests/integration/host_port_down.sh tests/integration/reroute_mads.sh
what: switches that saw a port change get their whole LFT again

id: lft-read-not-trusted
file: plugin/lft_read.c
from: sw->need_update = 0;\n\t\ttrusted++;
to: trusted++;
tests: tests/integration/restart_lfts.sh tests/integration/standby_takeover.sh
what: after reading the switches' LFTs a restart still rewrites every table

id: hops-off-by-one
file: plugin/hop_tables.c
from: h = dk + 1;
to: h = dk + 2;
tests: tests/integration/hop_tables.sh
what: the min-hop tables the plugin fills for OpenSM count one hop too many

# ---- multicast ----
id: mcast-turns-ignored
file: plugin/core/ta_mcast.c
from: return st[ta_turn(g, s, i, j)] == TA_TURN_ALLOWED &&
to: return true || st[ta_turn(g, s, i, j)] == TA_TURN_ALLOWED &&
tests: tests/unit/test_mcast tests/integration/mcast_trees.sh
what: multicast trees turn where unicast may not (prohibited turns ignored)

id: mcast-member-left-out
file: plugin/mcast_trees.c
from: if (members_add(m, (uint32_t)s, pn))
to: if (m->n && members_add(m, (uint32_t)s, pn))
tests: tests/integration/mcast_trees.sh
what: the first member port of every group is left out of its tree

# ---- end of multicast ----

id: settling-kept
file: plugin/core/ta_saved.c
from: return ss && ss->settling && grew ? NULL : ss;
to: return ss;
tests: tests/unit/test_saved_rows tests/integration/fabric_growth.sh
what: a switch back while its director is still incomplete keeps the routes it chose then

id: settling-turns-kept
file: plugin/core/ta_saved.c
from: fresh[s] = ss && !routes_of(ss, grew);
to: fresh[s] = 0;
tests: tests/unit/test_saved_rows
what: while switches join, the turns at a settling switch keep their decisions

id: new-capacity-ignored
file: plugin/core/ta_saved.c
from: pb->prior.switches_new = switches_new(sv, g);
to: pb->prior.switches_new = 0;
tests: tests/unit/test_saved_rows tests/integration/fabric_growth.sh
what: a switch never routed before leaves every other route in place (added capacity idle)

id: chunk-rotation-off
file: plugin/core/ta_intree.c
from: return (q + (t->leaf_rot && t->has_host[s] ? t->leaf_rot[s] : 0)) %
to: return (q + 0) %
tests: tests/integration/fabric_growth.sh
what: every leaf sends chunk c through the same director c (two of a leaf's hosts behind one down-link)

id: chunk-digit-shared-factor
file: plugin/core/ta_period.c
from: spread[d] = c + period * (rank - r0 + x->sw);
to: spread[d] = c + period * (rank - r0 + 3 * x->sw);
tests: tests/integration/fabric_growth.sh
what: the digit above the leaves shares a factor with the fabric switches (line switches use one of 3)

id: balance-off
file: plugin/core/ta_engine.c
from: if (!not_tree_like(g) ||
to: if (1 ||
tests: tests/unit/test_balance
what: on fabrics that are not tree-like equal next hops go by index, not load

id: period-lost-regroups
file: lid_assign/lid_order.c
from: keep = la_period_lost(in);
to: keep = false;
tests: tests/unit/test_lmc_layout tests/integration/lmc_reroute.sh
what: a fabric whose leaves lost uplinks for a while is laid out anew (host LIDs move)

id: bare-switches-spread
file: lid_assign/lid_groups.c
from: w->bare_apart = c1 < c0 ||
to: w->bare_apart = (c1 < c0 && 0) ||
tests: tests/unit/test_chunk_layout tests/integration/chunk_mads3.sh
what: with LMC 0 the switches without hosts always fill the rank groups (a 6th block a director)

id: least-cost-load-ignored
file: plugin/core/ta_intree_weighted.c
from: return 1.0 + LOAD_SCALE * x3 * x3 +
to: return 1.0 + 0 * x3 * x3 +
tests: tests/unit/test_balance
what: on fabrics that are not tree-like, the least-cost paths ignore the load of the routes made before

id: least-cost-turns-ignored
file: plugin/core/ta_intree_weighted.c
from: t->seen[v] == UINT32_MAX ||\n\t\t\t    (o != TA_OUT_DELIVER &&
to: t->seen[v] == UINT32_MAX ||\n\t\t\t    (0 &&
tests: tests/unit/test_properties
what: a least-cost tree joins switches through turns that are not allowed

id: least-cost-same-ignored
file: plugin/core/ta_intree_weighted.c
from: cnt = ch->same[g->sw[u].ends[e].out_chan];
to: cnt = 0;
tests: tests/unit/test_balance
what: among near-equal costs a switch no longer keeps its destination switch's destinations apart

id: balance-second-pass-off
file: plugin/core/ta_engine.c
from: for (k = 0; !err && bused && k < BAL_PASSES; k++)
to: for (k = 0; !err && bused && k < BAL_PASSES && 0; k++)
tests: tests/unit/test_balance
what: no rip-up and reroute after the first least-cost routes

id: minor-least-cost-off
file: plugin/core/ta_engine.c
from: if (!(j->minor_unit > 0))\n\t\treturn;
to: if (!(j->minor_unit > 0) || 1)\n\t\treturn;
tests: tests/unit/test_minor_roots
what: the minor traffic's second pass keeps the shortest paths only

id: minor-least-cost-kept-when-worse
file: plugin/core/ta_engine.c
from: !(minor_peak(j, t, group) < before * (1 - 1e-9)))
to: (minor_peak(j, t, group) < before * (1 - 1e-9)))
tests: tests/unit/test_minor_roots
what: the minor traffic's least-cost tree is kept where it loads more

id: perm-rule-inverted
file: plugin/core/ta_engine.c
from: 	       first->perm < tp->perm * (1 - 1e-9);
to: 	       first->perm > tp->perm * (1 + 1e-9);
tests: tests/unit/test_tp_candidate
what: turn addition's own turns are dropped where their routes do better under permutations

id: cut-tree-off
file: plugin/core/ta_engine.c
from: 	if (!(best->minor > 0))\n\t\treturn 0;\n\tst.traffic_estimated = 1;\n\tr = run_rooted
to: 	if (best->minor > 0)\n\t\treturn 0;\n\tst.traffic_estimated = 1;\n\tr = run_rooted
tests: tests/unit/test_minor_roots
what: the escape tree through every link between the traffic groups is never tried

id: cut-tree-down-and-up
file: plugin/core/ta_cut_tree.c
from: 	if (c->above[p] &&
to: 	if (0 && c->above[p] &&
tests: tests/unit/test_cut_tree tests/unit/test_minor_roots
what: far switches may get two tree neighbours above them (down-and-up tree turns on the far side)

id: cut-tree-classes-held-twice
file: plugin/core/ta_cut_tree.c
from: 	return !c->hung[p] || h == UINT32_MAX || h == p;
to: 	return 1;
tests: tests/unit/test_cut_tree tests/integration/ft3join_turnadd.sh
what: two cut ends may hold switches of one class (a cycle through the near side on the trees' own turns)

id: cut-tree-ends-not-hung
file: plugin/core/ta_cut_tree.c
from: 			if (!c->far[p] && c->in[p]) {
to: 			if (!c->far[p] && c->in[p] && 0) {
tests: tests/unit/test_cut_tree tests/unit/test_minor_roots
what: the far side is reached through one cut link only, not hung from every one

id: tree-like-everywhere
file: plugin/core/ta_engine.c
from: 	return at && 2 * to > at;
to: 	return at && to == at;
tests: tests/unit/test_balance
what: a random net with some switches without hosts counts as tree-like (index rule, no least-cost paths)
EOF
}

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

only='' jobs=2 timeout_s=1200 baseline=1 keep=0 list=0
while (($#)); do
	case $1 in
	--list) list=1 ;;
	--only) only=${2:?}; shift ;;
	--jobs) jobs=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--no-baseline) baseline=0 ;;
	--keep) keep=1 ;;
	-h | --help) usage ;;
	*) printf 'mutate: unknown option %s\n' "$1" >&2; usage ;;
	esac
	shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "mutate: bad --jobs '$jobs'" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] ||
	{ echo "mutate: bad --timeout '$timeout_s'" >&2; exit 2; }

# parse the list into arrays
ids=() files=() froms=() tos=() testss=() whats=()
parse() {
	local line key val id='' file='' from='' to='' tests='' what=''
	flush() {
		[[ -n $id ]] || return 0
		[[ -n $file && -n $from && -n $tests ]] ||
			{ echo "mutate: mutation '$id' incomplete" >&2; exit 2; }
		ids+=("$id") files+=("$file") froms+=("$from") tos+=("$to")
		testss+=("$tests") whats+=("$what")
		id='' file='' from='' to='' tests='' what=''
	}
	while IFS= read -r line; do
		[[ $line == '#'* ]] && continue
		if [[ -z $line ]]; then
			flush
			continue
		fi
		key=${line%%: *} val=${line#*: }
		case $key in
		id) id=$val ;; file) file=$val ;; from) from=$val ;;
		to) to=$val ;; tests) tests=$val ;; what) what=$val ;;
		*) echo "mutate: bad line '$line'" >&2; exit 2 ;;
		esac
	done < <(mutations)
	flush
}
parse

if ((list)); then
	for k in "${!ids[@]}"; do
		printf '%-28s %-32s %s\n    %s\n' "${ids[k]}" "${files[k]}" \
			"${testss[k]}" "${whats[k]}"
	done
	exit 0
fi

selected=()
for k in "${!ids[@]}"; do
	if [[ -z $only || ,$only, == *,"${ids[k]}",* ]]; then
		selected+=("$k")
	fi
done
if [[ -n $only ]]; then
	for i in ${only//,/ }; do
		found=0
		for k in "${!ids[@]}"; do
			[[ ${ids[k]} == "$i" ]] && found=1
		done
		((found)) || { echo "mutate: no mutation '$i' (see --list)" >&2; exit 2; }
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX")
# shellcheck disable=SC2317 # called from the traps
cleanup() {
	if ((keep)); then
		echo "mutate: kept $work"
	else
		rm -rf -- "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
copy=$work/src
mkdir -p "$copy" "$work/logs"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# the copy: tracked and untracked files, not what .gitignore ignores
log "copying $src to $copy"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z -c -o --exclude-standard |
		tar --null -T - -cf -) | tar -C "$copy" -xf -
else
	tar -C "$src" --exclude=./_build --exclude=./_build_san -cf - . |
		tar -C "$copy" -xf -
fi
mkdir -p "$copy/.pristine"

log "building the copy (autoreconf, configure, make -j$jobs)"
if ! (cd "$copy" && autoreconf -fi && mkdir -p _build && cd _build &&
	../configure && make -j"$jobs") >"$work/logs/build.log" 2>&1; then
	tail -n 30 "$work/logs/build.log" >&2
	echo "mutate: the unmutated copy does not build" >&2
	exit 3
fi

# run_tests LOGNAME "TEST...": 0 if they all passed
run_tests() {
	(cd "$copy/_build" && timeout "$timeout_s" make -j"$jobs" check \
		TESTS="$2") >"$work/logs/$1.log" 2>&1
}

if ((baseline)); then
	all=()
	for k in "${selected[@]}"; do
		for t in ${testss[k]}; do
			[[ " ${all[*]-} " == *" $t "* ]] || all+=("$t")
		done
	done
	log "baseline: ${#all[@]} tests on the unmutated copy"
	if ! run_tests baseline "${all[*]}"; then
		grep -E '^(FAIL|ERROR)' "$work/logs/baseline.log" >&2 || true
		echo "mutate: tests fail without any mutation; fix them first" >&2
		exit 3
	fi
fi

# apply FILE FROM TO: replaces the one occurrence; 1 if not exactly one
apply() {
	MUT_FROM=$(printf '%b' "$2") MUT_TO=$(printf '%b' "$3") perl -0777 -i -pe '
		my $n = () = /\Q$ENV{MUT_FROM}\E/g;
		exit 1 if $n != 1;
		s/\Q$ENV{MUT_FROM}\E/$ENV{MUT_TO}/;' "$1"
}

killed=0 survived=0 stale=0 nobuild=0 results=()
for k in "${selected[@]}"; do
	id=${ids[k]} f=$copy/${files[k]}
	log "$id: ${files[k]}: ${whats[k]}"
	if [[ ! -f $f ]]; then
		verdict=stale
	else
		cp -- "$f" "$work/pristine"
		if ! apply "$f" "${froms[k]}" "${tos[k]}"; then
			verdict=stale
		elif cmp -s "$f" "$work/pristine"; then
			verdict=stale
		elif ! (cd "$copy/_build" && make -j"$jobs") \
			>"$work/logs/$id.build.log" 2>&1; then
			verdict=nobuild
		elif run_tests "$id" "${testss[k]}"; then
			verdict=SURVIVED
		else
			verdict=killed
		fi
		# restore (a new mtime, so make rebuilds what the mutant built)
		cat -- "$work/pristine" >"$f"
	fi
	case $verdict in
	killed)
		killed=$((killed + 1))
		by=$(sed -n 's/^\(FAIL\|ERROR\): //p' "$work/logs/$id.log" |
			tr '\n' ' ')
		[[ -n $by ]] || by="(timeout after ${timeout_s}s)"
		;;
	SURVIVED) survived=$((survived + 1)) by='' ;;
	stale) stale=$((stale + 1)) by='the text to replace is not in the file once' ;;
	nobuild) nobuild=$((nobuild + 1)) by='see the build log' ;;
	esac
	results+=("$(printf '%-9s %-28s %s' "$verdict" "$id" "$by")")
	log "$id: $verdict ${by:-}"
done

# leave the copy unmutated and built, as it was
(cd "$copy/_build" && make -j"$jobs") >"$work/logs/final.build.log" 2>&1 || true

echo
echo "mutation run of $src"
printf '%s\n' "${results[@]}"
printf 'mutations: %d killed, %d survived, %d stale, %d nobuild (of %d)\n' \
	"$killed" "$survived" "$stale" "$nobuild" "${#selected[@]}"
((survived + stale + nobuild == 0))
