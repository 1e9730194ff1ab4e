#!/usr/bin/env bash
# The test command: installs what is missing, builds with -Werror and runs
# every unit and integration test (make check), then make distcheck, then
# the core's unit tests again built with ASan and UBSan.
#
#   bash scripts/test-all.sh    (no options; -h, --help: this text)
#
# Builds into _build (removed first) and _build_san; the Debian package
# test needs root (skipped otherwise).  Output: make's, the logs of the
# failing tests, then three summary lines (make check, the sanitized unit
# tests, the Debian package test).  Exit status 0 when everything passed,
# else 1 (or make's status).
set -euo pipefail
# -h, --help: the comment above
[[ ${1:-} != -h && ${1:-} != --help ]] ||
	{ sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/install-deps.sh
autoreconf -fi
rm -rf _build
mkdir _build
cd _build
../configure --enable-werror
make -j"$(nproc)"
if ! make -j"$(nproc)" check; then
	while IFS= read -r -d '' f; do
		grep -q '^FAIL\|^ERROR' "${f%.log}.trs" 2>/dev/null &&
			{ echo "=== $f"; tail -n 60 "$f"; }
	done < <(find . -name '*.log' -path '*tests*' -print0)
	exit 1
fi
make -j"$(nproc)" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
pass=$(sed -n 's/^# PASS: *//p' test-suite.log)
fail=$(sed -n 's/^# FAIL: *//p' test-suite.log)

# The Debian package: build, lintian, install, route an ibsim ring,
# remove and purge (root only: skipped otherwise; debian/README).
cd "$top"
pkg_status=0
bash debian/test-package.sh || pkg_status=$?
case $pkg_status in
0) pkg_result="passed" ;;
77) pkg_result="skipped (see above)" ;;
*) exit 1 ;;
esac

# The unit tests under AddressSanitizer and UBSan.
cd "$top"
rm -rf _build_san
mkdir _build_san
cd _build_san
../configure --enable-werror --enable-sanitizers
# the list is defined once, in tests/unit/local.mk
core_tests=$(make -s print-unit-tests | tail -n 1)
[[ -n $core_tests ]] || { echo "no unit tests listed" >&2; exit 1; }
make -j"$(nproc)" check TESTS="$core_tests" ||
	{ cat tests/unit/*.log; exit 1; }
echo "make check: ${pass:-0} passed, ${fail:-0} failed"
echo "sanitized unit tests: $(wc -w <<<"$core_tests") passed, 0 failed"
echo "Debian package test: $pkg_result"
