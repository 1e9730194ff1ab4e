#!/bin/bash
# SPDX-License-Identifier: MIT
#
# campaign_configured.sh: fault campaigns (fault_campaign.sh) with
# turnadd's configured parts in play: escape_root set to a switch the
# campaign fails, and a traffic file it removes and restores between
# cycles while it fails switches that hold named groups' hosts.  Four
# fabrics: random nets of 20 and 24 switches, a 2-level fat tree and two
# 3-level fat trees joined at the middle level (topogen).
#
#   campaign_configured.sh [--build DIR] [--cycles N] [--seed S] [--out DIR]
#
# --build: the build tree (default $TURNADD_BUILD, else the source tree);
# --cycles: per fabric (default 100); --seed (default 1); --out: results
# (default a new /tmp dir), one fault_campaign.sh out dir per fabric.
# Prints one row per fabric from each campaign's summary.csv; the target
# is 0 fallbacks, 0 unreachable pairs, 0 CDG cycles, 0 bad steps.
# Example:  campaign_configured.sh --build _build --cycles 10 --out /tmp/cc
# Exit status: 0 all campaigns clean, 1 otherwise, 2 bad usage.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=campaign_lib.sh
. "$here/campaign_lib.sh"
build=${TURNADD_BUILD:-$here/..} cycles=100 seed=1 out=''
camp_options '' "$@"
camp_setup campaign_configured

# NAME, topogen arguments, escape root, traffic file lines
"$topogen" random 20 8 2 5 >"$out/rnd20.net"
printf 'group a prefix rnd-sw1-\ngroup b prefix rnd-sw7\nweight a b 1\nweight a a 2\ndefault_weight 0.1\n' >"$out/rnd20.traffic"
"$topogen" random 24 8 2 9 >"$out/rnd24.net"
printf 'group a prefix rnd-sw2\ngroup b prefix rnd-sw5-h1\nweight a a 1e300\nweight a b 1e-300\ndefault_weight 1\n' >"$out/rnd24.traffic"
"$topogen" fattree2 6 3 3 >"$out/ft2.net"
printf 'group l0 prefix ft-leaf0-\ngroup l4 prefix ft-leaf4-\nweight l0 l4 10\ndefault_weight 1\n' >"$out/ft2.traffic"
"$topogen" ft3join 4 middle >"$out/ftj.net"
"$topogen" ft3join-traffic >"$out/ftj.traffic"
specs=(rnd20:rnd-sw3 rnd24:rnd-sw11 ft2:ft-leaf2 ftj:tA-edge1-0)

for spec in "${specs[@]}"; do
	name=${spec%%:*} root=${spec#*:}
	camp_run "$name" "escape root $root, $cycles cycles, seed $seed" \
		--escape-root "$root" --traffic "$out/$name.traffic"
done

printf '\n%-6s %-12s %6s %8s %6s %7s %9s %7s %6s %7s %7s %5s\n' fabric root \
	cycles failures root_f toggles fallbacks unreach cycles eng_err cfg_err bad
for spec in "${specs[@]}"; do
	name=${spec%%:*} root=${spec#*:}
	rootf=$(awk -F, 'NR > 1 && $3 ~ /root/' "$out/$name/steps.csv" \
		2>/dev/null | wc -l || true)
	camp_row '%-6s %-12s %6s %8s %6s %7s %9s %7s %6s %7s %7s %5s\n' \
		"$name" "=$root" cycles_run failures_injected "=$rootf" \
		traffic_toggles fallbacks \
		unreachable_connected_pairs+unreachable_host_to_switch \
		cdg_cycles engine_errors config_errors bad_steps
done
printf '\nresults: %s\n' "$out"
exit "$camp_status"
