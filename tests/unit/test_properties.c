// SPDX-License-Identifier: MIT
/*
 * Property tests over many generated fabrics: every host pair reachable,
 * every host reaches every switch LID, and the channel dependency graph
 * of the routes is acyclic.  Judged by route_verify.c, not by the
 * engine's own checks.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "route_assert.h"
#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_intree.h"
#include "topo_graph.h"
#include "run_suite.h"

static void route_and_verify(struct topo *t, const char *what,
			     enum ta_mode mode, struct verify_report *rep)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_options o;
	struct ta_result r;

	ck_assert_msg(g != NULL, "%s: graph", what);
	ta_options_init(&o);
	o.mode = mode;
	ck_assert_msg(ta_route(g, &o, NULL, &r) == 0, "%s: ta_route", what);
	ck_assert_msg(verify_routes(g, &r, rep) == 0, "%s: verify", what);
	ta_result_free(&r);
	ta_options_clear(&o);
	ta_graph_free(g);
	topo_free(t);
}

static void expect_good(struct topo *t, const char *what)
{
	struct verify_report rep;

	route_and_verify(t, what, TA_MODE_TURN_ADDITION, &rep);
	assert_report_good(&rep, what);
}

START_TEST(rings)
{
	unsigned n;
	char what[64];

	for (n = 3; n <= 16; n++) {
		struct topo t;

		snprintf(what, sizeof(what), "ring %u", n);
		ck_assert_int_eq(topo_ring(&t, n, 1 + n % 3), 0);
		expect_good(&t, what);
	}
}
END_TEST

START_TEST(meshes_and_tori)
{
	static const unsigned dims[][2] = { { 2, 2 }, { 3, 3 }, { 4, 5 },
					    { 6, 6 }, { 3, 7 } };
	unsigned k;
	char what[64];

	for (k = 0; k < sizeof(dims) / sizeof(dims[0]); k++) {
		int torus;

		for (torus = 0; torus <= 1; torus++) {
			struct topo t;

			snprintf(what, sizeof(what), "%s %ux%u",
				 torus ? "torus" : "mesh", dims[k][0],
				 dims[k][1]);
			ck_assert_int_eq(topo_mesh(&t, dims[k][0], dims[k][1],
						   2, torus), 0);
			expect_good(&t, what);
		}
	}
}
END_TEST

START_TEST(fat_trees)
{
	static const unsigned p[][4] = { { 4, 2, 2, 1 }, { 6, 3, 3, 1 },
					 { 8, 4, 4, 2 }, { 12, 6, 6, 1 },
					 { 5, 3, 2, 3 } };
	unsigned k;
	char what[64];

	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		struct topo t;

		snprintf(what, sizeof(what), "fat tree %u/%u/%u/%u", p[k][0],
			 p[k][1], p[k][2], p[k][3]);
		ck_assert_int_eq(topo_fattree2(&t, p[k][0], p[k][1], p[k][2],
					       p[k][3]), 0);
		expect_good(&t, what);
	}
}
END_TEST

/*
 * 100 random nets: 10 to 100 switches, 4 to 10 switch ports; every
 * third with a fifth of the hosts absent (switches without hosts: the
 * routes of tree-like fabrics), the others with hosts on every switch
 * (the least-cost routes of ta_intree_weighted.c)
 */
START_TEST(random_nets)
{
	unsigned n, seed;
	char what[80];

	for (n = 10; n <= 100; n += 10)
		for (seed = 1; seed <= 10; seed++) {
			struct topo t;
			unsigned ports = 4 + (n / 10 + seed) % 7;
			int absent = seed % 3 == 0;

			snprintf(what, sizeof(what),
				 "random %u switches %u ports seed %u%s", n,
				 ports, seed, absent ? " hosts absent" : "");
			ck_assert_int_eq(topo_random(&t, n, ports, 2, seed), 0);
			if (absent)
				ck_assert_int_eq(topo_drop_hosts(&t, 200, seed),
						 0);
			expect_good(&t, what);
		}
}
END_TEST

/* the verifier can fail: unrestricted shortest paths on a ring deadlock */
/*
 * The traffic estimate's fast provisional trees (ta_intree_plain) are
 * the trees ta_intree_build makes with every turn allowed but U-turns.
 */
static void plain_equals_build(const struct ta_graph *g)
{
	uint8_t *all = malloc(g->n_turn_slots + 1);
	struct ta_intree a, b;
	uint32_t k, d, s;

	ck_assert_ptr_nonnull(all);
	for (k = 0; k < g->n_turn_slots; k++)
		all[k] = TA_TURN_ALLOWED;
	for (s = 0; s < g->n_sw; s++)
		for (k = 0; k < g->sw[s].n_ends; k++)
			all[ta_turn(g, s, k, k)] = TA_TURN_USELESS;
	ck_assert_int_eq(ta_intree_init(&a, g), 0);
	ck_assert_int_eq(ta_intree_init(&b, g), 0);
	for (d = 0; d < g->n_dest; d++) {
		struct ta_choice ch = { .spread = d * 7 + d / 3 };

		ck_assert_uint_eq(ta_intree_build(&a, all, NULL, g->dest[d].sw,
						  &ch),
				  ta_intree_plain(&b, g->dest[d].sw, ch.spread));
		for (s = 0; s < g->n_sw; s++) {
			ck_assert_uint_eq(a.dist[s], b.dist[s]);
			if (a.dist[s] != TA_UNREACHED)
				ck_assert_uint_eq(a.out_end[s], b.out_end[s]);
		}
	}
	ta_intree_free(&a);
	ta_intree_free(&b);
	free(all);
}

START_TEST(fast_provisional_trees)
{
	struct topo t;
	struct ta_graph *g;
	unsigned i;

	for (i = 0; i < 8; i++) {
		int r = i == 0 ? topo_ring(&t, 7, 2) :
			i == 1 ? topo_mesh(&t, 4, 3, 1, 1) :
			i == 2 ? topo_fattree2(&t, 6, 3, 3, 2) :
			i == 3 ? topo_fattree3(&t, 3, 4, 2, 2, 2) :
				 topo_random(&t, 10 + 5 * i, 6, 2, i);

		ck_assert_int_eq(r, 0);
		g = topo_to_graph(&t);
		ck_assert_ptr_nonnull(g);
		plain_equals_build(g);
		ta_graph_free(g);
		topo_free(&t);
	}
}
END_TEST

START_TEST(verifier_sees_ring_cycle_without_prohibition)
{
	struct verify_report rep;
	struct topo t;

	ck_assert_int_eq(topo_ring(&t, 6, 1), 0);
	route_and_verify(&t, "ring 6 no_prohibition", TA_MODE_NONE_PROHIBITED,
			 &rep);
	ck_assert_int_eq(rep.unreachable_host_pairs, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("properties");
	TCase *tc = tcase_create("fabrics");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rings);
	tcase_add_test(tc, meshes_and_tori);
	tcase_add_test(tc, fat_trees);
	tcase_add_test(tc, random_nets);
	tcase_add_test(tc, verifier_sees_ring_cycle_without_prohibition);
	tcase_add_test(tc, fast_provisional_trees);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
