#!/usr/bin/env bash
# The demo command: installs what is missing, builds turnadd, then for
# each bundled fabric starts ibsim, runs Debian's opensm with turnadd,
# prints what turnadd routed (from OpenSM's log) and the verdict of the
# independent checker on the tables read back from the simulator.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

bash scripts/install-deps.sh
if [ ! -x _build/scripts/lftcheck ] || [ ! -e _build/plugin/.libs/libturnadd.so ]; then
	autoreconf -fi
	mkdir -p _build
	(cd _build && ../configure && make -j"$(nproc)")
else
	make -C _build -j"$(nproc)"
fi

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
echo
echo "logs and tables: $out"
exit "$status"
