#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSM with turnadd restarted on a running fabric (ibsim, ft2-6x3),
# keeping its cache dir as a restart on the same machine does.  LFT Sets
# are counted in opensm by scripts/libmadcount.so; LIDs and tables are
# read back from the simulator by directed routes:
#  1. unchanged fabric: every LID kept, the tables read back equal those
#     of before, and the new OpenSM sends no LFT Set at all (it reads
#     the switches' tables first, plugin/lft_read.h);
#  2. ft-spine0 fails while OpenSM is down, then OpenSM starts: LIDs
#     kept, only entries that led to ft-spine0 move, the LFT Sets are
#     exactly the blocks that changed (so no more than the blocks that
#     routed something through ft-spine0), and the tables are complete
#     and deadlock-free (lftcheck);
#  3. ft-spine0 returns: every table is again the one of before the
#     failure (the routes read from the switches were the memory);
#  4. with "lft_read_on_start no" a restart rewrites every block (the
#     count of the bring-up), which is what 1. avoids;
#  5. one LFT Get answered with an error status (libmadcount.so asks for
#     a block no switch has): that switch alone gets its whole table;
#  6. qos TRUE (OpenSM's QoS setup runs after the LFT pass, before the
#     subnet-wide update mark is put back): a restart still sends no LFT
#     Set, and the SL-to-VL maps read back from switches and hosts are
#     the configured ones, SL i to VL i, then, restarted with every SL on
#     VL 0 (qos_sl2vl), all VL 0: a new master programs every port's map
#     even where its own blank copy (it reads no map) already equals the
#     configuration.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=restart_lib.sh
. "$(dirname "$0")/restart_lib.sh"
rs_begin "$NETS/ft2-6x3.net"
snap=$TEST_TMP/snap

# start_sm N [CONF_LINE...]: OpenSM number N in $FAB_DIR/smN with the
# cache of sm(N-1), until settled; checks turnadd made the tables
start_sm() {
	local n=$1 dir=$FAB_DIR/sm$1
	shift
	mkdir -p "$dir"
	if ((n > 1)); then
		cp -r "$FAB_DIR/sm$((n - 1))/cache" "$dir/cache"
	fi
	rs_start_sm "$dir" sm "$@"
	rs_wait_log "$dir" "SUBNET UP" 30
	rs_settle 30
	grep -qF "turnadd tables configured on all switches" \
		"$dir/opensm.log" || fail "sm$n: turnadd did not make the tables"
}

start_sm 1
rs_snapshot "$snap.0"
rs_lftcheck "$snap.0"
up=$(rs_sets "$FAB_DIR/sm1")
((up > 0)) || fail "no LFT Set counted at bring-up"
echo "bring-up: $up LFT Sets, $(wc -l <"$snap.0.lids") LIDs"

# 1. restart, nothing changed
rs_stop_sm sm
start_sm 2
rs_expect_unchanged "restart, unchanged fabric" "$snap.0" "$snap.1" \
	"$FAB_DIR/sm2" 9

# 2. ft-spine0 fails while no OpenSM runs
rs_stop_sm sm
fab_console 'Unlink "ft-spine0"'
start_sm 3
rs_expect_minimal restart "$snap.0" "$snap.2" "$FAB_DIR/sm3" ft-spine0

# 3. ft-spine0 returns under the same OpenSM
ups=$(grep -cF "SUBNET UP" "$FAB_DIR/sm3/opensm.log")
fab_console 'ReLink "ft-spine0"'
for ((i = 0; i < 300; i++)); do
	(($(grep -cF "SUBNET UP" "$FAB_DIR/sm3/opensm.log") > ups)) && break
	sleep 0.1
done
((i < 300)) || fail "no resweep after ft-spine0 returned"
rs_settle 30
rs_snapshot "$snap.3"
lid_equal "$snap.0" "$snap.3" "spine back"
changed=$(rs_changed_blocks "$snap.0.lfts" "$snap.3.lfts")
((changed == 0)) ||
	fail "spine back: $changed blocks differ from before the failure"
echo "ft-spine0 back: every table as before the failure"

# 4. the same restart without reading the tables
rs_stop_sm sm
printf 'lft_read_on_start no\n' >"$TEST_TMP/noread.conf"
TURNADD_CONFIG=$TEST_TMP/noread.conf start_sm 4
sets=$(rs_sets "$FAB_DIR/sm4")
((sets == up)) ||
	fail "lft_read_on_start no: $sets LFT Sets, expected all $up blocks"
echo "restart with lft_read_on_start no: $sets LFT Sets (every block)"

# 5. the second LFT Get fails
rs_stop_sm sm
RS_ENV=(MADCOUNT_SPOIL_LFT_GET=2)
start_sm 5
RS_ENV=()
rs_snapshot "$snap.5"
changed=$(rs_changed_blocks "$snap.0.lfts" "$snap.5.lfts")
((changed == 0)) || fail "one Get failed: $changed blocks changed"
expect_line "$FAB_DIR/sm5/opensm.log" \
	'LFT read: switch 0x[0-9a-f]+ did not answer for every block'
expect_line "$FAB_DIR/sm5/opensm.log" \
	'LFT read: 8 of 9 switches answered every block'
# that switch's whole table: its LinearFDBTop / 64 + 1 blocks
per_sw=$(awk '/^0x/ { n = 0; s = tolower(substr($1, 3))
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		if (n > m) m = n }
	END { print int(m / 64) + 1 }' "$snap.5.lfts")
sets=$(rs_sets "$FAB_DIR/sm5")
((sets == per_sw)) ||
	fail "one Get failed: $sets LFT Sets, expected one whole table ($per_sw)"
rs_lftcheck "$snap.5"
echo "restart with one LFT Get failed: $sets LFT Sets (that switch's table)"

# 6. qos TRUE
# sl2vl_rows PREFIX: "LID VL(SL0) .. VL(SL15)" of the SL-to-VL map read
# back from every switch (input port 0, output port 1) and every host of
# snapshot PREFIX
sl2vl_rows() {
	local lid kind port
	fab_lid_switches "$1.disc" | awk '{ print $1, $3 }' | sort -un |
	while read -r lid kind; do
		port=
		[[ $kind == sw ]] && port=1
		echo "$lid $(fab_sl2vl_row "$lid" "$port")"
	done
}

# expect_sl2vl WHAT PREFIX VLS: every row of sl2vl_rows starts with VLS
expect_sl2vl() {
	local rows
	rows=$(sl2vl_rows "$2")
	[[ -n $rows ]] || fail "$1: no SL-to-VL map read back"
	awk -v want="$3" -v what="$1" 'BEGIN { k = split(want, w, " ") }
		{ n++; row = $2
		  for (i = 3; i <= k + 1; i++) row = row " " $i
		  if (row != want) {
			print what ": LID " $1 " maps SL 0.. to VL " row ", expected " want
			bad = 1 } }
		END { exit bad || !n }' <<<"$rows" >&2 ||
		fail "$1: SL-to-VL maps not as configured"
	echo "$1: the SL-to-VL maps of $(wc -l <<<"$rows") ports send SL 0.. to VL $3"
}
command -v smpquery >/dev/null ||
	skip "smpquery not installed (infiniband-diags)"
rs_stop_sm sm
start_sm 6 'qos TRUE'
sets=$(rs_sets "$FAB_DIR/sm6")
((sets == 0)) || fail "qos TRUE: $sets LFT Sets at a restart, expected none"
rs_snapshot "$snap.6"
expect_sl2vl "restart with qos TRUE" "$snap.6" "0 1 2 3"
rs_stop_sm sm
start_sm 7 'qos TRUE' 'qos_sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
sets=$(rs_sets "$FAB_DIR/sm7")
((sets == 0)) || fail "qos_sl2vl all 0: $sets LFT Sets at a restart, expected none"
rs_snapshot "$snap.7"
expect_sl2vl "restart with every SL on VL 0" "$snap.7" "0 0 0 0"
rs_cleanup
echo "$test_name: PASS"
