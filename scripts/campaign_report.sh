# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: MIT
#
# campaign_report.sh: fault_campaign.sh's results (sourced by it): from
# steps.tmp (one row per step, written by run_step) and MAD_FROM.
#
#   report_write     $out/steps.csv (with each step's LFT MADs) and
#                    $out/summary.csv (one row)
#   report_print     the summary and one line per step, to stdout
#
# Reads the sourcing script's out, net, seed, cycles, done_cycles,
# stopped, t_start and REF_RUNS.

STEPS_HEADER=step,label,action,failed_items,commands,down_links,connected_switches,connected_hosts,sweep_expected,lost_trap,settle,seconds,sweeps,lft_mads,hosts,switches,unreachable_pairs,unreachable_host_to_switch,no_lid,model_mismatch,engine_errors,cdg,osm_errors,fallback,crashed,late_sweep,routed_by,verdict,config_errors,throughput,perm_bandwidth,ref_throughput,ref_perm_bandwidth,quality,master

# MADs of a step: from its commands to the next step's (late MADs of a
# sweep that ended during the read-back are the step's too)
report_write() {
	local i row mads
	{
		printf '%s\n' "$STEPS_HEADER"
		i=0
		while IFS=, read -r -a row; do
			row[13]=$((MAD_FROM[i + 1] - MAD_FROM[i]))
			(IFS=,; printf '%s\n' "${row[*]}")
			i=$((i + 1))
		done <"$out/steps.tmp"
	} >"$out/steps.csv"
	rm -f -- "$out/steps.tmp"
	# min, median, max of the steps' LFT MADs (bring-up excluded)
	mads=$(awk -F, 'NR > 1 && $2 != "bringup" { print $14 }' "$out/steps.csv" |
		sort -n | awk '{ v[NR] = $1 }
			END {
				if (!NR) { print "- - -"; exit }
				med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				print v[1], med, v[NR]
			}')
	awk -F, -v net="$(basename "$net")" -v seed="$seed" -v planned="$cycles" \
		-v mads="$mads" -v refs="$REF_RUNS" \
		-v done_cycles="$done_cycles" -v stopped="${stopped:-}" \
		-v toggles="$(grep -c '^traffic file' "$out/actions.log" || true)" \
		-v secs="$(awk -v a="$t_start" -v b="$(now_ns)" 'BEGIN { printf "%.0f", (b - a) / 1e9 }')" '
		function ratio(v, r) { return (v == "-" || r == "-" || r == 0) ? "" : v / r }
		NR == 1 { next }
		$2 == "bringup" { bring = $14; btp = $30; bperm = $31 }
		$2 != "bringup" {
			steps++
			failed += $4
			if ($3 ~ /restore|relink/) restores++
			if ($3 == "takeover") { takeovers++; tmads += $14 }
		}
		{
			unreach += $17; unreach_sw += $18; nolid += $19
			mism += $20; eng += $21; if ($22 == "CYCLE") cyc++
			osm += $23; fb += $24; crash = $25 > crash ? $25 : crash
			late += $26; lost += $10; cfg += $29
			if ($12 != "" && $11 == "timeout") unsettled++
			if ($28 != "OK") bad++
			if ($34 != "OK") qbad++
			if ($34 ~ /tp_low/) low++
			if ($34 ~ /not_bringup/) nb++
			r = ratio($30, $32); if (r != "" && (mt == "" || r < mt)) mt = r
			r = ratio($31, $33); if (r != "" && (mp == "" || r < mp)) mp = r
			if ($30 != "-" && (wt == "" || $30 < wt)) wt = $30
			if ($31 != "-" && (wp == "" || $31 < wp)) wp = $31
		}
		END {
			split(mads, m, " ")
			print "net,seed,cycles_planned,cycles_run,steps,failures_injected,restores,unreachable_connected_pairs,unreachable_host_to_switch,no_lid,cdg_cycles,crashes,engine_errors,fallbacks,unsettled,model_mismatches,lost_traps,late_sweeps,osm_error_lines,bringup_mads,mads_min,mads_median,mads_max,bad_steps,seconds,stopped,config_errors,traffic_toggles,takeovers,takeover_mads,bringup_throughput,bringup_perm,min_throughput,min_perm,min_tp_vs_ref,min_perm_vs_ref,quality_flagged_steps,tp_low_steps,not_bringup_steps,reference_runs"
			printf "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%d,%s,%s,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d\n", \
				net, seed, planned, done_cycles, steps, failed, restores, \
				unreach, unreach_sw, nolid, cyc, crash, eng, fb, unsettled, \
				mism, lost, late, osm, bring, m[1], m[2], m[3], bad, secs, \
				stopped, cfg, toggles, takeovers, tmads, btp, bperm, \
				wt == "" ? "-" : wt, wp == "" ? "-" : wp, \
				mt == "" ? "-" : sprintf("%.4f", mt), \
				mp == "" ? "-" : sprintf("%.4f", mp), qbad, low, nb, refs
		}' "$out/steps.csv" >"$out/summary.csv"
}

report_print() {
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ for (i = 1; i <= NF; i++) v[i] = $i }
		END {
			printf "\nfault campaign on %s, seed %s: %d of %d cycles (%d steps with the restores) in %s s%s\n", \
				v[1], v[2], v[4], v[3], v[5], v[25], \
				v[26] != "" ? ", stopped: " v[26] : ""
			printf "  %-34s %s\n", "failures injected", v[6]
			printf "  %-34s %s\n", "restore steps", v[7]
			printf "  %-34s %s\n", "takeovers (master killed)", v[29]
			printf "  %-34s %s\n", "unreachable connected host pairs", v[8]
			printf "  %-34s %s\n", "unreachable host-to-switch routes", v[9]
			printf "  %-34s %s\n", "ports without a LID", v[10]
			printf "  %-34s %s\n", "steps with a CDG cycle", v[11]
			printf "  %-34s %s\n", "OpenSM crashes", v[12]
			printf "  %-34s %s\n", "turnadd ERROR lines", v[13]
			printf "  %-34s %s\n", "steps routed by a fallback", v[14]
			printf "  %-34s %s\n", "steps not settled in time", v[15]
			printf "  %-34s %s\n", "read-back vs model mismatches", v[16]
			printf "  %-34s %s\n", "lost traps (SIGHUP sweeps)", v[17]
			printf "  %-34s %s\n", "sweeps ending in the read-back", v[18]
			printf "  %-34s %s\n", "OpenSM ERROR lines (all)", v[19]
			printf "  %-34s %s\n", "LFT MADs at bring-up", v[20]
			printf "  %-34s %s / %s / %s\n", "LFT MADs per step min/median/max", v[21], v[22], v[23]
			printf "  %-34s %s\n", "LFT MADs in takeovers", v[30]
			printf "  %-34s %s\n", "kept-configuration ERROR lines", v[27]
			printf "  %-34s %s\n", "traffic file removals/restores", v[28]
			printf "  %-34s %s / %s\n", "bring-up throughput uniform/perm", v[31], v[32]
			printf "  %-34s %s / %s\n", "lowest throughput uniform/perm", v[33], v[34]
			printf "  %-34s %s / %s\n", "lowest vs from scratch unif/perm", v[35], v[36]
			printf "  %-34s %s (%s tp_low, %s not_bringup)\n", "quality-flagged steps", v[37], v[38], v[39]
			printf "  %-34s %s\n", "from-scratch reference runs", v[40]
			printf "  %-34s %s\n", "bad steps", v[24]
		}' "$out/summary.csv"
	printf '\n%-5s %-10s %-24s %4s %5s %5s %7s %6s %3s %-15s %-15s %-11s %s\n' \
		step label action down hosts MADs unreach cdg err 'tp/ref' \
		'perm/ref' quality verdict
	awk -F, 'NR > 1 {
		printf "%-5s %-10s %-24s %4s %5s %5s %7s %6s %3s %-15s %-15s %-11s %s\n", \
			$1, $2, substr($3, 1, 24), $6, $15, $14, $17 + $18, \
			$22 == "acyclic" ? "ok" : $22, $21, $30 "/" $32, \
			$31 "/" $33, $34, $28
	}' "$out/steps.csv"
	printf '\nresults: %s\n' "$out"
}
