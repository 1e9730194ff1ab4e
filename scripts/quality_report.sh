# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# quality_report.sh: the report of bench_quality.sh (sourced by it), made
# from quality.csv alone, so `bench_quality.sh --report DIR` can redo it:
#
#   report DIR          DIR/tables.md (the paper's figures as tables, then
#                       the targets with their numbers) and, with gnuplot,
#                       DIR/fig21.png, fig22.png, fig25.png
#   report_targets CSV  the targets table, on stdout
#   report_plots DIR    the PNG plots only
#
# Needs a function bad MESSAGE (prints it, exits) from the sourcing script.

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi

report() {
	local dir=$1 csv=$1/quality.csv
	[[ -s $csv ]] || bad "no $csv"
	awk -F, -f /dev/stdin "$csv" >"$dir/tables.md" <<'AWK'
function num(x) { return x != "-" && x != "" }
function cell(sum, n, bad, total) {
	if (n == total && n > 0) return sprintf("%.3f", sum / n)
	if (n > 0) return sprintf("%.3f (%d/%d)", sum / n, n, total)
	return bad
}
function eng_add(e) { if (!(e in seen)) { seen[e] = 1; eng[++ne] = e } }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	fam = $c["family"]; e = $c["engine"]; st = $c["status"]
	eng_add(e)
	if (fam == "random") {
		n = $c["size"]; if (!(n in nseen)) { nseen[n] = 1; ns[++nn] = n }
		k = n SUBSEP e
		rtot[k]++
		if (st == "ok" && $c["unreachable_host_pairs"] != 0) {
			if (!(k in rwhy)) rwhy[k] = "unreachable"
		} else if (st == "ok" && num($c["throughput"])) {
			rn[k]++; rsum[k] += $c["throughput"]
			pf[k] += $c["prohibited_fraction"]; hop[k] += $c["mean_sw_hops"]
			if (("perm" in c) && num($c["perm"])) { rpn[k]++; rps[k] += $c["perm"] }
		} else if (!(k in rwhy)) rwhy[k] = st
	} else if (fam == "dragonfly" || fam == "dfplus") {
		f = $c["fabric"]
		if (!(fam in fseen)) { fseen[fam] = 1; fams[++nfam] = fam }
		if (!((fam, f) in ffseen)) { ffseen[fam, f] = 1; ff[fam, ++nff[fam]] = f }
		k = f SUBSEP e
		dst[k] = st; dthr[k] = $c["throughput"]; dcdg[k] = $c["cdg"]
		dvls[k] = $c["vls"]; dunr[k] = $c["unreachable_host_pairs"]
		dperm[k] = ("perm" in c) ? $c["perm"] : "-"
		dsw[f] = $c["switches"]; dh[f] = $c["hosts"]
	} else {
		kk = $c["size"]; j = $c["join"]
		if (!(kk in kseen)) { kseen[kk] = 1; ks[++nk] = kk }
		if (!(j in jseen)) { jseen[j] = 1; js[++nj] = j }
		k = kk SUBSEP j SUBSEP e
		jst[k] = st; jin[k] = $c["intra"]; jout[k] = $c["inter"]
		jperm[k] = ("perm" in c) && num($c["perm"]) ? $c["perm"] : "-"
		if (st == "ok" && $c["unreachable_host_pairs"] != 0)
			jst[k] = $c["unreachable_host_pairs"] " pairs unreachable"
		jhosts[kk] = $c["hosts"] / 2
		if (!((kk, j) in kjseen)) { kjseen[kk, j] = 1; kjoins[kk]++ }
	}
	# correctness per engine over every fabric
	tot[e]++
	if (st != "ok") { nst[e, st]++; next }
	okc[e]++
	if ($c["unreachable_host_pairs"] == 0 && $c["unreachable_host_to_switch"] == 0) reach[e]++
	if ($c["cdg"] == "acyclic") acyc[e]++
	v = $c["vls"]; if (num(v) && v + 0 > vmax[e]) vmax[e] = v + 0
	if (num(v) && (vmin[e] == "" || v + 0 < vmin[e])) vmin[e] = v + 0
}
function hdr(first, list, n,   i, s) {
	s = "| " first; for (i = 1; i <= n; i++) s = s " | " list[i]
	print s " |"
	s = "| ---"; for (i = 1; i <= n; i++) s = s " | ---"
	print s " |"
}
# a table of random-net means by switch count (rows) and engine
function ntable(sum, cnt,   i, j, k, s) {
	hdr("switches", reng, nre)
	for (i = 1; i <= nn; i++) {
		s = "| " ns[i]
		for (j = 1; j <= nre; j++) {
			k = ns[i] SUBSEP reng[j]
			s = s " | " (k in rtot ? cell(sum[k], cnt[k], rwhy[k], rtot[k]) : "-")
		}
		print s " |"
	}
}
function pcell(k) {
	if (!(k in jst)) return "-"
	if (jst[k] != "ok") return jst[k]
	return jperm[k]
}
# every joined fabric (rows) by engine: intra / inter throughput, or
# with perm set the permutation bandwidth
function ktable(perm,   a, i, j, k, s) {
	hdr("fabric", eng, ne)
	for (a = 1; a <= nk; a++) for (i = 1; i <= nj; i++) {
		s = "| K=" ks[a] " " js[i]
		for (j = 1; j <= ne; j++) {
			k = ks[a] SUBSEP js[i] SUBSEP eng[j]
			s = s " | " (perm ? pcell(k) : jcell(k))
		}
		print s " |"
	}
}
function jcell(k,   s) {
	if (!(k in jst)) return "-"
	if (jst[k] != "ok") return jst[k]
	return sprintf("%s / %s", jin[k], jout[k])
}
END {
	# engines shown for random nets: every engine but ftree
	for (i = 1; i <= ne; i++) if (eng[i] != "ftree") reng[++nre] = eng[i]
	# sizes in numeric order
	for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++)
		if (ns[j] + 0 < ns[i] + 0) { t = ns[i]; ns[i] = ns[j]; ns[j] = t }
	for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++)
		if (ks[j] + 0 < ks[i] + 0) { t = ks[i]; ks[i] = ks[j]; ks[j] = t }
	# Fig. 22: the largest K among those with the most join levels run
	# (K = 32 has only the middle join)
	for (i = 1; i <= nk; i++)
		if (jmax == "" || kjoins[ks[i]] >= kjoins[jmax]) jmax = ks[i]
	print "# Routing quality: turnadd and OpenSM's engines (tables read back from ibsim)"
	print ""
	print "Throughput = 1 / (load of the most loaded link direction), every"
	print "host sending 1.0 (lftcheck, lftcheck(8) \"ROUTING QUALITY\")."
	print "\"fallback\": OpenSM did not use the engine (its tables came from"
	print "minhop); \"failed\": no tables.  (a/b): mean over the a of b seeds"
	print "that ran with the engine."
	if (nn) {
		print ""
		print "## Random networks (Fig. 21): mean uniform throughput over the seeds"
		print ""
		print "`topogen random N 10 10 SEED`: N switches, 10 switch-to-switch ports and 10 hosts each."
		print ""
		ntable(rsum, rn)
		print ""
		print "## Random networks: mean permutation bandwidth over the seeds"
		print ""
		print "lftcheck --perm: 100 random permutations (seed 1) and the shifts i -> i+s of the hosts ranked by name; a flow gets 1 / (flows on the most shared link of its path); mean over all flows (the effective bisection bandwidth of the SSSP/DFSSSP papers)."
		print ""
		ntable(rps, rpn)
		nmax = ns[nn]
		print ""
		print "At " nmax " switches, means over the seeds: share of turns no route takes, inter-switch hops"
		print ""
		print "| engine | throughput | prohibited_fraction | mean_sw_hops |"
		print "| --- | --- | --- | --- |"
		for (j = 1; j <= nre; j++) {
			k = nmax SUBSEP reng[j]
			if (!(k in rtot)) continue
			if (rn[k]) printf "| %s | %.3f | %.3f | %.2f |\n", reng[j], rsum[k] / rn[k], pf[k] / rn[k], hop[k] / rn[k]
			else printf "| %s | %s | - | - |\n", reng[j], rwhy[k]
		}
	}
	if (nk) {
		print ""
		print "## Two joined fat trees, by join level (Fig. 22): intra / inter throughput"
		print ""
		print "`topogen ft3join K JOIN`, K = " jmax " (" jhosts[jmax] " hosts a tree); turnadd and tp with the two-tree traffic file (1 inside a tree, 1/100 between)."
		print ""
		hdr("join", eng, ne)
		for (i = 1; i <= nj; i++) {
			s = "| " js[i]
			for (j = 1; j <= ne; j++) s = s " | " jcell(jmax SUBSEP js[i] SUBSEP eng[j])
			print s " |"
		}
		if (("middle") in jseen) {
			print ""
			print "## Middle join by size (Fig. 25): intra / inter throughput"
			print ""
			hdr("hosts a tree", eng, ne)
			for (i = 1; i <= nk; i++) {
				s = "| " jhosts[ks[i]] " (K=" ks[i] ")"
				for (j = 1; j <= ne; j++) s = s " | " jcell(ks[i] SUBSEP "middle" SUBSEP eng[j])
				print s " |"
			}
		}
		print ""
		print "## Every join level and size: intra / inter throughput"
		print ""
		ktable(0)
		print ""
		print "\"-alt\": `topogen ft3join-alt K JOIN`, the same trees with the join links from other positions (ibsim_topos/README)."
		print ""
		print "## Every join level and size: permutation bandwidth (all hosts of both trees)"
		print ""
		ktable(1)
	}
	for (a = 1; a <= nfam; a++) {
		fam = fams[a]
		print ""
		if (fam == "dragonfly")
			print "## Dragonflies (`topogen dragonfly A H P [G]`): uniform throughput, permutation bandwidth, CDG, VLs"
		else
			print "## Dragonfly+ (`topogen dfplus GROUPS LEAVES SPINES HOSTS [GLOBAL_PER_PAIR]`): uniform throughput, permutation bandwidth, CDG, VLs"
		print ""
		print "uniform: throughput when every host sends 1.0 to every host; perm: mean permutation bandwidth (lftcheck --perm); cdg: on ONE VL, for turnadd-vls4 every SL's CDG (lftcheck --sl); VLs: those the engine said it needs (dfsssp, lash), the SLs turnadd-vls4's routes use, 1 for the others."
		print ""
		print "| fabric | switches | hosts | engine | uniform | perm | cdg | VLs |"
		print "| --- | --- | --- | --- | --- | --- | --- | --- |"
		for (i = 1; i <= nff[fam]; i++) {
			f = ff[fam, i]
			for (j = 1; j <= ne; j++) {
				k = f SUBSEP eng[j]
				if (!(k in dst)) continue
				if (dst[k] != "ok") u = dst[k]
				else if (dunr[k] != 0) u = dunr[k] " pairs unreachable"
				else u = dthr[k]
				printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f, dsw[f], dh[f], eng[j], u, (dst[k] == "ok" ? dperm[k] : "-"), (dst[k] == "ok" ? dcdg[k] : "-"), dvls[k]
			}
		}
	}
	print ""
	print "## Reachability, deadlock freedom, virtual lanes (all fabrics)"
	print ""
	print "cdg: the channel dependency graph of the tables on ONE virtual lane"
	print "(routes from every switch with hosts to every host and switch LID)."
	print "Engines that need several VLs (dfsssp, lash) spread routes over VLs,"
	print "so a cycle on one VL is expected for them: \"needs N VLs\"."
	print "turnadd-vls4's cdg is every SL's (lftcheck --sl), its VLs the SLs it uses."
	print ""
	print "| engine | runs | ok | fallback | failed | all reachable | CDG acyclic on 1 VL | VLs needed |"
	print "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for (j = 1; j <= ne; j++) {
		e = eng[j]
		vl = (vmax[e] == "" ? "-" : (vmin[e] == vmax[e] ? vmax[e] : vmin[e] "-" vmax[e]))
		printf "| %s | %d | %d | %d | %d | %d/%d | %d/%d | %s |\n", e, tot[e], okc[e], nst[e, "fallback"], nst[e, "failed"], reach[e], okc[e], acyc[e], okc[e], vl
	}
}
AWK
	report_targets "$csv" >>"$dir/tables.md"
	report_plots "$dir"
}

# The targets, each with its numbers and "met" / "NOT met".
report_targets() {
	awk -F, -f /dev/stdin "$1" <<'AWK'
function num(x) { return x != "-" && x != "" }
function verdict(ok) { return ok ? "met" : "NOT met" }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	fam = $c["family"]; e = $c["engine"]; st = $c["status"]
	if (e == "turnadd") {
		ta_runs++
		if (st == "ok" && $c["unreachable_host_pairs"] == 0 && $c["unreachable_host_to_switch"] == 0 && $c["cdg"] == "acyclic") ta_good++
		else ta_bad = ta_bad " " $c["fabric"] "(" st "," $c["unreachable_host_pairs"] "," $c["cdg"] ")"
	}
	if (fam == "random") {
		n = $c["size"]; if (n + 0 > nmax + 0) nmax = n
		if (!(n in nseen)) { nseen[n] = 1; nl[++nnl] = n }
		if (st == "ok" && num($c["throughput"]) && $c["unreachable_host_pairs"] == 0) {
			rs[n, e] += $c["throughput"]; rn[n, e]++
			if (("perm" in c) && num($c["perm"])) { ps[n, e] += $c["perm"]; pn[n, e]++ }
		}
	} else if (fam == "joined") {
		k = $c["size"]; j = $c["join"]
		if (!((k, j) in fab)) { fab[k, j] = 1; fl[++nf] = k SUBSEP j }
		if (st == "ok" && $c["unreachable_host_pairs"] == 0) {
			intra[k, j, e] = $c["intra"]; inter[k, j, e] = $c["inter"]
			one_vl[k, j, e] = $c["cdg"] == "acyclic"
			if (!(e in eseen)) { eseen[e] = 1; el[++nel] = e }
		}
	}
}
function mean(n, e) { return rn[n, e] ? rs[n, e] / rn[n, e] : "" }
function pmean(n, e) { return pn[n, e] ? ps[n, e] / pn[n, e] : "" }
# random nets: turnadd >= tp at every N on one metric (m: 1 uniform, 2 perm)
function vs_tp(m,   i, n, a, t, ok, s, any) {
	ok = 1; s = ""; any = 0
	for (i = 1; i <= nnl; i++) {
		n = nl[i]
		a = (m == 1 ? mean(n, "turnadd") : pmean(n, "turnadd"))
		t = (m == 1 ? mean(n, "tp") : pmean(n, "tp"))
		if (t == "") continue
		any = 1
		s = s sprintf(" %s: %s/%.4f;", n, (a == "" ? "-" : sprintf("%.4f", a)), t)
		if (a == "" || a < t - 1e-9) ok = 0
	}
	if (any) printf "| random: turnadd >= tp at every N (%s) |%s | %s |\n", (m == 1 ? "uniform" : "permutations"), s, verdict(ok)
}
function jrank(j) { return j == "top" ? 1 : j == "middle" ? 2 : j == "bottom" ? 3 : j == "top-alt" ? 4 : j == "middle-alt" ? 5 : 6 }
function before(a, b,   x, y) {
	split(a, x, SUBSEP); split(b, y, SUBSEP)
	return x[1] + 0 < y[1] + 0 || (x[1] == y[1] && jrank(x[2]) < jrank(y[2]))
}
END {
	# joined fabrics by size, then top, middle, bottom
	for (i = 1; i <= nf; i++) for (m = i + 1; m <= nf; m++)
		if (before(fl[m], fl[i])) { t = fl[i]; fl[i] = fl[m]; fl[m] = t }
	print ""
	print "## Targets"
	print ""
	print "| target | numbers | verdict |"
	print "| --- | --- | --- |"
	printf "| turnadd: 0 unreachable pairs and acyclic CDG on every fabric | %d of %d fabrics%s | %s |\n", ta_good, ta_runs, (ta_bad == "" ? "" : "; not:" ta_bad), verdict(ta_runs && ta_good == ta_runs)
	ok = 1; s = ""; any = 0
	for (q = 1; q <= nf; q++) {
		split(fl[q], p, SUBSEP); any = 1
		v = intra[p[1], p[2], "turnadd"]
		if (!num(v) || v + 0 < 0.9995) { ok = 0; s = s " K=" p[1] " " p[2] ": " (num(v) ? v : "none") ";" }
	}
	if (any) printf "| turnadd: intra-tree throughput 1.00 at every join and size | %s | %s |\n", (ok ? "all 1.0000" : s), verdict(ok)
	if (nmax != "") {
		a = mean(nmax, "turnadd"); b = mean(nmax, "updn-best"); d = mean(nmax, "dfsssp")
		if (a != "" && b != "") printf "| random, %d switches: turnadd >= 2x updn (best root) | %.4f / %.4f = %.2fx | %s |\n", nmax, a, b, a / b, verdict(a >= 2 * b)
		if (a != "" && d != "") printf "| random, %d switches: turnadd >= dfsssp (several VLs) | %.4f vs %.4f (%.2fx) | %s |\n", nmax, a, d, a / d, verdict(a >= d - 1e-9)
		t = mean(nmax, "tp")
		if (a != "" && t != "") printf "| random, %d switches: turnadd vs tp (paper: about equal) | %.4f vs %.4f (%.2fx) | info |\n", nmax, a, t, a / t
	}
	for (i = 1; i <= nnl; i++) for (m = i + 1; m <= nnl; m++)
		if (nl[m] + 0 < nl[i] + 0) { t = nl[i]; nl[i] = nl[m]; nl[m] = t }
	vs_tp(1); vs_tp(2)
	ok = 1; s = ""; any = 0
	for (i = 1; i <= nnl; i++) {
		n = nl[i]; a = mean(n, "turnadd"); b = mean(n, "updn-best")
		if (n + 0 < 50 || a == "" || b == "") continue
		any = 1; s = s sprintf(" %s: %.2fx;", n, a / b)
		if (a < 2 * b) ok = 0
	}
	if (any) printf "| random, N >= 50: turnadd >= 2x updn-best (uniform) |%s | %s |\n", s, verdict(ok)
	ok = 1; s = ""; any = 0
	for (q = 1; q <= nf; q++) {
		split(fl[q], p, SUBSEP)
		a = inter[p[1], p[2], "turnadd"]; t = inter[p[1], p[2], "tp"]
		if (!num(t)) continue
		any = 1
		s = s sprintf(" K=%s %s: %s/%s=%s;", p[1], p[2], (num(a) ? a : "-"), t, (num(a) && t > 0 ? sprintf("%.2fx", a / t) : "-"))
		if (!num(a) || a + 0 < t - 1e-9) ok = 0
	}
	if (any) printf "| joined: turnadd inter >= tp inter at every join and size |%s | %s |\n", s, verdict(ok)
	else if (nf) printf "| joined: turnadd inter >= tp inter at every join and size | no tp results | NOT met (not measured) |\n"
	ok = 1; s = ""; any = 0
	for (q = 1; q <= nf; q++) {
		split(fl[q], p, SUBSEP)
		a = inter[p[1], p[2], "turnadd"]; t = inter[p[1], p[2], "tp"]
		if (p[2] !~ /^middle/ || p[1] + 0 < 16 || !num(t)) continue
		any = 1
		s = s sprintf(" K=%s %s: %s/%s=%s;", p[1], p[2], (num(a) ? a : "-"), t, (num(a) && t > 0 ? sprintf("%.2fx", a / t) : "-"))
		if (!num(a) || a + 0 < 2 * t - 1e-9) ok = 0
	}
	if (any) printf "| joined, middle join, K >= 16: turnadd inter >= 2x tp |%s | %s |\n", s, verdict(ok)
	# OpenSM's one-VL engines (reachable, acyclic on one VL) by inter
	ok = 1; s = ""; any = 0
	for (q = 1; q <= nf; q++) {
		split(fl[q], p, SUBSEP)
		a = inter[p[1], p[2], "turnadd"]
		for (x = 1; x <= nel; x++) {
			e = el[x]
			if (e == "turnadd" || e == "tp" || !one_vl[p[1], p[2], e] || !num(inter[p[1], p[2], e])) continue
			any = 1
			if (num(a) && a + 0 >= inter[p[1], p[2], e] - 1e-9) continue
			ok = 0
			s = s sprintf(" K=%s %s: %s %s/%s against %s/%s;", p[1], p[2], e, intra[p[1], p[2], e], inter[p[1], p[2], e], intra[p[1], p[2], "turnadd"], (num(a) ? a : "-"))
		}
	}
	if (any) printf "| joined: turnadd inter >= every other engine reachable and acyclic on one VL | %s | %s |\n", (ok ? "everywhere" : "not at:" s), verdict(ok)
	# nowhere an engine at least as good on both and better on one
	ok = 1; s = ""; any = 0
	for (q = 1; q <= nf; q++) {
		split(fl[q], p, SUBSEP)
		a = intra[p[1], p[2], "turnadd"]; b = inter[p[1], p[2], "turnadd"]
		for (x = 1; x <= nel; x++) {
			e = el[x]
			if (e == "turnadd" || !one_vl[p[1], p[2], e] || !num(intra[p[1], p[2], e]) || !num(inter[p[1], p[2], e])) continue
			any = 1
			if (num(a) && num(b) && !(intra[p[1], p[2], e] + 0 >= a - 1e-9 && inter[p[1], p[2], e] + 0 >= b - 1e-9 && (intra[p[1], p[2], e] + 0 > a + 1e-9 || inter[p[1], p[2], e] + 0 > b + 1e-9))) continue
			ok = 0
			s = s sprintf(" K=%s %s: %s %s/%s;", p[1], p[2], e, intra[p[1], p[2], e], inter[p[1], p[2], e])
		}
	}
	if (any) printf "| joined: no one-VL engine (reachable, acyclic) at least as good on intra and inter and better on one | %s | %s |\n", (ok ? "none" : s), verdict(ok)
	for (u = 1; u <= 2; u++) {
		e = (u == 1 ? "updn-best" : "updn")
		ok = 1; s = ""; any = 0
		for (q = 1; q <= nf; q++) {
			split(fl[q], p, SUBSEP)
			if (p[2] ~ /^bottom/) continue
			v = intra[p[1], p[2], e]
			if (!num(v)) continue
			any = 1
			s = s sprintf(" K=%s %s: %s;", p[1], p[2], v)
			if (v + 0 >= 0.9995) ok = 0
		}
		if (any) printf "| %s loses intra-tree bandwidth at the top and middle joins |%s | %s |\n", e, s, verdict(ok)
	}
}
AWK
}

# Plots from quality.csv with gnuplot (skipped without it).
report_plots() {
	local dir=$1 csv=$1/quality.csv d
	command -v gnuplot >/dev/null 2>&1 || return 0
	d=$(mktemp -d "${TMPDIR:-/tmp}/bench_quality_plot.XXXXXX")
	: >"$dir/gnuplot.log"
	# fig21.dat: N then the mean throughput of each engine ("?" = none)
	awk -F, -v d="$d" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["family"] == "random" {
			n = $c["size"]; e = $c["engine"]
			if (!(n in ns)) { ns[n] = 1; nl[++nn] = n }
			if (!(e in es)) { es[e] = 1; el[++ne] = e }
			if ($c["status"] == "ok" && $c["throughput"] != "-" && $c["unreachable_host_pairs"] == 0) {
				s[n, e] += $c["throughput"]; k[n, e]++
			}
		}
		$c["family"] == "joined" {
			K = $c["size"]; j = $c["join"]; e = $c["engine"]
			if (!(e in js)) { js[e] = 1; jl[++nje] = e }
			if (K + 0 > kmax + 0) kmax = K
			h[K] = $c["hosts"] / 2
			if ($c["status"] == "ok" && $c["unreachable_host_pairs"] == 0) {
				in_[K, j, e] = $c["intra"]; out_[K, j, e] = $c["inter"]
			}
			ks[K] = 1; jo[j] = 1
		}
		END {
			f = d "/fig21.dat"
			printf "N" > f; for (j = 1; j <= ne; j++) printf " %s", el[j] > f; print "" > f
			for (i = 1; i <= nn; i++) for (m = i + 1; m <= nn; m++)
				if (nl[m] + 0 < nl[i] + 0) { t = nl[i]; nl[i] = nl[m]; nl[m] = t }
			for (i = 1; i <= nn; i++) {
				printf "%s", nl[i] > f
				for (j = 1; j <= ne; j++)
					printf " %s", (k[nl[i], el[j]] ? s[nl[i], el[j]] / k[nl[i], el[j]] : "?") > f
				print "" > f
			}
			print nn + 0 > (d "/n_random")
			f = d "/fig22.dat"
			printf "join" > f; for (j = 1; j <= nje; j++) printf " %s %s", jl[j], jl[j] > f; print "" > f
			split("top middle bottom", jn, " ")
			for (i = 1; i <= 3; i++) {
				if (!(jn[i] in jo)) continue
				printf "%s", jn[i] > f
				for (j = 1; j <= nje; j++) {
					a = in_[kmax, jn[i], jl[j]]; b = out_[kmax, jn[i], jl[j]]
					printf " %s %s", (a == "" || a == "-" ? "?" : a), (b == "" || b == "-" ? "?" : b) > f
				}
				print "" > f
			}
			f = d "/fig25.dat"
			printf "hosts" > f; for (j = 1; j <= nje; j++) printf " %s %s", jl[j], jl[j] > f; print "" > f
			for (K in ks) kk[++nkk] = K
			for (i = 1; i <= nkk; i++) for (m = i + 1; m <= nkk; m++)
				if (kk[m] + 0 < kk[i] + 0) { t = kk[i]; kk[i] = kk[m]; kk[m] = t }
			for (i = 1; i <= nkk; i++) {
				printf "%s", h[kk[i]] > f
				for (j = 1; j <= nje; j++) {
					a = in_[kk[i], "middle", jl[j]]; b = out_[kk[i], "middle", jl[j]]
					printf " %s %s", (a == "" || a == "-" ? "?" : a), (b == "" || b == "-" ? "?" : b) > f
				}
				print "" > f
			}
			print nje + 0 > (d "/n_joined_engines"); print kmax + 0 > (d "/kmax")
			print h[kmax] + 0 > (d "/hmax"); print ("middle" in jo) + 0 > (d "/has_middle")
		}' "$csv"
	local nr nje kmax hmax lts
	# one colour per engine column, the first (turnadd by default) bold
	lts='set linetype 1 lc rgb "#d62728" lw 3 pt 7 ps 1.2
set linetype 2 lc rgb "#ff7f0e" lw 2 pt 5
set linetype 3 lc rgb "#1f77b4" lw 2 pt 9
set linetype 4 lc rgb "#2ca02c" lw 2 pt 11
set linetype 5 lc rgb "#9467bd" lw 2 pt 13
set linetype 6 lc rgb "#8c564b" lw 2 pt 4
set linetype 7 lc rgb "#e377c2" lw 2 pt 6
set linetype 8 lc rgb "#7f7f7f" lw 2 pt 8
set linetype 9 lc rgb "#17becf" lw 2 pt 10
set linetype cycle 9'
	nr=$(awk 'NR == 1 { print NF - 1 }' "$d/fig21.dat")
	nje=$(cat "$d/n_joined_engines")
	kmax=$(cat "$d/kmax") hmax=$(cat "$d/hmax")
	if (($(cat "$d/n_random") > 0)); then
		gnuplot 2>>"$dir/gnuplot.log" <<-GP
			$lts
			set terminal pngcairo size 900,560 font ",11"
			set output "$dir/fig21.png"
			set title "Random networks (10 switch ports, 10 hosts a switch): mean uniform throughput"
			set xlabel "switches"; set ylabel "throughput"
			set datafile missing "?"; set key outside right; set grid
			set yrange [0:*]
			plot for [i=2:$((nr + 1))] "$d/fig21.dat" using 1:i with linespoints lt (i-1) title columnheader(i)
		GP
	fi
	if ((nje > 0)); then
		gnuplot 2>>"$dir/gnuplot.log" <<-GP
			$lts
			set terminal pngcairo size 1100,700 font ",11"
			set output "$dir/fig22.png"
			set datafile missing "?"; set style data histograms
			set style histogram clustered gap 1; set style fill solid 0.8 border -1
			set key outside right; set grid y; set yrange [0:1.05]
			set multiplot layout 2,1 title "Two fat trees joined at each level, K=$kmax ($hmax hosts a tree)"
			set ylabel "intra-tree throughput"
			plot for [i=1:$nje] "$d/fig22.dat" using (column(2*i)):xtic(1) lt i title columnheader(2*i)
			set ylabel "inter-tree throughput"
			plot for [i=1:$nje] "$d/fig22.dat" using (column(2*i+1)):xtic(1) lt i title columnheader(2*i+1)
			unset multiplot
		GP
		if (($(cat "$d/has_middle"))); then
			gnuplot 2>>"$dir/gnuplot.log" <<-GP
				$lts
				set terminal pngcairo size 1100,700 font ",11"
				set output "$dir/fig25.png"
				set datafile missing "?"; set key outside right; set grid
				set logscale x 2; set xlabel "hosts a tree"; set yrange [0:1.05]
				set multiplot layout 2,1 title "Two fat trees joined at the middle level, by size"
				set ylabel "intra-tree throughput"
				plot for [i=1:$nje] "$d/fig25.dat" using 1:(column(2*i)) with linespoints lt i title columnheader(2*i)
				set ylabel "inter-tree throughput"
				plot for [i=1:$nje] "$d/fig25.dat" using 1:(column(2*i+1)) with linespoints lt i title columnheader(2*i+1)
				unset multiplot
			GP
		fi
	fi
	rm -rf "$d"
}
