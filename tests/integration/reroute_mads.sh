#!/bin/bash
# SPDX-License-Identifier: MIT
# Minimal-change rerouting, measured from outside the engine: a 2-level
# fat tree (12 leaves x 6 spines, 6 hosts a leaf) routed by turnadd; one
# spine unlinked, then relinked.  mad_count.sh counts the LFT SubnSet
# MADs OpenSM sends (libmadcount.so preloaded into opensm) and checks the
# tables read back from ibsim.  Asserted for turnadd after the failure
# and after the restore: every pair reachable, CDG acyclic, and no more
# LFT MADs than the port-major bound (sum over leaves of
# ceil(hosts / spines / 64); after the restore plus the returning spine's
# whole table).  minhop runs the same steps for comparison: only "some
# MADs, tables OK" is asserted; its counts are printed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
# shellcheck source-path=SCRIPTDIR source=reroute_lib.sh
. "$(dirname "$0")/reroute_lib.sh"
need_mad_count
make_tmpdir

net=$TEST_TMP/ft2-12x6.net
"$TOPOGEN" fattree2 12 6 6 >"$net"

bad=()
for engine in turnadd minhop; do
	mad_run "$engine" "$net" --engine "$engine" --fail ft-spine2 \
		--timeout 30
	for phase in failure restore; do
		phase_ok "$engine" "$phase" "$engine"
		phase_mads "$engine" "$phase"
		if [[ $engine == turnadd ]] && ((mads > bound)); then
			bad+=("$phase: $mads LFT MADs > bound $bound")
		fi
	done
done
((${#bad[@]} == 0)) || fail "turnadd: ${bad[*]}"
echo "$test_name: PASS"
