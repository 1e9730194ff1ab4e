// SPDX-License-Identifier: MIT
/*
 * ta_intree_fast() against ta_intree_build(): whenever the fast path
 * answers, every switch's distance and output equal the turn-by-turn
 * build's, with and without home ports; and it does answer on fat trees
 * (else the engine would gain nothing and this test would test nothing).
 * Turn states from the engine's own routing, plus states with random
 * prohibitions, on fat trees (full, with absent hosts, 3-level), random
 * nets and tori.
 */
#include <check.h>
#include <stdlib.h>

#include "run_suite.h"
#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_intree.h"
#include "topo.h"
#include "topo_graph.h"

static uint64_t rng_state = 99;

static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33);
}

/* compares fast and build for every switch as destination; returns hits */
static uint32_t compare(const struct ta_graph *g, const uint8_t *state)
{
	struct ta_intree tf, tb;
	uint8_t *home = malloc((size_t)g->n_sw + 1);
	uint32_t d, s, r, hits = 0;

	ck_assert_ptr_nonnull(home);
	ck_assert_int_eq(ta_intree_init(&tf, g), 0);
	ck_assert_int_eq(ta_intree_init(&tb, g), 0);
	for (d = 0; d < g->n_sw; d++)
		for (r = 0; r < 12; r++) {
			struct ta_choice ch = { .spread = rng() % 5000 };
			uint32_t got;

			if (r % 3 == 2) {
				/* home ports: some real, some gone */
				for (s = 0; s < g->n_sw; s++) {
					const struct ta_switch *w = &g->sw[s];

					home[s] = TA_NO_PORT;
					if (rng() % 3 == 0 && w->n_ends)
						home[s] = (uint8_t)(w->ends[rng() % w->n_ends].port +
								    rng() % 2);
				}
				ch.home = home;
				ch.home_stride = 1;
			}
			got = ta_intree_fast(&tf, state, d, &ch);
			if (!got)
				continue;
			hits++;
			ck_assert_uint_eq(got,
					  ta_intree_build(&tb, state, NULL, d, &ch));
			for (s = 0; s < g->n_sw; s++) {
				ck_assert_uint_eq(tf.dist[s], tb.dist[s]);
				if (tb.dist[s] != TA_UNREACHED)
					ck_assert_uint_eq(tf.out_end[s],
							  tb.out_end[s]);
			}
		}
	ta_intree_free(&tf);
	ta_intree_free(&tb);
	free(home);
	return hits;
}

/* the engine's turn states for t, and the same with prohibitions added */
static uint32_t check_topo(struct topo *t)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_options o;
	struct ta_result res;
	uint8_t *st;
	uint32_t k, hits;

	ck_assert_ptr_nonnull(g);
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, &res), 0);
	hits = compare(g, res.turn_state);
	st = malloc(g->n_turn_slots + 1);
	ck_assert_ptr_nonnull(st);
	for (k = 0; k < g->n_turn_slots; k++)
		st[k] = res.turn_state[k] == TA_TURN_ALLOWED && rng() % 8 == 0 ?
			TA_TURN_PROHIBITED : res.turn_state[k];
	compare(g, st);
	free(st);
	ta_result_free(&res);
	ta_options_clear(&o);
	ta_graph_free(g);
	topo_free(t);
	return hits;
}

START_TEST(fast_equals_build_on_fat_trees)
{
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, 12, 6, 6, 1), 0);
	ck_assert_uint_gt(check_topo(&t), 100);
	ck_assert_int_eq(topo_fattree2(&t, 8, 4, 8, 2), 0);
	ck_assert_uint_gt(check_topo(&t), 50);
	ck_assert_int_eq(topo_fattree3(&t, 6, 4, 2, 4, 6), 0);
	ck_assert_uint_gt(check_topo(&t), 100);
	ck_assert_int_eq(topo_fattree2(&t, 12, 6, 6, 1), 0);
	ck_assert_int_eq(topo_drop_hosts(&t, 400, 3), 0);
	check_topo(&t);
}
END_TEST

START_TEST(fast_equals_build_on_random_nets_and_tori)
{
	unsigned n;

	for (n = 0; n < 30; n++) {
		struct topo t;

		if (topo_random(&t, 4 + rng() % 30, 2 + rng() % 8,
				rng() % 4, rng()))
			continue;
		check_topo(&t);
	}
	for (n = 3; n < 7; n++) {
		struct topo t;

		ck_assert_int_eq(topo_mesh(&t, n, n + 1, 1, 1), 0);
		check_topo(&t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("intree_fast");
	TCase *tc = tcase_create("fast");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fast_equals_build_on_fat_trees);
	tcase_add_test(tc, fast_equals_build_on_random_nets_and_tori);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
