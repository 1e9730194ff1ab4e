#!/usr/bin/env bash
# The demo command: installs what is missing, builds turnadd, then for
# each bundled fabric starts ibsim, runs Debian's opensm with turnadd,
# prints what turnadd routed (from OpenSM's log) and the verdict of the
# independent checker on the tables read back from the simulator.  Then,
# on the bundled 648-host fat tree, it fails a spine and restores it, once
# with turnadd and once with OpenSM's ftree, and prints the LFT MADs each
# pushed (counted on OpenSM's side, outside the engine).
#
#   bash scripts/demo.sh        (no options; -h, --help: this text)
#
# Output on stdout: per fabric (ring8, ft2-6x3, random20) turnadd's log
# lines and lftcheck's report; then the table of LFT MADs per phase of
# each engine.  Logs, tables and CSV/JSON counts stay in
# /tmp/turnadd-demo.XXXXXX (named at the end).  Exit status 0 when every
# check passed, 1 otherwise.
set -euo pipefail
# -h, --help: the comment above
[[ ${1:-} != -h && ${1:-} != --help ]] ||
	{ sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0; }
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# shellcheck source=scripts/ensure_build.sh
. scripts/ensure_build.sh
ensure_build

out=$(mktemp -d /tmp/turnadd-demo.XXXXXX)
status=0
for net in ibsim_topos/ring8.net ibsim_topos/ft2-6x3.net ibsim_topos/random20.net; do
	name=$(basename "$net" .net)
	echo
	echo "=== $name: OpenSM with routing_engine turnadd under ibsim"
	rc=0
	bash scripts/route_check.sh --engine turnadd --net "$net" \
		--plugin-dir _build/plugin/.libs --lftcheck _build/scripts/lftcheck \
		--out "$out/$name" >"$out/$name.check" 2>&1 || rc=$?
	grep -E 'turnadd: (fabric|turns|routes|LFTs)|tables configured' \
		"$out/$name/opensm.log" | sed 's/^.* -> /  opensm: /'
	echo "  checker (tables read back from ibsim):"
	sed 's/^/    /' "$out/$name.check"
	[ "$rc" -eq 0 ] || status=1
done
for engine in turnadd ftree; do
	echo
	echo "=== ft2-36x18 (648 hosts, 36 leaves x 18 spines): ft-spine5 fails and comes back, routing_engine $engine"
	bash scripts/mad_count.sh --build _build --net ibsim_topos/ft2-36x18.net \
		--engine "$engine" --fail ft-spine5 --rows 0 \
		--out "$out/mad-$engine" >"$out/mad-$engine.txt" 2>&1 || status=1
	sed -n '/^phase /,/^$/p' "$out/mad-$engine.txt" | sed 's/^/  /'
done
echo
echo "bound: the blocks of the failed spine's LIDs on every leaf (see scripts/mad_count.sh --help)"
echo "logs, tables and CSV/JSON counts: $out"
exit "$status"
