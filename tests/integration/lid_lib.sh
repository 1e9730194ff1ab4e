# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the LID order tests (lid_*.sh) after test_env.sh: runs
# fabrics through scripts/fabric_lib.sh, reads the LIDs back from the
# simulator, and checks the port-major layout with its own statement of
# the rule (lid_assign/README), not with the library's code.

: "${top_srcdir:?source test_env.sh first}"
# shellcheck source-path=SCRIPTDIR source=../../scripts/fabric_lib.sh
. "$top_srcdir/scripts/fabric_lib.sh"

: "${TURNADD_LIDS:=$top_builddir/lid_assign/turnadd-lids}"

# A fresh simulator on NETFILE (its own run dir and IBSIM_SOCKNAME); the
# EXIT trap stops it and removes TEST_TMP.
lid_start_fabric() {
	fab_init
	trap 'fab_cleanup; rm -rf -- "$TEST_TMP"' EXIT
	fab_start_ibsim "$1"
}

# What a LID test needs (else it skips or fails), its temp dir, and the
# default option file (not the caller's TURNADD_CONFIG).
lid_test_begin() {
	need_fabric
	need_turnadd
	need_built "$TOPOGEN"
	make_tmpdir
	unset TURNADD_CONFIG
}

# Stops OpenSM (by its PID) and keeps its log as opensm.log.N.
lid_stop_opensm() {
	fab_stop_pid "$FAB_OPENSM_PID" 5
	FAB_OPENSM_PID=
	mv "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.log.$1"
}

# ibnetdiscover of the running fabric (directed routes) into FILE.
lid_discover() {
	fab_sim_client 30 "$FAB_IBNETDISCOVER" >"$1" 2>"$FAB_DIR/disc.err" ||
		fail "ibnetdiscover failed: $(head -n 3 "$FAB_DIR/disc.err")"
}

# From ibnetdiscover output: "S GUID LID" per switch and
# "H SWGUID PORT LID PORTGUID" per CA port cabled to a switch; GUIDs in
# lower-case hex, 16 digits.
lid_extract() {
	awk '
		function hex16(s) {
			sub(/^0x/, "", s)
			s = tolower(s)
			while (length(s) < 16)
				s = "0" s
			return s
		}
		function lid_after(line, key,    a) {
			if (match(line, key " [0-9]+") == 0)
				return ""
			a = substr(line, RSTART, RLENGTH)
			sub(/.* /, "", a)
			return a
		}
		/^Switch[ \t]/ {
			split($0, q, "\"")
			sw = q[2]
			sub(/^S-/, "", sw)
			sw = hex16(sw)
			print "S", sw, lid_after($0, "base port 0 lid")
			next
		}
		/^(Ca|Hca|Rt)[ \t]/ { sw = ""; next }
		/^\[[0-9]+\]/ && sw != "" && index($0, "\"H-") {
			port = substr($1, 2, index($1, "]") - 2)
			g = $0
			sub(/^[^)]*\]\(/, "", g)	# after the peer port
			sub(/\).*/, "", g)
			print "H", sw, port, lid_after($0, "\" lid"), hex16(g)
		}' "$1"
}

# "PORTGUID LID" of every end port (switches by their port-0 GUID),
# sorted, from lid_extract output.
lid_pairs() {
	awk '$1 == "S" { print $2, $3 } $1 == "H" { print $5, $4 }' "$1" |
		sort
}

# The fabric's LIDs now: PREFIX.disc (ibnetdiscover), PREFIX.ext
# (lid_extract), PREFIX.lids (lid_pairs).
lid_snapshot() {
	lid_discover "$1.disc"
	lid_extract "$1.disc" >"$1.ext"
	lid_pairs "$1.ext" >"$1.lids"
}

# lid_same OLD NEW WHAT: every port of snapshot OLD still present in
# snapshot NEW has the same LID.
lid_same() {
	local changed
	changed=$(join "$1.lids" "$2.lids" | awk '$2 != $3' | head -n 5)
	[[ -z $changed ]] || fail "$3: LIDs changed (GUID old new): $changed"
}

# lid_equal OLD NEW WHAT: snapshots OLD and NEW have the same ports with
# the same LIDs.
lid_equal() {
	cmp -s "$1.lids" "$2.lids" ||
		fail "$3: LIDs differ: $(diff "$1.lids" "$2.lids" | head -n 6)"
}

# "PORTGUID LID" from a guid2lid file, the same GUID spelling.
lid_g2l_pairs() {
	awk 'NF == 3 {
		g = tolower($1); sub(/^0x/, "", g)
		while (length(g) < 16) g = "0" g
		printf "%s %d\n", g, ($2 ~ /^0x/ ? ("0x" substr($2, 3)) + 0 : $2)
	}' "$1" | sort
}

# The port-major rule, stated on its own: R = the highest switch port a
# host is on; group r = the hosts on switch port r + 1 by switch GUID,
# then the switches whose index in GUID order is r mod R, by GUID;
# consecutive LIDs inside a group, each non-empty group starting on the
# next 64-LID boundary (the first at LID 1).  Prints "PORTGUID LID
# GROUP" of the expected layout of a fabric brought up from scratch.
lid_expected() {
	local ext=$1 r
	r=$(awk '$1 == "H" && $3 > m { m = $3 } END { print m + 0 }' "$ext")
	((r > 0)) || r=1
	{
		awk '$1 == "H" { print $3 - 1, 0, $2, $5 }' "$ext"
		awk '$1 == "S" { print $2 }' "$ext" | sort |
			awk -v r="$r" '{ print (NR - 1) % r, 1, $1, $1 }'
	} | sort -k1,1n -k2,2n -k3,3 |
		awk '
			NR == 1 || $1 != grp {
				if (NR > 1)
					cursor = (int(last / 64) + 1) * 64
				lid = cursor > 1 ? cursor : 1
				grp = $1
			}
			{ print $4, lid, $1; last = lid; lid++ }'
}

# Number of ports in EXTRACT (lid_extract) whose LID differs from the
# expected layout (or that are missing); lists up to 5 on stderr.
lid_layout_diffs() {
	local ext=$1 exp=$TEST_TMP/expected.$$ got=$TEST_TMP/got.$$
	lid_expected "$ext" | sort >"$exp"
	lid_pairs "$ext" >"$got"
	join -a 1 -e none -o 0,1.2,1.3,2.2 "$exp" "$got" | awk '
		$2 != $4 {
			if (bad++ < 5)
				printf "  port %s: LID %s, expected %s (group %s)\n",
					$1, $4, $2, $3 >"/dev/stderr"
		}
		END { print bad + 0 }'
}

# Fails unless the LIDs in EXTRACT are exactly the expected layout;
# prints the groups.
lid_check_layout() {
	local ext=$1 what=$2 bad exp=$TEST_TMP/expected.$$
	bad=$(lid_layout_diffs "$ext")
	((bad == 0)) || fail "$what: $bad ports not in port-major order"
	[[ $(wc -l <"$exp") == "$(lid_pairs "$ext" | wc -l)" ]] ||
		fail "$what: more ports read back than expected"
	awk '{ n[$3]++; if (!($3 in lo) || $2 < lo[$3]) lo[$3] = $2
		if ($2 > hi[$3]) hi[$3] = $2 }
		END { for (g in n) printf "group %s: LIDs %d-%d (%d ports)\n",
			g, lo[g], hi[g], n[g] }' "$exp" | sort -k2,2n |
		sed "s/^/$what: /"
}
