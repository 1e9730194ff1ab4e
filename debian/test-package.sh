#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The Debian package, end to end (root, Debian 12; run by
# scripts/test-all.sh):
#   1. dpkg-buildpackage -b -us -uc on a copy of the source tree;
#   2. lintian on the .deb: no error (warnings are printed; debian/README
#      explains each one);
#   3. dpkg -i; opensm run with only the two opensm.conf lines of the
#      README (no LD_LIBRARY_PATH) on an ibsim ring: the plugin is
#      loaded from the multiarch libdir, reads the conffile, logs its
#      version, and OpenSM logs "turnadd tables configured"; the tables,
#      read back with the installed lftread, get verdict=OK from the
#      installed lftcheck;
#   4. dpkg -r: nothing of the package is left but the conffile; then
#      dpkg --purge: not even that.
# The package is removed on every exit (also on failure), so the machine
# is left as it was.  Exit 0 pass, 1 fail, 77 skip (not root, tools
# missing, or turnadd already installed here).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=test-package
libdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	echo x86_64-linux-gnu)
conffile=/etc/opensm/turnadd.conf

say() { printf '%s: %s\n' "$name" "$*"; }
fail() { printf '%s: FAIL: %s\n' "$name" "$*" >&2; exit 1; }
skip() { printf '%s: SKIP: %s\n' "$name" "$*" >&2; exit 77; }

[[ $(id -u) == 0 ]] || skip "needs root (dpkg -i)"
for t in dpkg-buildpackage dh lintian ibsim /usr/sbin/opensm ibnetdiscover; do
	command -v "$t" >/dev/null 2>&1 ||
		skip "$t missing (scripts/install-deps.sh installs it)"
done
if dpkg-query -W -f='${Status}' turnadd 2>/dev/null | grep -q installed ||
	[[ -e $conffile ]]; then
	skip "turnadd is already installed here (or $conffile exists): not touching it"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
installed=0
cleanup() {
	if [[ $installed == 1 ]]; then
		dpkg --purge turnadd >"$work/purge.log" 2>&1 ||
			cat "$work/purge.log" >&2
	fi
	rm -rf -- "$work"
}
trap cleanup EXIT

# ---- 1. build -------------------------------------------------------
t0=$(date +%s)
mkdir "$work/src"
tar -C "$top" --exclude=./_build --exclude=./_build_san --exclude=./.git \
	--exclude=./autom4te.cache --exclude='./turnadd-*' -cf - . |
	tar -C "$work/src" -xf -
(cd "$work/src" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	fail "dpkg-buildpackage failed"
}
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
deb=$work/turnadd_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || fail "no $deb after the build"
say "built $(basename "$deb") in $(($(date +%s) - t0)) s"

# ---- 2. lintian -----------------------------------------------------
lintian "$deb" >"$work/lintian.out" 2>&1 || true
sed 's/^/  lintian: /' "$work/lintian.out"
if grep -q '^E: ' "$work/lintian.out"; then
	fail "lintian reports errors"
fi

# ---- 3. install and run ---------------------------------------------
osm_dep=$(dpkg-deb -f "$deb" Depends)
osm_have=$(dpkg-query -W -f='${Version}' opensm)
[[ $osm_dep == *"opensm (= $osm_have)"* ]] ||
	fail "Depends '$osm_dep' does not pin the installed opensm $osm_have"
installed=1
dpkg -i "$deb" >"$work/install.log" 2>&1 || {
	cat "$work/install.log" >&2
	fail "dpkg -i failed"
}
for f in "$libdir/libturnadd.so" /usr/bin/turnadd-lids /usr/bin/lftcheck \
	/usr/bin/lftread "$conffile" /usr/share/man/man8/turnadd.8.gz \
	/usr/share/man/man5/turnadd.conf.5.gz \
	/usr/share/man/man8/turnadd-lids.8.gz \
	/usr/share/man/man8/lftcheck.8.gz /usr/share/man/man8/lftread.8.gz; do
	[[ -e $f ]] || fail "$f not installed"
done
dpkg-query -W -f='${Conffiles}\n' turnadd | grep -q " $conffile " ||
	fail "$conffile is not a conffile"
if grep -v '^[[:space:]]*\(#\|$\)' "$conffile"; then
	fail "$conffile has uncommented lines (above)"
fi
for t in turnadd-lids lftcheck lftread; do
	[[ $("/usr/bin/$t" --version) == "$t (turnadd) $version" ]] ||
		fail "$t --version: '$("/usr/bin/$t" --version)', expected $version"
done

# shellcheck source-path=SCRIPTDIR source=../scripts/fabric_lib.sh
. "$top/scripts/fabric_lib.sh"
unset LD_LIBRARY_PATH TURNADD_CONFIG
fab_init
trap 'fab_cleanup; cleanup' EXIT
fab_start_ibsim "$top/ibsim_topos/ring8.net"
# the two lines of the README; the rest is the simulation's (log file,
# cache and dump dirs in the run dir)
fab_start_opensm turnadd,minhop ""
for line in 'routing_engine turnadd,minhop' 'event_plugin_name turnadd'; do
	grep -qx "$line" "$FAB_DIR/opensm.conf" ||
		fail "opensm.conf lacks '$line'"
done
fab_wait_subnet_up 60
log=$FAB_DIR/opensm.log
grep -q "$libdir/libturnadd.so" "/proc/$FAB_OPENSM_PID/maps" ||
	fail "opensm did not map $libdir/libturnadd.so"
grep -q "turnadd: version $version running in OpenSM" "$log" ||
	fail "no version line in opensm.log"
grep -q "turnadd: options from $conffile" "$log" ||
	fail "the conffile was not read: $(grep -m1 'options from' "$log")"
grep -q "turnadd tables configured on all switches" "$log" ||
	fail "no 'turnadd tables configured' in opensm.log: $(grep -m3 \
		'ERR\|fell back\|minhop tables' "$log")"
fab_read_back /usr/bin/lftread
rc=0
/usr/bin/lftcheck "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" \
	>"$work/lftcheck.out" 2>&1 || rc=$?
sed 's/^/  lftcheck: /' "$work/lftcheck.out"
if [[ $rc != 0 ]] || ! grep -qx 'verdict=OK' "$work/lftcheck.out"; then
	fail "installed lftcheck: exit $rc, verdict not OK"
fi
fab_cleanup

# ---- 4. remove, then purge ------------------------------------------
files=$(dpkg-query -L turnadd)
dpkg -r turnadd >"$work/remove.log" 2>&1 || {
	cat "$work/remove.log" >&2
	fail "dpkg -r failed"
}
[[ $(dpkg-query -W -f='${Status}' turnadd) == *config-files ]] ||
	fail "after dpkg -r the status is $(dpkg-query -W -f='${Status}' turnadd)"
left=()
while IFS= read -r f; do
	[[ -e $f && ! -d $f && $f != "$conffile" ]] && left+=("$f")
done <<<"$files"
[[ ${#left[@]} == 0 ]] || fail "left after dpkg -r: ${left[*]}"
[[ -e $conffile ]] || fail "dpkg -r removed the conffile"
dpkg --purge turnadd >"$work/purge.log" 2>&1 || fail "dpkg --purge failed"
installed=0
[[ ! -e $conffile ]] || fail "$conffile left after purge"
dpkg-query -W -f='${Status}' turnadd 2>/dev/null | grep -q installed &&
	fail "turnadd still known to dpkg after purge"
say "PASS: built, lintian without errors, installed, routed ring8 (verdict=OK), removed (conffile only left), purged ($(($(date +%s) - t0)) s)"
