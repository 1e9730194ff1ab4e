#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer harnesses of fuzz/ with clang and runs each one.
#
#   bash fuzz/run_fuzzers.sh [-r RUNS] [-t SECONDS] [NAME...]
#
# NAME: options traffic netfile g2l core (default: all).  RUNS (default
# 1000000) and SECONDS (default 300, per fuzzer) are libFuzzer's -runs
# and -max_total_time; whichever comes first ends a fuzzer.  The corpus
# is copied to a scratch directory, so fuzz/corpus/ is not modified;
# crash inputs are written to $FUZZ_OUT (default: a new /tmp directory).
# CC (default: clang-14, else clang) must support
# -fsanitize=fuzzer (Debian: clang-14 libclang-rt-14-dev).
# Exit status: 0 if no fuzzer crashed, 1 if one did, 2 on a usage or
# build error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
all=(options traffic netfile g2l core)
runs=1000000
max_time=300

usage() {
	sed -n '3,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while getopts 'r:t:h' opt; do
	case $opt in
	r) runs=$OPTARG ;;
	t) max_time=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")

if [ -z "${CC:-}" ]; then
	if command -v clang-14 >/dev/null; then
		CC=clang-14
	else
		CC=clang
	fi
fi
command -v "$CC" >/dev/null || {
	echo "$0: $CC not found (Debian: apt-get install clang-14 libclang-rt-14-dev)" >&2
	exit 2
}

out=${FUZZ_OUT:-$(mktemp -d /tmp/turnadd-fuzz.XXXXXX)}
mkdir -p "$out"
flags=(-g -O1 -fno-omit-frame-pointer '-fsanitize=fuzzer,address,undefined'
       -fno-sanitize-recover=undefined -Wall -Wextra)

sources() {
	local core=$top/plugin/core lid=$top/lid_assign
	case $1 in
	options) echo "$here/fuzz_options.c $core/ta_options.c $core/ta_parse.c $core/ta_log.c" ;;
	traffic) echo "$here/fuzz_traffic.c $core/ta_traffic.c $core/ta_parse.c $core/ta_log.c" ;;
	netfile) echo "$here/fuzz_netfile.c $lid/lid_netfile.c $lid/lid_netline.c $lid/lid_netfab.c" ;;
	g2l) echo "$here/fuzz_g2l.c $lid/lid_g2l.c" ;;
	core) echo "$here/fuzz_core.c $top/tests/unit/route_verify.c $(ls "$core"/ta_*.c | tr '\n' ' ')" ;;
	*) return 1 ;;
	esac
}

status=0
for name in "${names[@]}"; do
	src=$(sources "$name") || {
		echo "$0: unknown fuzzer '$name' (known: ${all[*]})" >&2
		exit 2
	}
	bin=$out/fuzz_$name
	# shellcheck disable=SC2086 # $src is a list of paths without blanks
	if ! "$CC" "${flags[@]}" -I"$top/plugin/core" -I"$top/lid_assign" \
		-I"$top/tests/unit" \
		$src -lm -o "$bin"; then
		echo "$0: building fuzz_$name failed" >&2
		exit 2
	fi
	corpus=$out/corpus_$name
	mkdir -p "$corpus" "$out/crashes_$name"
	cp "$here/corpus/$name"/* "$corpus"/
	log=$out/fuzz_$name.log
	echo "== fuzz_$name: -runs=$runs -max_total_time=$max_time (log: $log)"
	rc=0
	start=$(date +%s%N)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" -runs="$runs" -max_total_time="$max_time" \
		-print_final_stats=1 \
		-artifact_prefix="$out/crashes_$name/" \
		"$corpus" >"$log" 2>&1 || rc=$?
	elapsed_ms=$((($(date +%s%N) - start) / 1000000 + 1))
	# (the stats lines are missing if the fuzzer died before the end)
	execs=$(awk '/^stat::number_of_executed_units:/ {s += $2} END {print s + 0}' "$log")
	speed=$((execs * 1000 / elapsed_ms))
	cov=$(awk '{for (i = 1; i < NF; i++) if ($i == "cov:") c = $(i + 1)} END {print c}' "$log")
	crashes=$(find "$out/crashes_$name" -type f | wc -l)
	echo "   execs $execs in $((elapsed_ms / 1000)) s ($speed/s), cov ${cov:-?}, exit $rc, crash files $crashes"
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		status=1
		echo "   CRASH: see $log and $out/crashes_$name/"
		grep -m 5 -E 'ERROR: |runtime error|invariant failed|SUMMARY' "$log" || true
	fi
done
echo "output: $out"
exit "$status"
