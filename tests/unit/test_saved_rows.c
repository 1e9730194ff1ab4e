// SPDX-License-Identifier: MIT
/*
 * The routing memory without its own copy of the switch tables (option
 * lft_rows of ta_saved.h, as the plugin keeps it): over a sequence of
 * changes (a switch dies, hosts leave, a second switch dies, hosts
 * return, everything returns, nothing changes, an SM restart that seeds
 * the memory from the tables) the priors it produces, read through
 * simulated OpenSM tables (lft_sim.h), are byte for byte those of the
 * memory that keeps its own copy, so the routes are the same; and it
 * holds less than that memory by at least one byte per switch and LID.
 * And fabrics that grow (growing_director): once whole, routed as a
 * bring-up of the whole fabric routes it.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lft_sim.h"
#include "route_assert.h"
#include "ta_saved.h"
#include "topo.h"
#include "run_suite.h"

/* g without the switches gone[] and the hosts away[]; LIDs stable:
 * switch i at 1 + i, host i at 1 + n_sw + i */
static struct ta_graph *graph(const struct topo *t, const uint8_t *gone,
			      const uint8_t *away)
{
	struct ta_graph *g = ta_graph_new();
	int *idx = calloc(t->n_sw + 1, sizeof(*idx));
	unsigned i;

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(idx);
	for (i = 0; i < t->n_sw; i++) {
		idx[i] = -1;
		if (!gone[i])
			idx[i] = ta_graph_add_switch(g, 0x1000 + i,
						     t->sw_name[i]);
	}
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		if (idx[l->a] >= 0 && idx[l->b] >= 0)
			ck_assert_int_ge(ta_graph_add_link(g, idx[l->a], l->pa,
							   idx[l->b], l->pb),
					 0);
	}
	for (i = 0; i < t->n_sw; i++)
		if (idx[i] >= 0)
			ck_assert_int_ge(ta_graph_add_dest(g, 1 + i, idx[i], 0,
							   false, 0x1000 + i,
							   NULL), 0);
	for (i = 0; i < t->n_hosts; i++)
		if (!away[i] && idx[t->hosts[i].sw] >= 0)
			ck_assert_int_ge(ta_graph_add_dest(
				g, 1 + t->n_sw + i, idx[t->hosts[i].sw],
				t->hosts[i].port, true, 0x200000 + i, NULL), 0);
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	free(idx);
	return g;
}

struct pair {
	struct ta_saved own;	/* keeps its own copy of the tables */
	struct ta_saved rows;	/* reads them from the simulated tables */
	struct lft_sim sim;
	int routed;
};

static void same_prior(const struct ta_graph *g, const struct ta_prior *a,
		       const struct ta_prior *b)
{
	size_t n = (size_t)g->n_sw * g->n_dest;

	ck_assert_mem_eq(a->home_port, b->home_port, n);
	ck_assert_mem_eq(a->last_port, b->last_port, n);
	ck_assert_mem_eq(a->turn_state, b->turn_state, g->n_turn_slots);
	ck_assert_mem_eq(a->escape_parent, b->escape_parent,
			 g->n_sw * sizeof(*a->escape_parent));
	ck_assert_uint_eq(a->escape_root_guid, b->escape_root_guid);
	ck_assert_int_eq(a->escape_carry, b->escape_carry);
	ck_assert_uint_eq(a->switches_gone, b->switches_gone);
	ck_assert_uint_eq(a->dests_gone, b->dests_gone);
}

/*
 * one routing of g with both memories: same prior, same routes; keep:
 * NULL, or where the routes go (n_sw * n_dest bytes)
 */
static void step_keep(struct pair *p, const struct ta_graph *g,
		      uint8_t *keep)
{
	struct ta_prior_buf pa, pb;
	struct ta_result ra, rb;
	const struct ta_saved_row *rows = lft_sim_rows(&p->sim, g);
	struct ta_options o;
	size_t rows_lids = 0;
	uint32_t i;

	ck_assert_ptr_nonnull(rows);
	ta_options_init(&o);
	ck_assert_int_eq(ta_saved_prior(&p->own, g, &pa), 0);
	ck_assert_int_eq(ta_saved_prior_rows(&p->rows, g, rows, &pb), 0);
	ck_assert_int_eq(ta_saved_empty(&p->own), ta_saved_empty(&p->rows));
	if (!ta_saved_empty(&p->own))
		same_prior(g, &pa.prior, &pb.prior);
	ck_assert_int_eq(ta_route_prior(g, &o, ta_saved_empty(&p->own) ?
					NULL : &pa.prior, NULL, &ra), 0);
	ck_assert_int_eq(ta_route_prior(g, &o, ta_saved_empty(&p->rows) ?
					NULL : &pb.prior, NULL, &rb), 0);
	ck_assert_mem_eq(ra.port, rb.port, (size_t)g->n_sw * g->n_dest);
	assert_routes_good(g, &ra, "saved rows");
	if (keep)
		memcpy(keep, ra.port, (size_t)g->n_sw * g->n_dest);
	ck_assert_int_eq(ta_saved_update(&p->own, g, &ra), 0);
	/* the tables still hold the previous routing, then get this one */
	ck_assert_int_eq(ta_saved_update_rows(&p->rows, g, &rb, rows), 0);
	lft_sim_write(&p->sim, g, &rb);
	for (i = 0; i < p->own.n_sw; i++)
		rows_lids += p->own.sw[i].n_lids;
	ck_assert_uint_le(ta_saved_bytes(&p->rows) + rows_lids,
			  ta_saved_bytes(&p->own));
	ta_result_free(&ra);
	ta_result_free(&rb);
	ta_prior_buf_free(&pa);
	ta_prior_buf_free(&pb);
}

static void step(struct pair *p, const struct ta_graph *g)
{
	step_keep(p, g, NULL);
}

/* an SM restart: both memories seeded from the switches' tables */
static void restart(struct pair *p, const struct ta_graph *g)
{
	const struct ta_saved_row *rows = lft_sim_rows(&p->sim, g);
	struct ta_saved_table *t = calloc(g->n_sw + 1, sizeof(*t));
	uint32_t s;

	ck_assert_ptr_nonnull(rows);
	ck_assert_ptr_nonnull(t);
	for (s = 0; s < g->n_sw; s++) {
		t[s].guid = g->sw[s].guid;
		t[s].port = rows[s].port;
		t[s].n_lids = rows[s].n_lids;
	}
	ck_assert_int_eq(ta_saved_seed(&p->own, t, g->n_sw), 0);
	ck_assert_int_eq(ta_saved_seed(&p->rows, t, g->n_sw), 0);
	ck_assert_int_eq(p->rows.lft_rows, 1);
	free(t);
}

static void sequence(struct topo *t, unsigned sw_a, unsigned sw_b)
{
	uint8_t *gone = calloc(t->n_sw + 1, 1);
	uint8_t *away = calloc(t->n_hosts + 1, 1);
	struct ta_graph *g;
	struct pair p;
	unsigned i, k;

	ck_assert_ptr_nonnull(gone);
	ck_assert_ptr_nonnull(away);
	ta_saved_init(&p.own);
	ta_saved_init(&p.rows);
	p.rows.lft_rows = 1;
	lft_sim_init(&p.sim, 1 + t->n_sw + t->n_hosts);
	for (k = 0; k < 8; k++) {
		memset(gone, 0, t->n_sw);
		memset(away, 0, t->n_hosts);
		if (k == 1 || k == 2 || k == 3 || k == 6)
			gone[sw_a] = 1;
		if (k == 2 || k == 3)
			gone[sw_b] = 1;
		for (i = 0; i < t->n_hosts; i++)
			away[i] = (k == 2 && i % 3 == 0) ||
				  (k == 3 && i % 5 == 0) ||
				  (k == 6 && i % 4 == 1);
		g = graph(t, gone, away);
		if (k == 5)
			restart(&p, g);
		step(&p, g);
		ta_graph_free(g);
	}
	ta_saved_free(&p.own);
	ta_saved_free(&p.rows);
	lft_sim_free(&p.sim);
	free(gone);
	free(away);
	topo_free(t);
}

START_TEST(fattree2_spines)
{
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, 12, 6, 6, 1), 0);
	sequence(&t, 12 + 2, 12 + 4);	/* spines after the leaves */
}
END_TEST

START_TEST(fattree3_director)
{
	struct topo t;

	ck_assert_int_eq(topo_fattree3(&t, 4, 4, 2, 4, 4), 0);
	sequence(&t, 16, 19);	/* director switches after the leaves */
}
END_TEST

START_TEST(random_switches)
{
	struct topo t;

	ck_assert_int_eq(topo_random(&t, 20, 10, 5, 1 + _i), 0);
	sequence(&t, 3, 11);
}
END_TEST

static void pair_init(struct pair *p, const struct topo *t)
{
	ta_saved_init(&p->own);
	ta_saved_init(&p->rows);
	p->rows.lft_rows = 1;
	lft_sim_init(&p->sim, 1 + t->n_sw + t->n_hosts);
}

static void pair_free(struct pair *p)
{
	ta_saved_free(&p->own);
	ta_saved_free(&p->rows);
	lft_sim_free(&p->sim);
}

/*
 * Growing fabrics, 3-level fat tree (5 directors of 4 line and 2 fabric
 * switches, 16 leaves of 6 hosts, so the next digit has a choice):
 * director 1 fails and returns one switch per routing (a director
 * rebooting board by board), and, in a second memory, the fabric comes
 * up without director 1 and gets it whole.  Either way, once director 1
 * is back every route is the one a bring-up of the whole fabric chooses
 * (so it carries its share again): the switches that came back early
 * chose their routes while the director was incomplete and must not
 * keep them, and a director the memory never routed must not stay idle
 * because every other route still holds.
 */
START_TEST(growing_director)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_result fresh;
	struct ta_options o;
	struct pair p, q;
	uint8_t *gone, *away, *got;
	unsigned d0, k, n_dir = 6;
	size_t n;

	ck_assert_int_eq(topo_fattree3(&t, 5, 4, 2, 4, 6), 0);
	d0 = 16 + n_dir;	/* director 1's first switch */
	gone = calloc(t.n_sw + 1, 1);
	away = calloc(t.n_hosts + 1, 1);
	ck_assert_ptr_nonnull(gone);
	ck_assert_ptr_nonnull(away);
	g = graph(&t, gone, away);
	n = (size_t)g->n_sw * g->n_dest;
	got = malloc(n);
	ck_assert_ptr_nonnull(got);
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, &fresh), 0);
	ta_graph_free(g);

	pair_init(&p, &t);
	for (k = 0; k <= n_dir + 1; k++) {
		/* k 0: all up; 1: director 1 gone; then back one by one */
		unsigned back = k >= 2 ? k - 1 : 0;

		memset(gone, 0, t.n_sw);
		if (k >= 1)
			memset(gone + d0 + back, 1, n_dir - back);
		g = graph(&t, gone, away);
		step_keep(&p, g, k == n_dir + 1 ? got : NULL);
		ta_graph_free(g);
	}
	ck_assert_mem_eq(got, fresh.port, n);

	pair_init(&q, &t);
	for (k = 0; k < 2; k++) {
		memset(gone, 0, t.n_sw);
		if (!k)
			memset(gone + d0, 1, n_dir);
		g = graph(&t, gone, away);
		step_keep(&q, g, k ? got : NULL);
		ta_graph_free(g);
	}
	ck_assert_mem_eq(got, fresh.port, n);

	ta_result_free(&fresh);
	pair_free(&p);
	pair_free(&q);
	free(gone);
	free(away);
	free(got);
	topo_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("saved_rows");
	TCase *tc = tcase_create("saved_rows");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fattree2_spines);
	tcase_add_test(tc, fattree3_director);
	tcase_add_loop_test(tc, random_switches, 0, 3);
	tcase_add_test(tc, growing_director);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
