// SPDX-License-Identifier: MIT
/*
 * The traffic metrics a failure's routings are compared on
 * (ta_fail_ways.c): permutation bandwidth estimated from many draws
 * converges to the metric, its error estimate matches the spread of a
 * 100-permutation check, and the destinations ta_hot_release() marks
 * carry the load above the target on the busiest channels.  The loads
 * and permutations are walked here (route_assert.h and walk_loads()),
 * not taken from the code under test.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ta_engine.h"
#include "ta_hot.h"
#include "ta_perm.h"
#include "route_assert.h"
#include "topo.h"
#include "topo_graph.h"
#include "run_suite.h"

static struct ta_graph *routed(const char *kind, unsigned seed,
			       struct ta_result *r)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_options o;

	if (!strcmp(kind, "torus"))
		ck_assert_int_eq(topo_mesh(&t, 4, 4, 2, 1), 0);
	else
		ck_assert_int_eq(topo_random(&t, 20, 6, 3, seed), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	ta_options_init(&o);
	o.seed = seed;
	ck_assert_int_eq(ta_route(g, &o, NULL, r), 0);
	ta_options_clear(&o);
	topo_free(&t);
	return g;
}

/* many draws: the random part of the metric, as 20,000 permutations
 * walked independently give it */
START_TEST(perm_draws_converge)
{
	struct ta_result r;
	struct ta_graph *g = routed("torus", 1, &r);
	double truth = perm_bandwidth(g, &r, 20000, 0, 7), pa, pb, se;

	ck_assert_int_eq(ta_perm_paired(g, r.port, NULL, 100, 0, 1, 4000,
					&pa, &pb, &se), 0);
	ck_assert_msg(fabs(pa - truth) <= 0.005 * truth,
		      "4,000 draws give %.4f, the metric is %.4f", pa, truth);
	/* as many draws as patterns: ta_perm_bandwidth() itself */
	ck_assert_int_eq(ta_perm_paired(g, r.port, NULL, 100, 256, 1, 100,
					&pa, &pb, &se), 0);
	ck_assert(pa == ta_perm_bandwidth(g, r.port, 100, 256, 1));
	ck_assert(pa == ta_perm_bandwidth_drawn(g, r.port, 100, 256, 1, 100));
	ta_result_free(&r);
	ta_graph_free(g);
}
END_TEST

/*
 * The error of the difference of two routings is what 100-permutation
 * checks with other seeds show: their spread over 40 seeds lies within
 * a factor 2 of it; a routing against itself has none.
 */
START_TEST(perm_error_matches_spread)
{
	struct ta_result a, b;
	struct ta_graph *g = routed("random", 3, &a);
	struct ta_graph *g2 = routed("random", 3, &b);
	double pa, pb, se, x, mean = 0, m2 = 0, sd;
	unsigned k, n = 40;
	struct ta_options o;

	/* b: the same fabric routed with another seed */
	ta_result_free(&b);
	ta_options_init(&o);
	o.seed = 11;
	ck_assert_int_eq(ta_route(g2, &o, NULL, &b), 0);
	ta_options_clear(&o);
	ck_assert_int_eq(ta_perm_paired(g, a.port, a.port, 100, 0, 1, 2000,
					&pa, &pb, &se), 0);
	ck_assert(pa == pb);
	ck_assert(se == 0);
	ck_assert_int_eq(ta_perm_paired(g, a.port, b.port, 100, 0, 1, 2000,
					&pa, &pb, &se), 0);
	ck_assert(se > 0);
	for (k = 0; k < n; k++) {
		x = perm_bandwidth(g, &a, 100, 0, 100 + k) -
		    perm_bandwidth(g2, &b, 100, 0, 100 + k);
		mean += x;
		m2 += x * x;
	}
	mean /= n;
	sd = sqrt((m2 - n * mean * mean) / (n - 1));
	ck_assert_msg(sd >= se / 2 && sd <= se * 2,
		      "error %.5f, spread of 100-permutation checks %.5f", se,
		      sd);
	ck_assert_msg(fabs(mean - (pa - pb)) <= 4 * se + 1e-9,
		      "difference %.5f, checks find %.5f", pa - pb, mean);
	ta_result_free(&a);
	ta_result_free(&b);
	ta_graph_free(g);
	ta_graph_free(g2);
}
END_TEST

/* uniform traffic walked hop by hop: load[c] of every channel, and
 * per destination d its own routes' part, dload[d * n_chan + c] */
static void walk_loads(const struct ta_graph *g, const struct ta_result *r,
		       double *load, double *dload)
{
	size_t n_chan = 2 * (size_t)g->n_links;
	uint32_t src, d, s, hops, e;

	for (d = 0; d < g->n_dest; d++) {
		if (!g->dest[d].is_host)
			continue;
		for (src = 0; src < g->n_dest; src++) {
			if (!g->dest[src].is_host || src == d)
				continue;
			s = g->dest[src].sw;
			for (hops = 0; s != g->dest[d].sw; hops++) {
				uint8_t p = r->port[(size_t)s * g->n_dest + d];

				ck_assert_uint_le(hops, g->n_sw);
				for (e = 0; e < g->sw[s].n_ends; e++)
					if (g->sw[s].ends[e].port == p)
						break;
				ck_assert_uint_lt(e, g->sw[s].n_ends);
				load[g->sw[s].ends[e].out_chan] += 1;
				dload[(size_t)d * n_chan +
				      g->sw[s].ends[e].out_chan] += 1;
				s = g->sw[s].ends[e].peer;
			}
		}
	}
}

/*
 * The marked destinations carry, on every channel above the target (the
 * TA_HOT_CHANNELS busiest of them), at least the load above it; each
 * marked one crosses such a channel; nothing above the peak: none.
 * Asked again over the same routes (a round whose moved destinations
 * stayed where they were), the marks already made do not count: the
 * newly marked carry the excess again, wherever enough unmarked
 * destinations cross the channel.
 */
START_TEST(hot_release_covers_excess)
{
	struct ta_result r;
	struct ta_graph *g = routed("random", 5, &r);
	size_t n_chan = 2 * (size_t)g->n_links, c;
	double *load = calloc(n_chan, sizeof(*load));
	double *dload = calloc(n_chan * g->n_dest, sizeof(*dload));
	uint8_t *rel = calloc(g->n_dest, 1), *again = malloc(g->n_dest);
	uint8_t *hot = calloc(2 * (size_t)g->n_links, 1);
	double peak = 0, target, rest, nth = 0, *sorted;
	uint32_t d;
	int64_t marked;
	unsigned n_hot = 0;

	ck_assert_ptr_nonnull(load);
	ck_assert_ptr_nonnull(dload);
	ck_assert_ptr_nonnull(rel);
	ck_assert_ptr_nonnull(again);
	ck_assert_ptr_nonnull(hot);
	walk_loads(g, &r, load, dload);
	for (c = 0; c < n_chan; c++)
		peak = fmax(peak, load[c]);
	ck_assert(fabs(peak - ta_uniform_peak(g, r.port)) < 1e-9);
	ck_assert_int_eq(ta_hot_release(g, r.port, peak, rel, hot), 0);
	for (c = 0; c < n_chan; c++)
		ck_assert_msg(!hot[c], "channel %zu marked, none above", c);
	target = 0.85 * peak;
	marked = ta_hot_release(g, r.port, target, rel, hot);
	ck_assert_int_gt(marked, 0);
	/* the load of the TA_HOT_CHANNELS-th busiest channel */
	sorted = malloc(n_chan * sizeof(*sorted));
	ck_assert_ptr_nonnull(sorted);
	memcpy(sorted, load, n_chan * sizeof(*sorted));
	for (c = 0; c < n_chan; c++)
		n_hot += load[c] > target;
	if (n_hot > TA_HOT_CHANNELS) {
		unsigned i, j;

		for (i = 0; i < TA_HOT_CHANNELS; i++)
			for (j = i + 1; j < n_chan; j++)
				if (sorted[j] > sorted[i]) {
					double x = sorted[i];

					sorted[i] = sorted[j];
					sorted[j] = x;
				}
		nth = sorted[TA_HOT_CHANNELS - 1];
	}
	for (c = 0; c < n_chan; c++) {
		/* the channels marked hot: those whose excess is covered
		 * (a tie with the last of TA_HOT_CHANNELS may go either way) */
		if (!(n_hot > TA_HOT_CHANNELS && load[c] == nth))
			ck_assert_msg(!hot[c] == (load[c] <= target ||
						  (n_hot > TA_HOT_CHANNELS &&
						   load[c] < nth)),
				      "channel %zu at %.1f (target %.1f) marked %d",
				      c, load[c], target, hot[c]);
		if (load[c] <= target ||
		    (n_hot > TA_HOT_CHANNELS && load[c] <= nth))
			continue;
		rest = load[c];
		for (d = 0; d < g->n_dest; d++)
			if (rel[d])
				rest -= dload[(size_t)d * n_chan + c];
		ck_assert_msg(rest <= target + 1e-9,
			      "channel %zu: %.1f of %.1f stays, target %.1f", c,
			      rest, load[c], target);
	}
	for (d = 0; d < g->n_dest; d++) {
		int crosses = 0;

		if (!rel[d])
			continue;
		ck_assert(g->dest[d].is_host);
		for (c = 0; c < n_chan; c++)
			crosses |= load[c] > target &&
				   dload[(size_t)d * n_chan + c] > 0;
		ck_assert_msg(crosses, "destination %u crosses no busy channel",
			      d);
	}
	memcpy(again, rel, g->n_dest);
	ck_assert_int_gt(ta_hot_release(g, r.port, target, again, NULL), 0);
	for (c = 0; c < n_chan; c++) {
		double unmarked = 0;

		if (load[c] <= target ||
		    (n_hot > TA_HOT_CHANNELS && load[c] <= nth))
			continue;
		rest = load[c];
		for (d = 0; d < g->n_dest; d++) {
			if (again[d] && !rel[d])
				rest -= dload[(size_t)d * n_chan + c];
			if (!rel[d])
				unmarked += dload[(size_t)d * n_chan + c];
		}
		if (unmarked >= load[c] - target)
			ck_assert_msg(rest <= target + 1e-9,
				      "channel %zu: %.1f of %.1f stays after the second marking, target %.1f",
				      c, rest, load[c], target);
	}
	free(again);
	free(hot);
	free(sorted);
	free(load);
	free(dload);
	free(rel);
	ta_result_free(&r);
	ta_graph_free(g);
}
END_TEST

/*
 * (switch, 64-LID block) pairs that moving the marked destinations off
 * the hot channels newly rewrites: at every switch whose route to a
 * marked destination crosses a hot channel, that destination's block,
 * unless base already differs from the routes there (dirty)
 */
static unsigned new_blocks(const struct ta_graph *g, const struct ta_result *r,
			   const uint8_t *base, const uint8_t *hot,
			   const uint8_t *rel)
{
	uint32_t s, d, t, e, blocks = 0, hops;
	uint8_t *dirty, *touched;
	unsigned n = 0;
	size_t i;

	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid / 64u + 1 > blocks)
			blocks = g->dest[d].lid / 64u + 1;
	dirty = calloc((size_t)g->n_sw * blocks, 1);
	touched = calloc((size_t)g->n_sw * blocks, 1);
	ck_assert_ptr_nonnull(dirty);
	ck_assert_ptr_nonnull(touched);
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++)
			if (r->port[(size_t)s * g->n_dest + d] !=
			    base[(size_t)s * g->n_dest + d])
				dirty[(size_t)s * blocks + g->dest[d].lid / 64u] = 1;
	for (d = 0; d < g->n_dest; d++) {
		if (!rel[d])
			continue;
		for (s = 0; s < g->n_sw; s++) {
			int crosses = 0;

			for (t = s, hops = 0; t != g->dest[d].sw && !crosses;
			     hops++) {
				uint8_t p = r->port[(size_t)t * g->n_dest + d];

				ck_assert_uint_le(hops, g->n_sw);
				for (e = 0; e < g->sw[t].n_ends; e++)
					if (g->sw[t].ends[e].port == p)
						break;
				ck_assert_uint_lt(e, g->sw[t].n_ends);
				crosses = hot[g->sw[t].ends[e].out_chan];
				t = g->sw[t].ends[e].peer;
			}
			i = (size_t)s * blocks + g->dest[d].lid / 64u;
			if (crosses && !dirty[i] && !touched[i]) {
				touched[i] = 1;
				n++;
			}
		}
	}
	free(dirty);
	free(touched);
	return n;
}

/*
 * Marking by share against blocks (ta_hot_release_blocks()): with the
 * LFT blocks of the first 64 LIDs already rewritten at every switch,
 * the destinations it marks cover every hot channel's excess as the
 * marking by share alone does, and moving them newly rewrites fewer
 * blocks than moving those the marking by share alone picks.
 */
START_TEST(hot_release_prefers_rewritten_blocks)
{
	struct ta_result r;
	struct ta_graph *g = routed("random", 5, &r);
	size_t n_chan = 2 * (size_t)g->n_links, c, cells;
	double *load = calloc(n_chan, sizeof(*load));
	double *dload = calloc(n_chan * g->n_dest, sizeof(*dload));
	uint8_t *rel_p = calloc(g->n_dest, 1), *rel_b = calloc(g->n_dest, 1);
	uint8_t *hot_p = calloc(n_chan, 1), *hot_b = calloc(n_chan, 1);
	uint8_t *base;
	double peak = 0, target, rest;
	unsigned cost_p, cost_b;
	uint32_t s, d;

	cells = (size_t)g->n_sw * g->n_dest;
	base = malloc(cells);
	ck_assert_ptr_nonnull(base);
	memcpy(base, r.port, cells);
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++)
			if (g->dest[d].lid < 64) {
				base[(size_t)s * g->n_dest + d] ^= 1;
				break;
			}
	walk_loads(g, &r, load, dload);
	for (c = 0; c < n_chan; c++)
		peak = fmax(peak, load[c]);
	target = 0.85 * peak;
	ck_assert_int_gt(ta_hot_release(g, r.port, target, rel_p, hot_p), 0);
	ck_assert_int_gt(ta_hot_release_blocks(g, r.port, base, target, rel_b,
					       hot_b), 0);
	ck_assert(!memcmp(hot_p, hot_b, n_chan));
	for (c = 0; c < n_chan; c++) {
		if (!hot_b[c])
			continue;
		rest = load[c];
		for (d = 0; d < g->n_dest; d++)
			if (rel_b[d])
				rest -= dload[(size_t)d * n_chan + c];
		ck_assert_msg(rest <= target + 1e-9,
			      "channel %zu: %.1f of %.1f stays, target %.1f", c,
			      rest, load[c], target);
	}
	cost_p = new_blocks(g, &r, base, hot_p, rel_p);
	cost_b = new_blocks(g, &r, base, hot_b, rel_b);
	ck_assert_msg(cost_b < cost_p,
		      "blocks newly rewritten: %u marking against blocks, %u by share alone",
		      cost_b, cost_p);
	free(base);
	free(rel_p);
	free(rel_b);
	free(hot_p);
	free(hot_b);
	free(load);
	free(dload);
	ta_result_free(&r);
	ta_graph_free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, perm_draws_converge);
	tcase_add_test(tc, perm_error_matches_spread);
	tcase_add_test(tc, hot_release_covers_excess);
	tcase_add_test(tc, hot_release_prefers_rewritten_blocks);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
