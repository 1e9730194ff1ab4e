#!/bin/bash
# SPDX-License-Identifier: MIT
#
# campaign_quality.sh: fault campaigns (fault_campaign.sh) that look at
# quality, one fabric of each class: every step's uniform and
# permutation throughput against turnadd's from scratch on the same
# fabric state, restores against the bring-up, and takeovers by a
# standby OpenSM.
#
#   campaign_quality.sh [--build DIR] [--cycles N] [--seed S] [--out DIR]
#                       [--classes LIST] [--restore-every N]
#                       [--takeover-every N]
#
# Classes (--classes, default all, comma-separated):
#   ft      topogen fattree2 8 4 4         (fat tree, 12 switches)
#   ftj     topogen ft3join 4 middle       (joined fat trees, 40)
#   rnd     topogen random 40 10 4 3       (random net, 40)
#   torus   topogen torus 4 4 2            (2-D torus, 16)
#   hyperx  campaign_fabrics.sh hyperx 4 4 2        (16)
#   df      campaign_fabrics.sh dragonfly 4 9 2     (36)
#   dfp     campaign_fabrics.sh dfplus 4 4 5 2      (Dragonfly+, 40)
# --build: the build tree (default $TURNADD_BUILD, else the source tree);
# --cycles: per fabric (default 100); --seed (default 1);
# --restore-every (default 10), --takeover-every (default 7; 0: none):
# passed to fault_campaign.sh; --out: results (default a new /tmp dir):
# NAME.net, NAME.txt (the campaign's output), NAME/ (its out dir).
# Prints one row per fabric: cycles run, failures, takeovers, LFT MADs in
# takeovers, unreachable pairs, CDG cycles, bad steps, the bring-up's
# throughputs, the lowest ratio to the from-scratch reference, steps
# flagged tp_low and not_bringup.
# Example:  campaign_quality.sh --build _build --cycles 10 --classes ft,rnd
# Exit status: 0 every campaign ran without a bad step (quality flags
# are reported, not failures), 1 otherwise, 2 bad usage.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=campaign_lib.sh
. "$here/campaign_lib.sh"
build=${TURNADD_BUILD:-$here/..} cycles=100 seed=1 out=''
classes=ft,ftj,rnd,torus,hyperx,df,dfp restore_every=10 takeover_every=7
camp_options 'classes restore_every takeover_every' "$@"
camp_setup campaign_quality

names=()
IFS=, read -r -a class_list <<<"$classes"
for name in "${class_list[@]}"; do
	case $name in
	ft) "$topogen" fattree2 8 4 4 ;;
	ftj) "$topogen" ft3join 4 middle ;;
	rnd) "$topogen" random 40 10 4 3 ;;
	torus) "$topogen" torus 4 4 2 ;;
	hyperx) "$here/campaign_fabrics.sh" hyperx 4 4 2 ;;
	df) "$here/campaign_fabrics.sh" dragonfly 4 9 2 ;;
	dfp) "$here/campaign_fabrics.sh" dfplus 4 4 5 2 ;;
	*) printf 'campaign_quality: unknown class %s\n' "$name" >&2; exit 2 ;;
	esac >"$out/$name.net"
	names+=("$name")
done

for name in "${names[@]}"; do
	camp_run "$name" "$cycles cycles, seed $seed" \
		--restore-every "$restore_every" --takeover-every "$takeover_every"
done

format='%-7s %6s %8s %5s %6s %7s %6s %4s %13s %13s %6s %11s\n'
# shellcheck disable=SC2059 # the format is ours
printf "\n$format" fabric cycles failures takeo to_mad unreach cycles bad \
	'bringup_tp' 'min_vs_ref' tp_low not_bringup
for name in "${names[@]}"; do
	camp_row "$format" "$name" cycles_run failures_injected takeovers \
		takeover_mads unreachable_connected_pairs+unreachable_host_to_switch \
		cdg_cycles bad_steps bringup_throughput/bringup_perm \
		min_tp_vs_ref/min_perm_vs_ref tp_low_steps not_bringup_steps
done
printf '\nresults: %s\n' "$out"
exit "$camp_status"
