// SPDX-License-Identifier: MIT
/*
 * core_bench: times the routing core alone (no OpenSM, no simulator) on
 * a generated fabric, at bring-up and at the resweep after the switches
 * whose names start with a prefix died (e.g. a whole director "dir0-").
 *
 *   core_bench [-r REPEAT] [-g GONE_PREFIX] fattree3 D L F P H
 *   core_bench [-r REPEAT] [-g GONE_PREFIX] fattree2 LEAVES SPINES H LINKS
 *   core_bench [-r REPEAT] [-g GONE_PREFIX] random N PORTS H SEED
 *
 * Prints one line per phase: seconds (min over REPEAT runs), turns and
 * cycle-check work.  Not a test: numbers for scripts/bench_speed.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ta_engine.h"
#include "ta_saved.h"
#include "topo.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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
	unsigned i;

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
	for (i = 0; i < t->n_hosts; i++)
		if (idx[t->hosts[i].sw] >= 0 &&
		    ta_graph_add_dest(g, 1 + t->n_sw + i, idx[t->hosts[i].sw],
				      t->hosts[i].port, true, 0x200000 + i,
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
	return -1;
}

static void print(const char *phase, double best, const struct ta_stats *st)
{
	printf("%s: switches=%u links=%u dests=%u seconds=%.3f turns=%llu prohibited=%llu kept=%llu fallback=%u kept_dests=%u visits=%llu unreachable=%llu\n",
	       phase, st->switches, st->links, st->dests, best,
	       (unsigned long long)st->turns,
	       (unsigned long long)st->turns_prohibited,
	       (unsigned long long)st->turns_kept, st->dests_fallback,
	       st->dests_kept,
	       (unsigned long long)st->cycle_check_visits,
	       (unsigned long long)st->unreachable);
}

/* routes g REPEAT times with prior pb (may be NULL), keeps the last */
static int timed(const struct ta_graph *g, const struct ta_prior *p,
		 int repeat, const char *phase, struct ta_result *res)
{
	struct ta_options o;
	double best = 1e30;
	int k;

	ta_options_init(&o);
	for (k = 0; k < repeat; k++) {
		double t0 = now();

		if (k)
			ta_result_free(res);
		if (ta_route_prior(g, &o, p, NULL, res))
			return -1;
		if (now() - t0 < best)
			best = now() - t0;
	}
	print(phase, best, &res->stats);
	ta_options_clear(&o);
	return 0;
}

int main(int argc, char **argv)
{
	const char *prefix = NULL;
	struct ta_graph *g = NULL, *h = NULL;
	struct ta_result r0, r1;
	struct ta_prior_buf pb;
	struct ta_saved sv;
	struct topo t;
	int repeat = 1, c, ret = 1;

	while ((c = getopt(argc, argv, "r:g:")) != -1) {
		if (c == 'r')
			repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
		else if (c == 'g')
			prefix = optarg;
		else
			return 2;
	}
	if (optind >= argc || make_topo(&t, argc - optind, argv + optind)) {
		fprintf(stderr, "usage: core_bench [-r N] [-g PREFIX] fattree3 D L F P H | fattree2 L S H K | random N P H SEED\n");
		return 2;
	}
	ta_saved_init(&sv);
	g = build(&t, NULL);
	if (!g || timed(g, NULL, repeat, "bring-up", &r0))
		goto out;
	if (prefix) {
		h = build(&t, prefix);
		if (!h || ta_saved_update(&sv, g, &r0) ||
		    ta_saved_prior(&sv, h, &pb))
			goto out_r0;
		if (!timed(h, &pb.prior, repeat, "resweep", &r1)) {
			ta_result_free(&r1);
			ret = 0;
		}
		ta_prior_buf_free(&pb);
	} else {
		ret = 0;
	}
out_r0:
	ta_result_free(&r0);
out:
	ta_saved_free(&sv);
	ta_graph_free(g);
	ta_graph_free(h);
	topo_free(&t);
	return ret;
}
