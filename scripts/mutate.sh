#!/bin/bash
# SPDX-License-Identifier: MIT
#
# mutate.sh: the mutation run.  Applies single-line mutations of the
# routing core, the LID order and the OpenSM adapter, one at a time, to a
# temporary copy of the source tree, rebuilds there, runs the tests that
# should catch each one (make check TESTS=...), and prints whether they
# did (killed) or not (SURVIVED).  The tree you run it from is never
# written to: the copy (git's tracked and untracked, not ignored, files,
# so uncommitted edits are included) lives in a temp dir removed at exit,
# also when interrupted.  Not part of make check; the full list takes
# about 45 minutes on 2 cores.
#
#   scripts/mutate.sh [options]
#
# Options:
#   --list           print the mutations (id, file, tests) and exit
#   --only IDS       run only these mutations (comma-separated ids)
#   --jobs N         make -j N (default 2)
#   --timeout SECS   bound for one mutation's tests (default 1200; a run
#                    that hits it counts as killed: the tests did not pass)
#   --no-baseline    skip the first run of every listed test on the
#                    unmutated copy (which must pass, or a kill means
#                    nothing)
#   --keep           keep the temp dir (printed at the end)
#
# The mutations are listed in scripts/mutations.txt.  Each replaces one
# exact string, which must occur exactly once in its file ("\t" and "\n"
# in it stand for a tab and a newline); where it does not, the mutation
# is reported "stale" and its entry needs updating.  A mutation that
# does not compile is reported "nobuild".  Exit status: 0 if every
# mutation was killed, 1 if one survived, was stale or did not build, 2
# on bad usage, 3 if the copy could not be built or the baseline failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)

# The mutations: scripts/mutations.txt (its header says the format).
list_file=$here/mutations.txt
[[ -r $list_file ]] || { echo "mutate: cannot read $list_file" >&2; exit 2; }

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

only='' jobs=2 timeout_s=1200 baseline=1 keep=0 list=0
while (($#)); do
	case $1 in
	--list) list=1 ;;
	--only) only=${2:?}; shift ;;
	--jobs) jobs=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--no-baseline) baseline=0 ;;
	--keep) keep=1 ;;
	-h | --help) usage ;;
	*) printf 'mutate: unknown option %s\n' "$1" >&2; usage ;;
	esac
	shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "mutate: bad --jobs '$jobs'" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] ||
	{ echo "mutate: bad --timeout '$timeout_s'" >&2; exit 2; }

# parse the list into arrays
ids=() files=() froms=() tos=() testss=() whats=()
parse() {
	local line key val id='' file='' from='' to='' tests='' what=''
	flush() {
		[[ -n $id ]] || return 0
		[[ -n $file && -n $from && -n $tests ]] ||
			{ echo "mutate: mutation '$id' incomplete" >&2; exit 2; }
		ids+=("$id") files+=("$file") froms+=("$from") tos+=("$to")
		testss+=("$tests") whats+=("$what")
		id='' file='' from='' to='' tests='' what=''
	}
	while IFS= read -r line; do
		[[ $line == '#'* ]] && continue
		if [[ -z $line ]]; then
			flush
			continue
		fi
		key=${line%%: *} val=${line#*: }
		case $key in
		id) id=$val ;; file) file=$val ;; from) from=$val ;;
		to) to=$val ;; tests) tests=$val ;; what) what=$val ;;
		*) echo "mutate: bad line '$line'" >&2; exit 2 ;;
		esac
	done <"$list_file"
	flush
}
parse

if ((list)); then
	for k in "${!ids[@]}"; do
		printf '%-28s %-32s %s\n    %s\n' "${ids[k]}" "${files[k]}" \
			"${testss[k]}" "${whats[k]}"
	done
	exit 0
fi

selected=()
for k in "${!ids[@]}"; do
	if [[ -z $only || ,$only, == *,"${ids[k]}",* ]]; then
		selected+=("$k")
	fi
done
if [[ -n $only ]]; then
	for i in ${only//,/ }; do
		found=0
		for k in "${!ids[@]}"; do
			[[ ${ids[k]} == "$i" ]] && found=1
		done
		((found)) || { echo "mutate: no mutation '$i' (see --list)" >&2; exit 2; }
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX")
# shellcheck disable=SC2317 # called from the traps
cleanup() {
	if ((keep)); then
		echo "mutate: kept $work"
	else
		rm -rf -- "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
copy=$work/src
mkdir -p "$copy" "$work/logs"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# the copy: tracked and untracked files, not what .gitignore ignores
log "copying $src to $copy"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z -c -o --exclude-standard |
		tar --null -T - -cf -) | tar -C "$copy" -xf -
else
	tar -C "$src" --exclude=./_build --exclude=./_build_san -cf - . |
		tar -C "$copy" -xf -
fi
mkdir -p "$copy/.pristine"

log "building the copy (autoreconf, configure, make -j$jobs)"
if ! (cd "$copy" && autoreconf -fi && mkdir -p _build && cd _build &&
	../configure && make -j"$jobs") >"$work/logs/build.log" 2>&1; then
	tail -n 30 "$work/logs/build.log" >&2
	echo "mutate: the unmutated copy does not build" >&2
	exit 3
fi

# run_tests LOGNAME "TEST...": 0 if they all passed
run_tests() {
	(cd "$copy/_build" && timeout "$timeout_s" make -j"$jobs" check \
		TESTS="$2") >"$work/logs/$1.log" 2>&1
}

if ((baseline)); then
	all=()
	for k in "${selected[@]}"; do
		for t in ${testss[k]}; do
			[[ " ${all[*]-} " == *" $t "* ]] || all+=("$t")
		done
	done
	log "baseline: ${#all[@]} tests on the unmutated copy"
	if ! run_tests baseline "${all[*]}"; then
		grep -E '^(FAIL|ERROR)' "$work/logs/baseline.log" >&2 || true
		echo "mutate: tests fail without any mutation; fix them first" >&2
		exit 3
	fi
fi

# apply FILE FROM TO: replaces the one occurrence; 1 if not exactly one
apply() {
	MUT_FROM=$(printf '%b' "$2") MUT_TO=$(printf '%b' "$3") perl -0777 -i -pe '
		my $n = () = /\Q$ENV{MUT_FROM}\E/g;
		exit 1 if $n != 1;
		s/\Q$ENV{MUT_FROM}\E/$ENV{MUT_TO}/;' "$1"
}

killed=0 survived=0 stale=0 nobuild=0 results=()
for k in "${selected[@]}"; do
	id=${ids[k]} f=$copy/${files[k]}
	log "$id: ${files[k]}: ${whats[k]}"
	if [[ ! -f $f ]]; then
		verdict=stale
	else
		cp -- "$f" "$work/pristine"
		if ! apply "$f" "${froms[k]}" "${tos[k]}"; then
			verdict=stale
		elif cmp -s "$f" "$work/pristine"; then
			verdict=stale
		elif ! (cd "$copy/_build" && make -j"$jobs") \
			>"$work/logs/$id.build.log" 2>&1; then
			verdict=nobuild
		elif run_tests "$id" "${testss[k]}"; then
			verdict=SURVIVED
		else
			verdict=killed
		fi
		# restore (a new mtime, so make rebuilds what the mutant built)
		cat -- "$work/pristine" >"$f"
	fi
	case $verdict in
	killed)
		killed=$((killed + 1))
		by=$(sed -n 's/^\(FAIL\|ERROR\): //p' "$work/logs/$id.log" |
			tr '\n' ' ')
		[[ -n $by ]] || by="(timeout after ${timeout_s}s)"
		;;
	SURVIVED) survived=$((survived + 1)) by='' ;;
	stale) stale=$((stale + 1)) by='the text to replace is not in the file once' ;;
	nobuild) nobuild=$((nobuild + 1)) by='see the build log' ;;
	esac
	results+=("$(printf '%-9s %-28s %s' "$verdict" "$id" "$by")")
	log "$id: $verdict ${by:-}"
done

# leave the copy unmutated and built, as it was
(cd "$copy/_build" && make -j"$jobs") >"$work/logs/final.build.log" 2>&1 || true

echo
echo "mutation run of $src"
printf '%s\n' "${results[@]}"
printf 'mutations: %d killed, %d survived, %d stale, %d nobuild (of %d)\n' \
	"$killed" "$survived" "$stale" "$nobuild" "${#selected[@]}"
((survived + stale + nobuild == 0))
