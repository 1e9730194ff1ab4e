#!/bin/bash
# SPDX-License-Identifier: MIT
# The options file and the traffic file break or vanish after bring-up,
# then links and switches fail: each routing logs one ERROR line naming
# the file, line and problem and saying that the last good options and
# traffic groups stay in force, and turnadd (not minhop) configures the
# tables: every host pair reachable, CDG acyclic.  Good files again: no
# error, the new reading is used; a group that matches no host any more
# and hosts that moved to another group are no error.  On a random net
# and on two joined fat trees with their traffic file.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
make_tmpdir
# shellcheck source-path=SCRIPTDIR source=resweep_lib.sh
. "$(dirname "$0")/resweep_lib.sh"
rw_need

# kept LABEL MESSAGE: every routing of the step logged exactly the
# ERROR "turnadd: MESSAGE (turnadd keeps routing with the last good ...)"
# and nothing else at ERROR level, used the last good reading, and
# turnadd configured sound tables
kept() {
	local label=$1 msg=$2 n_err n_route n_match
	rw_expect_turnadd "$label"
	n_route=$(grep -c 'turnadd: options from ' "$RW_LOG" || true)
	n_err=$(rw_errors | wc -l)
	n_match=$(rw_errors | grep -cF -- "turnadd: $msg (turnadd keeps routing with the last good options and traffic groups, read at " || true)
	((n_route >= 1 && n_err == n_route && n_match == n_route)) || {
		rw_errors | sed 's/^/  | /' >&2
		fail "$label: $n_err ERROR lines, $n_match as expected, for $n_route routings"
	}
	expect_line "$RW_LOG" "turnadd: options from $CONF \\(the last good reading, [0-9:]+ UTC: this sweep's is bad\\)"
}

# clean LABEL: no turnadd ERROR, this sweep's files were used
clean() {
	rw_expect_turnadd "$1"
	[[ -z $(rw_errors) ]] || fail "$1: ERROR lines: $(rw_errors)"
	expect_line "$RW_LOG" "turnadd: options from $CONF: "
	! grep -q 'the last good reading' "$RW_LOG" ||
		fail "$1: the last good reading was used with good files"
}

# --- a random net: every way the two files can go bad
"$TOPOGEN" random 20 8 2 5 >"$TEST_TMP/rnd.net"
CONF=$TEST_TMP/rnd.conf
TR=$TEST_TMP/rnd.traffic
printf 'group a prefix rnd-sw1-\ngroup b prefix rnd-sw2-\nweight a b 1\nweight a a 0.5\ndefault_weight 0.01\n' >"$TR"
printf 'seed 3\ntraffic_file %s\n' "$TR" >"$CONF"
RW_ENV=("TURNADD_CONFIG=$CONF")
rw_start "$TEST_TMP/rnd.net"
expect_line "$RW_LOG" "turnadd: options from $CONF: .*traffic $TR"
expect_line "$RW_LOG" 'turnadd tables configured on all switches'

rm -f -- "$TR"
rw_step traffic-removed 'Unlink "rnd-sw3"[3]'
kept traffic-removed "$TR: cannot open traffic file: No such file or directory"

printf 'group a prefix rnd-sw1-\nweight a b 1\n' >"$TR"
rw_step traffic-bad 'Unlink "rnd-sw9"'
kept traffic-bad "$TR:2: weight names group 'b', which no group line defines"

printf 'seed 3\ntraffic_file %s\nseed x\n' "$TR" >"$CONF"
printf 'group a prefix rnd-sw1-\ngroup b prefix rnd-sw2-\nweight a b 1\n' >"$TR"
rw_step options-bad 'ReLink "rnd-sw3"[3]'
kept options-bad "$CONF:3: seed: seed must be a non-negative integer"

rm -f -- "$CONF"
rw_step options-removed 'Unlink "rnd-sw12"[5]'
kept options-removed "$CONF: cannot open: No such file or directory"

printf 'x%.0s' {1..5000} >"$CONF"
rw_step options-long-line 'ReLink "rnd-sw12"[5]'
kept options-long-line "$CONF:1: line longer than 4096 characters"

# good again: group a matches no host now, rnd-sw1's hosts moved to c
printf 'group a prefix nosuchhost-\ngroup c prefix rnd-sw1-\ngroup b prefix rnd-sw2-\nweight a b 1\nweight c b 1e300\ndefault_weight 1e-300\n' >"$TR"
printf 'seed 3\ntraffic_file %s\n' "$TR" >"$CONF"
rw_step good-again 'ReLink "rnd-sw9"'
clean good-again
rw_stop

# --- two joined fat trees, their traffic file removed while a switch
# holding named groups' hosts fails, then back with the switch
"$TOPOGEN" ft3join 4 middle >"$TEST_TMP/ftj.net"
"$TOPOGEN" ft3join-traffic >"$TEST_TMP/ftj.traffic"
CONF=$TEST_TMP/ftj.conf
TR=$TEST_TMP/ftj.traffic
printf 'traffic_file %s\n' "$TR" >"$CONF"
RW_ENV=("TURNADD_CONFIG=$CONF")
rw_start "$TEST_TMP/ftj.net"
expect_line "$RW_LOG" "turnadd: options from $CONF: .*traffic $TR"
mv -- "$TR" "$TR.away"
rw_step ftj-traffic-removed 'Unlink "tA-edge1-0"'
kept ftj-traffic-removed "$TR: cannot open traffic file: No such file or directory"
mv -- "$TR.away" "$TR"
rw_step ftj-back 'ReLink "tA-edge1-0"'
clean ftj-back
rw_stop
echo "$test_name: PASS"
