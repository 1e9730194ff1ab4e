// SPDX-License-Identifier: MIT
/*
 * Minimal-change rerouting: a leaf/spine fat tree with port-major LIDs
 * loses a spine, then gets it back.  After the failure only the entries
 * that pointed at the dead spine change, each leaf rewrites one 64-LID
 * block, the displaced destinations spread over the surviving spines,
 * and the fabric stays complete and deadlock-free; after the return the
 * tables are exactly those of before.  The same when the memory of the
 * first routing is lost (an SM restart) and rebuilt from the switches'
 * tables.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "ta_saved.h"
#include "topo_graph.h"
#include "run_suite.h"

enum { LEAVES = 12, SPINES = 6, HOSTS = 6, GONE_SPINE = 2 };

struct table {
	uint8_t port[64][64 * (HOSTS + 3)];	/* [switch guid idx][lid] */
};

/*
 * LFT by switch GUID index and LID, as a switch would hold it: entries of
 * LIDs that no port holds any more keep their old value (prev), as the
 * OpenSM adapter does, so they cost no LFT block.
 */
static void fill_table(const struct ta_graph *g, const struct ta_result *r,
		       const struct table *prev, struct table *t)
{
	uint32_t s, d;

	if (prev)
		memcpy(t, prev, sizeof(*t));
	else
		memset(t, TA_NO_PORT, sizeof(*t));
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++)
			t->port[g->sw[s].guid - 0x1000][g->dest[d].lid] =
				ta_result_port(r, s, d);
}

static struct ta_graph *fabric(struct topo *t, unsigned gone)
{
	struct ta_graph *g = topo_to_graph_port_major(t, gone);

	ck_assert_ptr_nonnull(g);
	return g;
}

static void route(const struct ta_graph *g, struct ta_saved *sv,
		  struct ta_result *r)
{
	struct ta_prior_buf pb;
	struct ta_options o;

	ta_options_init(&o);
	/* the fastest resweep: no traffic estimate after a loss */
	o.failure_compare = false;
	ck_assert_int_eq(ta_saved_prior(sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g, &o, ta_saved_empty(sv) ? NULL :
					 &pb.prior, NULL, r), 0);
	ck_assert_int_eq(ta_saved_update(sv, g, r), 0);
	ta_prior_buf_free(&pb);
	assert_routes_good(g, r, "reroute");
}

/* leaf port numbers: hosts on 1..HOSTS, spine j on HOSTS+1+j */
static unsigned spine_of_port(uint8_t port)
{
	return port > HOSTS ? port - HOSTS - 1u : ~0u;
}

/*
 * The tables after the failure of spine GONE_SPINE, against those of
 * before: only entries that pointed at the dead spine moved, to spread
 * surviving spines, in one 64-LID block per leaf.
 */
static void check_failure_tables(const struct table *before,
				 const struct table *failed)
{
	static unsigned use[64 * (HOSTS + 3)][SPINES];
	unsigned s, lid, changed_blocks = 0;

	memset(use, 0, sizeof(use));
	for (s = 0; s < LEAVES + SPINES; s++) {
		unsigned b;

		if (s == LEAVES + GONE_SPINE)
			continue;
		for (lid = 1; lid < 64 * (HOSTS + 3); lid++) {
			uint8_t old = before->port[s][lid];
			uint8_t now = failed->port[s][lid];

			if (old == TA_NO_PORT ||
			    lid == 1 + 64 * ((LEAVES + GONE_SPINE) % HOSTS) + 32 +
					   (LEAVES + GONE_SPINE) / HOSTS)
				continue;	/* a spare or the dead spine's LID */
			if (s >= LEAVES || spine_of_port(old) != GONE_SPINE) {
				ck_assert_msg(old == now,
					      "switch %u LID %u moved %u->%u", s,
					      lid, old, now);
				continue;
			}
			ck_assert_msg(spine_of_port(now) != GONE_SPINE, "switch %u LID %u still on the dead spine", s, lid);
			ck_assert_uint_lt(spine_of_port(now), SPINES);
			use[lid][spine_of_port(now)]++;
		}
		for (b = 0; b < HOSTS + 3; b++)
			changed_blocks += memcmp(&before->port[s][64 * b],
						 &failed->port[s][64 * b], 64) != 0;
	}
	/* port-major: the dead spine's LIDs fill one block on each leaf */
	ck_assert_uint_eq(changed_blocks, LEAVES);
	/* each displaced LID is spread: no survivor takes > its share */
	for (lid = 1; lid < 64 * (HOSTS + 3); lid++)
		for (s = 0; s < SPINES; s++)
			ck_assert_msg(use[lid][s] <=
					      (LEAVES + SPINES - 2) / (SPINES - 1),
				      "LID %u: spine %u takes %u leaves", lid, s,
				      use[lid][s]);
}

/*
 * Destinations of g whose routes in before (the full fabric's tables)
 * never lead into spine `gone` from any switch still in g.
 */
static unsigned untouched_dests(const struct ta_graph *g,
				const struct table *before, unsigned gone)
{
	unsigned d, s, n = 0;

	for (d = 0; d < g->n_dest; d++) {
		int hit = 0;

		for (s = 0; s < g->n_sw && !hit; s++) {
			unsigned idx = (unsigned)(g->sw[s].guid - 0x1000);
			uint8_t old = before->port[idx][g->dest[d].lid];

			hit = idx < LEAVES && spine_of_port(old) == gone - LEAVES;
		}
		n += !hit;
	}
	return n;
}

START_TEST(spine_failure_and_return)
{
	static struct table before, failed, back;
	struct ta_graph *g_full, *g_fail, *g_back;
	struct ta_result r1, r2, r3;
	struct ta_saved sv;
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, LEAVES, SPINES, HOSTS, 1), 0);
	ta_saved_init(&sv);
	g_full = fabric(&t, TOPO_KEEP_ALL);
	route(g_full, &sv, &r1);
	fill_table(g_full, &r1, NULL, &before);

	g_fail = fabric(&t, LEAVES + GONE_SPINE);
	route(g_fail, &sv, &r2);
	fill_table(g_fail, &r2, &before, &failed);
	/* only parts went: no traffic estimate, untouched routes kept whole */
	ck_assert_int_eq(r2.stats.traffic_estimated, 0);
	ck_assert_uint_eq(r2.stats.dests_kept,
			  untouched_dests(g_fail, &before, LEAVES + GONE_SPINE));
	ck_assert_uint_gt(r2.stats.dests_kept, 0);
	check_failure_tables(&before, &failed);

	g_back = fabric(&t, TOPO_KEEP_ALL);
	route(g_back, &sv, &r3);
	ck_assert_int_eq(r3.stats.traffic_estimated, 1);
	ck_assert_uint_eq(r3.stats.dests_kept, 0);
	fill_table(g_back, &r3, &failed, &back);
	ck_assert_msg(memcmp(&before, &back, sizeof(before)) == 0,
		      "tables after the spine's return differ from before");

	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_result_free(&r3);
	ta_graph_free(g_full);
	ta_graph_free(g_fail);
	ta_graph_free(g_back);
	ta_saved_free(&sv);
	topo_free(&t);
}
END_TEST

/* a fresh memory made from the switches' tables, as a restarted SM reads */
static void seed_from_tables(struct ta_saved *sv, const struct table *t)
{
	struct ta_saved_table st[LEAVES + SPINES];
	unsigned s;

	for (s = 0; s < LEAVES + SPINES; s++) {
		st[s].guid = 0x1000 + s;
		st[s].port = t->port[s];
		st[s].n_lids = 64 * (HOSTS + 3);
	}
	ck_assert_int_eq(ta_saved_seed(sv, st, LEAVES + SPINES), 0);
	ck_assert_int_eq(ta_saved_empty(sv), 0);
}

/*
 * The SM restarts on an unchanged fabric and reads the tables: the new
 * routes are the old ones.  Then it restarts again after a spine died
 * while it was down: only the dead spine's entries move (one block per
 * leaf), and when the spine returns the first tables come back.
 */
START_TEST(restart_from_switch_tables)
{
	static struct table before, again, failed, back;
	struct ta_graph *g_full, *g_fail;
	struct ta_result r1, r2, r3, r4;
	struct ta_saved sv;
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, LEAVES, SPINES, HOSTS, 1), 0);
	g_full = fabric(&t, TOPO_KEEP_ALL);
	g_fail = fabric(&t, LEAVES + GONE_SPINE);
	ta_saved_init(&sv);
	route(g_full, &sv, &r1);
	fill_table(g_full, &r1, NULL, &before);

	seed_from_tables(&sv, &before);
	route(g_full, &sv, &r2);
	fill_table(g_full, &r2, &before, &again);
	ck_assert_msg(memcmp(&before, &again, sizeof(before)) == 0,
		      "restart on an unchanged fabric changed the tables");

	seed_from_tables(&sv, &before);
	route(g_fail, &sv, &r3);
	fill_table(g_fail, &r3, &before, &failed);
	check_failure_tables(&before, &failed);

	route(g_full, &sv, &r4);
	fill_table(g_full, &r4, &failed, &back);
	ck_assert_msg(memcmp(&before, &back, sizeof(before)) == 0,
		      "tables after the spine's return differ from before");

	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_result_free(&r3);
	ta_result_free(&r4);
	ta_graph_free(g_full);
	ta_graph_free(g_fail);
	ta_saved_free(&sv);
	topo_free(&t);
}
END_TEST

/*
 * Links of a random net fail one after another: every resweep only loses
 * parts, so with failure_routes minimal no traffic estimate runs and
 * destinations whose routes
 * survive keep them exactly; the routes stay complete and deadlock-free
 * (route() verifies them independently).
 */
START_TEST(random_net_link_failures_keep_routes)
{
	struct ta_graph *g_prev = NULL;
	struct ta_result prev = { 0 };
	struct ta_saved sv;
	struct topo t;
	unsigned step;

	ck_assert_int_eq(topo_random(&t, 30, 8, 2, 11), 0);
	ta_saved_init(&sv);
	for (step = 0; step < 6; step++) {
		struct ta_graph *g = topo_to_graph(&t);
		struct ta_result r;
		uint32_t d, s, same = 0;

		ck_assert_ptr_nonnull(g);
		route(g, &sv, &r);
		if (step) {
			ck_assert_int_eq(r.stats.traffic_estimated, 0);
			ck_assert_uint_gt(r.stats.dests_kept, 0);
			/* same switches and LIDs: columns compare directly */
			for (d = 0; d < g->n_dest; d++) {
				int eq = 1;

				for (s = 0; s < g->n_sw; s++)
					eq &= ta_result_port(&r, s, d) ==
					      ta_result_port(&prev, s, d);
				same += eq;
			}
			ck_assert_uint_ge(same, r.stats.dests_kept);
			ta_result_free(&prev);
			ta_graph_free(g_prev);
		}
		prev = r;
		g_prev = g;
		/* drop the last link (this net stays connected: route()
		 * would find unreachable pairs otherwise) */
		t.n_links--;
	}
	ta_result_free(&prev);
	ta_graph_free(g_prev);
	ta_saved_free(&sv);
	topo_free(&t);
}
END_TEST

/* turn decisions survive a resweep of an unchanged random net */
START_TEST(random_net_resweep_changes_nothing)
{
	struct ta_graph *g;
	struct ta_result r1, r2;
	struct ta_saved sv;
	struct topo t;

	ck_assert_int_eq(topo_random(&t, 30, 8, 2, 7), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	ta_saved_init(&sv);
	route(g, &sv, &r1);
	route(g, &sv, &r2);
	ck_assert_uint_eq(r2.stats.turns_kept, r1.stats.turns);
	ck_assert_int_eq(memcmp(r1.port, r2.port,
				(size_t)g->n_sw * g->n_dest), 0);
	ck_assert_int_eq(memcmp(r1.turn_state, r2.turn_state,
				g->n_turn_slots), 0);
	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_graph_free(g);
	ta_saved_free(&sv);
	topo_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reroute");
	TCase *tc = tcase_create("minimal change");

	tcase_add_test(tc, spine_failure_and_return);
	tcase_add_test(tc, random_net_resweep_changes_nothing);
	tcase_add_test(tc, restart_from_switch_tables);
	tcase_add_test(tc, random_net_link_failures_keep_routes);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
