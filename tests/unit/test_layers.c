// SPDX-License-Identifier: MIT
/*
 * Routes over several layers (option vls, ta_layers.h): on dragonflies,
 * random nets, tori and HyperX, for 2 to 4 layers, every switch reaches
 * every destination, and each layer's channel dependency graph, built
 * here from the routes and their layers alone (every path walked from
 * every switch, its turns added to its layer's graph), is acyclic (a
 * depth-first search of this file, not the core's); on the dragonfly
 * the layered routes are taken and use more than one layer.  Fat trees
 * route exactly as with one layer, every path on layer 0.  With one
 * layer the result carries no layers.  A resweep with the previous
 * layers as its prior keeps every path's layer where its port stays.
 * The routing memory (ta_saved.h) gives the next routing every path's
 * layer and every turn's layers as they were, and that routing keeps
 * them.  More layers never route worse: on a dragonfly whose routes
 * over 3 layers are not kept, vls 3 and 4 route exactly as vls 2, and
 * the busiest channel never grows with vls.  Where the routes over N
 * layers lose more than 3 % of the one-layer routes' permutation
 * bandwidth (dragonfly 8 4 4, 4 layers), they are routed again with
 * neighbour spreading and those are taken, within 3 % on both metrics.
 * A layer that would rank the turns as the one below it is its copy;
 * one whose previous turns differ is decided, and keeps them.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_layers.h"
#include "ta_perm.h"
#include "ta_saved.h"
#include "topo_graph.h"
#include "run_suite.h"

static struct ta_graph *make(const char *kind)
{
	struct topo t;
	struct ta_graph *g;
	unsigned hx[2] = { 5, 5 };
	int r = -1;

	if (!strcmp(kind, "dragonfly"))
		r = topo_dragonfly(&t, 4, 2, 2, 0);
	else if (!strcmp(kind, "dragonfly-623"))
		r = topo_dragonfly(&t, 6, 2, 3, 0);
	else if (!strcmp(kind, "dragonfly-844"))
		r = topo_dragonfly(&t, 8, 4, 4, 0);
	else if (!strcmp(kind, "dragonfly-big"))
		r = topo_dragonfly(&t, 6, 3, 3, 7);
	else if (!strcmp(kind, "random"))
		r = topo_random(&t, 40, 10, 5, 1);
	else if (!strcmp(kind, "random-b"))
		r = topo_random(&t, 60, 10, 10, 1);
	else if (!strcmp(kind, "torus"))
		r = topo_mesh(&t, 6, 6, 2, 1);
	else if (!strcmp(kind, "hyperx"))
		r = topo_hyperx(&t, 2, hx, 2);
	else if (!strcmp(kind, "fattree2"))
		r = topo_fattree2(&t, 8, 4, 4, 1);
	else if (!strcmp(kind, "fattree3"))
		r = topo_fattree3(&t, 4, 4, 2, 4, 4);
	ck_assert_int_eq(r, 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	topo_free(&t);
	return g;
}

/* routes g over vls layers with tp_orders orders (0: the default) */
static void route_orders(const struct ta_graph *g, unsigned vls,
			 unsigned orders, const struct ta_prior *prior,
			 struct ta_result *r)
{
	struct ta_options o;

	ta_options_init(&o);
	o.vls = vls;
	if (orders)
		o.tp_orders = orders;
	ck_assert_int_eq(ta_route_prior(g, &o, prior, NULL, r), 0);
	ta_options_clear(&o);
}

static void route(const struct ta_graph *g, unsigned vls,
		  const struct ta_prior *prior, struct ta_result *r)
{
	route_orders(g, vls, 0, prior, r);
}

/* head switch of channel c and its end there */
static uint32_t head_sw(const struct ta_graph *g, uint32_t c)
{
	return g->links[c / 2].sw[1 - c % 2];
}

static uint32_t head_end(const struct ta_graph *g, uint32_t c)
{
	return g->links[c / 2].end[1 - c % 2];
}

/*
 * Walks the path from every switch to every destination, asserting it
 * arrives within n_sw hops, and marks used[layer * slots + turn] for
 * each turn it takes on its layer.
 */
static void walk_all(const struct ta_graph *g, const struct ta_result *r,
		     unsigned vls, uint8_t *used)
{
	uint32_t s, d;

	for (d = 0; d < g->n_dest; d++) {
		for (s = 0; s < g->n_sw; s++) {
			uint32_t at = s, in = UINT32_MAX, hops = 0;
			unsigned layer = r->layer ?
				r->layer[(size_t)s * g->n_dest + d] : 0;

			ck_assert_uint_lt(layer, vls);
			while (at != g->dest[d].sw) {
				uint8_t p = ta_result_port(r, at, d);
				uint32_t e = ta_graph_end_of_port(g, at, p), c;

				ck_assert_msg(e != UINT32_MAX,
					      "switch %u: no link out to dest %u (port %u)",
					      at, d, p);
				if (in != UINT32_MAX)
					used[(size_t)layer * g->n_turn_slots +
					     ta_turn(g, at, in, e)] = 1;
				ck_assert_uint_le(++hops, g->n_sw);
				c = ta_graph_out_chan(g, at, e);
				at = head_sw(g, c);
				in = head_end(g, c);
			}
		}
	}
}

/*
 * 1 if the channel dependencies of the turns marked in used (one
 * layer) close a cycle: depth-first search over channels, where channel
 * c leads to the channels out of its head switch through used turns.
 */
static int has_cycle(const struct ta_graph *g, const uint8_t *used)
{
	uint32_t n = 2 * g->n_links, root;
	uint8_t *color = calloc(n + 1, 1);	/* 0 new, 1 open, 2 done */
	uint32_t *stack = malloc((n + 1) * sizeof(*stack));
	uint32_t *next = calloc(n + 1, sizeof(*next));	/* next out end */
	int cyclic = 0;

	ck_assert(color && stack && next);
	for (root = 0; root < n && !cyclic; root++) {
		uint32_t top = 0;

		if (color[root])
			continue;
		stack[top++] = root;
		color[root] = 1;
		while (top && !cyclic) {
			uint32_t c = stack[top - 1], s = head_sw(g, c);
			uint32_t i = head_end(g, c), e = next[c];

			if (e == g->sw[s].n_ends) {
				color[c] = 2;
				top--;
				continue;
			}
			next[c]++;
			if (!used[ta_turn(g, s, i, e)])
				continue;
			c = ta_graph_out_chan(g, s, e);
			if (color[c] == 1)
				cyclic = 1;
			else if (!color[c]) {
				color[c] = 1;
				stack[top++] = c;
			}
		}
	}
	free(color);
	free(stack);
	free(next);
	return cyclic;
}

/* every path arrives, every layer acyclic; returns the layers used */
static unsigned check_layers(const struct ta_graph *g,
			     const struct ta_result *r, unsigned vls,
			     const char *what)
{
	uint8_t *used = calloc((size_t)vls * g->n_turn_slots + 1, 1);
	unsigned layer, n_used = 0;
	uint32_t k;

	ck_assert_ptr_nonnull(used);
	walk_all(g, r, vls, used);
	for (layer = 0; layer < vls; layer++) {
		const uint8_t *u = used + (size_t)layer * g->n_turn_slots;
		int any = 0;

		for (k = 0; k < g->n_turn_slots; k++)
			any |= u[k];
		n_used += any;
		ck_assert_msg(!has_cycle(g, u), "%s: layer %u of %u has a cycle",
			      what, layer, vls);
	}
	free(used);
	return n_used;
}

static const char *const layered_kinds[] = {
	"dragonfly", "dragonfly-big", "random", "random-b", "torus", "hyperx",
};

START_TEST(layers_acyclic_and_complete)
{
	struct ta_graph *g = make(layered_kinds[_i]);
	unsigned vls;

	for (vls = 2; vls <= 4; vls++) {
		struct ta_result r;
		unsigned used;

		route(g, vls, NULL, &r);
		ck_assert_ptr_nonnull(r.layer);
		ck_assert_uint_eq(r.stats.unreachable, 0);
		used = check_layers(g, &r, vls, layered_kinds[_i]);
		if (!strcmp(layered_kinds[_i], "dragonfly")) {
			ck_assert_int_eq(r.stats.layers_used, 1);
			ck_assert_uint_gt(used, 1);
		}
		ta_result_free(&r);
	}
	ta_graph_free(g);
}
END_TEST

static const char *const tree_kinds[] = { "fattree2", "fattree3" };

START_TEST(fat_trees_as_one_layer)
{
	struct ta_graph *g = make(tree_kinds[_i]);
	size_t n = (size_t)g->n_sw * g->n_dest, k;
	struct ta_result one;
	unsigned vls;

	route(g, 1, NULL, &one);
	ck_assert_ptr_null(one.layer);
	for (vls = 2; vls <= 4; vls++) {
		struct ta_result r;

		route(g, vls, NULL, &r);
		ck_assert_ptr_nonnull(r.layer);
		ck_assert_mem_eq(r.port, one.port, n);
		ck_assert_mem_eq(r.turn_state, one.turn_state,
				 g->n_turn_slots);
		for (k = 0; k < n; k++)
			ck_assert_uint_eq(r.layer[k], 0);
		ta_result_free(&r);
	}
	ta_result_free(&one);
	ta_graph_free(g);
}
END_TEST

/* vls 1 carries no layers and routes as without the option */
START_TEST(one_layer_plain)
{
	struct ta_graph *g = make("dragonfly");
	struct ta_options o;
	struct ta_result a, b;

	ta_options_init(&o);
	ck_assert_uint_eq(o.vls, 1);
	ck_assert_int_eq(ta_route(g, &o, NULL, &a), 0);
	ta_options_clear(&o);
	route(g, 1, NULL, &b);
	ck_assert_ptr_null(a.layer);
	ck_assert_ptr_null(b.layer);
	ck_assert_mem_eq(a.port, b.port, (size_t)g->n_sw * g->n_dest);
	check_layers(g, &a, 1, "one layer");
	ta_result_free(&a);
	ta_result_free(&b);
	ta_graph_free(g);
}
END_TEST

/* a resweep of the same fabric: a path whose port stays keeps its layer */
START_TEST(resweep_keeps_layers)
{
	struct ta_graph *g = make("dragonfly");
	size_t n = (size_t)g->n_sw * g->n_dest, k, moved = 0;
	struct ta_result first, again;
	struct ta_prior p;

	route(g, 3, NULL, &first);
	memset(&p, 0, sizeof(p));
	p.turn_state = first.turn_state;
	p.home_port = first.port;
	p.last_port = first.port;
	p.layer = first.layer;
	route(g, 3, &p, &again);
	ck_assert_uint_eq(again.stats.layers_used, 1);
	check_layers(g, &again, 3, "resweep");
	for (k = 0; k < n; k++) {
		moved += again.port[k] != first.port[k];
		if (again.port[k] == first.port[k])
			ck_assert_uint_eq(again.layer[k], first.layer[k]);
	}
	ck_assert_uint_eq(moved, 0);
	ta_result_free(&first);
	ta_result_free(&again);
	ta_graph_free(g);
}
END_TEST

/* the routing memory carries each path's and each turn's layers */
START_TEST(memory_carries_layers)
{
	struct ta_graph *g = make("dragonfly");
	size_t n = (size_t)g->n_sw * g->n_dest, k, moved = 0;
	struct ta_result first, again;
	struct ta_saved sv;
	struct ta_prior_buf pb;

	route(g, 3, NULL, &first);
	ck_assert_uint_eq(first.stats.layers_used, 1);
	ck_assert_ptr_nonnull(first.turn_layers);
	ta_saved_init(&sv);
	ck_assert_int_eq(ta_saved_update(&sv, g, &first), 0);
	ck_assert_int_eq(ta_saved_prior(&sv, g, &pb), 0);
	ck_assert_ptr_nonnull(pb.prior.layer);
	ck_assert_ptr_nonnull(pb.prior.turn_layers);
	for (k = 0; k < n; k++)
		if (first.port[k] != TA_NO_PORT)
			ck_assert_uint_eq(pb.prior.layer[k], first.layer[k]);
	for (k = 0; k < g->n_turn_slots; k++)
		ck_assert_uint_eq(pb.prior.turn_layers[k],
				  first.turn_layers[k]);
	route(g, 3, &pb.prior, &again);
	check_layers(g, &again, 3, "memory");
	for (k = 0; k < n; k++) {
		moved += again.port[k] != first.port[k];
		ck_assert_uint_eq(again.layer[k], first.layer[k]);
	}
	ck_assert_uint_eq(moved, 0);
	ta_prior_buf_free(&pb);
	ta_saved_free(&sv);
	ta_result_free(&first);
	ta_result_free(&again);
	ta_graph_free(g);
}
END_TEST

/* the busiest inter-switch channel when every host sends 1 to every host */
static double busiest(const struct ta_graph *g, const struct ta_result *r)
{
	double *load = calloc(2 * (size_t)g->n_links + 1, sizeof(*load));
	uint32_t *hosts = calloc(g->n_sw + 1, sizeof(*hosts));
	double top = 0;
	uint32_t s, d, c;

	ck_assert(load && hosts);
	for (d = 0; d < g->n_dest; d++)
		hosts[g->dest[d].sw] += g->dest[d].is_host;
	for (d = 0; d < g->n_dest; d++) {
		if (!g->dest[d].is_host)
			continue;
		for (s = 0; s < g->n_sw; s++) {
			uint32_t at = s;

			while (hosts[s] && at != g->dest[d].sw) {
				uint8_t p = ta_result_port(r, at, d);

				c = ta_graph_out_chan(g, at,
						      ta_graph_end_of_port(g, at, p));
				load[c] += hosts[s];
				at = head_sw(g, c);
			}
		}
	}
	for (c = 0; c < 2 * g->n_links; c++)
		if (load[c] > top)
			top = load[c];
	free(load);
	free(hosts);
	return top;
}

/*
 * vls N routes no worse than vls N - 1: where the routes over N layers
 * are not kept, those over fewer are, exactly as that vls routes them
 * (on dragonfly 6 2 3 those over 3 and 4 layers are not kept, those over
 * 2 are); every layer acyclic.
 */
START_TEST(more_layers_no_worse)
{
	struct ta_graph *g = make("dragonfly-623");
	size_t n = (size_t)g->n_sw * g->n_dest, k;
	struct ta_result r[5];
	double top[5];
	unsigned vls;

	for (vls = 1; vls <= 4; vls++) {
		unsigned taken;

		route(g, vls, NULL, &r[vls]);
		ck_assert_uint_eq(r[vls].stats.unreachable, 0);
		check_layers(g, &r[vls], vls, "more layers");
		top[vls] = busiest(g, &r[vls]);
		if (vls == 1)
			continue;
		ck_assert_msg(top[vls] <= top[vls - 1],
			      "vls %u: busiest channel %.0f, vls %u: %.0f", vls,
			      top[vls], vls - 1, top[vls - 1]);
		taken = r[vls].stats.layers_taken;
		ck_assert_uint_ge(taken, 1);
		ck_assert_uint_le(taken, vls);
		ck_assert_int_eq(r[vls].stats.layers_used, taken > 1);
		if (taken == vls)
			continue;
		ck_assert_mem_eq(r[vls].port, r[taken].port, n);
		for (k = 0; k < n; k++)
			ck_assert_uint_eq(r[vls].layer[k],
					  taken > 1 ? r[taken].layer[k] : 0);
	}
	ck_assert_uint_eq(r[2].stats.layers_taken, 2);
	ck_assert_uint_lt(r[3].stats.layers_taken, 3);
	ck_assert_double_lt(top[2], top[1]);
	for (vls = 1; vls <= 4; vls++)
		ta_result_free(&r[vls]);
	ta_graph_free(g);
}
END_TEST

/*
 * Neighbour spreading (ta_layer_route.c): on dragonfly 8 4 4, over the
 * one-layer routes of Turn-Prohibition's least-traffic order
 * (tp_orders 1), the plain routes over 4 layers lose more than 3 % of
 * the permutation bandwidth of one layer, those over 3 do not.  vls 4
 * takes 4 layers routed with spreading, within 3 % of one layer on both
 * metrics; vls 3 takes its plain routes, no spreading.
 */
START_TEST(spread_where_permutations_lose)
{
	struct ta_graph *g = make("dragonfly-844");
	struct ta_result one, three, four;
	double p1, p4, b1, b4;

	route_orders(g, 1, 1, NULL, &one);
	route_orders(g, 3, 1, NULL, &three);
	route_orders(g, 4, 1, NULL, &four);
	ck_assert_uint_eq(three.stats.layers_taken, 3);
	ck_assert_int_eq(three.stats.layers_spread, 0);
	ck_assert_uint_eq(four.stats.layers_taken, 4);
	ck_assert_int_eq(four.stats.layers_spread, 1);
	ck_assert_uint_eq(four.stats.unreachable, 0);
	check_layers(g, &four, 4, "spread");
	p1 = ta_perm_bandwidth(g, one.port, 100, 256, 1);
	p4 = ta_perm_bandwidth(g, four.port, 100, 256, 1);
	ck_assert_msg(p4 >= p1 * 0.97, "permutations %.4f against %.4f", p4,
		      p1);
	b1 = busiest(g, &one);
	b4 = busiest(g, &four);
	ck_assert_msg(b4 < b1, "busiest channel %.0f against %.0f", b4, b1);
	ta_result_free(&one);
	ta_result_free(&three);
	ta_result_free(&four);
	ta_graph_free(g);
}
END_TEST

/*
 * ta_layers_decide(): on the dragonfly the layers 0 and 1 leave no turn
 * new to layer 2, so layer 3 ranks every turn as layer 2 does and is
 * its copy.  With a previous routing whose layer 3 allowed layer 1's
 * turns (layer 2 not), layer 3 is decided: it allows them all again.
 */
START_TEST(decide_copies_only_equal_layers)
{
	struct ta_graph *g = make("dragonfly");
	struct ta_result one;
	uint8_t *tl, *prev, *again;
	uint32_t k, differ = 0;

	route(g, 1, NULL, &one);
	tl = malloc(g->n_turn_slots + 1);
	prev = malloc(g->n_turn_slots + 1);
	again = malloc(g->n_turn_slots + 1);
	ck_assert(tl && prev && again);
	ck_assert_int_eq(ta_layers_decide(g, one.turn_state, NULL, NULL, 4, tl,
					  NULL), 0);
	for (k = 0; k < g->n_turn_slots; k++) {
		ck_assert_uint_eq(tl[k] >> 3 & 1u, tl[k] >> 2 & 1u);
		prev[k] = (uint8_t)((tl[k] & 7u) | (tl[k] & 2u) << 2);
		differ += (tl[k] >> 1 & 1u) && !(tl[k] >> 2 & 1u);
	}
	ck_assert_uint_gt(differ, 0);
	ck_assert_int_eq(ta_layers_decide(g, one.turn_state, NULL, prev, 4,
					  again, NULL), 0);
	for (k = 0; k < g->n_turn_slots; k++)
		if (prev[k] >> 3 & 1u)
			ck_assert_uint_eq(again[k] >> 3 & 1u, 1);
	ck_assert_int_eq(ta_layers_cyclic(g, again, 3), 0);
	free(tl);
	free(prev);
	free(again);
	ta_result_free(&one);
	ta_graph_free(g);
}
END_TEST

static Suite *layers_suite(void)
{
	Suite *s = suite_create("layers");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, layers_acyclic_and_complete, 0,
			    sizeof(layered_kinds) / sizeof(layered_kinds[0]));
	tcase_add_loop_test(tc, fat_trees_as_one_layer, 0,
			    sizeof(tree_kinds) / sizeof(tree_kinds[0]));
	tcase_add_test(tc, one_layer_plain);
	tcase_add_test(tc, resweep_keeps_layers);
	tcase_add_test(tc, memory_carries_layers);
	tcase_add_test(tc, more_layers_no_worse);
	tcase_add_test(tc, spread_where_permutations_lose);
	tcase_add_test(tc, decide_copies_only_equal_layers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(layers_suite());
}
