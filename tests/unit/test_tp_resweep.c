// SPDX-License-Identifier: MIT
/*
 * Resweeps after Turn-Prohibition's turns were kept at bring-up (option
 * tp_candidate, the default) on random nets where they win.  The escape
 * tree is saved with the turn decisions and rebuilt from its links
 * (struct ta_prior, escape_carry), so its turns fit the decisions:
 *  - unchanged net, three routings in a row: every turn decision and
 *    every route kept (no LFT entry changes), the same escape tree;
 *  - one link fails: no decision is redone, the routes stay complete
 *    and deadlock-free, and only destinations whose routes crossed the
 *    failed link change any entry; when it returns the routes are again
 *    complete and deadlock-free and few entries differ from the first
 *    routing's;
 *  - any one switch fails: the routes stay complete and deadlock-free
 *    and at most a tenth of the surviving decisions change; at least 3
 *    in 4 failures keep every decision (the kept tree links bridge the
 *    loss with allowed turns; the others re-decide around a new tree,
 *    as without this option), and then only routes that passed through
 *    the failed switch move;
 *  - a restart that only knows the switches' tables (an SM restart or
 *    takeover) tries the candidate again and changes no entry.
 * Routes are judged hop by hop from the output ports (route_verify.c),
 * not by the core's own checks.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "run_suite.h"
#include "ta_cdg.h"
#include "ta_saved.h"
#include "topo_graph.h"

/*
 * Routes g with the memory sv (updated), checks the routes; *flipped
 * (if not NULL) gets the turns whose carried decision changed.
 */
static void route(const struct ta_graph *g, struct ta_saved *sv,
		  struct ta_result *r, uint64_t *flipped)
{
	struct ta_prior_buf pb;
	struct ta_options o;
	uint32_t k;

	ta_options_init(&o);
	/* the fastest resweep: no traffic estimate after a loss */
	o.failure_compare = false;
	ck_assert_int_eq(ta_saved_prior(sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g, &o, ta_saved_empty(sv) ? NULL :
					 &pb.prior, NULL, r), 0);
	if (flipped) {
		*flipped = 0;
		for (k = 0; pb.turn_state && k < g->n_turn_slots; k++)
			*flipped += (pb.turn_state[k] == TA_TURN_ALLOWED ||
				     pb.turn_state[k] == TA_TURN_PROHIBITED) &&
				    pb.turn_state[k] != r->turn_state[k];
	}
	ck_assert_int_eq(ta_saved_update(sv, g, r), 0);
	ta_prior_buf_free(&pb);
	assert_routes_good(g, r, "tp resweep");
}

/*
 * the n-th random net (6 switch ports, 2 hosts a switch) that kept TP's
 * turns: with 10 ports, turn addition's own turns win on almost every
 * net since the routes take the least loaded paths
 */
static void tp_born_net(unsigned n, struct topo *t)
{
	static const unsigned sizes[] = { 40, 50, 60, 80 };
	unsigned i, seed, found = 0;

	for (i = 0; i < 4; i++)
		for (seed = 1; seed <= 30; seed++) {
			struct ta_graph *g;
			struct ta_result r;
			struct ta_options o;

			ck_assert_int_eq(topo_random(t, sizes[i], 6, 2, seed),
					 0);
			g = topo_to_graph(t);
			ck_assert_ptr_nonnull(g);
			ta_options_init(&o);
			ck_assert_int_eq(ta_route(g, &o, NULL, &r), 0);
			ta_graph_free(g);
			if (r.stats.tp_kept && found++ == n) {
				ta_result_free(&r);
				return;
			}
			ta_result_free(&r);
			topo_free(t);
		}
	ck_abort_msg("no random net where Turn-Prohibition's turns win");
}

static size_t entries(const struct ta_graph *g)
{
	return (size_t)g->n_sw * g->n_dest;
}

START_TEST(unchanged_net_keeps_everything)
{
	struct ta_result r1, r2;
	struct ta_saved sv;
	struct ta_graph *g;
	struct topo t;
	uint64_t flipped;
	unsigned round;

	tp_born_net(_i, &t);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	ta_saved_init(&sv);
	route(g, &sv, &r1, NULL);
	ck_assert_int_eq(r1.stats.tp_kept, 1);
	ck_assert_ptr_nonnull(r1.escape_parent);
	for (round = 0; round < 2; round++) {
		route(g, &sv, &r2, &flipped);
		/* what the switches get: not one entry changes */
		ck_assert_int_eq(memcmp(r1.port, r2.port, entries(g)), 0);
		ck_assert_int_eq(memcmp(r1.turn_state, r2.turn_state,
					g->n_turn_slots), 0);
		ck_assert_uint_eq(flipped, 0);
		ck_assert_int_eq(r2.stats.tp_tried, 0);
		ck_assert_int_eq(r2.stats.prior_discarded, 0);
		ck_assert_int_eq(r2.stats.tree_carried, 1);
		ck_assert_uint_eq(r2.stats.turns_kept, r1.stats.turns);
		ck_assert_uint_eq(r2.stats.dests_kept, g->n_dest);
		ck_assert_int_eq(memcmp(r1.escape_parent, r2.escape_parent,
					g->n_sw * sizeof(*r1.escape_parent)),
				 0);
		ta_result_free(&r2);
	}
	ta_result_free(&r1);
	ta_saved_free(&sv);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

/* is the topology connected without its link `skip` */
static int connected_without(const struct topo *t, unsigned skip)
{
	unsigned *seen = calloc(t->n_sw, sizeof(*seen)), n = 1, grew = 1, l;

	ck_assert_ptr_nonnull(seen);
	seen[0] = 1;
	while (grew) {
		grew = 0;
		for (l = 0; l < t->n_links; l++) {
			const struct topo_link *x = &t->links[l];

			if (l == skip || seen[x->a] == seen[x->b])
				continue;
			seen[x->a] = seen[x->b] = 1;
			n++;
			grew = 1;
		}
	}
	free(seen);
	return n == t->n_sw;
}

/* the topology without link `skip` (a copy sharing nothing) */
static struct ta_graph *graph_without(struct topo *t, unsigned skip)
{
	struct topo_link saved = t->links[skip];
	struct ta_graph *g;

	memmove(&t->links[skip], &t->links[skip + 1],
		(t->n_links - skip - 1) * sizeof(*t->links));
	t->n_links--;
	g = topo_to_graph(t);
	t->n_links++;
	memmove(&t->links[skip + 1], &t->links[skip],
		(t->n_links - skip - 1) * sizeof(*t->links));
	t->links[skip] = saved;
	ck_assert_ptr_nonnull(g);
	return g;
}

/* entries of b differing from a; *cols: destinations with any */
static uint64_t changed(const struct ta_graph *g, const struct ta_result *a,
			const struct ta_result *b, const uint8_t *allowed,
			uint32_t *cols)
{
	uint64_t n = 0;
	uint32_t s, d;

	*cols = 0;
	for (d = 0; d < g->n_dest; d++) {
		uint32_t here = 0;

		for (s = 0; s < g->n_sw; s++)
			here += ta_result_port(a, s, d) !=
				ta_result_port(b, s, d);
		ck_assert_msg(!here || !allowed || allowed[d],
			      "destination %u changed %u entries but its routes did not cross the failed link",
			      d, here);
		n += here;
		*cols += here > 0;
	}
	return n;
}

START_TEST(link_failure_changes_little)
{
	struct ta_graph *full, *less;
	struct ta_result r1, r2, r3;
	struct ta_saved sv;
	struct topo t;
	uint64_t flipped, n2, n3;
	uint32_t c2, c3, d;
	unsigned tried = 0, k;
	uint8_t *crossed;

	tp_born_net(0, &t);
	full = topo_to_graph(&t);
	ck_assert_ptr_nonnull(full);
	crossed = calloc(full->n_dest, 1);
	ck_assert_ptr_nonnull(crossed);
	for (k = _i; k < t.n_links && tried < 3; k += 7) {
		const struct topo_link *x = &t.links[k];

		if (!connected_without(&t, k))
			continue;
		tried++;
		ta_saved_init(&sv);
		route(full, &sv, &r1, NULL);
		ck_assert_int_eq(r1.stats.tp_kept, 1);
		/* the destinations whose routes leave through the link */
		for (d = 0; d < full->n_dest; d++)
			crossed[d] = ta_result_port(&r1, x->a, d) == x->pa ||
				     ta_result_port(&r1, x->b, d) == x->pb;
		less = graph_without(&t, k);
		route(less, &sv, &r2, &flipped);
		/* same switches and LIDs: entries compare directly */
		n2 = changed(full, &r1, &r2, crossed, &c2);
		ck_assert_uint_eq(flipped, 0);
		ck_assert_int_eq(r2.stats.prior_discarded, 0);
		ck_assert_int_eq(r2.stats.tree_carried, 1);
		ck_assert_uint_eq(r2.stats.traffic_estimated, 0);
		route(full, &sv, &r3, &flipped);
		ck_assert_int_eq(r3.stats.prior_discarded, 0);
		ck_assert_uint_eq(flipped, 0);
		n3 = changed(full, &r1, &r3, NULL, &c3);
		if (getenv("TEST_TP_VERBOSE"))
			fprintf(stderr, "link %u: down %llu entries in %u dests, back %llu in %u (of %zu in %u)\n",
				k, (unsigned long long)n2, c2,
				(unsigned long long)n3, c3, entries(full),
				full->n_dest);
		/* few: at most 2 % of the entries differ after the return */
		ck_assert_uint_le(n3 * 50, entries(full));
		ta_result_free(&r1);
		ta_result_free(&r2);
		ta_result_free(&r3);
		ta_graph_free(less);
		ta_saved_free(&sv);
	}
	ck_assert_uint_eq(tried, 3);
	free(crossed);
	ta_graph_free(full);
	topo_free(&t);
}
END_TEST

/*
 * Entries of b (graph gb, a switch of ga gone) that differ from a's for
 * the same switch GUID and LID, counting only destinations whose routes
 * in a did not pass through switch `gone` of ga.
 */
static uint64_t changed_elsewhere(const struct ta_graph *ga,
				  const struct ta_result *a,
				  const struct ta_graph *gb,
				  const struct ta_result *b, uint32_t gone)
{
	static uint32_t by_lid[65536];
	uint8_t *crossed = calloc(ga->n_dest + 1, 1);
	uint64_t n = 0;
	uint32_t s, t, d, e;

	ck_assert_ptr_nonnull(crossed);
	for (d = 0; d < ga->n_dest; d++) {
		by_lid[ga->dest[d].lid] = d;
		crossed[d] = ga->dest[d].sw == gone;
		/* a neighbour of `gone` sends d to it */
		for (e = 0; e < ga->sw[gone].n_ends; e++) {
			const struct ta_port_ref *r = &ga->sw[gone].ends[e];
			const struct ta_link *l = &ga->links[r->link];
			uint8_t p = l->sw[0] == gone ? l->port[1] : l->port[0];

			crossed[d] |= ta_result_port(a, r->peer, d) == p;
		}
	}
	for (s = 0; s < gb->n_sw; s++) {
		for (t = 0; ga->sw[t].guid != gb->sw[s].guid; t++)
			;
		for (d = 0; d < gb->n_dest; d++) {
			uint32_t da = by_lid[gb->dest[d].lid];

			n += !crossed[da] && ta_result_port(a, t, da) !=
						     ta_result_port(b, s, d);
		}
	}
	free(crossed);
	return n;
}

START_TEST(switch_failure_keeps_most)
{
	struct ta_graph *full, *less;
	struct ta_result r1, r2;
	struct ta_saved sv;
	struct topo t;
	uint64_t flipped, all_kept = 0;
	unsigned gone, seed;
	int tp;

	/* 30 switches: topo_to_graph_port_major takes up to 32 */
	for (seed = 1;; seed++) {
		ck_assert_uint_lt(seed, 10);
		ck_assert_int_eq(topo_random(&t, 30, 6, 4, seed), 0);
		full = topo_to_graph_port_major(&t, TOPO_KEEP_ALL);
		ck_assert_ptr_nonnull(full);
		ta_saved_init(&sv);
		route(full, &sv, &r1, NULL);
		tp = r1.stats.tp_kept;
		ta_saved_free(&sv);
		ta_result_free(&r1);
		if (tp)
			break;
		ta_graph_free(full);
		topo_free(&t);
	}
	for (gone = 0; gone < t.n_sw; gone++) {
		less = topo_to_graph_port_major(&t, gone);
		ck_assert_ptr_nonnull(less);
		ta_saved_init(&sv);
		route(full, &sv, &r1, NULL);
		route(less, &sv, &r2, &flipped);
		ck_assert_uint_le(flipped * 10, r2.stats.turns);
		/* no decision changed: only routes through it move */
		if (!flipped)
			ck_assert_msg(changed_elsewhere(full, &r1, less, &r2,
							gone) == 0,
				      "switch %u gone: routes that did not cross it moved",
				      gone);
		all_kept += flipped == 0;
		ta_result_free(&r1);
		ta_result_free(&r2);
		ta_saved_free(&sv);
		ta_graph_free(less);
	}
	ck_assert_uint_ge(all_kept * 4, 3 * t.n_sw);
	ta_graph_free(full);
	topo_free(&t);
}
END_TEST

START_TEST(restart_from_tables_changes_nothing)
{
	struct ta_saved_table *tab;
	struct ta_result r1, r2;
	struct ta_saved sv;
	struct ta_graph *g;
	struct topo t;
	uint32_t s, d, n_lids = 1;
	uint8_t *ports;

	tp_born_net(_i, &t);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	ta_saved_init(&sv);
	route(g, &sv, &r1, NULL);
	ck_assert_int_eq(r1.stats.tp_kept, 1);
	/* a new SM: only the tables the switches hold */
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid + 1u > n_lids)
			n_lids = g->dest[d].lid + 1u;
	tab = calloc(g->n_sw, sizeof(*tab));
	ports = malloc((size_t)g->n_sw * n_lids);
	ck_assert_ptr_nonnull(tab);
	ck_assert_ptr_nonnull(ports);
	memset(ports, TA_NO_PORT, (size_t)g->n_sw * n_lids);
	for (s = 0; s < g->n_sw; s++) {
		tab[s].guid = g->sw[s].guid;
		tab[s].n_lids = n_lids;
		tab[s].port = ports + (size_t)s * n_lids;
		for (d = 0; d < g->n_dest; d++)
			ports[(size_t)s * n_lids + g->dest[d].lid] =
				ta_result_port(&r1, s, d);
	}
	ta_saved_free(&sv);
	ck_assert_int_eq(ta_saved_seed(&sv, tab, g->n_sw), 0);
	route(g, &sv, &r2, NULL);
	ck_assert_int_eq(r2.stats.tp_tried, 1);
	ck_assert_int_eq(r2.stats.tp_kept, 1);
	ck_assert_int_eq(memcmp(r1.port, r2.port, entries(g)), 0);
	free(tab);
	free(ports);
	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_saved_free(&sv);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tp_resweep");
	TCase *tc = tcase_create("carried tree");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, unchanged_net_keeps_everything, 0, 3);
	tcase_add_loop_test(tc, link_failure_changes_little, 0, 2);
	tcase_add_test(tc, switch_failure_keeps_most);
	tcase_add_loop_test(tc, restart_from_tables_changes_nothing, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
