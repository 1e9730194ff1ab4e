// SPDX-License-Identifier: MIT
/*
 * quality_bench: routes a generated fabric with the routing core alone
 * (no OpenSM, no simulator) and prints the uniform throughput of the
 * result: every host sends 1.0 spread evenly over all other hosts,
 * throughput = 1 / (load of the most loaded link, host links included),
 * as lftcheck -t computes it from tables read back from switches.  For
 * quick comparisons while developing the route and turn decisions; the
 * measured results come from scripts/bench_quality.sh.
 *
 *   quality_bench [-n] [-v] [-r ROOT] [-w PREFIX] [-t TRAFFIC] [-m MODE] [-x EXPERIMENT] random N PORTS H SEED
 *   quality_bench [-m MODE] [-x EXPERIMENT] fattree2 LEAVES SPINES H LINKS
 *   quality_bench [-m MODE] [-x EXPERIMENT] torus|mesh X Y H
 *   quality_bench [-m MODE] [-x EXPERIMENT] ft3join K top|middle|bottom
 *   quality_bench [-m MODE] [-x EXPERIMENT] ft3join-alt K top|middle|bottom
 *   quality_bench [-m MODE] [-x EXPERIMENT] ft3join-shift K top|middle|bottom
 *   quality_bench [-m MODE] [-x EXPERIMENT] ft3join-rand K top|middle|bottom SEED
 *
 * MODE: turn_addition (default), turn_prohibition, no_prohibition;
 * -n: option tp_candidate no; -O N: option tp_orders N; -t: option traffic_file (turn weights
 * and the choice between candidates; the printed throughput stays
 * uniform); -r: option escape_root, the switch named ROOT (as in
 * PREFIX.topo); -a: that many hosts in a thousand absent (topo_drop_hosts,
 * seed 1); -v: the core's log lines on stderr; -w: also write PREFIX.topo and PREFIX.lft for scripts/lftcheck
 * (bench_export.h), e.g. for its permutation bandwidth (--perm).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_export.h"
#include "ta_engine.h"
#include "ta_graph.h"
#include "topo.h"
#include "topo_graph.h"

/*
 * A third wiring of the joined trees, for testing only: tree B's end of
 * join link j is moved one pod on (middle, bottom: slot order reversed
 * within the joined slots) or k/2 cores on (top).
 */
static struct topo_join_end shifted_end(unsigned k, unsigned j,
					enum topo_join_level level,
					unsigned tree)
{
	unsigned pods = level == TOPO_JOIN_TOP ? k / 2 : k;
	unsigned group = j % pods, slot = j / pods;
	unsigned slots = k * k / 4 / pods;

	if (level == TOPO_JOIN_TOP)
		return tree ? (struct topo_join_end){ (group + 1) % pods, slot } :
			      (struct topo_join_end){ group, slot };
	if (!tree)
		return (struct topo_join_end){ group, slot };
	return (struct topo_join_end){ (group + 1) % pods, slots - 1 - slot };
}

static int make_topo(struct topo *t, int argc, char **argv)
{
	unsigned a[5] = { 0 };
	enum topo_join_level lv;
	int i;

	for (i = 1; i < argc && i <= 5; i++)
		a[i - 1] = (unsigned)strtoul(argv[i], NULL, 0);
	if (!strcmp(argv[0], "fattree2") && argc == 5)
		return topo_fattree2(t, a[0], a[1], a[2], a[3]);
	if (!strcmp(argv[0], "random") && argc == 5)
		return topo_random(t, a[0], a[1], a[2], a[3]);
	if ((!strcmp(argv[0], "torus") || !strcmp(argv[0], "mesh")) &&
	    argc == 4)
		return topo_mesh(t, a[0], a[1], a[2], argv[0][0] == 't');
	if (!strcmp(argv[0], "ft3join") && argc == 3 &&
	    !topo_join_level_parse(argv[2], &lv))
		return topo_ft3join(t, a[0], lv);
	if (!strcmp(argv[0], "ft3join-alt") && argc == 3 &&
	    !topo_join_level_parse(argv[2], &lv))
		return topo_ft3join_alt(t, a[0], lv);
	if (!strcmp(argv[0], "ft3join-shift") && argc == 3 &&
	    !topo_join_level_parse(argv[2], &lv))
		return topo_ft3join_wired(t, a[0], lv, shifted_end);
	if (!strcmp(argv[0], "ft3join-rand") && argc == 4 &&
	    !topo_join_level_parse(argv[2], &lv))
		return topo_ft3join_rand(t, a[0], lv, a[2]);
	return -1;
}

/* port p of switch s leads to switch *peer (-1: none, a host port) */
static int peer_of(const struct ta_graph *g, uint32_t s, uint8_t p,
		   uint32_t *peer, uint32_t *chan)
{
	uint32_t e;

	for (e = 0; e < g->sw[s].n_ends; e++)
		if (g->sw[s].ends[e].port == p) {
			*peer = g->sw[s].ends[e].peer;
			*chan = g->sw[s].ends[e].out_chan;
			return 0;
		}
	return -1;
}

/* 1 / max link load of uniform all-to-all host traffic; -1 unreachable */
static double uniform_throughput(const struct ta_graph *g,
				 const struct ta_result *r, double *hops)
{
	uint32_t n_h = 0, d, s, *hosts_on = calloc(g->n_sw, sizeof(*hosts_on));
	double *load = calloc(2 * (size_t)g->n_links + 1, sizeof(*load));
	double max = 0, rate, pairs = 0, hop_sum = 0;

	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host) {
			hosts_on[g->dest[d].sw]++;
			n_h++;
		}
	if (n_h < 2)
		return 1;
	rate = 1.0 / (n_h - 1);
	for (d = 0; d < g->n_dest; d++) {
		if (!g->dest[d].is_host)
			continue;
		for (s = 0; s < g->n_sw; s++) {
			uint32_t n = hosts_on[s] - (s == g->dest[d].sw), at = s;
			uint32_t steps = 0;

			if (!n)
				continue;
			while (at != g->dest[d].sw) {
				uint32_t peer, chan;

				if (peer_of(g, at, ta_result_port(r, at, d),
					    &peer, &chan) || ++steps > g->n_sw)
					return -1;
				load[chan] += n * rate;
				at = peer;
			}
			pairs += n;
			hop_sum += (double)n * steps;
		}
	}
	for (s = 0; s < 2 * g->n_links; s++)
		if (load[s] > max)
			max = load[s];
	free(load);
	free(hosts_on);
	*hops = hop_sum / pairs;
	return max > 1 ? 1 / max : 1;	/* a host link carries 1.0 */
}

static void log_stderr(void *ctx, enum ta_log_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	fprintf(stderr, "turnadd: %s\n", msg);
}

/* option escape_root: the GUID of the switch named root, 0 if none */
static uint64_t root_guid(const struct ta_graph *g, const char *root)
{
	uint32_t s;

	for (s = 0; root && s < g->n_sw; s++)
		if (g->sw[s].name && !strcmp(g->sw[s].name, root))
			return g->sw[s].guid;
	return 0;
}

int main(int argc, char **argv)
{
	const struct ta_log lg = { .fn = log_stderr };
	const char *root = NULL;
	int verbose = 0;
	struct ta_options o;
	struct ta_result r;
	struct ta_graph *g;
	struct topo t;
	double thr, hops = 0;
	const char *export = NULL;
	unsigned absent = 0;
	int c;

	ta_options_init(&o);
	while ((c = getopt(argc, argv, "m:x:nO:t:w:r:va:")) != -1) {
		if (c == 'a') {
			absent = (unsigned)strtoul(optarg, NULL, 0);
			continue;
		}
		if (c == 'v' || c == 'r') {
			verbose |= c == 'v';
			root = c == 'r' ? optarg : root;
			continue;
		}
		if (c == 'n') {
			o.tp_candidate = false;
			continue;
		}
		if (c == 'O') {
			unsigned long k = strtoul(optarg, NULL, 0);

			if (k < 1 || k > TA_TP_ORDERS_MAX)
				goto usage;
			o.tp_orders = (unsigned)k;
			continue;
		}
		if (c == 'w') {
			export = optarg;
			continue;
		}
		if (c == 't') {
			free(o.traffic_file);
			o.traffic_file = strdup(optarg);
			continue;
		}
		if (c == 'm' && !strcmp(optarg, "turn_prohibition"))
			o.mode = TA_MODE_TURN_PROHIBITION;
		else if (c == 'm' && !strcmp(optarg, "no_prohibition"))
			o.mode = TA_MODE_NONE_PROHIBITED;
		else if (c == 'm' && !strcmp(optarg, "turn_addition"))
			o.mode = TA_MODE_TURN_ADDITION;
		else if (c == 'x')
			o.experiment = (unsigned)strtoul(optarg, NULL, 0);
		else
			goto usage;
	}
	if (optind >= argc || make_topo(&t, argc - optind, argv + optind) ||
	    (absent && topo_drop_hosts(&t, absent, 1)))
		goto usage;
	g = topo_to_graph(&t);
	if (g && root && !(o.escape_root_guid = root_guid(g, root))) {
		fprintf(stderr, "quality_bench: no switch named %s\n", root);
		return 2;
	}
	if (!g || ta_route(g, &o, verbose ? &lg : NULL, &r)) {
		fprintf(stderr, "quality_bench: routing failed\n");
		return 1;
	}
	thr = uniform_throughput(g, &r, &hops);
	if (export && bench_export(g, &r, export))
		return 1;
	printf("throughput=%.4f mean_sw_hops=%.3f prohibited=%llu seconds=%.3f tp_candidate=%s root=%s\n",
	       thr, hops, (unsigned long long)r.stats.turns_prohibited,
	       r.stats.seconds, !r.stats.tp_tried ? "not_tried" :
	       r.stats.tp_kept ? "kept" : r.stats.cut_tree ? "cut" :
	       r.stats.root_moved ? "root" : "tried",
	       g->sw[r.stats.escape_root].name ?
		       g->sw[r.stats.escape_root].name : "-");
	ta_result_free(&r);
	ta_graph_free(g);
	topo_free(&t);
	ta_options_clear(&o);
	return thr < 0;
usage:
	fprintf(stderr, "usage: quality_bench [-n] [-O N] [-v] [-a PERMILLE] [-r ROOT] [-w PREFIX] [-t TRAFFIC] [-m MODE] [-x EXPERIMENT] random N PORTS H SEED | fattree2 L S H LINKS | torus|mesh X Y H | ft3join[-alt|-shift] K LEVEL | ft3join-rand K LEVEL SEED\n");
	return 2;
}
