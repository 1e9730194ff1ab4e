#!/usr/bin/env bash
# The test command: installs what is missing, builds with -Werror and runs
# every unit and integration test (make check), then make distcheck.
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
echo "make check: ${pass:-0} passed, ${fail:-0} failed"
