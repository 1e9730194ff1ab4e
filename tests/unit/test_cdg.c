// SPDX-License-Identifier: MIT
/*
 * The incremental cycle check (dynamic topological order) decides every
 * turn exactly as the naive search of all allowed turns, on thousands of
 * random nets with random turn weights, with and without escape trees
 * allowed first, with and without the initial order the engine gives it
 * (escape levels, weighted turns hinted); and the result is always
 * acyclic and maximal (no prohibited pair could have been allowed),
 * both judged by turn_verify.c, not by the core's own cycle check.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_turnadd.h"
#include "topo_graph.h"
#include "turn_verify.h"
#include "run_suite.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Judged by turn_verify.c, not by the core: the allowed turns are
 * acyclic, and (with `maximal`) turn addition prohibited no pair it
 * could have allowed: allowing any prohibited turn together with its
 * reverse closes a cycle.
 */
static void judge_turns(const struct ta_graph *g, uint8_t *state, int maximal)
{
	uint32_t s, i, j;

	ck_assert_int_eq(turns_cyclic(g, state), 0);
	ck_assert_uint_eq(turns_count(g, state, TA_TURN_UNDECIDED), 0);
	if (!maximal)
		return;
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++) {
				uint32_t a = ta_turn(g, s, i, j);
				uint32_t b = ta_turn(g, s, j, i);
				uint8_t sa = state[a], sb = state[b];

				if (i == j || sa != TA_TURN_PROHIBITED)
					continue;
				state[a] = state[b] = TA_TURN_ALLOWED;
				ck_assert_msg(turns_cyclic(g, state) == 1,
					      "switch %u: turn pair %u-%u "
					      "prohibited, closes no cycle",
					      s, i, j);
				state[a] = sa;
				state[b] = sb;
			}
}

/* decides all turns of g both ways; returns the number of turns compared */
static uint32_t compare_once(const struct ta_graph *g, int with_escape,
			     int coarse, int hinted, int maximal)
{
	double *w = malloc((g->n_turn_slots + 1) * sizeof(*w));
	struct ta_cdg fast, slow;
	struct ta_escape e;
	uint32_t k;

	ck_assert_ptr_nonnull(w);
	/* coarse weights make many ties, so the tie order is exercised */
	for (k = 0; k < g->n_turn_slots; k++)
		w[k] = coarse ? (double)(rng() % 4) : (double)(rng() % 100000);
	ck_assert_int_eq(ta_cdg_init(&fast, g), 0);
	ck_assert_int_eq(ta_cdg_init(&slow, g), 0);
	slow.naive = 1;
	if (with_escape) {
		ck_assert_int_eq(ta_escape_build(&e, g, w, NULL, 0), 0);
		ck_assert_int_eq(ta_escape_allow_turns(&e, &fast), 0);
		ck_assert_int_eq(ta_escape_allow_turns(&e, &slow), 0);
	}
	/* the engine's initial order: escape levels, weighted turns hinted */
	if (hinted) {
		fast.level = with_escape ? e.level : NULL;
		fast.hint_w = w;
		ta_cdg_touch(&fast);
	}
	ck_assert_int_eq(ta_turnadd_decide(&fast, w, rng() % 3), 0);
	rng_state -= 0x9e3779b97f4a7c15ULL;	/* same seed draw again */
	ck_assert_int_eq(ta_turnadd_decide(&slow, w, rng() % 3), 0);
	for (k = 0; k < g->n_turn_slots; k++)
		ck_assert_msg(fast.state[k] == slow.state[k],
			      "turn slot %u: incremental %d, naive %d", k,
			      fast.state[k], slow.state[k]);
	ck_assert_int_eq(ta_cdg_has_cycle(&fast), 0);
	judge_turns(g, fast.state, maximal);
	if (with_escape)
		ta_escape_free(&e);
	ta_cdg_free(&fast);
	ta_cdg_free(&slow);
	free(w);
	return g->n_turn_slots;
}

START_TEST(incremental_equals_naive_on_random_nets)
{
	unsigned round, nets = 0;
	uint64_t turns = 0;

	rng_state = 12345;
	for (round = 0; round < 1500; round++) {
		unsigned n = 3 + rng() % 28, ports = 2 + rng() % 7;
		struct topo t;
		struct ta_graph *g;

		if (topo_random(&t, n, ports, 0, (unsigned)rng()))
			continue;	/* impossible parameters */
		g = topo_to_graph(&t);
		ck_assert_ptr_nonnull(g);
		/* the maximality search is slow: every 8th net */
		turns += compare_once(g, round & 1, round & 2, round & 4,
				      round % 8 == 0);
		nets++;
		ta_graph_free(g);
		topo_free(&t);
	}
	ck_assert_uint_ge(nets, 1000);
	ck_assert_uint_gt(turns, 100000);
}
END_TEST

START_TEST(incremental_equals_naive_on_tori)
{
	unsigned x, y;

	rng_state = 99;
	for (x = 3; x <= 6; x++)
		for (y = 3; y <= 6; y++) {
			struct topo t;
			struct ta_graph *g;

			ck_assert_int_eq(topo_mesh(&t, x, y, 0, 1), 0);
			g = topo_to_graph(&t);
			compare_once(g, 1, 1, 1, 1);
			compare_once(g, 0, 0, 0, 1);
			ta_graph_free(g);
			topo_free(&t);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cdg");
	TCase *tc = tcase_create("incremental");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, incremental_equals_naive_on_random_nets);
	tcase_add_test(tc, incremental_equals_naive_on_tori);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
