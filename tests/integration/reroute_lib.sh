# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# What lmc_reroute.sh and reroute_mads.sh share: one mad_count.sh run
# with turnadd's plugin and the checks of its summary.csv per phase.
# Sourced after test_env.sh, once need_mad_count and make_tmpdir ran.

# mad_run NAME NET MAD_COUNT_OPTIONS...: mad_count.sh on NET (--build,
# --plugin-dir, --rows 0, --out $TEST_TMP/NAME); its output on stdout,
# each line after "NAME: "; the test fails unless it exits 0.
mad_run() {
	local name=$1 net=$2 status=0
	shift 2
	"$top_srcdir/scripts/mad_count.sh" --build "$top_builddir" \
		--plugin-dir "$TURNADD_PLUGIN_DIR" --net "$net" "$@" \
		--rows 0 --out "$TEST_TMP/$name" \
		>"$TEST_TMP/$name.txt" 2>&1 || status=$?
	sed "s/^/$name: /" "$TEST_TMP/$name.txt"
	expect_status 0 "$status" "mad_count.sh on $name"
}

# field NAME PHASE COLUMN: a value of the run's summary.csv
field() {
	mad_field "$TEST_TMP/$1" "$2" "$3"
}

# phase_ok NAME PHASE ENGINE: the tables of PHASE passed lftcheck and
# ENGINE configured them (no fallback)
phase_ok() {
	[[ $(field "$1" "$2" verdict) == OK ]] ||
		fail "$1: tables not OK after $2"
	[[ $(field "$1" "$2" configured_by) == "$3" ]] ||
		fail "$1: OpenSM fell back at $2"
}

# phase_mads NAME PHASE: sets mads and bound to the phase's LFT MADs and
# their bound, prints them; the test fails if none was counted
phase_mads() {
	mads=$(field "$1" "$2" lft_mads)
	bound=$(field "$1" "$2" bound)
	printf '%s: %s: %d LFT MADs, bound %d\n' "$1" "$2" "$mads" "$bound"
	((mads > 0)) || fail "$1: no LFT MAD counted after $2"
}
