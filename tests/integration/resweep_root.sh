#!/bin/bash
# SPDX-License-Identifier: MIT
# escape_root names a switch that then fails: the resweep logs one
# WARNING naming the root used instead, turnadd (not minhop) configures
# the tables, every host pair stays reachable, the CDG stays acyclic,
# and the failure costs LFT Sets of the same order as the same switch's
# failure with the automatic root.  When the switch comes back, the
# tables are turnadd's again and sound.  On a random net, a 2-level fat
# tree and two joined 3-level fat trees.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir
# shellcheck source-path=SCRIPTDIR source=resweep_lib.sh
. "$(dirname "$0")/resweep_lib.sh"
rw_need

# run NAME NETFILE SWITCH ROOT: fails SWITCH and brings it back, with
# escape_root ROOT (a switch name, or auto); MADS[NAME-fail|restore]
declare -A MADS=()
run() {
	local name=$1 net=$2 sw=$3 root=$4 guid=auto warn
	printf '' >"$TEST_TMP/$name.conf"
	RW_ENV=("TURNADD_CONFIG=$TEST_TMP/$name.conf")
	if [[ $root != auto ]]; then
		# the GUID before OpenSM runs: a discovery of its own fabric
		fab_init
		fab_start_ibsim "$net"
		guid=$(fab_node_guid "$root")
		fab_cleanup
		printf 'escape_root %s\n' "$guid" >"$TEST_TMP/$name.conf"
	fi
	rw_start "$net"
	expect_line "$RW_LOG" 'turnadd tables configured on all switches'
	if [[ $root != auto ]]; then
		expect_line "$RW_LOG" "turnadd: turns: .*escape root switch $guid "
	fi
	rw_step "$name-fail" "Unlink \"$sw\""
	rw_expect_turnadd "$name-fail"
	[[ -z $(rw_errors) ]] || fail "$name-fail: ERROR lines: $(rw_errors)"
	MADS[$name-fail]=$RW_MADS
	warn=$(grep -c "turnadd: WARNING: escape_root $guid is not a switch of this fabric" "$RW_LOG" || true)
	if [[ $root == "$sw" ]]; then
		((warn == 1)) || {
			sed 's/^/  | /' "$RW_LOG" >&2
			fail "$name-fail: $warn WARNING lines about the missing root, not 1"
		}
		# the line names the root that replaced it, and it is used
		used=$(sed -n 's/.*this fabric (failed, cut off from the SM or replaced): the escape tree is rooted at \(0x[0-9a-f]*\) .*/\1/p' "$RW_LOG")
		expect_line "$RW_LOG" "turnadd: turns: .*escape root switch $used "
	fi
	rw_step "$name-restore" "ReLink \"$sw\""
	rw_expect_turnadd "$name-restore"
	[[ -z $(rw_errors) ]] || fail "$name-restore: ERROR lines: $(rw_errors)"
	MADS[$name-restore]=$RW_MADS
	# the fabric is the bring-up's again: its routing (rooted at the
	# configured root) is reinstated whole
	if [[ $root == "$sw" ]]; then
		expect_line "$RW_LOG" \
			"turnadd: restore: the fabric is again the one of routing 1 "
		grep -F "escape root switch" "$RW_LOG" | tail -n 1 |
			grep -qF "$guid" ||
			fail "$name-restore: the escape root is not $guid"
	fi
	rw_stop
}

# same order: at most twice the automatic root's count, plus one
# block per switch (the root's own LID block moves with the tree)
same_order() {	# WHAT GOT REF SWITCHES
	(($2 <= 2 * $3 + $4)) ||
		fail "$1: $2 LFT Sets, against $3 with the automatic root"
	printf '%s: %s LFT Sets (automatic root: %s)\n' "$1" "$2" "$3"
}

"$TOPOGEN" random 20 8 2 5 >"$TEST_TMP/rnd.net"
"$TOPOGEN" fattree2 6 3 3 >"$TEST_TMP/ft.net"
"$TOPOGEN" ft3join 4 middle >"$TEST_TMP/ftj.net"
for spec in rnd:rnd-sw7:20 ft:ft-leaf3:9 ftj:tA-edge1-0:40; do
	IFS=: read -r name sw n_sw <<<"$spec"
	run "$name-auto" "$TEST_TMP/$name.net" "$sw" auto
	run "$name-root" "$TEST_TMP/$name.net" "$sw" "$sw"
	same_order "$name: failure of the configured root" \
		"${MADS[$name-root-fail]}" "${MADS[$name-auto-fail]}" "$n_sw"
	same_order "$name: its return" \
		"${MADS[$name-root-restore]}" "${MADS[$name-auto-restore]}" "$n_sw"
done
echo "$test_name: PASS"
