// SPDX-License-Identifier: MIT
/*
 * The core on fabrics that are not one connected piece, and after parts
 * of a fabric are gone: what is connected is routed completely (every
 * pair inside a piece reachable, acyclic channel dependencies), only
 * pairs between pieces are unreachable, and the stats the plugin logs
 * say how many pieces there are and what is gone.  Judged by
 * route_verify.c (hop-by-hop walks), not by the engine's own checks.
 */
#include <check.h>
#include <stdlib.h>

#include "route_verify.h"
#include "ta_engine.h"
#include "ta_saved.h"
#include "topo_graph.h"
#include "run_suite.h"

/*
 * Piece 0: a ring of 4 switches, 2 hosts each.  Piece 1: a line of 3
 * switches, 1 host each, with a parallel link between the first two.
 * Piece 2: one switch with 2 hosts and no links (as a switch whose links
 * are all down).  Switch LIDs 1..8, host LIDs from 100.
 */
#define N_SW 8
static const unsigned piece_of[N_SW] = { 0, 0, 0, 0, 1, 1, 1, 2 };
static const unsigned hosts_on[N_SW] = { 2, 2, 2, 2, 1, 1, 1, 2 };

static struct ta_graph *three_pieces(void)
{
	struct ta_graph *g = ta_graph_new();
	unsigned s, h;
	uint16_t lid = 100;

	ck_assert_ptr_nonnull(g);
	for (s = 0; s < N_SW; s++)
		ck_assert_int_eq(ta_graph_add_switch(g, 0x100 + s, NULL),
				 (int)s);
	/* ring 0-1-2-3-0 on ports 10, 11 */
	for (s = 0; s < 4; s++)
		ck_assert_int_ge(ta_graph_add_link(g, s, 11, (s + 1) % 4, 10),
				 0);
	/* line 4=5-6: two links 4-5 */
	ck_assert_int_ge(ta_graph_add_link(g, 4, 10, 5, 10), 0);
	ck_assert_int_ge(ta_graph_add_link(g, 4, 11, 5, 11), 0);
	ck_assert_int_ge(ta_graph_add_link(g, 5, 12, 6, 12), 0);
	for (s = 0; s < N_SW; s++) {
		ck_assert_int_ge(ta_graph_add_dest(g, (uint16_t)(s + 1), s, 0,
						   false, 0x100 + s, NULL), 0);
		for (h = 0; h < hosts_on[s]; h++, lid++)
			ck_assert_int_ge(ta_graph_add_dest(g, lid, s,
							   (uint8_t)(h + 1),
							   true, 0x1000 + lid,
							   NULL), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	return g;
}

START_TEST(pieces_routed_alone)
{
	struct ta_graph *g = three_pieces();
	struct verify_report rep;
	uint64_t cross_pairs = 0, cross_h2s = 0, cross_entries = 0;
	struct ta_options o;
	struct ta_result r;
	unsigned a, b, s, d;

	ta_options_init(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, &r), 0);
	ck_assert_uint_eq(r.stats.pieces, 3);

	/* an entry exists exactly when the LID is in the switch's piece */
	for (s = 0; s < N_SW; s++)
		for (d = 0; d < g->n_dest; d++) {
			int same = piece_of[s] == piece_of[g->dest[d].sw];

			ck_assert_msg((ta_result_port(&r, s, d) != TA_NO_PORT) ==
					      same,
				      "switch %u LID %u: port %u", s,
				      g->dest[d].lid,
				      ta_result_port(&r, s, d));
			cross_entries += !same;
		}
	ck_assert_uint_eq(r.stats.unreachable, cross_entries);

	/* the walks: only pairs between pieces fail, no cycle */
	for (a = 0; a < N_SW; a++)
		for (b = 0; b < N_SW; b++)
			if (piece_of[a] != piece_of[b]) {
				cross_pairs += hosts_on[a] * hosts_on[b];
				cross_h2s += hosts_on[a];
			}
	ck_assert_int_eq(verify_routes(g, &r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, cross_pairs);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, cross_h2s);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	ck_assert_uint_gt(rep.host_pairs, cross_pairs);

	ta_result_free(&r);
	ta_graph_free(g);
}
END_TEST

/* a leaf of a 2-level fat tree goes (cut off), then comes back */
START_TEST(gone_switch_and_lids_counted)
{
	enum { LEAVES = 4, SPINES = 2, HOSTS = 3, GONE = 1 };
	struct ta_graph *g_full, *g_cut;
	struct verify_report rep;
	struct ta_prior_buf pb;
	struct ta_options o;
	struct ta_result r;
	struct ta_saved sv;
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, LEAVES, SPINES, HOSTS, 1), 0);
	g_full = topo_to_graph_port_major(&t, TOPO_KEEP_ALL);
	g_cut = topo_to_graph_port_major(&t, GONE);
	ck_assert_ptr_nonnull(g_full);
	ck_assert_ptr_nonnull(g_cut);
	ta_options_init(&o);
	ta_saved_init(&sv);

	ck_assert_int_eq(ta_route(g_full, &o, NULL, &r), 0);
	ck_assert_uint_eq(r.stats.switches_gone, 0);
	ck_assert_int_eq(ta_saved_update(&sv, g_full, &r), 0);
	ta_result_free(&r);

	ck_assert_int_eq(ta_saved_prior(&sv, g_cut, &pb), 0);
	ck_assert_uint_eq(pb.prior.switches_gone, 1);
	ck_assert_uint_eq(pb.prior.dests_gone, 1 + HOSTS);
	ck_assert_int_eq(ta_route_prior(g_cut, &o, &pb.prior, NULL, &r), 0);
	ta_prior_buf_free(&pb);
	ck_assert_uint_eq(r.stats.switches_gone, 1);
	ck_assert_uint_eq(r.stats.dests_gone, 1 + HOSTS);
	ck_assert_uint_eq(r.stats.pieces, 1);
	ck_assert_int_eq(verify_routes(g_cut, &r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	ck_assert_int_eq(ta_saved_update(&sv, g_cut, &r), 0);
	ta_result_free(&r);

	/* back: nothing is gone */
	ck_assert_int_eq(ta_saved_prior(&sv, g_full, &pb), 0);
	ck_assert_uint_eq(pb.prior.switches_gone, 0);
	ck_assert_uint_eq(pb.prior.dests_gone, 0);
	ta_prior_buf_free(&pb);

	ta_saved_free(&sv);
	ta_options_clear(&o);
	ta_graph_free(g_full);
	ta_graph_free(g_cut);
	topo_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pieces");
	TCase *tc = tcase_create("pieces");

	tcase_add_test(tc, pieces_routed_alone);
	tcase_add_test(tc, gone_switch_and_lids_counted);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
