// SPDX-License-Identifier: MIT
/*
 * Multicast trees (ta_mcast.h) over turnadd's routing: on random nets and
 * a fat tree, every group's tree reaches every member switch, has no
 * cycle and only turns allowed to unicast (so the allowed turns, which
 * the routing keeps acyclic, cover unicast and multicast together); a
 * tree rebuilt from itself is kept whole; the groups of a fat tree
 * spread over its spines; and the validity check rejects a tree once one
 * of its turns is prohibited.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_mcast.h"
#include "topo_graph.h"
#include "run_suite.h"

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static struct ta_graph *route(struct topo *t, struct ta_result *r)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_options o;

	ck_assert_ptr_nonnull(g);
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, r), 0);
	ta_options_clear(&o);
	ck_assert_ptr_nonnull(r->escape_parent);
	return g;
}

/* the allowed turns are acyclic (checked apart from ta_mcast) */
static void allowed_acyclic(const struct ta_graph *g, const uint8_t *state)
{
	struct ta_cdg c;

	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	memcpy(c.state, state, g->n_turn_slots);
	ta_cdg_touch(&c);
	ck_assert_int_eq(ta_cdg_has_cycle(&c), 0);
	ta_cdg_free(&c);
}

START_TEST(random_nets)
{
	unsigned n = 10 + 10 * (unsigned)(_i % 6), seed = 1 + (unsigned)_i / 6;
	uint32_t members[64], rng = seed * 7919u + n, grp, k;
	struct ta_result r;
	struct ta_graph *g;
	struct ta_mcast m;
	struct topo t;

	ck_assert_int_eq(topo_random(&t, n, 10, 2, seed), 0);
	g = route(&t, &r);
	allowed_acyclic(g, r.turn_state);
	ck_assert_int_eq(ta_mcast_init(&m, g, r.turn_state, r.escape_parent),
			 0);
	for (grp = 0; grp < 40; grp++) {
		uint32_t cnt = 2 + lcg(&rng) % (grp % 4 ? 8 : n);
		struct ta_mc_tree tr, again;

		for (k = 0; k < cnt && k < 64; k++)
			members[k] = lcg(&rng) % g->n_sw;
		ck_assert_int_eq(ta_mcast_build(&m, members, k, NULL, 0, grp,
						&tr), 0);
		ck_assert_uint_eq(tr.unreached, 0);
		ck_assert(ta_mcast_valid(g, r.turn_state, tr.links, tr.n_links,
					 members, k));
		/* rebuilt from itself: the same links */
		ck_assert_int_eq(ta_mcast_build(&m, members, k, tr.links,
						tr.n_links, grp + 1, &again),
				 0);
		ck_assert_uint_eq(again.n_links, tr.n_links);
		ck_assert_uint_eq(again.kept, tr.n_links);
		ck_assert(ta_mcast_valid(g, r.turn_state, again.links,
					 again.n_links, members, k));
		ta_mcast_unload(&m, tr.links, tr.n_links);
		ta_mc_tree_free(&tr);
		ta_mc_tree_free(&again);
	}
	ta_mcast_free(&m);
	ta_result_free(&r);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

START_TEST(fat_tree_spread_and_mutation)
{
	enum { LEAVES = 12, SPINES = 6, GROUPS = 12 };
	uint32_t members[LEAVES], used[LEAVES + SPINES] = { 0 }, grp, k, s;
	uint32_t spines_used = 0;
	struct ta_result r;
	struct ta_graph *g;
	struct ta_mcast m;
	struct topo t;
	bool mutated = false;

	ck_assert_int_eq(topo_fattree2(&t, LEAVES, SPINES, 4, 1), 0);
	g = route(&t, &r);
	ck_assert_int_eq(ta_mcast_init(&m, g, r.turn_state, r.escape_parent),
			 0);
	/* the switches with hosts are the leaves */
	for (k = s = 0; s < g->n_dest && k < LEAVES; s++)
		if (g->dest[s].is_host &&
		    (!k || members[k - 1] != g->dest[s].sw))
			members[k++] = g->dest[s].sw;
	ck_assert_uint_eq(k, LEAVES);
	for (grp = 0; grp < GROUPS; grp++) {
		struct ta_mc_tree tr;
		uint32_t l;

		ck_assert_int_eq(ta_mcast_build(&m, members, LEAVES, NULL, 0,
						grp, &tr), 0);
		ck_assert_uint_eq(tr.unreached, 0);
		ck_assert(ta_mcast_valid(g, r.turn_state, tr.links, tr.n_links,
					 members, LEAVES));
		for (l = 0; l < tr.n_links; l++) {
			used[g->links[tr.links[l]].sw[0]]++;
			used[g->links[tr.links[l]].sw[1]]++;
		}
		/* a switch with two tree links: prohibit the turn between
		 * them and the check must reject the tree */
		for (s = 0; s < g->n_sw && !mutated; s++) {
			uint32_t i, j, e[2], n = 0;

			for (i = 0; i < g->sw[s].n_ends && n < 2; i++)
				for (j = 0; j < tr.n_links; j++)
					if (tr.links[j] == g->sw[s].ends[i].link)
						e[n++] = i;
			if (n == 2) {
				uint8_t *st = malloc(g->n_turn_slots);

				memcpy(st, r.turn_state, g->n_turn_slots);
				st[ta_turn(g, s, e[0], e[1])] =
					TA_TURN_PROHIBITED;
				ck_assert(!ta_mcast_valid(g, st, tr.links,
							  tr.n_links, members,
							  LEAVES));
				free(st);
				mutated = true;
			}
		}
		ta_mc_tree_free(&tr);
	}
	ck_assert(mutated);
	/* the groups spread over every spine (switches without hosts) */
	for (s = 0; s < g->n_sw; s++) {
		bool leaf = false;

		for (k = 0; k < LEAVES; k++)
			leaf = leaf || members[k] == s;
		if (!leaf && used[s])
			spines_used++;
	}
	ck_assert_uint_eq(spines_used, SPINES);
	ta_mcast_free(&m);
	ta_result_free(&r);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mcast");
	TCase *tc = tcase_create("trees");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, random_nets, 0, 18);
	tcase_add_test(tc, fat_tree_spread_and_mutation);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
