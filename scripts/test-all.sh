#!/usr/bin/env bash
# The test command: installs what is missing, builds with -Werror and runs
# every unit and integration test (make check), then make distcheck, then
# the core's unit tests again built with ASan and UBSan.
set -euo pipefail
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

# The routing core's unit tests under AddressSanitizer and UBSan.
cd "$top"
rm -rf _build_san
mkdir _build_san
cd _build_san
../configure --enable-werror --enable-sanitizers
core_tests="tests/unit/test_fig18 tests/unit/test_parsers tests/unit/test_parse_errors tests/unit/test_properties tests/unit/test_reroute tests/unit/test_cdg tests/unit/test_turnprohib tests/unit/test_pieces tests/unit/test_ft3join_traffic tests/unit/test_mcast"
make -j"$(nproc)" check TESTS="$core_tests" ||
	{ cat tests/unit/*.log; exit 1; }
echo "make check: ${pass:-0} passed, ${fail:-0} failed"
echo "sanitized core unit tests: $(wc -w <<<"$core_tests") passed, 0 failed"
