# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the integration tests: where things are, and small asserts.
# Under `make check` the test harness runs tests from the top build dir
# and exports srcdir (the top source dir); by hand, set top_builddir (or
# run from the build dir) and optionally srcdir.

tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "${srcdir:-$tests_dir/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
: "${LFTCHECK:=$top_builddir/scripts/lftcheck}"
: "${TOPOGEN:=$top_builddir/ibsim_topos/topogen}"
: "${TURNADD_PLUGIN_DIR:=$top_builddir/plugin/.libs}"
ROUTE_CHECK=$top_srcdir/scripts/route_check.sh
NETS=$top_srcdir/ibsim_topos
DATA=$top_srcdir/tests/integration/lftcheck-data
export LFTCHECK TOPOGEN TURNADD_PLUGIN_DIR ROUTE_CHECK NETS DATA

test_name=$(basename "$0" .sh)

fail() {
	printf '%s: FAIL: %s\n' "$test_name" "$*" >&2
	exit 1
}

skip() {
	printf '%s: SKIP: %s\n' "$test_name" "$*" >&2
	exit 77
}

need_built() {
	local f
	for f in "$@"; do
		[[ -x $f ]] || fail "$f not built (run make first)"
	done
}

# The simulator and OpenSM are needed by the fabric tests.
need_fabric() {
	local t
	for t in ibsim /usr/sbin/opensm ibnetdiscover dump_fts; do
		command -v "$t" >/dev/null 2>&1 ||
			skip "$t not installed (packages ibsim-utils opensm infiniband-diags)"
	done
	[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ||
		-n ${UMAD2SIM:-} ]] || skip "umad2sim not installed (ibsim-utils)"
	need_built "$LFTCHECK"
}

need_turnadd() {
	[[ -e $TURNADD_PLUGIN_DIR/libturnadd.so ]] ||
		skip "plugin not built: no $TURNADD_PLUGIN_DIR/libturnadd.so"
}

# What scripts/mad_count.sh needs: ibsim and OpenSM, the plugin, the
# generator, madtally, lftread and libmadcount.so.
need_mad_count() {
	need_fabric
	need_turnadd
	need_built "$TOPOGEN" "$top_builddir/scripts/madtally" \
		"$top_builddir/scripts/lftread"
	[[ -r $top_builddir/scripts/.libs/libmadcount.so ]] ||
		fail "$top_builddir/scripts/.libs/libmadcount.so not built"
}

# mad_field DIR PHASE COLUMN: a value of mad_count.sh's DIR/summary.csv
mad_field() {
	awk -F, -v p="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$6 == p { print $col[c] }' "$1/summary.csv"
}

# A temp dir removed at exit.
make_tmpdir() {
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX")
	# shellcheck disable=SC2064 # expand now: the dir is fixed
	trap "rm -rf -- '$TEST_TMP'" EXIT
}

# expect_status WANT GOT WHAT
expect_status() {
	[[ $2 == "$1" ]] || fail "$3: exit status $2, expected $1"
}

# expect_line FILE REGEX: some line of FILE matches the extended REGEX.
expect_line() {
	grep -Eq -- "$2" "$1" || {
		sed 's/^/  | /' "$1" >&2
		fail "no line matching /$2/ in $(basename "$1")"
	}
}

# check_turnadd NAME NETFILE [route_check options...]: the turnadd engine
# (not a fallback) routes NETFILE with every pair reachable, acyclic CDG.
check_turnadd() {
	local name=$1 net=$2 status=0 out
	shift 2
	out=$TEST_TMP/$name
	"$ROUTE_CHECK" --engine turnadd --plugin-dir "$TURNADD_PLUGIN_DIR" \
		--net "$net" --out "$out" "$@" >"$out.txt" 2>&1 || status=$?
	sed "s/^/$name: /" "$out.txt"
	expect_status 0 "$status" "route_check turnadd $name"
	expect_line "$out.txt" ' unreachable_host_pairs=0 unreachable_host_to_switch=0$'
	expect_line "$out.txt" ' cdg=acyclic$'
	grep -qF "turnadd tables configured on all switches" \
		"$out/opensm.log" ||
		fail "$name: no 'turnadd tables configured on all switches' in opensm.log"
}
