# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the SM restart and takeover tests after test_env.sh (it
# sources lid_lib.sh, which brings scripts/fabric_lib.sh): OpenSMs with the LFT
# Set counter (scripts/libmadcount.so), each in its own directory (own
# log, cache and MAD log), snapshots of LIDs and LFTs read back from the
# simulator by directed routes, and block-level comparisons computed
# from those read-backs alone.
#
#   rs_begin NETFILE            checks the tools (skips without them),
#                               makes TEST_TMP, starts ibsim on NETFILE
#                               (the default option file, not
#                               TURNADD_CONFIG), stops all at exit
#   rs_start_sm DIR NAME [CONF_LINE...]  OpenSM with turnadd in DIR; its
#                               PID in RS_PID[NAME] (FAB_SIM_HOST says
#                               where it attaches, RS_ENV adds NAME=VALUE
#                               words to its environment)
#   rs_stop_sm NAME             stops it by PID, keeps its files
#   rs_wait_log DIR TEXT SECS   bounded wait for TEXT in DIR/opensm.log
#   rs_settle SECS              until nothing moves for 1.5 s
#   rs_sets DIR                 LFT Sets counted in DIR so far
#   rs_snapshot PREFIX          PREFIX.{disc,lids,lfts} of the fabric now
#   rs_changed_blocks A B       64-LID blocks differing between the LFT
#                               read-backs A and B (switches in both)
#   rs_blocks_via TOPO LFTS SW  blocks holding an entry that leaves a
#                               switch towards switch SW (by name)
#   rs_moved_not_via TOPO A B SW  entries (switch, LID) whose port differs
#                               between read-backs A and B though A's port
#                               did not lead to switch SW
#   rs_lftcheck PREFIX          lftcheck on a snapshot; fails unless OK
#   rs_expect_unchanged WHAT BEFORE SNAP DIR N
#                               snapshot SNAP of an unchanged fabric: the
#                               LIDs and tables of snapshot BEFORE, no LFT
#                               Set from the OpenSM in DIR, which read all
#                               N switches' tables; lftcheck OK
#   rs_expect_minimal WHAT BEFORE SNAP DIR SW
#                               snapshot SNAP after switch SW failed: the
#                               LIDs of BEFORE (but SW's), the OpenSM in
#                               DIR set exactly the blocks that changed,
#                               no more than routed through SW, and only
#                               entries that led to SW moved; lftcheck OK

: "${top_builddir:?source test_env.sh first}" "${LFTCHECK:?}"
# shellcheck source-path=SCRIPTDIR source=lid_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lid_lib.sh"
: "${LFTREAD:=$top_builddir/scripts/lftread}"
RS_MADLIB=$top_builddir/scripts/.libs/libmadcount.so
declare -A RS_PID=()
RS_DIRS=()
RS_ENV=()

rs_need() {
	need_built "$LFTREAD"
	[[ -r $RS_MADLIB ]] || fail "$RS_MADLIB not built"
}

# Stops every OpenSM started here (by PID), then the fabric.
rs_cleanup() {
	local name
	for name in "${!RS_PID[@]}"; do
		[[ -n ${RS_PID[$name]} ]] && fab_stop_pid "${RS_PID[$name]}" 5
	done
	RS_PID=()
	FAB_OPENSM_PID=
	fab_cleanup
}

rs_begin() {
	need_fabric
	need_turnadd
	make_tmpdir
	rs_need
	unset TURNADD_CONFIG
	fab_init
	trap 'rs_cleanup; rm -rf -- "$TEST_TMP"' EXIT
	fab_start_ibsim "$1"
}

rs_start_sm() {
	local dir=$1 name=$2
	shift 2
	mkdir -p "$dir"
	RS_DIRS+=("$dir")
	# shellcheck disable=SC2034 # read by fab_start_opensm
	FAB_OSM_PRELOAD=$RS_MADLIB
	# shellcheck disable=SC2034
	FAB_OSM_ENV=("MADCOUNT_LOG=$dir/madcount.log" ${RS_ENV[@]+"${RS_ENV[@]}"})
	: >"$dir/madcount.log"
	FAB_DIR=$dir fab_start_opensm turnadd "$TURNADD_PLUGIN_DIR" "$@"
	RS_PID[$name]=$FAB_OPENSM_PID
	FAB_OPENSM_PID=
}

rs_stop_sm() {
	fab_stop_pid "${RS_PID[$1]}" 5
	unset "RS_PID[$1]"
}

rs_wait_log() {
	local rc=0
	fab_wait_for "$1/opensm.log" "$2" "$3" || rc=$?
	((rc == 0)) || fail "no '$2' in $1/opensm.log after $3 s"
}

# Until no SUBNET UP, LFT Set, or log line of any OpenSM started here
# has come for 1.5 s (bounded by SECS).
rs_settle() {
	local secs=$1 i last="" now dir quiet=0
	for ((i = 0; i < secs * 10; i++)); do
		now=
		for dir in "${RS_DIRS[@]}"; do
			now+=" $(wc -l <"$dir/madcount.log") $(wc -l <"$dir/opensm.log" 2>/dev/null || echo 0)"
		done
		if [[ $now == "$last" ]]; then
			((++quiet >= 15)) && return 0
		else
			quiet=0
			last=$now
		fi
		sleep 0.1
	done
	fail "the fabric did not settle in $secs s"
}

rs_sets() {
	wc -l <"$1/madcount.log"
}

# PREFIX.disc (ibnetdiscover), PREFIX.lids ("PORTGUID LID"),
# PREFIX.lfts (lftread, dump_fts format).
rs_snapshot() {
	lid_snapshot "$1"
	fab_sim_client 60 "$LFTREAD" "$1.disc" >"$1.lfts" \
		2>"$1.lftread.err" ||
		fail "lftread failed: $(grep -v '^ibwarn' "$1.lftread.err" |
			head -n 3)"
}

# "GUID BLOCK LID:PORT ..." for each (switch, 64-LID block) with entries.
rs_blocks() {
	awk '
		function hex(s,    i, v) {
			s = tolower(s)
			sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef",
						   substr(s, i, 1)) - 1
			return v
		}
		/^Unicast lids/ {
			sw = $0
			sub(/.* guid /, "", sw)
			sub(/ .*/, "", sw)
			next
		}
		/^0x[0-9a-fA-F]+ [0-9]+$/ {
			lid = hex($1)
			b = int(lid / 64)
			blk[sw " " b] = blk[sw " " b] " " lid ":" ($2 + 0)
		}
		END { for (k in blk) print k blk[k] }' "$1" | sort
}

rs_changed_blocks() {
	local a=$TEST_TMP/blocks.a.$$ b=$TEST_TMP/blocks.b.$$
	rs_blocks "$1" >"$a"
	rs_blocks "$2" >"$b"
	# switches present in both read-backs
	awk 'NR == FNR { seen[$1] = 1; next } ($1 in seen) { print $1 }' \
		"$a" "$b" | sort -u >"$a.sw"
	comm -3 "$a" "$b" | awk '{ print $1, $2 }' | sort -u |
		awk 'NR == FNR { ok[$1] = 1; next } ($1 in ok)' "$a.sw" - |
		wc -l
}

# Blocks (switch, 64 LIDs) of LFTS with an entry whose port leads to the
# switch named SW in TOPO (ibnetdiscover): the blocks a failure of SW
# may force to change.
rs_blocks_via() {
	local topo=$1 lfts=$2 name=$3
	{
		rs_ports_to "$topo" "$name"
		rs_blocks "$lfts" | sed 's/^/B /'
	} | awk '
		$1 == "P" { via[$2 " " $3] = 1; next }
		{
			for (i = 4; i <= NF; i++) {
				split($i, e, ":")
				if (($2 " " e[2]) in via) { n++; break }
			}
		}
		END { print n + 0 }'
}

# "P GUID PORT" for every port of a switch in TOPO cabled to switch NAME
rs_ports_to() {
	awk -v name="$2" '
		/^Switch[ \t]/ {
			sw = $0
			sub(/^[^"]*"S-/, "", sw)
			sub(/".*/, "", sw)
			sw = "0x" sw
			next
		}
		/^\[[0-9]+\]/ && sw != "" && index($0, "# \"" name "\" ") {
			port = substr($1, 2, index($1, "]") - 2)
			print "P", sw, port + 0
		}
		/^$/ { sw = "" }' "$1"
}

rs_moved_not_via() {
	local topo=$1 a=$2 b=$3 name=$4
	{
		rs_ports_to "$topo" "$name"
		rs_blocks "$a" | sed 's/^/A /'
		rs_blocks "$b" | sed 's/^/B /'
	} | awk '
		$1 == "P" { via[$2 " " $3] = 1; next }
		{
			for (i = 4; i <= NF; i++) {
				split($i, e, ":")
				port[$1, $2 " " e[1]] = e[2]
			}
		}
		END {
			for (k in port) {
				split(k, x, SUBSEP)
				if (x[1] != "A" || !(("B", x[2]) in port))
					continue
				split(x[2], y, " ")
				if (port["B", x[2]] != port[k] &&
				    !((y[1] " " port[k]) in via)) {
					if (n++ < 5)
						printf "  switch %s LID %s: port %s -> %s\n",
							y[1], y[2], port[k],
							port["B", x[2]] >"/dev/stderr"
				}
			}
			print n + 0
		}'
}

rs_lftcheck() {
	local rc=0
	"$LFTCHECK" "$1.disc" "$1.lfts" >"$1.check" 2>&1 || rc=$?
	if ((rc != 0)) || ! grep -q '^verdict=OK$' "$1.check"; then
		sed 's/^/  | /' "$1.check" >&2
		fail "lftcheck on $(basename "$1"): not OK"
	fi
}

rs_expect_unchanged() {
	local what=$1 before=$2 snap=$3 dir=$4 n=$5 changed sets
	rs_snapshot "$snap"
	lid_equal "$before" "$snap" "$what"
	changed=$(rs_changed_blocks "$before.lfts" "$snap.lfts")
	sets=$(rs_sets "$dir")
	((changed == 0)) || fail "$what: $changed LFT blocks changed"
	((sets == 0)) || fail "$what: $sets LFT Sets on an unchanged fabric"
	expect_line "$dir/opensm.log" \
		"LFT read: $n of $n switches answered every block"
	rs_lftcheck "$snap"
	echo "$what: $sets LFT Sets, every LID and table kept"
}

rs_expect_minimal() {
	local what=$1 before=$2 snap=$3 dir=$4 sw=$5 changed bound sets moved
	rs_snapshot "$snap"
	lid_same "$before" "$snap" "$what after $sw failed"
	[[ $(wc -l <"$snap.lids") == $(($(wc -l <"$before.lids") - 1)) ]] ||
		fail "expected every port but $sw's after the failure"
	changed=$(rs_changed_blocks "$before.lfts" "$snap.lfts")
	bound=$(rs_blocks_via "$before.disc" "$before.lfts" "$sw")
	sets=$(rs_sets "$dir")
	moved=$(rs_moved_not_via "$before.disc" "$before.lfts" "$snap.lfts" \
		"$sw")
	echo "$what after $sw failed: $sets LFT Sets, $changed blocks changed, $bound blocks routed through $sw"
	((changed > 0)) || fail "no table changed though $sw is gone"
	((sets == changed)) || fail "$sets LFT Sets for $changed changed blocks"
	((changed <= bound)) ||
		fail "$changed blocks changed, only $bound routed through $sw"
	((moved == 0)) || fail "$moved entries moved that did not lead to $sw"
	rs_lftcheck "$snap"
}
