# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# speed_report.sh: the report of bench_speed.sh (sourced by it), made
# from speed.csv alone:
#
#   speed_table OUT OURS BASE   the table of medians over the runs and
#                               the ratios OURS/BASE per fabric on
#                               stdout; OUT/medians.csv, OUT/ratios.csv
#   plot_speed OUT ENGINES      OUT/speed.png (gnuplot; none without it):
#                               the routing step (median) against the
#                               number of hosts, per engine, at bring-up
#                               and at the resweep after the failure
#                               (log-log)

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

speed_table() {
	local out=$1 ours=$2 base=$3
	awk -F, -v ours="$ours" -v base="$base" -v rcsv="$out/ratios.csv" \
		-v mcsv="$out/medians.csv" '
		function median(key, col,   v, k, i, j, t, c) {
			c = 0
			for (i = 1; i <= nrun[key]; i++) {
				t = val[key, i, col]
				if (t != "-" && t != "") v[++c] = t + 0
			}
			if (!c) return "-"
			for (i = 2; i <= c; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
				}
			return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
		}
		function fmt(x, d) { return x == "-" ? "-" : sprintf("%." d "f", x) }
		function ratio(a, b) {
			return a == "-" || b == "-" || b == 0 ? "-" : sprintf("%.2f", a / b)
		}
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{
			key = $1 SUBSEP $2
			if (!(key in nrun)) {
				keys[++nk] = key
				if (!($1 in seenf)) { seenf[$1] = 1; fab[++nf] = $1 }
			}
			n = ++nrun[key]
			for (i = 1; i <= NF; i++) val[key, n, i] = $i
			if ($col["status"] != 0) bad[key] = bad[key] " " $col["status"]
			by[key] = $col["routed_by"]
			reps[key] = n
		}
		END {
			printf "\nOpenSM routing step (s) and peak memory, median of runs\n"
			printf "%-9s %-7s %4s %9s %9s %9s %9s %8s %-8s %s\n", "fabric", "engine", "runs", "route_up", "sweep_up", "route_fl", "sweep_fl", "hwm_MB", "routed", "status"
			for (i = 1; i <= nk; i++) {
				split(keys[i], kf, SUBSEP)
				for (c in col) m[keys[i], c] = median(keys[i], col[c])
				printf "%-9s %-7s %4d %9s %9s %9s %9s %8s %-8s %s\n", kf[1], kf[2], reps[keys[i]], fmt(m[keys[i], "up_route_s"], 2), fmt(m[keys[i], "up_sweep_s"], 2), fmt(m[keys[i], "fail_route_s"], 2), fmt(m[keys[i], "fail_sweep_s"], 2), fmt(m[keys[i], "hwm_mb"], 0), by[keys[i]], bad[keys[i]] == "" ? "ok" : "exit" bad[keys[i]]
			}
			print "fabric,engine,hosts,route_up_s,route_fail_s,sweep_up_s,sweep_fail_s,hwm_mb" > mcsv
			for (i = 1; i <= nk; i++) {
				split(keys[i], kf, SUBSEP)
				printf "%s,%s,%s,%s,%s,%s,%s,%s\n", kf[1], kf[2], m[keys[i], "hosts"], m[keys[i], "up_route_s"], m[keys[i], "fail_route_s"], m[keys[i], "up_sweep_s"], m[keys[i], "fail_sweep_s"], m[keys[i], "hwm_mb"] > mcsv
			}
			printf "\nratios %s/%s (route: routing step; sweep: whole heavy sweep; mem: VmHWM)\n", ours, base
			printf "%-9s %9s %9s %9s %9s %7s\n", "fabric", "route_up", "route_fl", "sweep_up", "sweep_fl", "mem"
			print "fabric,ours,base,route_up_ratio,route_fail_ratio,sweep_up_ratio,sweep_fail_ratio,mem_ratio" > rcsv
			for (i = 1; i <= nf; i++) {
				o = fab[i] SUBSEP ours; b = fab[i] SUBSEP base
				if (!(o in nrun) || !(b in nrun)) continue
				r1 = ratio(m[o, "up_route_s"], m[b, "up_route_s"])
				r2 = ratio(m[o, "fail_route_s"], m[b, "fail_route_s"])
				r3 = ratio(m[o, "up_sweep_s"], m[b, "up_sweep_s"])
				r4 = ratio(m[o, "fail_sweep_s"], m[b, "fail_sweep_s"])
				r5 = ratio(m[o, "hwm_mb"], m[b, "hwm_mb"])
				printf "%-9s %9s %9s %9s %9s %7s\n", fab[i], r1, r2, r3, r4, r5
				printf "%s,%s,%s,%s,%s,%s,%s,%s\n", fab[i], ours, base, r1, r2, r3, r4, r5 > rcsv
			}
		}' "$out/speed.csv"
}

plot_speed() {
	local out=$1 engines=$2 e plots=() gp=$1/speed.gp
	command -v gnuplot >/dev/null 2>&1 || {
		printf 'bench_speed: gnuplot not installed, no speed.png\n' >&2
		return 0
	}
	for e in ${engines//,/ }; do
		awk -F, -v e="$e" 'NR > 1 && $2 == e && $4 != "-" {
			print $3, $4, $5 }' "$out/medians.csv" |
			sort -n >"$out/plot-$e.dat"
		[[ -s $out/plot-$e.dat ]] || continue
		plots+=("'$out/plot-$e.dat' using 1:2 with linespoints title '$e bring-up'")
		plots+=("'$out/plot-$e.dat' using 1:3 with linespoints dashtype 2 title '$e resweep after failure'")
	done
	((${#plots[@]})) || return 0
	{
		echo "set terminal pngcairo size 900,600 noenhanced"
		echo "set output '$out/speed.png'"
		echo "set title 'OpenSM routing step (median of runs), bench_speed.sh'"
		echo "set xlabel 'hosts'"
		echo "set ylabel 'seconds'"
		echo "set logscale xy"
		echo "set key top left"
		echo "set grid"
		local IFS=,
		echo "plot ${plots[*]}"
	} >"$gp"
	gnuplot "$gp" || printf 'bench_speed: gnuplot failed, see %s\n' "$gp" >&2
}
