// SPDX-License-Identifier: MIT
/*
 * lftcheck: checks the unicast routes a subnet manager put into the
 * switches, independently of the routing engine that computed them, and
 * evaluates their quality.
 *
 *   lftcheck [-n MAX_DETAIL] [-t] [--turns] [--groups A,B] [--perm[=N]]
 *            [--sl FILE] TOPOLOGY LFTS
 *
 * TOPOLOGY is ibnetdiscover output (default format or -p, lc_ibnd.h),
 * LFTS the output of lftread, dump_lfts/dump_fts or ibroute (those
 * tools miss some entries, see lftread.c).  Exit status: 0 if every host
 * reaches every host and switch LID and the channel dependency graph is
 * acyclic, 1 if not, 2 on bad usage or input.  -t (--throughput) also
 * prints the papers' throughput of the routes (see lc_load.h) and the
 * turn usage (lc_turns.h, also --turns); --groups the throughput of
 * the two-group traffic (lc_groups.h); --perm the permutation
 * bandwidth (lc_perm.h); --sl one channel dependency graph per SL
 * (lc_sl.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_check.h"
#include "lc_groups.h"
#include "lc_ibnd.h"
#include "lc_input.h"
#include "lc_lmc.h"
#include "lc_load.h"
#include "lc_mcast.h"
#include "lc_parse.h"
#include "lc_perm.h"
#include "lc_sl.h"
#include "lc_through.h"
#include "lc_turns.h"

enum { OPT_TURNS = 256, OPT_GROUPS, OPT_VERSION, OPT_PERM, OPT_PERM_SEED,
       OPT_MFTS, OPT_MC_MEMBERS, OPT_LMC_SPREAD, OPT_THROUGH, OPT_SL };

static const char usage_text[] =
	"usage: lftcheck [-n MAX_DETAIL] [-t] [--turns] [--groups A,B] [--perm[=N]] "
	"[--lmc-spread-min K] [--through NAME[:PORT]]... [--sl FILE] "
	"TOPOLOGY LFTS\n"
	"  TOPOLOGY  ibnetdiscover output (default format or -p)\n"
	"  LFTS      lftread, dump_lfts / dump_fts or ibroute output\n"
	"  -n N      print at most N lines about unreachable routes "
	"(default 10)\n"
	"  -t, --throughput  also print throughput=1/(max link load) for\n"
	"            uniform all-to-all traffic (every host sends 1.0 spread\n"
	"            evenly over all other hosts; every link direction,\n"
	"            host links too, has capacity 1.0) and that link, and\n"
	"            the turn usage (as --turns)\n"
	"  --turns   print turns_total=T turns_used=U "
	"prohibited_fraction=1-U/T:\n"
	"            turns are (in link, out link) pairs of different\n"
	"            inter-switch links at a switch (parallel links count\n"
	"            apart, no U-turns); used: taken by a route from a\n"
	"            switch with hosts to any host or switch LID\n"
	"  --groups A,B  two-group traffic: a node is in group A if its\n"
	"            description (name) starts with A, in B if with B; every\n"
	"            host must be in one.  Prints intra_throughput= (each\n"
	"            host sends 1.0 over the other hosts of its group),\n"
	"            inter_throughput= (each host sends p/n over the hosts\n"
	"            of the other group; p = join_links, the switch-switch\n"
	"            links between A and B; n = hosts of the sender's "
	"group),\n"
	"            join_links=, hosts_a=, hosts_b=\n"
	"  --perm[=N]  permutation traffic (effective bisection bandwidth):\n"
	"            N random permutations (default 100, seed 1) and the\n"
	"            shifts i -> i+s (all, or 256 spread evenly), hosts\n"
	"            ranked by name; a flow gets 1/(flows on the most\n"
	"            shared link of its path).  Prints perm_bandwidth= (mean\n"
	"            over all flows), perm_random=, perm_shift=,\n"
	"            perm_worst_pattern=, perm_patterns=, perm_shifts=,\n"
	"            perm_undelivered_flows=\n"
	"  --perm-seed S  seed of the random permutations\n"
	"  --mfts FILE  also check multicast: FILE is OpenSM's opensm.mcfdbs\n"
	"            or mftread output; per group every member port must\n"
	"            reach every other exactly once, no loop, and the CDG\n"
	"            checked is that of unicast and multicast together\n"
	"  --mc-members FILE  mcjoin output: the joined ports must be in\n"
	"            their group's tables (ports not in TOPOLOGY are skipped)\n"
	"  --lmc-spread-min K  fail (verdict=FAIL) if, from a switch with\n"
	"            hosts, the LIDs of a host port on another switch leave\n"
	"            through fewer than min(K, its LIDs, the switch's\n"
	"            neighbour switches) distinct next-hop switches.  With\n"
	"            LMC > 0 (or this option) lftcheck prints lmc_lids= (most\n"
	"            LIDs a port has), lmc_pairs=, lmc_spines_min=,\n"
	"            lmc_spines_mean= (distinct next hops over those\n"
	"            (switch, port) pairs) and lmc_spread_short=\n"
	"  --through NAME[:PORT]  (repeatable) the switch NAME (its node\n"
	"            description), or the cable on its PORT, taken as failed:\n"
	"            prints through_switches=, through_entries= and\n"
	"            through_blocks=, the switches, (switch, LID) routes and\n"
	"            (switch, 64-LID block) pairs whose route, followed\n"
	"            through the LFTs, enters a failed switch or crosses a\n"
	"            failed cable (LIDs of the failed switches and of hosts\n"
	"            cabled only to them left out): with the tables from\n"
	"            before a failure, the routes it forces to move;\n"
	"            through_hop_entries= and through_hop_blocks= count those\n"
	"            whose own next hop is the failed part (entries every\n"
	"            reroute must change)\n"
	"  --sl FILE  the SL of every route: lines \"0x<switch GUID> <dlid>\n"
	"            <sl>\" (turnadd's opensm-turnadd-sl.dump); one CDG per\n"
	"            SL from the routes of the switches with hosts (a route\n"
	"            keeps its source switch's SL), multicast in SL 0's;\n"
	"            prints per SL sl=I paths= cdg_channels= cdg_edges=\n"
	"            cdg=, then sl_layers= sl_lines= sl_unknown=\n"
	"            sl_unset= (routes without a line: SL 0) and cdg=\n"
	"            (acyclic if every SL's is); --turns counts SL 0's\n"
	"  --help    this text\n"
	"  --version print the version\n"
	"Hops (max_sw_hops, mean_sw_hops): inter-switch links, over ordered\n"
	"host pairs.\n"
	"Exit 0: all reachable and CDG acyclic (and the LMC spread as asked);\n"
	"1: not; 2: bad input.\n";

static void print_cycle(const struct lc_fabric *f, const struct lc_cdg *g,
			const unsigned *cycle, unsigned len)
{
	unsigned i;

	printf("cdg=CYCLE len=%u:", len);
	for (i = 0; i <= len; i++) {
		unsigned slot = cycle[i % len];
		unsigned sw = lc_cdg_slot_sw(g, slot);

		printf("%s%s[%u]", i ? "->" : " ", f->node[f->sw_node[sw]].desc,
		       lc_cdg_slot_port(g, slot));
	}
	putchar('\n');
}

/* one line per SL, then the CDG verdict over every SL */
static void print_sl_cdgs(const struct lc_fabric *f, const struct lc_report *r,
			  const struct lc_sl *t)
{
	unsigned i, cyclic = 0;

	for (i = 0; i < r->n_sl; i++) {
		const struct lc_cdg *g = i ? &r->sl[i].cdg : &r->cdg;
		int res = i ? r->sl[i].result : r->cdg_result;

		printf("sl=%u paths=%llu cdg_channels=%u cdg_edges=%lu ", i,
		       r->sl_paths[i], lc_cdg_channels(g), lc_cdg_edges(g));
		if (res)
			print_cycle(f, g, i ? r->sl[i].cycle : r->cycle,
				    i ? r->sl[i].cycle_len : r->cycle_len);
		else
			printf("cdg=acyclic\n");
		cyclic += res != 0;
	}
	printf("sl_layers=%u sl_lines=%lu sl_unknown=%lu sl_unset=%llu ",
	       r->n_sl, t->lines, t->unknown, r->sl_unset);
	if (cyclic)
		printf("cdg=CYCLE in %u of %u SLs\n", cyclic, r->n_sl);
	else
		printf("cdg=acyclic\n");
}

static void print_report(const struct lc_fabric *f, const struct lc_report *r,
			 const struct lc_sl *t, int ok)
{
	double mean = r->hop_pairs ? (double)r->hop_sum / r->hop_pairs : 0;

	printf("hosts=%u switches=%u host_pairs=%llu "
	       "unreachable_host_pairs=%llu unreachable_host_to_switch=%llu\n",
	       r->hosts, r->switches, r->host_pairs, r->unreachable_host_pairs,
	       r->unreachable_host_to_switch);
	if (r->hosts_without_lid || r->switches_without_lid)
		printf("hosts_without_lid=%u switches_without_lid=%u\n",
		       r->hosts_without_lid, r->switches_without_lid);
	printf("max_sw_hops=%u mean_sw_hops=%.3f\n", r->max_hops, mean);
	if (r->n_sl) {
		print_sl_cdgs(f, r, t);
	} else {
		printf("cdg_channels=%u cdg_edges=%lu ",
		       lc_cdg_channels(&r->cdg), lc_cdg_edges(&r->cdg));
		if (r->cdg_result)
			print_cycle(f, &r->cdg, r->cycle, r->cycle_len);
		else
			printf("cdg=acyclic\n");
	}
	printf("verdict=%s\n", ok ? "OK" : "FAIL");
}

/* SW[P] of the most loaded link, or host-link. */
static void print_max_link(const struct lc_fabric *f,
			   const struct lc_load_report *lr)
{
	if (lr->max_sw >= 0)
		printf("%s[%u]", f->node[f->sw_node[lr->max_sw]].desc,
		       lr->max_port);
	else
		printf("host-link");
}

/*
 * throughput=T max_link_load=L max_link=SW[P] links_at_max=N, and
 * undelivered=U (share of the traffic not delivered) if there is some.
 */
static int print_throughput(const struct lc_fabric *f)
{
	struct lc_traffic t;
	struct lc_load_report lr;

	lc_traffic_uniform(&t);
	if (lc_load_compute(f, &t, &lr))
		return -1;
	printf("throughput=%.4f max_link_load=%.4f max_link=", lr.throughput,
	       lr.max_load);
	print_max_link(f, &lr);
	printf(" links_at_max=%u", lr.links_at_max);
	if (lr.lost > 0 && lr.sent > 0)
		printf(" undelivered=%.6f", lr.lost / lr.sent);
	putchar('\n');
	return 0;
}

/*
 * intra_throughput=X inter_throughput=Y join_links=P hosts_a=NA
 * hosts_b=NB, then the most loaded link of each.
 */
static int print_groups(const struct lc_fabric *f, const struct lc_groups *g)
{
	struct lc_traffic t;
	struct lc_load_report intra, inter;

	lc_groups_intra(g, &t);
	if (lc_load_compute(f, &t, &intra))
		return -1;
	lc_groups_inter(g, &t);
	if (lc_load_compute(f, &t, &inter))
		return -1;
	printf("intra_throughput=%.4f inter_throughput=%.4f join_links=%u "
	       "hosts_a=%u hosts_b=%u", intra.throughput, inter.throughput,
	       g->join_links, g->hosts[0], g->hosts[1]);
	printf(" intra_max_link_load=%.4f intra_max_link=", intra.max_load);
	print_max_link(f, &intra);
	printf(" inter_max_link_load=%.4f inter_max_link=", inter.max_load);
	print_max_link(f, &inter);
	putchar('\n');
	return 0;
}

static void print_turns(const struct lc_report *r)
{
	struct lc_turns t;

	lc_turns_count(&r->cdg, &t);
	printf("turns_total=%llu turns_used=%llu prohibited_fraction=%.4f\n",
	       t.total, t.used,
	       t.total ? 1.0 - (double)t.used / (double)t.total : 0.0);
}

static int print_perm(const struct lc_fabric *f, const struct lc_perm_opts *o)
{
	struct lc_perm_report r;

	if (lc_perm_compute(f, o, &r))
		return -1;
	printf("perm_bandwidth=%.4f perm_random=", r.bandwidth);
	if (r.patterns > r.shifts)
		printf("%.4f", r.random_bandwidth);
	else
		putchar('-');	/* no random pattern */
	printf(" perm_shift=%.4f perm_worst_pattern=%.4f perm_patterns=%u "
	       "perm_shifts=%u perm_undelivered_flows=%llu\n",
	       r.shift_bandwidth, r.worst_pattern, r.patterns, r.shifts,
	       r.undelivered);
	return 0;
}

struct options {
	int throughput, turns;
	unsigned long max_detail;
	const char *groups;	/* --groups argument, or NULL */
	int perm;
	struct lc_perm_opts perm_opts;
	const char *mfts, *mc_members;	/* multicast (lc_mcast.h) */
	const char *topo;
	unsigned lmc_spread;	/* --lmc-spread-min, 0: none */
	const char *through[LC_THROUGH_MAX];	/* --through (lc_through.h) */
	unsigned n_through;
	const char *sl;		/* --sl FILE, or NULL */
};

/* The unsigned number in arg, or -1 (message printed). */
static int parse_count(const char *what, const char *arg,
		       unsigned long long *v)
{
	char *end;

	*v = strtoull(arg, &end, 10);
	if (!*arg || *end || *arg == '-' || *v > 0xffffffffull) {
		fprintf(stderr, "lftcheck: bad %s '%s'\n", what, arg);
		return -1;
	}
	return 0;
}

/* 0: go on, 1: --help or --version printed, -1: bad usage (printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option long_opts[] = {
		{ "throughput", no_argument, NULL, 't' },
		{ "turns", no_argument, NULL, OPT_TURNS },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "perm", optional_argument, NULL, OPT_PERM },
		{ "perm-seed", required_argument, NULL, OPT_PERM_SEED },
		{ "mfts", required_argument, NULL, OPT_MFTS },
		{ "mc-members", required_argument, NULL, OPT_MC_MEMBERS },
		{ "lmc-spread-min", required_argument, NULL, OPT_LMC_SPREAD },
		{ "through", required_argument, NULL, OPT_THROUGH },
		{ "sl", required_argument, NULL, OPT_SL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	char *end;
	int opt;

	*o = (struct options){ .max_detail = 10, .perm_opts = {
		.random = LC_PERM_DEFAULT_RANDOM,
		.max_shifts = LC_PERM_DEFAULT_SHIFTS,
		.seed = LC_PERM_DEFAULT_SEED } };
	while ((opt = getopt_long(argc, argv, "hn:t", long_opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			o->throughput = 1;
			o->turns = 1;
			break;
		case OPT_TURNS:
			o->turns = 1;
			break;
		case OPT_GROUPS:
			o->groups = optarg;
			break;
		case OPT_PERM:
			o->perm = 1;
			if (optarg && parse_count("--perm", optarg, &v))
				return -1;
			if (optarg)
				o->perm_opts.random = (unsigned)v;
			break;
		case OPT_PERM_SEED:
			if (parse_count("--perm-seed", optarg, &v))
				return -1;
			o->perm_opts.seed = v;
			break;
		case OPT_MFTS:
			o->mfts = optarg;
			break;
		case OPT_MC_MEMBERS:
			o->mc_members = optarg;
			break;
		case OPT_LMC_SPREAD:
			if (parse_count("--lmc-spread-min", optarg, &v) ||
			    !v || v > 128) {
				fprintf(stderr, "lftcheck: --lmc-spread-min takes 1 to 128\n");
				return -1;
			}
			o->lmc_spread = (unsigned)v;
			break;
		case OPT_THROUGH:
			if (o->n_through == LC_THROUGH_MAX) {
				fprintf(stderr, "lftcheck: at most %d --through\n",
					LC_THROUGH_MAX);
				return -1;
			}
			o->through[o->n_through++] = optarg;
			break;
		case OPT_SL:
			o->sl = optarg;
			break;
		case 'n':
			o->max_detail = strtoul(optarg, &end, 10);
			if (!*optarg || *end) {
				fprintf(stderr, "lftcheck: bad -n '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case OPT_VERSION:
			puts("lftcheck (turnadd) " TURNADD_VERSION);
			return 1;
		default:
			fputs(usage_text, stderr);
			return -1;
		}
	}
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return -1;
	}
	return 0;
}

/* The optional evaluations; -1 if out of memory. */
static int print_quality(const struct lc_fabric *f, const struct lc_report *r,
			 const struct options *o, const struct lc_groups *g)
{
	if (o->throughput && print_throughput(f))
		return -1;
	if (o->turns)
		print_turns(r);
	if (o->groups && print_groups(f, g))
		return -1;
	if (o->perm && print_perm(f, &o->perm_opts))
		return -1;
	return 0;
}

/* The --through line; -1 on error (printed). */
static int print_through(const struct lc_fabric *f, const struct options *o)
{
	struct lc_part parts[LC_THROUGH_MAX];
	struct lc_through_report tr;
	unsigned i;

	for (i = 0; i < o->n_through; i++)
		if (lc_part_parse(f, o->through[i], &parts[i]))
			return -1;
	if (lc_through(f, parts, o->n_through, &tr)) {
		fprintf(stderr, "lftcheck: out of memory\n");
		return -1;
	}
	printf("through_switches=%u through_entries=%llu through_blocks=%llu "
	       "through_hop_entries=%llu through_hop_blocks=%llu\n",
	       tr.switches, tr.entries, tr.blocks, tr.hop_entries,
	       tr.hop_blocks);
	return 0;
}

/*
 * The multicast tables' check; their turns join the CDG, whose cycle
 * search runs again.  Prints the mcast_ line; -1 on error (printed).
 */
static int mcast_check(const struct options *o, const struct lc_fabric *f,
		       struct lc_report *r, struct lc_mcast *mc,
		       struct lc_mc_report *mr)
{
	if (lc_mcast_read(mc, f, o->mfts) ||
	    (o->mc_members && (lc_mcast_read_members(mc, o->mc_members) ||
				lc_mcast_resolve(mc, f, o->topo))))
		return -1;
	if (lc_mcast_check(mc, f, &r->cdg, mr, stdout,
			   (unsigned)o->max_detail))
		goto oom;
	free(r->cycle);
	r->cycle = NULL;
	r->cycle_len = 0;
	r->cdg_result = lc_cdg_find_cycle(&r->cdg, &r->cycle, &r->cycle_len);
	if (r->cdg_result < 0)
		goto oom;
	printf("mcast_groups=%u mcast_members=%lu mcast_pairs=%lu "
	       "mcast_missed=%lu mcast_duplicates=%lu mcast_loops=%lu "
	       "mcast_dead_ends=%lu mcast_joined_not_in_tables=%lu "
	       "mcast_joined_gone=%lu mcast_stale_groups=%lu "
	       "mcast_unknown_switches=%lu\n",
	       mr->groups, mr->members, mr->pairs, mr->missed, mr->duplicates,
	       mr->loops, mr->dead_ends, mr->not_in_tree, mc->expect_gone,
	       mr->stale, mc->unknown_switches);
	return 0;
oom:
	fprintf(stderr, "lftcheck: out of memory\n");
	return -1;
}

int main(int argc, char **argv)
{
	struct options o;
	struct lc_groups g = { 0 };
	struct lc_fabric f;
	struct lc_report r;
	struct lc_mcast mc;
	struct lc_mc_report mr;
	struct lc_lmc_report lr;
	struct lc_sl sl = { 0 };
	const char *topo, *lfts;
	int ret = 2;

	lc_prog_name = "lftcheck";
	switch (parse_options(argc, argv, &o)) {
	case 1:
		return 0;
	case -1:
		return 2;
	}
	topo = argv[optind];
	o.topo = topo;
	lfts = argv[optind + 1];
	if (o.groups && lc_groups_parse(&g, o.groups))
		return 2;
	lc_fabric_init(&f);
	lc_mcast_init(&mc);
	if (lc_read_topology_any(&f, topo) ||
	    (o.groups && lc_groups_assign(&g, &f, topo)) ||
	    lc_read_lfts(&f, lfts) || (o.sl && lc_sl_read(&sl, &f, o.sl)))
		goto out;
	if (o.n_through && print_through(&f, &o))
		goto out;
	if (lc_check_sl(&f, o.sl ? &sl : NULL, &r, stdout,
			(unsigned)o.max_detail)) {
		fprintf(stderr, "lftcheck: out of memory\n");
		goto out;
	}
	if (o.mfts && mcast_check(&o, &f, &r, &mc, &mr))
		goto out_report;
	if (lc_lmc_spread(&f, o.lmc_spread, &lr)) {
		fprintf(stderr, "lftcheck: out of memory\n");
		goto out_report;
	}
	if (lr.max_lids > 1 || o.lmc_spread)
		lc_lmc_print(&lr);
	print_report(&f, &r, &sl, lc_report_ok(&r) && !lr.short_pairs &&
		     (!o.mfts || lc_mc_report_ok(&mr)));
	if (print_quality(&f, &r, &o, &g))
		fprintf(stderr, "lftcheck: out of memory\n");
	else
		ret = lc_report_ok(&r) && !lr.short_pairs &&
		      (!o.mfts || lc_mc_report_ok(&mr)) ? 0 : 1;
out_report:
	lc_report_free(&r);
out:
	lc_sl_free(&sl);
	lc_mcast_free(&mc);
	lc_groups_free(&g);
	lc_fabric_free(&f);
	return ret;
}
