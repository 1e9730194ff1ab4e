// SPDX-License-Identifier: MIT
/*
 * Two fat trees joined at their middle level (topogen ft3join and
 * ft3join-alt, K = 4 and 8) routed with the two-tree traffic file (1
 * inside a tree, 1/100 between): the inter-tree routes must not crowd
 * onto a few join links while the trees keep full bisection.  Judged
 * here from the routes alone, walked hop by hop (not with the engine's
 * own flow code): intra-tree throughput (each host sends 1.0 spread over
 * the other hosts of its tree) and inter-tree throughput (each host
 * sends p/n spread over the other tree's hosts, p join links, n hosts a
 * tree), as lftcheck --groups computes them.  Before minor traffic got
 * its own turn order and load-aware choice, K = 4 middle reached inter
 * 0.55 and K = 8 middle 0.60 (the join open at both ends carried the
 * traffic of the joins open at one end only).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join_traffic.h"
#include "route_verify.h"
#include "run_suite.h"
#include "ta_engine.h"
#include "ta_traffic.h"
#include "topo.h"
#include "topo_graph.h"

/* the channel out of port p of switch s, or -1 (a host port) */
static int64_t chan_of(const struct ta_graph *g, uint32_t s, uint8_t p,
		       uint32_t *peer)
{
	uint32_t e;

	for (e = 0; e < g->sw[s].n_ends; e++)
		if (g->sw[s].ends[e].port == p) {
			*peer = g->sw[s].ends[e].peer;
			return g->sw[s].ends[e].out_chan;
		}
	return -1;
}

/*
 * 1 / busiest inter-switch channel when each host of tree a sends
 * rate[a == b] to each host of tree b (host links: at most 1.0 here)
 */
static double throughput(const struct ta_graph *g, const struct ta_result *r,
			 const double rate[2])
{
	double *load = calloc(2 * (size_t)g->n_links + 1, sizeof(*load));
	double max = 0;
	uint32_t src, dst, c;

	ck_assert_ptr_nonnull(load);
	for (src = 0; src < g->n_dest; src++) {
		if (!g->dest[src].is_host)
			continue;
		for (dst = 0; dst < g->n_dest; dst++) {
			uint32_t at = g->dest[src].sw, steps = 0;
			double x;

			if (!g->dest[dst].is_host || dst == src)
				continue;
			x = rate[join_tree_of(g, src) == join_tree_of(g, dst)];
			while (at != g->dest[dst].sw) {
				uint32_t peer;
				int64_t ch = chan_of(g, at,
						     ta_result_port(r, at, dst),
						     &peer);

				ck_assert_int_ge(ch, 0);
				ck_assert_uint_le(++steps, g->n_sw);
				load[ch] += x;
				at = peer;
			}
		}
	}
	for (c = 0; c < 2 * g->n_links; c++)
		if (load[c] > max)
			max = load[c];
	free(load);
	return max > 1 ? 1 / max : 1;
}

static void check_join(unsigned k, int alt, double want_inter)
{
	struct ta_traffic tr;
	struct ta_options o;
	struct ta_result r;
	struct verify_report rep;
	struct ta_graph *g;
	struct topo t;
	double n = (double)k * k * k / 4, p = (double)k * k / 4;
	double intra_rate[2] = { 0, 1 / (n - 1) };
	double inter_rate[2] = { p / n / n, 0 };
	double intra, inter;

	join_traffic_load(&tr, NULL);
	ck_assert_int_eq(alt ? topo_ft3join_alt(&t, k, TOPO_JOIN_MIDDLE) :
			       topo_ft3join(&t, k, TOPO_JOIN_MIDDLE), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	ta_options_init(&o);
	o.traffic = &tr;
	ck_assert_int_eq(ta_route(g, &o, NULL, &r), 0);
	ck_assert_int_eq(verify_routes(g, &r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	intra = throughput(g, &r, intra_rate);
	inter = throughput(g, &r, inter_rate);
	ck_assert_msg(intra > 1 - 1e-9, "K=%u%s intra %.4f", k,
		      alt ? " alt" : "", intra);
	ck_assert_msg(inter >= want_inter, "K=%u%s inter %.4f < %.4f", k,
		      alt ? " alt" : "", inter, want_inter);
	ta_result_free(&r);
	ta_options_clear(&o);
	ta_graph_free(g);
	topo_free(&t);
	ta_traffic_free(&tr);
}

START_TEST(middle_join_k4)
{
	check_join(4, 0, 0.8);
}
END_TEST

START_TEST(middle_join_k8)
{
	check_join(8, 0, 0.85);
}
END_TEST

/* the other wiring: no crowding worse than before (0.64, 0.38) */
START_TEST(middle_join_alt)
{
	check_join(4, 1, 0.64);
	check_join(8, 1, 0.38);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("join_minor");
	TCase *tc = tcase_create("join");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, middle_join_k4);
	tcase_add_test(tc, middle_join_k8);
	tcase_add_test(tc, middle_join_alt);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
