// SPDX-License-Identifier: MIT
/*
 * core_bench: times the routing core alone (no OpenSM, no simulator) on
 * a generated fabric, at bring-up and at the resweep after the switches
 * whose names start with a prefix died (e.g. a whole director "dir0-").
 *
 *   core_bench [-r REPEAT] [-g GONE_PREFIX [-R]] [-a PERMILLE] [-H] [-p]
 *              [-m ta|tp|np] [-s SEED] [-n] [-O N]
 *              fattree3 D L F P H | fattree2 LEAVES SPINES H LINKS |
 *              random N PORTS H SEED | ring N H | mesh X Y H |
 *              torus X Y H | ft3join[-alt] K top|middle|bottom
 *
 * Prints one line per phase: seconds (wall clock, min over REPEAT runs;
 * cpu: the process's CPU seconds, min too, steadier on a shared
 * machine), turns and cycle-check work.  -R adds the restore phase (the gone switches back,
 * the resweep's routing as the prior); -a leaves out that many hosts per
 * thousand (topo_drop_hosts, seed 1); -H prints a hash of each phase's
 * routes and turn decisions, to check that a change of the code leaves
 * the routing bit-identical; -p numbers the host LIDs port-major (by
 * port, then switch), the order in which the plugin sees them; -m the
 * mode (turn addition, turn prohibition, none prohibited), -s the seed,
 * -n option tp_candidate no; -O N option tp_orders N; -L reads the latest routing's ports from
 * simulated switch tables (routing memory with lft_rows, as the plugin
 * keeps it; the hashes must not change); -K keeps the routing a fabric
 * returns to and routes resweeps as the plugin does (ta_restore.h), so
 * a restore's hash equals the bring-up's; -l prints the core's log lines
 * on stderr; -Q prints each phase's busiest channel under uniform traffic
 * and its permutation bandwidth; -S keeps every host's LID when switches
 * are gone (as OpenSM does; without it the hosts after the gone ones
 * move down); -V N routes over N layers (option vls, ta_layers.h): the
 * hash then covers each path's layer too, and -Q adds a line with the
 * layers the routes taken may use and the paths per layer; -F sets failure_routes minimal (the resweep's
 * minimal change stands, with its log lines); -N sets failure_routes
 * nexthop (ta_repair.h); -E sets experiment no_repair (minimal change
 * at a failure without the next-hop repair relieved by load).  Not a test: numbers for
 * scripts/bench_speed.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ta_engine.h"
#include "ta_hot.h"
#include "ta_perm.h"
#include "ta_restore.h"
#include "ta_saved.h"
#include "lft_sim.h"
#include "topo.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned vls = 1;
static unsigned tp_orders;	/* -O: option tp_orders (0: its default) */
static int stable_lids, show_quality, show_hash, port_major, mode, no_tp_candidate, lft_rows, use_home;
static int failure_minimal;	/* -F: option failure_routes minimal */
static int failure_nexthop;	/* -N: option failure_routes nexthop */
static int no_repair;		/* -E: experiment no_repair */
/* -l: the core's log lines to stderr */
static void log_line(void *ctx, enum ta_log_level level, const char *msg)
{
	(void)ctx;
	if (level <= TA_LOG_INFO)
		fprintf(stderr, "%s\n", msg);
}

static struct ta_log stderr_log = { log_line, NULL };
static const struct ta_log *bench_log;
/* -K: the kept routing (ta_home.h) and the previous routing's fabric */
static struct ta_home home;
static struct ta_fabric_key last_key;
static unsigned routings;
static unsigned long long seed;

/* CPU seconds of this process: less disturbed by other jobs */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int gone(const struct topo *t, unsigned s, const char *prefix)
{
	return prefix && !strncmp(t->sw_name[s], prefix, strlen(prefix));
}

/* switch LIDs 1..n_sw, host LIDs after them; GUIDs stable */
static struct ta_graph *build(const struct topo *t, const char *prefix)
{
	struct ta_graph *g = ta_graph_new();
	int *idx = calloc(t->n_sw + 1, sizeof(*idx));
	unsigned i, p, lid = 0;

	if (!g || !idx)
		goto fail;
	for (i = 0; i < t->n_sw; i++) {
		idx[i] = -1;
		if (!gone(t, i, prefix) &&
		    (idx[i] = ta_graph_add_switch(g, 0x1000 + i,
						  t->sw_name[i])) < 0)
			goto fail;
	}
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		if (idx[l->a] < 0 || idx[l->b] < 0)
			continue;
		if (ta_graph_add_link(g, idx[l->a], l->pa, idx[l->b], l->pb) < 0)
			goto fail;
	}
	for (i = 0; i < t->n_sw; i++)
		if (idx[i] >= 0 &&
		    ta_graph_add_dest(g, 1 + i, idx[i], 0, false, 0x1000 + i,
				      t->sw_name[i]) < 0)
			goto fail;
	/* host LIDs in host order, or port-major (by port, then switch) */
	for (p = port_major ? 1 : 0; p <= (port_major ? 254u : 0); p++)
		for (i = 0; i < t->n_hosts; i++)
			if ((!port_major || t->hosts[i].port == p) &&
			    idx[t->hosts[i].sw] < 0 && stable_lids)
				lid++;	/* -S: its LID stays unused */
			else if ((!port_major || t->hosts[i].port == p) &&
			    idx[t->hosts[i].sw] >= 0 &&
			    ta_graph_add_dest(g, 1 + t->n_sw + lid++,
					      idx[t->hosts[i].sw],
					      t->hosts[i].port, true,
					      0x200000 + i,
					      t->host_name[i]) < 0)
				goto fail;
	if (ta_graph_finalize(g))
		goto fail;
	free(idx);
	return g;
fail:
	free(idx);
	ta_graph_free(g);
	return NULL;
}

static int make_topo(struct topo *t, int argc, char **argv)
{
	unsigned a[6] = { 0 };
	int i;

	for (i = 1; i < argc && i <= 5; i++)
		a[i - 1] = (unsigned)strtoul(argv[i], NULL, 0);
	if (!strcmp(argv[0], "fattree3") && argc == 6)
		return topo_fattree3(t, a[0], a[1], a[2], a[3], a[4]);
	if (!strcmp(argv[0], "fattree2") && argc == 5)
		return topo_fattree2(t, a[0], a[1], a[2], a[3]);
	if (!strcmp(argv[0], "random") && argc == 5)
		return topo_random(t, a[0], a[1], a[2], a[3]);
	if (!strcmp(argv[0], "ring") && argc == 3)
		return topo_ring(t, a[0], a[1]);
	if ((!strcmp(argv[0], "mesh") || !strcmp(argv[0], "torus")) &&
	    argc == 4)
		return topo_mesh(t, a[0], a[1], a[2], argv[0][0] == 't');
	if (!strcmp(argv[0], "hyperx") && argc == 4) {
		unsigned size[8], k;

		for (k = 0; k < a[0] && k < 8; k++)
			size[k] = a[1];
		return topo_hyperx(t, a[0], size, a[2]);
	}
	if (!strcmp(argv[0], "dragonfly") && (argc == 4 || argc == 5))
		return topo_dragonfly(t, a[0], a[1], a[2], a[3]);
	if (!strcmp(argv[0], "dfplus") && (argc == 5 || argc == 6))
		return topo_dfplus(t, a[0], a[1], a[2], a[3], a[4] ? a[4] : 1);
	if (!strncmp(argv[0], "ft3join", 7) && argc == 3) {
		enum topo_join_level lv;

		if (topo_join_level_parse(argv[2], &lv))
			return -1;
		if (!strcmp(argv[0], "ft3join"))
			return topo_ft3join(t, a[0], lv);
		if (!strcmp(argv[0], "ft3join-alt"))
			return topo_ft3join_alt(t, a[0], lv);
	}
	return -1;
}


/* FNV-1a over the ports and the turn decisions */
static uint64_t result_hash(const struct ta_result *r,
			    const struct ta_graph *g)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t k, n = (size_t)r->n_sw * r->n_dest;

	for (k = 0; k < n; k++)
		h = (h ^ r->port[k]) * 0x100000001b3ull;
	for (k = 0; k < g->n_turn_slots; k++)
		h = (h ^ r->turn_state[k]) * 0x100000001b3ull;
	for (k = 0; r->layer && k < n; k++)
		h = (h ^ r->layer[k]) * 0x100000001b3ull;
	return h;
}

static void print(const char *phase, double best, double cpu,
		  const struct ta_stats *st)
{
	printf("%s: switches=%u links=%u dests=%u seconds=%.3f cpu=%.3f turns=%llu prohibited=%llu kept=%llu fallback=%u kept_dests=%u visits=%llu unreachable=%llu\n",
	       phase, st->switches, st->links, st->dests, best, cpu,
	       (unsigned long long)st->turns,
	       (unsigned long long)st->turns_prohibited,
	       (unsigned long long)st->turns_kept, st->dests_fallback,
	       st->dests_kept,
	       (unsigned long long)st->cycle_check_visits,
	       (unsigned long long)st->unreachable);
}

/* the highest LID of g */
static uint32_t top_lid(const struct ta_graph *g)
{
	uint32_t d, top = 0;

	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid > top)
			top = g->dest[d].lid;
	return top;
}

/*
 * records the routing r of g; -L: the latest ports are read from
 * simulated switch tables (lft_sim.h), which then get r, as in the plugin
 */
static int save(struct ta_saved *sv, struct lft_sim *ls,
		const struct ta_graph *g, const struct ta_result *r)
{
	const struct ta_saved_row *rows = NULL;

	if (sv->lft_rows && !(rows = lft_sim_rows(ls, g)))
		return -1;
	if (ta_saved_update_rows(sv, g, r, rows))
		return -1;
	if (rows)
		lft_sim_write(ls, g, r);
	printf("memory kept: %zu bytes\n", ta_saved_bytes(sv));
	if (use_home)
		printf("routing to return to: %zu bytes\n",
		       ta_home_bytes(&home));
	return 0;
}

static int prior(const struct ta_saved *sv, struct lft_sim *ls,
		 const struct ta_graph *g, struct ta_prior_buf *pb)
{
	const struct ta_saved_row *rows = NULL;

	if (sv->lft_rows && !(rows = lft_sim_rows(ls, g)))
		return -1;
	return ta_saved_prior_rows(sv, g, rows, pb);
}

/* -Q -V: the (switch, destination) paths on each layer */
static void print_layers(const char *phase, const struct ta_result *r)
{
	unsigned long long cnt[8] = { 0 };
	size_t k, n = (size_t)r->n_sw * r->n_dest;
	unsigned i;

	for (k = 0; k < n; k++)
		if (r->port[k] != TA_NO_PORT)
			cnt[r->layer[k] & 7u]++;
	printf("%s: layers_taken=%u spread=%d paths_per_layer=", phase,
	       r->stats.layers_taken, r->stats.layers_spread);
	for (i = 0; i < vls; i++)
		printf("%s%llu", i ? "," : "", cnt[i]);
	printf("\n");
}

/* routes g REPEAT times with prior pb (may be NULL), keeps the last */
static int timed(const struct ta_graph *g, const struct ta_prior *p,
		 int repeat, const char *phase, struct ta_result *res)
{
	struct ta_options o;
	double best = 1e30, best_cpu = 1e30;
	int k;

	ta_options_init(&o);
	o.mode = (enum ta_mode)mode;
	o.seed = seed;
	o.tp_candidate = !no_tp_candidate;
	if (tp_orders)
		o.tp_orders = tp_orders;
	o.vls = vls;
	if (failure_minimal)
		o.failure_compare = false;
	o.failure_nexthop = failure_nexthop;
	if (no_repair)
		o.experiment = TA_EXP_NO_REPAIR;
	for (k = 0; k < repeat; k++) {
		double t0 = now(), c0 = cpu_now();

		if (k)
			ta_result_free(res);
		if (use_home) {
			struct ta_fabric_key key;

			if (ta_fabric_key_make(&key, g) ||
			    ta_route_resweep(&home, &key, &last_key, g, &o, p,
					     bench_log, res)) {
				ta_fabric_key_free(&key);
				return -1;
			}
			if (k + 1 == repeat) {
				if (ta_home_after(&home, g, res, &key,
						  ++routings)) {
					ta_fabric_key_free(&key);
					return -1;
				}
				ta_fabric_key_move(&last_key, &key);
			}
			ta_fabric_key_free(&key);
		} else if (ta_route_prior(g, &o, p, bench_log, res)) {
			return -1;
		}
		if (now() - t0 < best)
			best = now() - t0;
		if (cpu_now() - c0 < best_cpu)
			best_cpu = cpu_now() - c0;
	}
	print(phase, best, best_cpu, &res->stats);
	if (show_quality)
		printf("%s: peak=%.1f perm=%.4f\n", phase,
		       ta_uniform_peak(g, res->port),
		       ta_perm_bandwidth(g, res->port, 100, 256, 1));
	if (show_quality && res->layer)
		print_layers(phase, res);
	if (show_hash)
		printf("%s: hash=%016llx\n", phase,
		       (unsigned long long)result_hash(res, g));
	ta_options_clear(&o);
	return 0;
}

/* -Q: the same fabric routed from scratch, for comparison */
static int scratch_quality(const struct ta_graph *g)
{
	struct ta_options o;
	struct ta_result r;

	ta_options_init(&o);
	o.mode = (enum ta_mode)mode;
	o.seed = seed;
	o.tp_candidate = !no_tp_candidate;
	if (tp_orders)
		o.tp_orders = tp_orders;
	o.vls = vls;
	if (failure_minimal)
		o.failure_compare = false;
	o.failure_nexthop = failure_nexthop;
	if (no_repair)
		o.experiment = TA_EXP_NO_REPAIR;
	if (ta_route(g, &o, NULL, &r)) {
		ta_options_clear(&o);
		return 1;
	}
	printf("scratch: peak=%.1f perm=%.4f\n", ta_uniform_peak(g, r.port),
	       ta_perm_bandwidth(g, r.port, 100, 256, 1));
	ta_result_free(&r);
	ta_options_clear(&o);
	return 0;
}

int main(int argc, char **argv)
{
	const char *prefix = NULL;
	struct ta_graph *g = NULL, *h = NULL;
	struct ta_result r0, r1, r2;
	struct ta_prior_buf pb, pb2;
	struct ta_saved sv;
	struct lft_sim ls = { 0 };
	struct topo t;
	int repeat = 1, c, ret = 1, restore = 0, absent = 0;

	while ((c = getopt(argc, argv, "r:g:a:HRpm:s:nO:LKlQSV:FNE")) != -1) {
		if (c == 'r')
			repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
		else if (c == 'g')
			prefix = optarg;
		else if (c == 'a')
			absent = atoi(optarg);
		else if (c == 'H')
			show_hash = 1;
		else if (c == 'R')
			restore = 1;
		else if (c == 'p')
			port_major = 1;
		else if (c == 'm')
			mode = !strcmp(optarg, "tp") ? TA_MODE_TURN_PROHIBITION :
			       !strcmp(optarg, "np") ? TA_MODE_NONE_PROHIBITED :
						       TA_MODE_TURN_ADDITION;
		else if (c == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (c == 'n')
			no_tp_candidate = 1;
		else if (c == 'O')
			tp_orders = atoi(optarg) >= 1 && atoi(optarg) <= 16 ?
				    (unsigned)atoi(optarg) : 0;
		else if (c == 'L')
			lft_rows = 1;
		else if (c == 'K')
			use_home = 1;
		else if (c == 'l')
			bench_log = &stderr_log;
		else if (c == 'Q')
			show_quality = 1;
		else if (c == 'S')
			stable_lids = 1;
		else if (c == 'F')
			failure_minimal = 1;
		else if (c == 'N')
			failure_nexthop = 1;
		else if (c == 'E')
			no_repair = 1;
		else if (c == 'V')
			vls = atoi(optarg) >= 1 && atoi(optarg) <= 8 ?
			      (unsigned)atoi(optarg) : 1;
		else
			return 2;
	}
	if (optind >= argc || make_topo(&t, argc - optind, argv + optind) ||
	    (absent > 0 && topo_drop_hosts(&t, (unsigned)absent, 1))) {
		fprintf(stderr, "usage: core_bench [-r N] [-g PREFIX [-R]] [-a PERMILLE] [-H] [-p] [-m ta|tp|np] [-s SEED] [-n] [-O N] [-L] [-K] [-l] [-Q] [-S] [-V N] [-F] [-N] fattree3 D L F P H | fattree2 L S H K | random N P H SEED | ring N H | mesh|torus X Y H | hyperx D S H | dragonfly A H P [G] | dfplus G L S H [N] | ft3join[-alt] K LEVEL\n");
		return 2;
	}
	ta_saved_init(&sv);
	sv.lft_rows = lft_rows;
	g = build(&t, NULL);
	if (!g || timed(g, NULL, repeat, "bring-up", &r0))
		goto out;
	lft_sim_init(&ls, top_lid(g) + 1);
	if (prefix) {
		h = build(&t, prefix);
		if (!h || save(&sv, &ls, g, &r0) || prior(&sv, &ls, h, &pb))
			goto out_r0;
		if (!timed(h, &pb.prior, repeat, "resweep", &r1)) {
			ret = 0;
			if (show_quality)
				ret = scratch_quality(h);
			if (restore && (save(&sv, &ls, h, &r1) ||
					prior(&sv, &ls, g, &pb2)))
				ret = 1;
			else if (restore) {
				if (timed(g, &pb2.prior, repeat, "restore",
					  &r2))
					ret = 1;
				else
					ta_result_free(&r2);
				ta_prior_buf_free(&pb2);
			}
			ta_result_free(&r1);
		}
		ta_prior_buf_free(&pb);
	} else {
		ret = 0;
	}
out_r0:
	ta_result_free(&r0);
out:
	lft_sim_free(&ls);
	ta_saved_free(&sv);
	ta_home_free(&home);
	ta_fabric_key_free(&last_key);
	ta_graph_free(g);
	ta_graph_free(h);
	topo_free(&t);
	return ret;
}
