#!/bin/bash
# SPDX-License-Identifier: MIT
# A short fault campaign (scripts/fault_campaign.sh): 8 seeded cycles of
# random link, switch and leaf failures and restores on a small 2-level
# fat tree and on a random net, each followed by OpenSM's resweep and a
# check of the tables read back from ibsim: every host pair still
# connected reachable, CDG acyclic, OpenSM alive, no turnadd ERROR line,
# no fallback engine.  A third campaign on the random net runs with
# turnadd's escape_root set to a switch it fails and with a traffic file
# it removes and restores between cycles: still no fallback, and no
# ERROR besides the ones saying that the last good traffic groups stay
# in force.  The fat tree's campaign has two takeovers (the master
# OpenSM killed, a standby on a host takes over).  Quality: every step
# has a uniform and a permutation throughput in (0, 1] and, with
# something down, a from-scratch reference; a fourth campaign fails
# only fat-tree spines: every step within 2 % of the reference and
# every restore back at the bring-up's throughput.  Also checks that
# the campaign is reproducible: a dry run with the same seed gives the
# same console commands.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN" "$top_builddir/scripts/lftread"
[[ -r $top_builddir/scripts/.libs/libmadcount.so ]] ||
	fail "$top_builddir/scripts/.libs/libmadcount.so not built"
make_tmpdir

campaign() {	# NAME NETFILE SEED [OPTIONS...]
	local status=0 name=$1 net=$2 seed=$3
	shift 3
	"$top_srcdir/scripts/fault_campaign.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" --seed "$seed" \
		--cycles 8 --restore-every 4 "$@" --quiet 0.5 --step-timeout 60 \
		--timeout 600 --out "$TEST_TMP/$name" >"$TEST_TMP/$name.txt" 2>&1 ||
		status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "fault_campaign.sh on $name"
}

# column NAME KEY: a value of the campaign's summary.csv
column() {
	awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c[k] }' "$TEST_TMP/$1/summary.csv"
}

"$TOPOGEN" fattree2 6 3 3 >"$TEST_TMP/ft.net"
"$TOPOGEN" random 20 8 2 5 >"$TEST_TMP/rnd.net"
ft_opts=(--takeover-every 3)
campaign ft "$TEST_TMP/ft.net" 3 "${ft_opts[@]}"
campaign rnd "$TEST_TMP/rnd.net" 7
spine_opts=(--only spine --cycles 4 --restore-every 2 --perm 20)
campaign spine "$TEST_TMP/ft.net" 5 "${spine_opts[@]}"
printf 'group a prefix rnd-sw1-\ngroup b prefix rnd-sw7\nweight a b 1\nweight a a 2\ndefault_weight 0.1\n' \
	>"$TEST_TMP/rnd.traffic"
cfg_opts=(--escape-root rnd-sw3 --traffic "$TEST_TMP/rnd.traffic")
campaign cfg "$TEST_TMP/rnd.net" 7 "${cfg_opts[@]}"
# the root failed, the traffic file went and came back, and routings
# without it logged the kept-configuration ERROR line
awk -F, 'NR > 1 && $3 == "root" { f = 1 } END { exit !f }' \
	"$TEST_TMP/cfg/steps.csv" || fail "cfg: the escape root never failed"
(($(column cfg traffic_toggles) >= 2)) ||
	fail "cfg: the traffic file was not removed and restored"
(($(column cfg config_errors) > 0)) ||
	fail "cfg: no kept-configuration ERROR line"

# takeovers: cycles 3 and 6, each by the other OpenSM
[[ $(column ft takeovers) == 2 ]] || fail "ft: $(column ft takeovers) takeovers, not 2"
[[ $(awk -F, 'NR > 1 && $3 == "takeover" { print $35 }' "$TEST_TMP/ft/steps.csv" |
	sort -u | wc -l) == 2 ]] || fail "ft: the takeovers did not change the master"
# the spine campaign: no quality flag
for k in quality_flagged_steps tp_low_steps not_bringup_steps; do
	[[ $(column spine "$k") == 0 ]] || fail "spine: $k = $(column spine "$k")"
done
awk -F, 'NR > 1 && $3 == "spine" { f = 1 } END { exit !f }' \
	"$TEST_TMP/spine/steps.csv" || fail "spine: no spine failed"

for name in ft rnd cfg spine; do
	want=8
	[[ $name != spine ]] || want=4
	[[ $(column "$name" cycles_run) == "$want" ]] ||
		fail "$name: $(column "$name" cycles_run) cycles run, not $want"
	# every step: throughputs in (0, 1]; a reference when something is
	# down; the quality column says OK or names its flags
	awk -F, 'NR == 1 { ok = $30 == "throughput" && $31 == "perm_bandwidth" &&
			$32 == "ref_throughput" && $34 == "quality"; next }
		!ok { exit 1 }
		!($30 > 0 && $30 <= 1 && $31 > 0 && $31 <= 1) { exit 1 }
		$6 > 0 && !($32 > 0 && $33 > 0) { exit 1 }
		$34 !~ /^(OK|tp_low|not_bringup|tp_low\+not_bringup)$/ { exit 1 }' \
		"$TEST_TMP/$name/steps.csv" ||
		fail "$name: a step's throughput columns are missing or out of range"
	(($(column "$name" failures_injected) > 0)) ||
		fail "$name: no failure injected"
	for k in unreachable_connected_pairs cdg_cycles crashes \
		engine_errors fallbacks model_mismatches bad_steps; do
		[[ $(column "$name" "$k") == 0 ]] ||
			fail "$name: $k = $(column "$name" "$k")"
	done
	# some step cut hosts off or failed links: the read-back followed
	awk -F, 'NR > 1 && $6 > 0 { f = 1 } END { exit !f }' \
		"$TEST_TMP/$name/steps.csv" || fail "$name: no step with a link down"
done

# the same seed, the same events: the model alone decides them, so a
# dry run (no fabric) prints the commands the real run sent
for spec in ft:ft:3 rnd:rnd:7 cfg:rnd:7 spine:ft:5; do
	IFS=: read -r name net seed <<<"$spec"
	opts=()
	case $name in
	ft) opts=("${ft_opts[@]}") ;;
	cfg) opts=("${cfg_opts[@]}") ;;
	spine) opts=("${spine_opts[@]}") ;;
	esac
	"$top_srcdir/scripts/fault_campaign.sh" --dry-run --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$TEST_TMP/$net.net" \
		--seed "$seed" --cycles 8 --restore-every 4 \
		${opts[@]+"${opts[@]}"} --out "$TEST_TMP/dry-$name" >/dev/null ||
		fail "dry run $name failed"
	cmp -s "$TEST_TMP/dry-$name/actions.log" "$TEST_TMP/$name/actions.log" ||
		fail "$name: the dry run gave other events than the run"
done
echo "$test_name: PASS"
