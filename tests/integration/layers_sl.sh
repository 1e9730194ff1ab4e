#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd's layers in OpenSM (option vls), under ibsim with qos TRUE:
# a dragonfly (topogen dragonfly 4 2 2) and a small random net routed
# with vls 3 put paths on several layers; opensm-turnadd-sl.dump is
# written; lftcheck --sl finds every SL's channel dependency graph
# acyclic on the tables read back from the switches; SA PathRecords
# (saquery through umad2sim) carry the dump's SL; the switches' and
# hosts' SL-to-VL maps read back send SL i to VL i.  A resweep after an
# inter-switch link failure keeps the SL of every path that did not
# cross the failed cable.  With vls 1 every dump line and path record
# has SL 0; with 2 VLs (max_op_vls 2) 2 layers, without qos 1.  A bad
# vls value fails the first routing (OpenSM falls
# back); at a resweep the last good options stay in force.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN" "$top_builddir/scripts/lftread"
if ! command -v saquery >/dev/null || ! command -v smpquery >/dev/null; then
	skip "saquery, smpquery not installed (infiniband-diags)"
fi
make_tmpdir
# shellcheck source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"
LFTREAD=$top_builddir/scripts/lftread

"$TOPOGEN" dragonfly 4 2 2 >"$TEST_TMP/df.net"
"$TOPOGEN" random 16 6 3 5 >"$TEST_TMP/rnd.net"

# start NET CONFIG-TEXT [CONF_LINE...]: ibsim and OpenSM with turnadd,
# qos TRUE and dump files on; TURNADD_CONFIG holds CONFIG-TEXT
start() {
	local net=$1
	printf '%s' "$2" >"$TEST_TMP/turnadd.conf"
	shift 2
	export TURNADD_CONFIG=$TEST_TMP/turnadd.conf
	fab_init
	fab_start_ibsim "$net"
	fab_start_opensm turnadd,minhop "$TURNADD_PLUGIN_DIR" 'qos TRUE' \
		'log_flags 0x43' "$@"
	fab_wait_subnet_up 60
}

# check_sl NAME: the read-back tables acyclic per SL, by lftcheck --sl
check_sl() {
	local name=$1 rc=0
	fab_read_back "$LFTREAD"
	"$LFTCHECK" --sl "$FAB_DIR/dump/opensm-turnadd-sl.dump" \
		"$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		>"$TEST_TMP/$name.check" 2>&1 || rc=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.check"
	expect_status 0 "$rc" "$name: lftcheck --sl"
	expect_line "$TEST_TMP/$name.check" '^sl_layers=.* sl_unknown=0 sl_unset=0 cdg=acyclic$'
	expect_line "$TEST_TMP/$name.check" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
}

# pr_sl SLID DLID: the SL of the SA's PathRecord
pr_sl() {
	local sl
	sl=$(fab_sim_client 10 saquery -p --slid "$1" --dlid "$2" 2>/dev/null |
		awk '$1 ~ /^sl\.+/ { sub(/^sl\.+/, "", $1); print $1; exit }')
	[[ -n $sl ]] && printf '%d\n' "$sl"
}

# check_pr NAME N: for N paths off SL 0 and N on SL 0 (from switches
# with a LID of their own or a host), the PathRecord's SL is the dump's
check_pr() {
	local name=$1 n=$2 slid dlid want got checked=0
	fab_lid_switches >"$TEST_TMP/$name.lids"
	# "SLID DLID SL": a source LID on the dump line's switch
	awk -v n="$n" '
		NR == FNR { if (!($2 in src)) src[$2] = $1; next }
		$2 == src[$1] { next }
		($1 in src) && $3 != 0 && off < n { print src[$1], $2, $3; off++ }
		($1 in src) && $3 == 0 && on < n && FNR % 7 == 0 {
			print src[$1], $2, $3; on++ }' \
		"$TEST_TMP/$name.lids" "$FAB_DIR/dump/opensm-turnadd-sl.dump" \
		>"$TEST_TMP/$name.pairs"
	while read -r slid dlid want; do
		got=$(pr_sl "$slid" "$dlid")
		[[ $got == "$want" ]] ||
			fail "$name: PathRecord $slid -> $dlid has SL '$got', the dump says $want"
		checked=$((checked + 1))
	done <"$TEST_TMP/$name.pairs"
	((checked > 0)) || fail "$name: no path record checked"
	echo "$name: $checked PathRecord SLs equal the dump's"
}

# check_sl2vl NAME LAYERS: SL i -> VL i (i < LAYERS) in the maps read
# back from three switches (every input port, output port 1) and three
# hosts
check_sl2vl() {
	local name=$1 layers=$2 lid port row
	fab_lid_switches >"$TEST_TMP/$name.lids"
	while read -r lid port; do
		# shellcheck disable=SC2086 # $port: empty for a host
		row=$(fab_sl2vl_row "$lid" $port)
		[[ -n $row ]] || fail "$name: LID $lid: no SL2VL table read"
		awk -v n="$layers" -v who="$name: LID $lid" '{
			for (i = 0; i < n; i++)
				if ($(i + 1) != i) {
					print who ": SL " i " -> VL " $(i + 1)
					bad = 1
				}
			exit bad }' <<<"$row" ||
			fail "$name: SL-to-VL map of LID $lid does not send SL i to VL i"
	done < <(awk '$3 == "sw" && ++s <= 3 { print $1, 1 }
		$3 == "host" && ++h <= 3 { print $1 }' "$TEST_TMP/$name.lids")
	echo "$name: SL-to-VL maps send SL 0..$((layers - 1)) to VL 0..$((layers - 1))"
}

# layered NAME NET [CONFIG-TEXT]: vls 3 routes over layers, checked as
# above (CONFIG-TEXT: more option lines)
layered() (
	local name=$1 sls
	start "$2" $'vls 3\n'"${3:-}"
	fab_engine_used turnadd || fail "$name: OpenSM fell back"
	expect_line "$FAB_DIR/opensm.log" 'turnadd: vls 3: routes over 3 layers: .*: layered routes taken'
	expect_line "$FAB_DIR/opensm.log" 'turnadd: SLs: path records carry each path.s layer as its SL, SL 0 to [12] '
	sls=$(awk '{ print $3 }' "$FAB_DIR/dump/opensm-turnadd-sl.dump" |
		sort -u | tr '\n' ' ')
	echo "$name: SLs in the dump: $sls"
	[[ $sls == "0 1 "* ]] || fail "$name: dump SLs '$sls'"
	check_sl "$name"
	check_pr "$name" 12
	check_sl2vl "$name" 3
	[[ $name == df ]] || return 0
	resweep "$name"
)

# the first inter-switch cable of topology.txt: "NAME[PORT] NAME2[PORT2]"
some_cable() {
	awk '
		/^Switch/ { match($0, /# "[^"]+"/); me = substr($0, RSTART + 3, RLENGTH - 4); next }
		/^$/ { me = "" }
		me != "" && /^\[[0-9]+\][ \t]+"S-/ {
			match($0, /^\[[0-9]+\]/); p = substr($0, 2, RLENGTH - 2)
			match($0, /"S-[0-9a-f]+"\[[0-9]+\]/)
			s = substr($0, RSTART, RLENGTH); sub(/.*\[/, "", s); sub(/\]/, "", s)
			match($0, /# "[^"]+"/); peer = substr($0, RSTART + 3, RLENGTH - 4)
			if (++n == 5) { print me "[" p "] " peer "[" s "]"; exit } }' \
		"$FAB_DIR/topology.txt"
}

# the (switch, LID) paths of topology.txt and lfts.txt in DIR that do
# not cross the cable A[PA] - B[PB]: "0xGUID LID" lines
paths_clear() {
	awk -v cable="$2" '
		function hex(s,   i, v) {
			v = 0
			for (i = 3; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			return v
		}
		BEGIN { split(cable, c, " ") }
		FILENAME ~ /topology/ && /^Switch/ {
			match($0, /"S-[0-9a-f]+"/); g = "0x" substr($0, RSTART + 3, RLENGTH - 4)
			match($0, /# "[^"]+"/); name[g] = substr($0, RSTART + 3, RLENGTH - 4)
			cur = g; next }
		FILENAME ~ /topology/ && /^$/ { cur = "" }
		FILENAME ~ /topology/ && cur != "" && /^\[[0-9]+\][ \t]+"S-/ {
			match($0, /^\[[0-9]+\]/); p = substr($0, 2, RLENGTH - 2)
			match($0, /"S-[0-9a-f]+"/); peer[cur, p] = "0x" substr($0, RSTART + 3, RLENGTH - 4)
			next }
		FILENAME ~ /lfts/ && /^Unicast lids/ {
			match($0, /guid 0x[0-9a-f]+/); sw = substr($0, RSTART + 5, RLENGTH - 5)
			sws[sw] = 1; next }
		FILENAME ~ /lfts/ && /^0x/ { lid = hex($1); lft[sw, lid] = $2 + 0; lids[lid] = 1 }
		END {
			for (s in sws) for (l in lids) {
				x = s; bad = 0
				for (h = 0; h < 64 && (x, l) in lft; h++) {
					p = lft[x, l]
					if (name[x] "[" p "]" == c[1] || name[x] "[" p "]" == c[2]) { bad = 1; break }
					if (!((x, p) in peer)) break
					x = peer[x, p]
				}
				if (!bad) print s, l
			} }' "$1/topology.txt" "$1/lfts.txt"
}

# after an inter-switch cable fails (minimal change), every path that
# did not cross it keeps its SL
resweep() {
	local name=$1 cable a n changed kept
	cable=$(some_cable)
	[[ -n $cable ]] || fail "$name: no inter-switch cable found"
	mkdir "$TEST_TMP/before"
	cp "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
		"$FAB_DIR/dump/opensm-turnadd-sl.dump" "$TEST_TMP/before/"
	n=$(fab_count_up)
	a=${cable%% *}
	fab_unlink "$a"
	fab_wait_resweep "$n" 60
	check_sl "$name-resweep"
	paths_clear "$TEST_TMP/before" "$cable" | sort >"$TEST_TMP/clear"
	# "0xGUID LID SL-before SL-after" of the clear paths still routed
	changed=$(awk 'FILENAME ~ /clear/ { keep[$1, $2] = 1; next }
		FILENAME ~ /before/ { before[$1, $2] = $3; next }
		(($1, $2) in keep) && (($1, $2) in before) {
			kept++; if (before[$1, $2] != $3) ch++ }
		END { print ch + 0, kept + 0 }' "$TEST_TMP/clear" \
		"$TEST_TMP/before/opensm-turnadd-sl.dump" \
		"$FAB_DIR/dump/opensm-turnadd-sl.dump")
	kept=${changed#* }
	changed=${changed% *}
	echo "$name: cable $cable failed: $changed of $kept paths that did not cross it changed SL"
	((kept > 100)) || fail "$name: only $kept paths compared"
	((changed == 0)) || fail "$name: $changed untouched paths changed SL"
}

# vls 1: every dump line and path record on SL 0, OpenSM's own SL
one_layer() (
	start "$NET" $'vls 1\n'
	fab_engine_used turnadd || fail "vls1: OpenSM fell back"
	! grep -q 'turnadd: SLs: path records carry' "$FAB_DIR/opensm.log" ||
		fail "vls1: path records carry layers"
	[[ -s $FAB_DIR/dump/opensm-turnadd-sl.dump ]] || fail "vls1: no dump"
	awk '$3 != 0 { exit 1 }' "$FAB_DIR/dump/opensm-turnadd-sl.dump" ||
		fail "vls1: a dump line with SL other than 0"
	check_sl vls1
	fab_lid_switches >"$TEST_TMP/v1.lids"
	while read -r slid dlid; do
		[[ $(pr_sl "$slid" "$dlid") == 0 ]] ||
			fail "vls1: PathRecord $slid -> $dlid not on SL 0"
	done < <(awk 'NR % 9 == 0 { print $1, 1 + NR % 50 }' "$TEST_TMP/v1.lids")
	echo "vls1: dump and path records all on SL 0"
)

# bad vls: the first routing fails (minhop routes); after a good one a
# bad file keeps the last good options (layers stay)
bad_vls() (
	local v
	for v in 0 99 three; do
		start "$NET" "vls $v"$'\n'
		expect_line "$FAB_DIR/opensm.log" "turnadd: $TEST_TMP/turnadd.conf:1: vls: .*vls must be an integer from 1 to 8"
		expect_line "$FAB_DIR/opensm.log" 'turnadd: cannot load options from .*: no turnadd routes this sweep, OpenSM falls back'
		fab_engine_used minhop || fail "bad vls $v: minhop did not route"
		fab_cleanup
		echo "vls $v: first routing fails, minhop routes"
	done
	start "$NET" $'vls 3\n'
	fab_read_back "$LFTREAD"
	printf 'vls 99\n' >"$TEST_TMP/turnadd.conf"
	n=$(fab_count_up)
	fab_unlink "$(some_cable | cut -d' ' -f1)"
	fab_wait_resweep "$n" 60
	expect_line "$FAB_DIR/opensm.log" 'turnadd keeps routing with the last good options'
	fab_engine_used turnadd || fail "bad vls at a resweep: OpenSM fell back"
	# the bring-up decides 3 layers; the resweep decides them again or
	# carries them (minimal change over the previous layers)
	[[ $(grep -cE "turnadd: vls 3: (routes over 3 layers|a resweep over the previous routing's 3 layers)" "$FAB_DIR/opensm.log") -ge 2 ]] ||
		fail "bad vls at a resweep: the resweep did not route over 3 layers"
	check_sl bad-resweep
	echo "vls 99 at a resweep: the last good options (vls 3) stay"
)

# fewer VLs than vls asks: max_op_vls 2 (VL0-1) leaves 2 layers; with
# qos FALSE OpenSM programs no SL-to-VL map, so 1
capped() (
	start "$NET" $'vls 3\n' 'max_op_vls 2'
	expect_line "$FAB_DIR/opensm.log" 'turnadd: WARNING: vls 3: routing over 2 layers: switch 0x[0-9a-f]{16} \(.*\) port [0-9]+ operates 2 data VLs'
	awk '$3 > 1 { exit 1 }' "$FAB_DIR/dump/opensm-turnadd-sl.dump" ||
		fail "max_op_vls 2: a dump line with SL above 1"
	check_sl vl2
	fab_cleanup
	start "$NET" $'vls 3\n' 'qos FALSE'
	expect_line "$FAB_DIR/opensm.log" 'turnadd: WARNING: vls 3: routing over 1 layer: qos is FALSE'
	awk '$3 != 0 { exit 1 }' "$FAB_DIR/dump/opensm-turnadd-sl.dump" ||
		fail "qos FALSE: a dump line with SL other than 0"
	echo "max_op_vls 2: 2 layers; qos FALSE: 1 layer"
)

NET=$TEST_TMP/df.net
# the resweep's minimal change (turnadd.conf(5), failure_routes)
layered df "$TEST_TMP/df.net" $'failure_routes minimal\n'
layered rnd "$TEST_TMP/rnd.net"
one_layer
capped
bad_vls
echo "$test_name: PASS"
