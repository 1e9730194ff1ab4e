#!/bin/bash
# SPDX-License-Identifier: MIT
#
# campaign_mcast.sh: multicast with unicast on one VL over many fabrics.
# On each fabric, a fault campaign (fault_campaign.sh --mcast-groups):
# after bring-up every host joins the IPoIB broadcast group and N further
# groups get random members by real SA joins; then seeded failures and
# restores (hosts join again after each, as IPoIB does).  After bring-up
# and after every step, the unicast and multicast tables read back from
# the switches are checked together (lftcheck --mfts): every member
# reaches every other exactly once, the channel dependency graph of both
# is acyclic on one VL, every connected host pair is reachable.
#
#   campaign_mcast.sh [--build DIR] [--cycles N] [--groups N] [--seed S]
#                     [--sizes LIST] [--seeds LIST] [--ks LIST] [--out DIR]
#
# Fabrics: those of bench_quality.sh (random nets "topogen random N 10 10
# SEED" for N in --sizes (default 10,20,...,100) and seeds --seeds
# (default 1,2,3); joined fat trees "topogen ft3join K JOIN" and
# "ft3join-alt" for K in --ks (default 4,8; 16 on request: 2,048 hosts)
# and JOIN top, middle, bottom) and those of the fault campaigns
# (random20, `topogen random 40 10 4 3`, `topogen fattree2 8 4 4`).
# --cycles: failure/restore events per fabric (default 4, restore every
# 2); --groups: groups besides the broadcast group (default 10);
# --seed: the campaigns' seed (default 1).  Prints one row per fabric
# from each campaign's summary.csv; the target is 0 in every column but
# cycles and failures.  Example:
#   campaign_mcast.sh --build _build --sizes 20 --seeds 1 --ks none
# Exit status: 0 all clean, 1 otherwise, 2 usage.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=campaign_lib.sh
. "$here/campaign_lib.sh"
build=${TURNADD_BUILD:-$here/..} cycles=4 groups=10 seed=1 out=''
sizes=10,20,30,40,50,60,70,80,90,100 seeds=1,2,3 ks=4,8
camp_options 'groups sizes seeds ks' "$@"
camp_setup campaign_mcast

names=()
add() {		# add NAME TOPOGEN-ARGS...
	local name=$1
	shift
	"$topogen" "$@" >"$out/$name.net" ||
		{ echo "campaign_mcast: topogen $* failed" >&2; exit 2; }
	names+=("$name")
}
IFS=, read -r -a size_list <<<"$sizes"
IFS=, read -r -a seed_list <<<"$seeds"
IFS=, read -r -a k_list <<<"$ks"
for n in "${size_list[@]}"; do
	[[ $n == none ]] && continue
	for s in "${seed_list[@]}"; do
		add "rnd$n-s$s" random "$n" 10 10 "$s"
	done
done
for k in "${k_list[@]}"; do
	[[ $k == none ]] && continue
	for j in top middle bottom; do
		add "ftj$k-$j" ft3join "$k" "$j"
		add "ftj$k-$j-alt" ft3join-alt "$k" "$j"
	done
done
cp "$here/../ibsim_topos/random20.net" "$out/random20.net"
names+=(random20)
add rnd40-4-3 random 40 10 4 3
add ft2-8x4 fattree2 8 4 4

for name in "${names[@]}"; do
	camp_run "$name" "$cycles cycles, $groups groups, seed $seed" \
		--restore-every 2 --mcast-groups "$groups"
done

printf '\n%-16s %6s %8s %7s %6s %9s %7s %5s %7s\n' fabric cycles failures \
	unreach cycles fallbacks eng_err bad seconds
for name in "${names[@]}"; do
	camp_row '%-16s %6s %8s %7s %6s %9s %7s %5s %7s\n' "$name" \
		cycles_run failures_injected \
		unreachable_connected_pairs+unreachable_host_to_switch \
		cdg_cycles fallbacks engine_errors bad_steps seconds
done
printf '\nresults: %s\n' "$out"
exit "$camp_status"
