// SPDX-License-Identifier: MIT
/*
 * Option tp_candidate (default yes): at bring-up, where turn addition's
 * routes load a channel beyond what the traffic forces, the core also
 * routes over Turn-Prohibition's turn set (plus what turn addition can
 * add to it) and keeps the less loaded routes.  Judged from the output
 * ports alone (route_verify.c: hop-by-hop walks, Kahn's check of the
 * walked channel dependencies, uniform channel loads), on random nets
 * of the kind where turn addition alone loses to TP:
 *  - every host pair reachable, the walked CDG acyclic;
 *  - the busiest channel carries no more than with TP (mode
 *    turn_prohibition) itself, and no more than with the option off
 *    unless TP's turns were kept because turn addition's routes did
 *    worse under permutation traffic: then the test's own walk (100
 *    random permutations of its own draw and 256 shifts) finds the kept
 *    routes at least as good, within 1 %;
 *  - under permutations (the same walk) the routes do at least as well
 *    as TP's, within 1 %;
 *  - on a fat tree with full bisection nothing else is tried (bring-up
 *    cost unchanged), and the routes equal those with the option off;
 *  - turn addition's own routes, less loaded, are kept where they lose
 *    less than 1 % of permutation bandwidth (random 40 10 10 1);
 *  - option tp_orders: with 4 removal orders the busiest channel carries
 *    no more than with 1 on dragonflies and random nets, and less on
 *    dragonfly 5 2 3 and random 60 10 10 2, where the least-traffic
 *    order's turn set is not the best (tests/bench/tp_orders.sh).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "route_verify.h"
#include "run_suite.h"
#include "ta_engine.h"
#include "topo_graph.h"

static double load_orders(const struct ta_graph *g, enum ta_mode mode,
			  bool tp, unsigned orders, struct ta_result *keep,
			  double *perm)
{
	struct ta_options o;
	struct ta_result r;
	struct verify_report rep;

	ta_options_init(&o);
	o.mode = mode;
	o.tp_candidate = tp;
	if (orders)
		o.tp_orders = orders;
	ck_assert_int_eq(ta_route(g, &o, NULL, &r), 0);
	ck_assert_int_eq(verify_routes(g, &r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	if (perm)
		*perm = perm_bandwidth(g, &r, 100, 256, 7);
	if (keep)
		*keep = r;
	else
		ta_result_free(&r);
	return rep.max_chan_load;
}

/* as load_orders with the default tp_orders */
static double load_of(const struct ta_graph *g, enum ta_mode mode, bool tp,
		      struct ta_result *keep, double *perm)
{
	return load_orders(g, mode, tp, 0, keep, perm);
}

/* N switches, 10 inter-switch ports and 10 hosts each, seeds 1-3 */
static void random_nets(unsigned n, unsigned *kept)
{
	unsigned seed;

	for (seed = 1; seed <= 3; seed++) {
		struct topo t;
		struct ta_graph *g;
		struct ta_result r;
		double on, off, tp, perm_on, perm_off, perm_tp;

		ck_assert_int_eq(topo_random(&t, n, 10, 10, seed), 0);
		g = topo_to_graph(&t);
		ck_assert_ptr_nonnull(g);
		on = load_of(g, TA_MODE_TURN_ADDITION, true, &r, &perm_on);
		off = load_of(g, TA_MODE_TURN_ADDITION, false, NULL, &perm_off);
		tp = load_of(g, TA_MODE_TURN_PROHIBITION, false, NULL, &perm_tp);
		ck_assert_msg(perm_on >= perm_tp * 0.99,
			      "random %u seed %u: permutations %.4f, TP %.4f",
			      n, seed, perm_on, perm_tp);
		ck_assert_msg(on <= tp * (1 + 1e-9) &&
			      (on <= off * (1 + 1e-9) ||
			       (r.stats.tp_kept && perm_on >= perm_off * 0.99)),
			      "random %u seed %u: busiest channel %.4f, option off %.4f, TP %.4f; permutations %.4f, option off %.4f",
			      n, seed, on, off, tp, perm_on, perm_off);
		ck_assert_int_eq(r.stats.tp_tried, 1);
		*kept += r.stats.tp_kept;
		ta_result_free(&r);
		ta_graph_free(g);
		topo_free(&t);
	}
}

START_TEST(random_small)
{
	unsigned kept = 0;

	random_nets(20, &kept);
	random_nets(40, &kept);
	random_nets(50, &kept);
}
END_TEST

START_TEST(random_large)
{
	unsigned kept = 0;

	random_nets(80, &kept);
	/* where TP's set is the better one, it is taken */
	ck_assert_uint_ge(kept, 1);
}
END_TEST

START_TEST(fat_tree_untouched)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_result on, off;
	size_t n;

	ck_assert_int_eq(topo_fattree2(&t, 12, 6, 6, 1), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	load_of(g, TA_MODE_TURN_ADDITION, true, &on, NULL);
	load_of(g, TA_MODE_TURN_ADDITION, false, &off, NULL);
	ck_assert_int_eq(on.stats.tp_tried, 0);
	n = (size_t)on.n_sw * on.n_dest;
	ck_assert_int_eq(memcmp(on.port, off.port, n), 0);
	ta_result_free(&on);
	ta_result_free(&off);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

/* busiest channel with 4 removal orders against 1; 1 where lower */
static int orders_lower(struct topo *t, const char *what)
{
	struct ta_graph *g = topo_to_graph(t);
	double one, four;

	ck_assert_ptr_nonnull(g);
	one = load_orders(g, TA_MODE_TURN_ADDITION, true, 1, NULL, NULL);
	four = load_orders(g, TA_MODE_TURN_ADDITION, true, 4, NULL, NULL);
	ck_assert_msg(four <= one * (1 + 1e-9),
		      "%s: busiest channel %.4f with 4 orders, %.4f with 1",
		      what, four, one);
	ta_graph_free(g);
	topo_free(t);
	return four < one * (1 - 1e-9);
}

START_TEST(more_orders_no_worse)
{
	struct topo t;

	ck_assert_int_eq(topo_dragonfly(&t, 5, 2, 3, 0), 0);
	ck_assert_msg(orders_lower(&t, "dragonfly 5 2 3"),
		      "dragonfly 5 2 3: 4 orders no better than 1");
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	orders_lower(&t, "dragonfly 4 2 2");
	ck_assert_int_eq(topo_random(&t, 60, 10, 10, 2), 0);
	ck_assert_msg(orders_lower(&t, "random 60 10 10 2"),
		      "random 60 10 10 2: 4 orders no better than 1");
	ck_assert_int_eq(topo_mesh(&t, 6, 6, 2, 1), 0);
	orders_lower(&t, "torus 6 6 2");
}
END_TEST

/*
 * random 40 10 10 1: turn addition's own routes load the busiest
 * channel 5 % less than the routes over Turn-Prohibition's turns and
 * lose under half a percent of permutation bandwidth: they are kept
 */
START_TEST(small_perm_loss_keeps_less_loaded)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_result on;
	double l_on, l_off, perm_on, perm_tp;

	ck_assert_int_eq(topo_random(&t, 40, 10, 10, 1), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	l_on = load_of(g, TA_MODE_TURN_ADDITION, true, &on, &perm_on);
	l_off = load_of(g, TA_MODE_TURN_ADDITION, false, NULL, NULL);
	load_of(g, TA_MODE_TURN_PROHIBITION, false, NULL, &perm_tp);
	ck_assert_int_eq(on.stats.tp_tried, 1);
	ck_assert_msg(!on.stats.tp_kept && l_on <= l_off * (1 + 1e-9),
		      "random 40 10 10 1: busiest channel %.1f kept, %.1f with turn addition's own turns",
		      l_on, l_off);
	ck_assert_msg(perm_on >= perm_tp * 0.99,
		      "random 40 10 10 1: permutations %.4f, TP %.4f",
		      perm_on, perm_tp);
	ta_result_free(&on);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tp_candidate");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, random_small);
	tcase_add_test(tc, random_large);
	tcase_add_test(tc, fat_tree_untouched);
	tcase_add_test(tc, more_orders_no_worse);
	tcase_add_test(tc, small_perm_loss_keeps_less_loaded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
