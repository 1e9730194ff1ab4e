// SPDX-License-Identifier: MIT
/*
 * The turn-addition paper's worked example (its Fig. 18): a 2x3 grid
 *
 *   A - B - C
 *   |   |   |
 *   D - E - F
 *
 * with turn-pair weights in the order DAB, ABE, EDA, BED, ABC, DEF, EBC,
 * CFE, FEB, BCF.  The paper decides DAB, ABE, EDA allowed, BED prohibited
 * (it closes A-B-E-D), ABC, DEF, EBC, CFE, FEB allowed, BCF prohibited
 * (it closes B-C-F-E).  Acyclicity is judged again by turn_verify.c,
 * not only by the core's own cycle check.
 */
#include <check.h>
#include <stdlib.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_graph.h"
#include "ta_turnadd.h"
#include "turn_verify.h"
#include "run_suite.h"

enum { A, B, C, D, E, F, N_SW };

static struct ta_graph *grid(void)
{
	struct ta_graph *g = ta_graph_new();
	static const char *names[N_SW] = { "A", "B", "C", "D", "E", "F" };
	static const int links[][2] = { { A, B }, { B, C }, { A, D },
					{ B, E }, { C, F }, { D, E },
					{ E, F } };
	uint8_t next_port[N_SW] = { 1, 1, 1, 1, 1, 1 };
	unsigned i;

	for (i = 0; i < N_SW; i++)
		ck_assert_int_eq(ta_graph_add_switch(g, 0x100 + i, names[i]), i);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		int a = links[i][0], b = links[i][1];

		ck_assert_int_ge(ta_graph_add_link(g, a, next_port[a]++, b,
						   next_port[b]++), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	return g;
}

/* link end of switch s leading to neighbour peer */
static uint32_t end_to(const struct ta_graph *g, uint32_t s, uint32_t peer)
{
	uint32_t j;

	for (j = 0; j < g->sw[s].n_ends; j++)
		if (g->sw[s].ends[j].peer == peer)
			return j;
	ck_abort_msg("no link %u-%u", s, peer);
	return 0;
}

/* turn x -> s -> y */
static uint32_t turn(const struct ta_graph *g, int x, int s, int y)
{
	return ta_turn(g, s, end_to(g, s, x), end_to(g, s, y));
}

struct named_turn {
	int x, s, y;
	int allowed;
};

/* the paper's order (heaviest first) and its verdicts */
static const struct named_turn fig18[] = {
	{ D, A, B, 1 }, { A, B, E, 1 }, { E, D, A, 1 }, { B, E, D, 0 },
	{ A, B, C, 1 }, { D, E, F, 1 }, { E, B, C, 1 }, { C, F, E, 1 },
	{ F, E, B, 1 }, { B, C, F, 0 },
};

#define N_FIG18 (sizeof(fig18) / sizeof(fig18[0]))

static double *fig18_weights(const struct ta_graph *g)
{
	double *w = calloc(g->n_turn_slots, sizeof(*w));
	unsigned k;

	/* split each pair's weight unevenly over its two directions */
	for (k = 0; k < N_FIG18; k++) {
		w[turn(g, fig18[k].x, fig18[k].s, fig18[k].y)] =
			(N_FIG18 - k) * 0.75;
		w[turn(g, fig18[k].y, fig18[k].s, fig18[k].x)] =
			(N_FIG18 - k) * 0.25;
	}
	return w;
}

static void check_verdicts(const struct ta_graph *g, const struct ta_cdg *c)
{
	unsigned k;

	for (k = 0; k < N_FIG18; k++) {
		const struct named_turn *t = &fig18[k];
		int want = t->allowed ? TA_TURN_ALLOWED : TA_TURN_PROHIBITED;

		ck_assert_msg(c->state[turn(g, t->x, t->s, t->y)] == want &&
				      c->state[turn(g, t->y, t->s, t->x)] ==
					      want,
			      "turn %c%c%c: got %d, paper says %s",
			      "ABCDEF"[t->x], "ABCDEF"[t->s], "ABCDEF"[t->y],
			      c->state[turn(g, t->x, t->s, t->y)],
			      t->allowed ? "allowed" : "prohibited");
	}
	ck_assert_int_eq(ta_cdg_has_cycle((struct ta_cdg *)c), 0);
	/* judged again without the core's cycle check */
	ck_assert_int_eq(turns_cyclic(g, c->state), 0);
}

START_TEST(paper_order_gives_paper_verdicts)
{
	struct ta_graph *g = grid();
	double *w = fig18_weights(g);
	struct ta_cdg c;

	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_turnadd_decide(&c, w, 0), 0);
	check_verdicts(g, &c);
	ta_cdg_free(&c);
	free(w);
	ta_graph_free(g);
}
END_TEST

/* the escape tree, chosen by the same weights, must not change them */
START_TEST(escape_tree_keeps_paper_verdicts)
{
	struct ta_graph *g = grid();
	double *w = fig18_weights(g);
	struct ta_escape e;
	struct ta_cdg c;

	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_escape_build(&e, g, w, NULL, 0), 0);
	ck_assert_uint_eq(e.root, B);
	ck_assert_int_eq(ta_escape_allow_turns(&e, &c), 0);
	ck_assert_int_eq(ta_turnadd_decide(&c, w, 0), 0);
	check_verdicts(g, &c);
	ta_escape_free(&e);
	ta_cdg_free(&c);
	free(w);
	ta_graph_free(g);
}
END_TEST

/* reversed weights: BCF decided first, so the B-C-F-E cycle loses FEB */
START_TEST(order_decides_which_turn_is_prohibited)
{
	struct ta_graph *g = grid();
	double *w = calloc(g->n_turn_slots, sizeof(*w));
	struct ta_cdg c;
	unsigned k;

	for (k = 0; k < N_FIG18; k++)
		w[turn(g, fig18[k].x, fig18[k].s, fig18[k].y)] = k + 1;
	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_turnadd_decide(&c, w, 0), 0);
	ck_assert_int_eq(c.state[turn(g, B, C, F)], TA_TURN_ALLOWED);
	ck_assert_int_eq(c.state[turn(g, B, E, D)], TA_TURN_ALLOWED);
	ck_assert_int_eq(c.state[turn(g, D, A, B)], TA_TURN_PROHIBITED);
	ck_assert_int_eq(ta_cdg_has_cycle(&c), 0);
	ck_assert_int_eq(turns_cyclic(g, c.state), 0);
	ta_cdg_free(&c);
	free(w);
	ta_graph_free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fig18");
	TCase *tc = tcase_create("paper");

	tcase_add_test(tc, paper_order_gives_paper_verdicts);
	tcase_add_test(tc, escape_tree_keeps_paper_verdicts);
	tcase_add_test(tc, order_decides_which_turn_is_prohibited);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
