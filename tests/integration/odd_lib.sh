# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the odd-fabric tests (odd.mk) after test_env.sh: reading
# ibnetdiscover's topology and lftread's tables of a route_check --out
# directory, independently of the engine.

# port_lid TOPOLOGY NODE PORT: the base LID of port PORT of the CA whose
# node description is NODE (ibnetdiscover: `Ca N "H-..." # "NODE"`, then
# `[PORT](guid) "peer"[p] # lid L lmc M ...`).
port_lid() {
	awk -v node="$2" -v port="$3" '
		/^(Ca|Switch|Rt)[ \t]/ { mine = index($0, "# \"" node "\"") > 0 }
		mine && index($0, "[" port "](") == 1 {
			for (i = 1; i < NF; i++)
				if ($i == "lid") { print $(i + 1); exit }
		}' "$1"
}

# switch_lid TOPOLOGY NAME: LID of the switch named NAME
switch_lid() {
	awk -v name="$2" '
		/^Switch[ \t]/ && index($0, "# \"" name "\" ") {
			for (i = 1; i < NF; i++)
				if ($i == "lid") { print $(i + 1); exit }
		}' "$1"
}

# lftread's entry lines are "0xLLLL PPP"; mawk has no strtonum
lft_line() {
	printf '0x%04x ' "$1"
}

# lft_port LFTS SWITCH LID: the port SWITCH's table gives LID (decimal,
# empty if no entry)
lft_port() {
	awk -v sw="($2):" -v key="$(lft_line "$3")" '
		/^Unicast lids/ { mine = $NF == sw; next }
		mine && index($0, key) == 1 { print $2 + 0; exit }' "$1"
}

# lft_set LFTS SWITCH LID PORT: prints LFTS with that one entry changed
lft_set() {
	awk -v sw="($2):" -v key="$(lft_line "$3")" -v port="$4" '
		/^Unicast lids/ { mine = $NF == sw }
		mine && index($0, key) == 1 {
			printf "%s%03d\n", key, port; next
		}
		{ print }' "$1"
}

# expect_lftcheck_fails NAME TOPOLOGY LFTS REGEX: lftcheck rejects the
# tables, with an output line matching REGEX (the checker can fail)
expect_lftcheck_fails() {
	local out=$TEST_TMP/$1.mutated.txt status=0
	"$LFTCHECK" "$2" "$3" >"$out" 2>&1 || status=$?
	expect_status 1 "$status" "lftcheck on $1 (mutated tables)"
	expect_line "$out" "$4"
}

# turnadd_log NAME REGEX: a "turnadd: ..." line of NAME's opensm.log
turnadd_log() {
	expect_line "$TEST_TMP/$1/opensm.log" "turnadd: $2"
}
