#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_quality.sh: the routing-quality benchmark of the turn-addition
# paper (section 5: Figs. 21, 22, 25) on the forwarding tables OpenSM
# really pushes under ibsim, turnadd side by side with OpenSM's engines.
# For every fabric and engine it brings the fabric up, reads the LFTs back
# (lftread) and evaluates them with lftcheck: unreachable pairs, channel
# dependency graph on one VL, throughput (uniform on random networks;
# intra- and inter-tree on two joined fat trees), permutation bandwidth
# (lftcheck --perm: 100 random permutations and the shifts, every
# fabric), turns used, hops.
# Writes quality.csv, tables.md (the paper's figures as tables, and the
# issue's targets with their numbers) and PNG plots (gnuplot).  Installs
# what it needs and builds into _build when no --build is given.  Not part
# of make check (the default run takes tens of minutes).
#
#   bench_quality.sh [options]
#
# Fabrics:
#   --sizes LIST     random networks "topogen random N 10 10 SEED" (the
#                    paper's: 10 switch-to-switch ports and 10 hosts a
#                    switch) for these N (default 10,20,...,100; "none")
#   --seeds LIST     seeds, e.g. 1,2,3, or a count N for 1..N (default 3;
#                    the paper used 10 networks per size)
#   --ks LIST        joined fat trees "topogen ft3join K JOIN": two k-ary
#                    3-level fat trees (k^3/4 hosts each) joined by k^2/4
#                    links (default 4,8,16; 32 = 8,192 hosts a tree;
#                    "none")
#   --joins LIST     top,middle,bottom (default all three)
#   --wirings LIST   same (ft3join), alt (ft3join-alt: the join links
#                    from other positions, ibsim_topos/README); default
#                    same,alt.  alt rows have join "LEVEL-alt"
#   --quick          random N=10,20 seed 1 and joined K=4 only
# Engines:
#   --engines LIST   from turnadd (ours), tp (turnadd's turn_prohibition
#                    mode, the paper's TP), updn (OpenSM's own root
#                    choice), updn-best (best single root, below), ftree,
#                    minhop, dfsssp, nue, lash (default: all)
#   --updn-roots N   updn-best tries N switches spread evenly over the
#                    netfile's order as root (default 20; 0 = every
#                    switch).  Best: highest uniform throughput (random
#                    nets), highest intra-tree, then inter-tree throughput
#                    (joined trees).  One ibsim per fabric; OpenSM is
#                    restarted on it for each root (not SIGHUP: a resweep
#                    keeps the previous root's LFT entries where they are
#                    still min-hop, see try_roots)
# Runs:
#   --build DIR      build tree (default: install deps, build in _build)
#   --topogen PATH   fabric generator (default DIR/ibsim_topos/topogen)
#   --timeout SECS   bound for each bring-up, sweep and read-back (600)
#   --out DIR        results (default: a new dir in /tmp)
#   --results        also copy quality.csv, roots.csv, tables.md and the
#                    PNGs into results/quality/ of the source tree
#   --keep           keep every run's topology and LFTs in DIR/runs/
#   --report DIR     only redo tables.md and the plots from DIR/quality.csv
#   -v, --verbose    log the fabric steps to stderr
#
# quality.csv: one row per fabric and engine: family (random|joined),
# fabric, size (N switches, or K), seed, join, switches, hosts, engine,
# status (ok; fallback: OpenSM's tables came from another engine, named
# in routed_by; failed: no tables, see note), routed_by, vls (virtual
# lanes the engine said it needs; 1 for single-VL engines),
# unreachable_host_pairs, unreachable_host_to_switch, cdg (acyclic or
# CYCLE on one VL), throughput (uniform), intra, inter, join_links,
# prohibited_fraction (turns no route takes), mean_sw_hops, max_sw_hops,
# root (updn-best), roots_tried, up_s (opensm start to SUBNET UP), wall_s,
# note, perm (mean permutation bandwidth), perm_worst (lowest mean of one
# pattern).  roots.csv: every root updn-best tried.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$here/fabric_lib.sh"

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

# The report reads quality.csv only (--report DIR redoes it).
# Writes DIR/tables.md and, with gnuplot, DIR/fig21.png, fig22.png,
# fig25.png from DIR/quality.csv.
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
		if (jmax == "" || kk + 0 > jmax + 0) jmax = kk
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
function pcell(k) {
	if (!(k in jst)) return "-"
	if (jst[k] != "ok") return jst[k]
	return jperm[k]
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
	print "# Routing quality: turnadd and OpenSM's engines (tables read back from ibsim)"
	print ""
	print "Throughput = 1 / (load of the most loaded link direction), every"
	print "host sending 1.0 (lftcheck, scripts/README.md \"Routing quality\")."
	print "\"fallback\": OpenSM did not use the engine (its tables came from"
	print "minhop); \"failed\": no tables.  (a/b): mean over the a of b seeds"
	print "that ran with the engine."
	if (nn) {
		print ""
		print "## Random networks (Fig. 21): mean uniform throughput over the seeds"
		print ""
		print "`topogen random N 10 10 SEED`: N switches, 10 switch-to-switch ports and 10 hosts each."
		print ""
		hdr("switches", reng, nre)
		for (i = 1; i <= nn; i++) {
			s = "| " ns[i]
			for (j = 1; j <= nre; j++) {
				k = ns[i] SUBSEP reng[j]
				s = s " | " (k in rtot ? cell(rsum[k], rn[k], rwhy[k], rtot[k]) : "-")
			}
			print s " |"
		}
		print ""
		print "## Random networks: mean permutation bandwidth over the seeds"
		print ""
		print "lftcheck --perm: 100 random permutations (seed 1) and the shifts i -> i+s of the hosts ranked by name; a flow gets 1 / (flows on the most shared link of its path); mean over all flows (the effective bisection bandwidth of the SSSP/DFSSSP papers)."
		print ""
		hdr("switches", reng, nre)
		for (i = 1; i <= nn; i++) {
			s = "| " ns[i]
			for (j = 1; j <= nre; j++) {
				k = ns[i] SUBSEP reng[j]
				s = s " | " (k in rtot ? cell(rps[k], rpn[k], rwhy[k], rtot[k]) : "-")
			}
			print s " |"
		}
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
		hdr("fabric", eng, ne)
		for (a = 1; a <= nk; a++) for (i = 1; i <= nj; i++) {
			s = "| K=" ks[a] " " js[i]
			for (j = 1; j <= ne; j++) s = s " | " jcell(ks[a] SUBSEP js[i] SUBSEP eng[j])
			print s " |"
		}
		print ""
		print "\"-alt\": `topogen ft3join-alt K JOIN`, the same trees with the join links from other positions (ibsim_topos/README)."
		print ""
		print "## Every join level and size: permutation bandwidth (all hosts of both trees)"
		print ""
		hdr("fabric", eng, ne)
		for (a = 1; a <= nk; a++) for (i = 1; i <= nj; i++) {
			s = "| K=" ks[a] " " js[i]
			for (j = 1; j <= ne; j++) s = s " | " pcell(ks[a] SUBSEP js[i] SUBSEP eng[j])
			print s " |"
		}
	}
	print ""
	print "## Reachability, deadlock freedom, virtual lanes (all fabrics)"
	print ""
	print "cdg: the channel dependency graph of the tables on ONE virtual lane"
	print "(routes from every switch with hosts to every host and switch LID)."
	print "Engines that need several VLs (dfsssp, lash) spread routes over VLs,"
	print "so a cycle on one VL is expected for them: \"needs N VLs\"."
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

# The issue's targets, each with its numbers and "met" / "NOT met".
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
	} else {
		k = $c["size"]; j = $c["join"]
		if (!((k, j) in fab)) { fab[k, j] = 1; fl[++nf] = k SUBSEP j }
		if (st == "ok" && $c["unreachable_host_pairs"] == 0) {
			intra[k, j, e] = $c["intra"]; inter[k, j, e] = $c["inter"]
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
	else printf "| joined: turnadd inter >= tp inter at every join and size | no tp results | NOT met (not measured) |\n"
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

all_engines=turnadd,tp,updn,updn-best,ftree,minhop,dfsssp,nue,lash
sizes=10,20,30,40,50,60,70,80,90,100 seeds=3 ks=4,8,16
joins=top,middle,bottom wirings=same,alt engines=$all_engines updn_roots=20
build='' topogen='' timeout_s=600 out='' to_results=0 keep=0 report_dir=''
while (($#)); do
	case $1 in
	--sizes) sizes=${2:?}; shift ;;
	--seeds) seeds=${2:?}; shift ;;
	--ks) ks=${2:?}; shift ;;
	--joins) joins=${2:?}; shift ;;
	--wirings) wirings=${2:?}; shift ;;
	--quick) sizes=10,20 seeds=1 ks=4 ;;
	--engines) engines=${2:?}; shift ;;
	--updn-roots) updn_roots=${2:?}; shift ;;
	--build) build=${2:?}; shift ;;
	--topogen) topogen=${2:?}; shift ;;
	--timeout) timeout_s=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--results) to_results=1 ;;
	--report) report_dir=${2:?}; shift ;;
	--keep) keep=1 ;;
	-v | --verbose) export FAB_VERBOSE=1 ;;
	-h | --help) usage ;;
	*) printf 'bench_quality: unknown option %s\n' "$1" >&2; usage ;;
	esac
	shift
done

bad() {
	printf 'bench_quality: %s\n' "$*" >&2
	exit 2
}

# list_of NAME VALUE REGEX: VALUE split at commas into array NAME; "none"
# gives an empty list; every item must match REGEX.
list_of() {
	local -n arr=$1
	local item
	arr=()
	[[ $2 == none ]] && return 0
	IFS=, read -r -a arr <<<"$2"
	((${#arr[@]})) || bad "empty list '$2'"
	for item in "${arr[@]}"; do
		[[ $item =~ $3 ]] || bad "bad item '$item' in '$2'"
	done
}

size_list=() k_list=() join_list=() engine_list=() seed_list=() wiring_list=()
list_of size_list "$sizes" '^[1-9][0-9]*$'
list_of k_list "$ks" '^(4|8|16|32|64)$'
list_of join_list "$joins" '^(top|middle|bottom)$'
list_of wiring_list "$wirings" '^(same|alt)$'
list_of engine_list "$engines" "^(${all_engines//,/|})$"
if [[ $seeds =~ ^[1-9][0-9]*$ ]]; then
	seed_list=()
	for ((i = 1; i <= seeds; i++)); do
		seed_list+=("$i")
	done
else
	list_of seed_list "$seeds" '^[0-9]+$'
fi
[[ $updn_roots =~ ^[0-9]+$ ]] || bad "bad --updn-roots '$updn_roots'"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || bad "bad --timeout '$timeout_s'"
((${#engine_list[@]})) || bad "no engine"

if [[ -n $report_dir ]]; then
	report "$report_dir"
	printf 'bench_quality: %s/tables.md\n' "$report_dir"
	exit 0
fi

# Dependencies and build, as demo.sh does, unless --build names a tree.
if [[ -z $build ]]; then
	# shellcheck source-path=SCRIPTDIR source=ensure_build.sh
	. "$here/ensure_build.sh"
	ensure_build >&2
fi
build=$(cd "$build" && pwd) || bad "no build dir $build"
plugin_dir=$build/plugin/.libs
lftcheck=$build/scripts/lftcheck
lftread=$build/scripts/lftread
topogen=${topogen:-$build/ibsim_topos/topogen}
for f in "$lftcheck" "$lftread" "$topogen"; do
	[[ -x $f ]] || fab_die "$f not built (make, or --build DIR)"
done
[[ -e $plugin_dir/libturnadd.so ]] || fab_die "no libturnadd.so in $plugin_dir"
command -v gnuplot >/dev/null 2>&1 ||
	printf 'bench_quality: no gnuplot: no plots (scripts/install-deps.sh)\n' >&2

if [[ -z $out ]]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/bench_quality.XXXXXX")
fi
mkdir -p "$out/nets" "$out/runs"
out=$(cd "$out" && pwd)

csv_head='family,fabric,size,seed,join,switches,hosts,engine,status,routed_by,vls,unreachable_host_pairs,unreachable_host_to_switch,cdg,throughput,intra,inter,join_links,prohibited_fraction,mean_sw_hops,max_sw_hops,root,roots_tried,up_s,wall_s,note,perm,perm_worst'
echo "$csv_head" >"$out/quality.csv"
echo 'fabric,root,status,throughput,intra,inter,cdg,unreachable_host_pairs' \
	>"$out/roots.csv"

# ---------------------------------------------------------------- one run

# val KEY FILE: the value of "KEY=value" in lftcheck's output, "-" if none.
val() {
	local v
	v=$(grep -oE "(^| )$1=[^ ]+" "$2" 2>/dev/null | head -n 1) || true
	v=${v#* }
	v=${v#"$1="}
	printf '%s\n' "${v:--}"
}

# Switch names of a netfile in its order.
switch_names() {
	awk -F'"' '/^Switch[ \t]/ { print $2 }' "$1"
}

# The engine that configured the tables in the last routing, from the log.
routed_by() {
	grep -F 'tables configured on all switches' "$FAB_DIR/opensm.log" |
		tail -n 1 | sed -E 's/.*-> [a-z_]+: ([A-Za-z0-9_]+) tables configured.*/\1/'
}

# Virtual lanes the engine said it needed (OpenSM's log, INFO level).
vls_needed() {
	local n=1
	case $1 in
	dfsssp) n=$(grep -oE 'Virtual Lanes needed: [0-9]+' \
		"$FAB_DIR/opensm.log" | tail -n 1 | grep -oE '[0-9]+$') || n=- ;;
	lash) n=$(grep -oE 'Lanes needed: [0-9]+' "$FAB_DIR/opensm.log" |
		tail -n 1 | grep -oE '[0-9]+$') || n=- ;;
	esac
	printf '%s\n' "${n:--}"
}

# lftcheck with the options of the fabric family into FILE; its status
# (1: unreachable or cycle) is part of the result, not an error.
evaluate() {
	local file=$1
	"$lftcheck" -n 3 "${check_opts[@]}" "$FAB_DIR/topology.txt" \
		"$FAB_DIR/lfts.txt" >"$file" 2>&1 || true
	grep -q '^verdict=' "$file" ||
		fab_die "lftcheck failed: $(head -n 3 "$file")"
}

# score FILE: the number updn-best maximises, as "primary secondary".
score() {
	if [[ $family == joined ]]; then
		printf '%s %s\n' "$(val intra_throughput "$1")" \
			"$(val inter_throughput "$1")"
	else
		printf '%s 0\n' "$(val throughput "$1")"
	fi
}

# better "a1 a2" "b1 b2": true if a beats b (numbers or "-").
better() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= 2; i++) {
			if (x[i] == "-") x[i] = -1
			if (y[i] == "-") y[i] = -1
		}
		exit !(x[1] > y[1] + 1e-9 ||
			(x[1] > y[1] - 1e-9 && x[2] > y[2] + 1e-9))
	}'
}

# try_roots RESULT: updn-best's loop over the roots, on the same ibsim
# (LIDs and topology stay; the first root is already routed and evaluated
# in RESULT).  OpenSM is restarted for each root: a SIGHUP sweep would
# keep every LFT port of the previous root that is still a min-hop port
# (osm_switch_recommend_path() prefers the existing entry unless the
# subnet's ignore_existing_lfts is set, which only a new OpenSM, a new
# switch or a port change sets), so its tables would depend on the order
# of the roots.  A fresh OpenSM routes as on a fresh fabric.
try_roots() {
	local result=$1 best_score r try=$FAB_DIR/try.out
	best_score=$(score "$result")
	best_root=${roots[0]}
	printf '%s,%s,%s\n' "$fabric" "${roots[0]}" "$(root_row "$result")" \
		>>"$rdir/roots.csv"
	for r in "${roots[@]:1}"; do
		fab_node_guid "$r" >"$FAB_DIR/root_guids"
		fab_stop_pid "$FAB_OPENSM_PID" 5
		FAB_OPENSM_PID=
		mv "$FAB_DIR/opensm.log" "$FAB_DIR/opensm.log.prev"
		fab_start_opensm updn "$plugin_dir" \
			"root_guid_file $FAB_DIR/root_guids"
		fab_wait_subnet_up "$timeout_s"
		fab_sim_client "$timeout_s" "$lftread" "$FAB_DIR/topology.txt" \
			>"$FAB_DIR/lfts.txt" 2>"$FAB_DIR/lftread.err" ||
			fab_die "lftread failed: $(grep -v '^ibwarn' \
				"$FAB_DIR/lftread.err" | head -n 3)"
		evaluate "$try"
		[[ $(routed_by) == updn ]] || echo 'status=fallback' >>"$try"
		printf '%s,%s,%s\n' "$fabric" "$r" "$(root_row "$try")" \
			>>"$rdir/roots.csv"
		if [[ $(routed_by) == updn ]] &&
			better "$(score "$try")" "$best_score"; then
			best_score=$(score "$try")
			best_root=$r
			cp "$try" "$result"
			if ((keep)); then
				cp "$FAB_DIR/lfts.txt" "$rdir/lfts.txt"
			fi
		fi
	done
}

root_row() {
	local st=ok
	grep -q '^status=fallback' "$1" && st=fallback
	printf '%s,%s,%s,%s,%s,%s\n' "$st" "$(val throughput "$1")" \
		"$(val intra_throughput "$1")" "$(val inter_throughput "$1")" \
		"$(val cdg "$1")" "$(val unreachable_host_pairs "$1")"
}

# one_run ENGINE: a subshell (own ibsim, OpenSM, cleanup trap) that brings
# the fabric $net up with ENGINE and writes $rdir/result (key=value).
one_run() (
	set -e
	local engine=$1 osm_engine=$1 conf=() ta_conf='' up_s
	rm -rf "$rdir"
	mkdir -p "$rdir"
	fab_init
	trap 'save_run; fab_cleanup' EXIT
	fab_start_ibsim "$net"
	case $engine in
	turnadd | tp)
		osm_engine=turnadd
		ta_conf=$rdir/turnadd.conf
		: >"$ta_conf"
		if [[ $engine == tp ]]; then
			echo 'mode turn_prohibition' >>"$ta_conf"
		fi
		if [[ -n $traffic ]]; then
			echo "traffic_file $traffic" >>"$ta_conf"
		fi
		# shellcheck disable=SC2034 # read by fab_start_opensm
		FAB_OSM_ENV=("TURNADD_CONFIG=$ta_conf") ;;
	updn-best)
		osm_engine=updn
		fab_node_guid "${roots[0]}" >"$FAB_DIR/root_guids"
		conf+=("root_guid_file $FAB_DIR/root_guids") ;;
	nue)
		# routes to switch LIDs under the same deadlock rule too, as
		# every other engine here does (lftcheck counts them)
		conf+=('nue_include_switches TRUE') ;;
	esac
	fab_start_opensm "$osm_engine" "$plugin_dir" ${conf[@]+"${conf[@]}"}
	fab_wait_subnet_up "$timeout_s"
	up_s=$(fab_elapsed)
	fab_read_back "$lftread" "$timeout_s"
	evaluate "$rdir/result"
	if ((keep)); then
		cp "$FAB_DIR/topology.txt" "$FAB_DIR/lfts.txt" "$rdir/"
	fi
	if [[ $engine == updn-best ]]; then
		try_roots "$rdir/result"
		echo "root=$best_root" >>"$rdir/result"
		echo "roots_tried=${#roots[@]}" >>"$rdir/result"
	fi
	{
		echo "routed_by=$(routed_by)"
		echo "vls=$(vls_needed "$osm_engine")"
		echo "up_s=$up_s"
	} >>"$rdir/result"
)

# shellcheck disable=SC2317 # called from one_run's EXIT trap
save_run() {
	[[ -n ${FAB_DIR:-} && -d $FAB_DIR ]] || return 0
	if [[ -f $FAB_DIR/opensm.log ]]; then
		# the lines that say what the engine did, not the whole log
		grep -E 'tables configured|routing_engine|turnadd:|Lanes|root|ERR|fall|WRN' \
			"$FAB_DIR/opensm.log" | head -n 200 >"$rdir/opensm-excerpt.log" ||
			true
	fi
	cp "$FAB_DIR/opensm.conf" "$rdir/" 2>/dev/null || true
}

# run_engine ENGINE: one_run, then one CSV row.
run_engine() {
	local engine=$1 t0 wall rc=0 st note='' r c why
	t0=$(date +%s)
	rdir=$out/runs/$fabric-$engine
	# errexit stays on inside one_run (not a tested command)
	set +e
	one_run "$engine" 2>"$out/runs/$fabric-$engine.err"
	rc=$?
	set -e
	wall=$(($(date +%s) - t0))
	r=$rdir/result
	if ((rc)) || [[ ! -s $r ]] || ! grep -q '^routed_by=' "$r"; then
		st=failed
		note=$(grep -v '^ibwarn' "$out/runs/$fabric-$engine.err" |
			grep -m 1 -E 'error|exited|no SUBNET' | tr ',\n' ';;') || true
		note=${note:-exit $rc}
		: >>"$r"
	elif [[ $(val routed_by "$r") != "$(engine_osm_name "$engine")" ]]; then
		st=fallback
		note="OpenSM fell back to $(val routed_by "$r")"
		why=$(grep -m 1 -oE 'turnadd: [^ ]+:[0-9]+: .*|ERR [0-9A-F]+: .*' \
			"$rdir/opensm-excerpt.log" 2>/dev/null | tr ',' ';') || true
		if [[ -n $why ]]; then
			note="$note ($why)"
		fi
	else
		st=ok
	fi
	c=$(val cdg "$r")
	printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' \
		"$family" "$fabric" "$size" "$seed" "$join" \
		"$(val switches "$r")" "$(val hosts "$r")" "$engine" "$st" \
		"$(val routed_by "$r")" "$(val vls "$r")" \
		"$(val unreachable_host_pairs "$r")" \
		"$(val unreachable_host_to_switch "$r")" "$c" \
		"$(val throughput "$r")" "$(val intra_throughput "$r")" \
		"$(val inter_throughput "$r")" "$(val join_links "$r")" \
		"$(val prohibited_fraction "$r")" "$(val mean_sw_hops "$r")" \
		"$(val max_sw_hops "$r")" "$(val root "$r")" \
		"$(val roots_tried "$r")" "$(val up_s "$r")" "$wall" "$note" \
		"$(val perm_bandwidth "$r")" "$(val perm_worst_pattern "$r")" \
		>>"$out/quality.csv"
	if [[ -f $rdir/roots.csv ]]; then
		cat "$rdir/roots.csv" >>"$out/roots.csv"
	fi
	run_no=$((run_no + 1))
	printf '[%d/%d %4ds] %-22s %-9s %-8s thr=%s perm=%s intra=%s inter=%s cdg=%s unreach=%s vls=%s %s\n' \
		"$run_no" "$runs_total" "$(($(date +%s) - bench_t0))" "$fabric" \
		"$engine" "$st" "$(val throughput "$r")" \
		"$(val perm_bandwidth "$r")" \
		"$(val intra_throughput "$r")" "$(val inter_throughput "$r")" \
		"$c" "$(val unreachable_host_pairs "$r")" "$(val vls "$r")" \
		"$note"
}

engine_osm_name() {
	case $1 in
	tp) echo turnadd ;;
	updn-best) echo updn ;;
	*) echo "$1" ;;
	esac
}

# pick_roots NET: sets roots to updn_roots switches spread evenly (all if
# 0 or not more switches than that).
pick_roots() {
	local all=() i n
	mapfile -t all < <(switch_names "$1")
	n=${#all[@]}
	roots=()
	if ((updn_roots == 0 || n <= updn_roots)); then
		roots=("${all[@]}")
		return 0
	fi
	for ((i = 0; i < updn_roots; i++)); do
		roots+=("${all[i * n / updn_roots]}")
	done
}

# ------------------------------------------------------------- the fabrics

# the paper's two-tree traffic for turnadd: 1 inside a tree, 1/100 between
two_tree_traffic=$out/nets/two-trees.traffic
if ((${#k_list[@]})); then
	"$topogen" ft3join-traffic >"$two_tree_traffic" ||
		fab_die "topogen ft3join-traffic failed (a topogen with ft3join is needed)"
fi

fabrics=()
for n in "${size_list[@]}"; do
	for s in "${seed_list[@]}"; do
		fabrics+=("random $n $s -")
	done
done
for k in "${k_list[@]}"; do
	for w in "${wiring_list[@]}"; do
		for j in "${join_list[@]}"; do
			if [[ $w == alt ]]; then
				j=$j-alt
			fi
			fabrics+=("joined $k - $j")
		done
	done
done
runs_total=0
for f in "${fabrics[@]}"; do
	for e in "${engine_list[@]}"; do
		# ftree only where there are fat trees
		[[ $e == ftree && $f == random* ]] && continue
		runs_total=$((runs_total + 1))
	done
done
run_no=0 bench_t0=$(date +%s)
printf 'bench_quality: %d fabrics, %d runs, results in %s\n' \
	"${#fabrics[@]}" "$runs_total" "$out"

for f in "${fabrics[@]}"; do
	read -r family size seed join <<<"$f"
	if [[ $family == random ]]; then
		fabric=random-$size-s$seed
		net=$out/nets/$fabric.net
		"$topogen" random "$size" 10 10 "$seed" >"$net"
		traffic='' check_opts=(-t --perm)
	else
		fabric=join-$join-k$size
		net=$out/nets/$fabric.net
		gen=ft3join
		if [[ $join == *-alt ]]; then
			gen=ft3join-alt
		fi
		"$topogen" "$gen" "$size" "${join%-alt}" >"$net" ||
			fab_die "topogen $gen $size ${join%-alt} failed (a topogen with $gen is needed)"
		traffic=$two_tree_traffic check_opts=(-t --perm --groups 'tA-,tB-')
	fi
	pick_roots "$net"
	for e in "${engine_list[@]}"; do
		[[ $e == ftree && $family == random ]] && continue
		run_engine "$e"
	done
	if ((!keep)); then
		rm -f "$net"
	fi
done

report "$out"
if ((to_results)); then
	mkdir -p "$top/results/quality"
	cp "$out"/quality.csv "$out"/roots.csv "$out"/tables.md "$top/results/quality/"
	cp "$out"/*.png "$top/results/quality/" 2>/dev/null || true
	printf 'bench_quality: copied to %s\n' "$top/results/quality"
fi
printf 'bench_quality: done in %d s; %s/tables.md\n' \
	"$(($(date +%s) - bench_t0))" "$out"
