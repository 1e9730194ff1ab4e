#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd with LMC 2 (4 LIDs a port) on a small fat tree under real
# OpenSM: every one of the 2^LMC LIDs of every host port must be routed,
# not only the base LID.  Checked three ways on the tables read back:
# lftcheck (walks every LID of a port whose LMC ibnetdiscover reports),
# a plain count that every switch's table has an entry for each of the
# 4 LIDs of each host port, and a mutation (one entry of a base+3 LID
# dropped on a leaf) that lftcheck must reject, so it does look past base LIDs.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=odd_lib.sh
. "$(dirname "$0")/odd_lib.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN"
make_tmpdir

"$TOPOGEN" fattree2 3 2 2 1 >"$TEST_TMP/ft.net"
check_turnadd lmc2 "$TEST_TMP/ft.net" --conf-extra 'lmc 2'
turnadd_log lmc2 'fabric: .* up to 4 LIDs a port'
expect_line "$TEST_TMP/lmc2.txt" \
	'^hosts=6 switches=5 host_pairs=30 unreachable_host_pairs=0 unreachable_host_to_switch=0$'
topo=$TEST_TMP/lmc2/topology.txt lfts=$TEST_TMP/lmc2/lfts.txt

# every CA port has LMC 2 in the topology lftcheck read
n=$(grep -cE '^\[[0-9]+\]\([0-9a-f]+\).*# lid [0-9]+ lmc 2 ' "$topo" || true)
((n == 6)) || fail "lmc2: $n CA ports with 'lmc 2' in the topology, expected 6"

# base LIDs of the host ports, then each switch's entries for all 4
mapfile -t bases < <(sed -nE 's/^\[[0-9]+\]\([0-9a-f]+\).*# lid ([0-9]+) lmc 2 .*/\1/p' "$topo")
((${#bases[@]} == 6)) || fail "lmc2: ${#bases[@]} host base LIDs found"
mapfile -t switches < <(sed -nE 's/^Unicast lids .*\((.*)\):$/\1/p' "$lfts")
((${#switches[@]} == 5)) || fail "lmc2: ${#switches[@]} switch tables read"
missing=0
for sw in "${switches[@]}"; do
	for b in "${bases[@]}"; do
		for k in 0 1 2 3; do
			p=$(lft_port "$lfts" "$sw" $((b + k)))
			if [[ ! $p =~ ^[0-9]+$ || $p == 0 || $p == 255 ]]; then
				printf 'lmc2: %s has no route to LID %s (base %s): %s\n' \
					"$sw" $((b + k)) "$b" "${p:-none}" >&2
				missing=$((missing + 1))
			fi
		done
	done
done
((missing == 0)) || fail "lmc2: $missing (switch, LID) entries missing"

# drop ft-leaf0's entry of the last LID of a host on ft-leaf2 (its hosts
# send there): the checker must notice, naming that LID
b=$(sed -nE 's/^\[[0-9]+\]\([0-9a-f]+\).*# lid ([0-9]+) lmc 2 "ft-leaf2" .*/\1/p' "$topo" | head -n 1)
[[ -n $b ]] || fail "lmc2: no host port on ft-leaf2"
last=$((b + 3))
awk -v sw="(ft-leaf0):" -v key="$(lft_line "$last")" '
	/^Unicast lids/ { mine = $NF == sw }
	mine && index($0, key) == 1 { next }
	{ print }' "$lfts" >"$TEST_TMP/dropped.lfts"
! cmp -s "$lfts" "$TEST_TMP/dropped.lfts" || fail "lmc2: nothing dropped"
expect_lftcheck_fails lmc2 "$topo" "$TEST_TMP/dropped.lfts" \
	"^unreachable: .* lid $last: "
echo "$test_name: PASS"
