// SPDX-License-Identifier: MIT
/*
 * Turn prohibition (mode turn_prohibition, ta_turnprohib.h): removal
 * order and prohibited turns worked out by hand on small nets; on fat
 * trees only turns between two upper links are prohibited and the
 * routes are those of turn addition (full bisection kept: the busiest
 * channel carries the hand-worked optimum where leaves have as many
 * up-links as hosts); on rings,
 * tori, fat trees and random nets every host reaches every host and
 * every switch LID, the channel dependency graph of the routes is
 * acyclic (route_verify.c), and every switch reaches every switch over
 * allowed turns (searched here, not by the engine).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_escape.h"
#include "ta_turnprohib.h"
#include "topo_graph.h"
#include "turn_verify.h"
#include "run_suite.h"

/* switches 0..n-1 named s<i>, links between the given pairs */
static struct ta_graph *hand_graph(unsigned n, const unsigned (*links)[2],
				   unsigned n_links)
{
	struct ta_graph *g = ta_graph_new();
	uint8_t next_port[16];
	unsigned i;
	char name[8];

	ck_assert_ptr_nonnull(g);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ck_assert_int_eq(ta_graph_add_switch(g, 0x100 + i, name), i);
		next_port[i] = 1;
	}
	for (i = 0; i < n_links; i++) {
		unsigned a = links[i][0], b = links[i][1];

		ck_assert_int_ge(ta_graph_add_link(g, a, next_port[a]++, b,
						   next_port[b]++), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	return g;
}

/* the turn x -> s -> y (no parallel links in the hand-made nets) */
static uint32_t turn(const struct ta_graph *g, uint32_t x, uint32_t s,
		     uint32_t y)
{
	uint32_t i, j, n = g->sw[s].n_ends;

	for (i = 0; i < n && g->sw[s].ends[i].peer != x; i++)
		;
	for (j = 0; j < n && g->sw[s].ends[j].peer != y; j++)
		;
	ck_assert_msg(i < n && j < n, "no turn %u-%u-%u", x, s, y);
	return ta_turn(g, s, i, j);
}

/* both directions of the turn x - s - y get weight half each */
static void set_pair(const struct ta_graph *g, double *w, uint32_t x,
		     uint32_t s, uint32_t y, double total)
{
	w[turn(g, x, s, y)] = total / 2;
	w[turn(g, y, s, x)] = total / 2;
}

static uint32_t count_state(const struct ta_cdg *c, int st)
{
	uint32_t k, n = 0;

	for (k = 0; k < c->g->n_turn_slots; k++)
		n += c->state[k] == st;
	return n;
}

/*
 * Independent of the engine: from every switch, every other switch of
 * its piece is reached over allowed turns (a search over channels).
 * piece[s] from a plain search over links.
 */
static void check_switches_reach(const struct ta_graph *g,
				 const uint8_t *state, const char *what)
{
	uint32_t n_ch = 2 * g->n_links, src, s;
	uint8_t *seen_ch = malloc(n_ch + 1), *seen_sw = malloc(g->n_sw + 1);
	uint32_t *stack = malloc((n_ch + g->n_sw + 1) * sizeof(*stack));
	uint32_t *piece = malloc((g->n_sw + 1) * sizeof(*piece));

	ck_assert(seen_ch && seen_sw && stack && piece);
	for (s = 0; s < g->n_sw; s++)
		piece[s] = UINT32_MAX;
	for (src = 0; src < g->n_sw; src++) {
		uint32_t sp = 0;

		if (piece[src] != UINT32_MAX)
			continue;
		piece[src] = src;
		stack[sp++] = src;
		while (sp) {
			uint32_t u = stack[--sp], j;

			for (j = 0; j < g->sw[u].n_ends; j++)
				if (piece[g->sw[u].ends[j].peer] == UINT32_MAX) {
					piece[g->sw[u].ends[j].peer] = src;
					stack[sp++] = g->sw[u].ends[j].peer;
				}
		}
	}
	for (src = 0; src < g->n_sw; src++) {
		uint32_t sp = 0, l;

		memset(seen_ch, 0, n_ch + 1);
		memset(seen_sw, 0, g->n_sw + 1);
		seen_sw[src] = 1;
		/* channels leaving src: link l goes sw[0] -> sw[1] as 2l */
		for (l = 0; l < g->n_links; l++) {
			uint32_t side;

			for (side = 0; side < 2; side++)
				if (g->links[l].sw[side] == src) {
					seen_ch[2 * l + side] = 1;
					stack[sp++] = 2 * l + side;
				}
		}
		while (sp) {
			uint32_t ch = stack[--sp], l2 = ch / 2;
			uint32_t head_side = (ch & 1) ? 0 : 1;
			uint32_t h = g->links[l2].sw[head_side];
			uint32_t in = g->links[l2].end[head_side], j;

			seen_sw[h] = 1;
			for (j = 0; j < g->sw[h].n_ends; j++) {
				uint32_t nl = g->sw[h].ends[j].link, nch;

				if (state[ta_turn(g, h, in, j)] != TA_TURN_ALLOWED)
					continue;
				nch = 2 * nl + (g->links[nl].sw[0] == h ? 0 : 1);
				if (!seen_ch[nch]) {
					seen_ch[nch] = 1;
					stack[sp++] = nch;
				}
			}
		}
		for (s = 0; s < g->n_sw; s++)
			ck_assert_msg(seen_sw[s] || piece[s] != piece[src],
				      "%s: switch %u does not reach switch %u over allowed turns",
				      what, src, s);
	}
	free(seen_ch);
	free(seen_sw);
	free(stack);
	free(piece);
}

/* the escape tree climbs: parents were removed later, one root a piece */
static void check_tree(const struct ta_graph *g, const struct ta_escape *e,
		       const uint32_t *order)
{
	uint32_t *rank = malloc((g->n_sw + 1) * sizeof(*rank)), s, roots = 0;

	ck_assert_ptr_nonnull(rank);
	for (s = 0; s < g->n_sw; s++)
		rank[order[s]] = s;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t pe = e->parent_end[s];

		if (pe == TA_NO_END) {
			roots++;
			continue;
		}
		ck_assert_uint_gt(rank[g->sw[s].ends[pe].peer], rank[s]);
		ck_assert_uint_eq(e->level[s],
				  e->level[g->sw[s].ends[pe].peer] + 1);
	}
	ck_assert_uint_eq(roots, e->n_pieces);
	free(rank);
}

/*
 * Ring s0 - s1 - s2 - s3 - s0, turn traffic (both directions together)
 * at s0: 5, s1: 1, s2: 3, s3: 2.
 *  1. all four are non-cut; least is s1 (1): prohibit s0-s1-s2 both
 *     ways; remove s1.  Path s0 - s3 - s2 remains.
 *  2. s0 and s2 have one link left (traffic 0), s3 has 2 but is a cut
 *     switch: tie s0/s2 to the lower index, s0; nothing to prohibit.
 *  3. s3 - s2: both 0, neither a cut: s2.  4. s3.
 * Order 1, 0, 2, 3; exactly the 2 turns at s1 prohibited; 6 allowed.
 */
START_TEST(ring4_by_hand)
{
	static const unsigned links[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 },
					     { 3, 0 } };
	static const uint32_t want[] = { 1, 0, 2, 3 };
	struct ta_graph *g = hand_graph(4, links, 4);
	double *w = calloc(g->n_turn_slots, sizeof(*w));
	uint32_t order[4], k;
	struct ta_escape e;
	struct ta_cdg c;

	ck_assert_ptr_nonnull(w);
	set_pair(g, w, 3, 0, 1, 5);
	set_pair(g, w, 0, 1, 2, 1);
	set_pair(g, w, 1, 2, 3, 3);
	set_pair(g, w, 2, 3, 0, 2);
	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_turnprohib_decide(&c, w, order, &e, NULL), 0);
	for (k = 0; k < 4; k++)
		ck_assert_uint_eq(order[k], want[k]);
	ck_assert_int_eq(c.state[turn(g, 0, 1, 2)], TA_TURN_PROHIBITED);
	ck_assert_int_eq(c.state[turn(g, 2, 1, 0)], TA_TURN_PROHIBITED);
	ck_assert_uint_eq(count_state(&c, TA_TURN_PROHIBITED), 2);
	ck_assert_uint_eq(count_state(&c, TA_TURN_ALLOWED), 6);
	ck_assert_int_eq(ta_cdg_has_cycle(&c), 0);
	ck_assert_int_eq(turns_cyclic(g, c.state), 0);
	/*
	 * tree: root s3 (removed last); s2 and s0 climb to s3; s1 to s0
	 * (s0 and s2 both outlive it, one hop from the root: lower index)
	 */
	ck_assert_uint_eq(e.root, 3);
	ck_assert_uint_eq(g->sw[0].ends[e.parent_end[0]].peer, 3);
	ck_assert_uint_eq(g->sw[1].ends[e.parent_end[1]].peer, 0);
	ck_assert_uint_eq(g->sw[2].ends[e.parent_end[2]].peer, 3);
	check_tree(g, &e, order);
	check_switches_reach(g, c.state, "ring 4");
	ta_escape_free(&e);
	ta_cdg_free(&c);
	free(w);
	ta_graph_free(g);
}
END_TEST

/*
 * Bow tie: triangles s0 s1 s2 and s2 s3 s4 joined at s2.  Traffic at
 * s0: 5, s1: 4, s3: 3, s4: 6, every turn at s2: 0.
 *  1. s2 has the least but is a cut switch; least of the rest: s3 (3):
 *     prohibit s2-s3-s4 both ways; remove s3.
 *  2. s4 has one link left (0); s2's turns are all 0 but it is a cut
 *     switch (s4 hangs on it); s4 goes, nothing to prohibit.
 *  3. triangle s0 s1 s2: s2 (0) is no cut switch any more: prohibit
 *     s0-s2-s1 both ways (s2's turns to s3, s4 stay allowed); remove.
 *  4. s0 - s1, both 0: s0, then s1.
 * Order 3, 4, 2, 0, 1; 4 turns prohibited.
 */
START_TEST(bowtie_by_hand)
{
	static const unsigned links[][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 },
					     { 2, 3 }, { 3, 4 }, { 4, 2 } };
	static const uint32_t want[] = { 3, 4, 2, 0, 1 };
	struct ta_graph *g = hand_graph(5, links, 6);
	double *w = calloc(g->n_turn_slots, sizeof(*w));
	uint32_t order[5], k;
	struct ta_escape e;
	struct ta_cdg c;

	ck_assert_ptr_nonnull(w);
	set_pair(g, w, 1, 0, 2, 5);
	set_pair(g, w, 0, 1, 2, 4);
	set_pair(g, w, 2, 3, 4, 3);
	set_pair(g, w, 2, 4, 3, 6);
	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_turnprohib_decide(&c, w, order, &e, NULL), 0);
	for (k = 0; k < 5; k++)
		ck_assert_uint_eq(order[k], want[k]);
	ck_assert_int_eq(c.state[turn(g, 2, 3, 4)], TA_TURN_PROHIBITED);
	ck_assert_int_eq(c.state[turn(g, 4, 3, 2)], TA_TURN_PROHIBITED);
	ck_assert_int_eq(c.state[turn(g, 0, 2, 1)], TA_TURN_PROHIBITED);
	ck_assert_int_eq(c.state[turn(g, 1, 2, 0)], TA_TURN_PROHIBITED);
	ck_assert_uint_eq(count_state(&c, TA_TURN_PROHIBITED), 4);
	ck_assert_int_eq(c.state[turn(g, 3, 2, 0)], TA_TURN_ALLOWED);
	ck_assert_int_eq(ta_cdg_has_cycle(&c), 0);
	ck_assert_int_eq(turns_cyclic(g, c.state), 0);
	check_tree(g, &e, order);
	check_switches_reach(g, c.state, "bow tie");
	ta_escape_free(&e);
	ta_cdg_free(&c);
	free(w);
	ta_graph_free(g);
}
END_TEST

/* two rings and a lone switch, no weights: each piece on its own */
START_TEST(pieces_without_weights)
{
	static const unsigned links[][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 },
					     { 3, 4 }, { 4, 5 }, { 5, 6 },
					     { 6, 3 } };
	struct ta_graph *g = hand_graph(8, links, 7);
	uint32_t order[8], k, seen = 0;
	struct ta_escape e;
	struct ta_cdg c;

	ck_assert_int_eq(ta_cdg_init(&c, g), 0);
	ck_assert_int_eq(ta_turnprohib_decide(&c, NULL, order, &e, NULL), 0);
	for (k = 0; k < 8; k++)
		seen |= 1u << order[k];
	ck_assert_uint_eq(seen, 0xff);
	ck_assert_uint_eq(e.n_pieces, 3);
	/* one switch of each ring gets its two turns prohibited */
	ck_assert_uint_eq(count_state(&c, TA_TURN_PROHIBITED), 4);
	ck_assert_int_eq(ta_cdg_has_cycle(&c), 0);
	ck_assert_int_eq(turns_cyclic(g, c.state), 0);
	check_tree(g, &e, order);
	check_switches_reach(g, c.state, "pieces");
	ta_escape_free(&e);
	ta_cdg_free(&c);
	ta_graph_free(g);
}
END_TEST

/*
 * Removal orders (ta_turnprohib_decide_varied): on random nets with
 * turn traffic of its own draw, order 0 decides exactly as
 * ta_turnprohib_decide; every order leaves the allowed turns acyclic,
 * every switch reaching every switch of its piece over them, and a
 * climbing tree; some order removes the switches in another sequence
 * (else the orders buy nothing).
 */
START_TEST(varied_orders)
{
	unsigned n, seed, other = 0;
	char what[80];

	for (n = 12; n <= 36; n += 12)
		for (seed = 1; seed <= 3; seed++) {
			struct topo t;
			struct ta_graph *g;
			struct ta_escape e;
			struct ta_cdg c, c0;
			uint32_t *order, *order0, v, k, x = seed * 2654435761u;
			double *w;

			ck_assert_int_eq(topo_random(&t, n, 5, 2, seed), 0);
			g = topo_to_graph(&t);
			ck_assert_ptr_nonnull(g);
			w = calloc(g->n_turn_slots + 1, sizeof(*w));
			order = malloc((g->n_sw + 1) * sizeof(*order));
			order0 = malloc((g->n_sw + 1) * sizeof(*order0));
			ck_assert(w && order && order0);
			for (k = 0; k < g->n_turn_slots; k++) {
				x = x * 1103515245u + 12345u;
				w[k] = 1 + (x >> 16) % 8;
			}
			ck_assert_int_eq(ta_cdg_init(&c0, g), 0);
			ck_assert_int_eq(ta_turnprohib_decide(&c0, w, order0,
							      &e, NULL), 0);
			ta_escape_free(&e);
			for (v = 0; v <= 4; v++) {
				snprintf(what, sizeof(what),
					 "random %u seed %u order %u", n, seed,
					 v);
				ck_assert_int_eq(ta_cdg_init(&c, g), 0);
				ck_assert_int_eq(ta_turnprohib_decide_varied(
							 &c, w, v, order, &e,
							 NULL),
						 0);
				if (!v)
					ck_assert_mem_eq(c.state, c0.state,
							 g->n_turn_slots);
				else
					other += memcmp(order, order0,
							g->n_sw *
								sizeof(*order)) != 0;
				ck_assert_msg(turns_cyclic(g, c.state) == 0,
					      "%s: cyclic", what);
				check_tree(g, &e, order);
				check_switches_reach(g, c.state, what);
				ta_escape_free(&e);
				ta_cdg_free(&c);
			}
			ta_cdg_free(&c0);
			free(w);
			free(order);
			free(order0);
			ta_graph_free(g);
			topo_free(&t);
		}
	ck_assert_uint_gt(other, 0);
}
END_TEST

static void route_tp(const struct ta_graph *g, enum ta_mode mode,
		     struct ta_result *r)
{
	struct ta_options o;

	ta_options_init(&o);
	o.mode = mode;
	ck_assert_int_eq(ta_route(g, &o, NULL, r), 0);
	ta_options_clear(&o);
}

/* what an administrator needs: complete, deadlock-free routes */
static void expect_good(struct topo *t, const char *what)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_result r;

	ck_assert_msg(g != NULL, "%s: graph", what);
	route_tp(g, TA_MODE_TURN_PROHIBITION, &r);
	assert_routes_good(g, &r, what);
	ck_assert_msg(r.stats.unreachable == 0, "%s: %llu entries unrouted",
		      what, (unsigned long long)r.stats.unreachable);
	ck_assert_msg(turns_cyclic(g, r.turn_state) == 0,
		      "%s: the allowed turns close a cycle", what);
	ck_assert_msg(r.stats.turns_prohibited > 0 || g->n_sw < 3 ||
			      t->n_links < t->n_sw,
		      "%s: nothing prohibited", what);
	check_switches_reach(g, r.turn_state, what);
	ta_result_free(&r);
	ta_graph_free(g);
	topo_free(t);
}

START_TEST(rings_and_tori)
{
	static const unsigned dims[][2] = { { 3, 3 }, { 4, 5 }, { 6, 6 } };
	struct topo t;
	char what[64];
	unsigned n, k;

	for (n = 3; n <= 12; n++) {
		snprintf(what, sizeof(what), "ring %u", n);
		ck_assert_int_eq(topo_ring(&t, n, 1 + n % 3), 0);
		expect_good(&t, what);
	}
	for (k = 0; k < sizeof(dims) / sizeof(dims[0]); k++) {
		snprintf(what, sizeof(what), "torus %ux%u", dims[k][0],
			 dims[k][1]);
		ck_assert_int_eq(topo_mesh(&t, dims[k][0], dims[k][1], 2, 1),
				 0);
		expect_good(&t, what);
	}
}
END_TEST

START_TEST(random_nets)
{
	unsigned n, seed;
	char what[64];

	for (n = 10; n <= 50; n += 10)
		for (seed = 1; seed <= 6; seed++) {
			struct topo t;
			unsigned ports = 3 + seed;

			snprintf(what, sizeof(what),
				 "random %u switches %u ports seed %u", n,
				 ports, seed);
			ck_assert_int_eq(topo_random(&t, n, ports, 2, seed), 0);
			expect_good(&t, what);
		}
}
END_TEST

/* hops from the nearest switch with hosts: leaves 0, then upwards */
static uint32_t *height(const struct ta_graph *g)
{
	uint32_t *h = malloc((g->n_sw + 1) * sizeof(*h));
	uint32_t *q = malloc((g->n_sw + 1) * sizeof(*q));
	uint32_t head = 0, tail = 0, s, d;

	ck_assert(h && q);
	for (s = 0; s < g->n_sw; s++)
		h[s] = UINT32_MAX;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host && h[g->dest[d].sw] == UINT32_MAX) {
			h[g->dest[d].sw] = 0;
			q[tail++] = g->dest[d].sw;
		}
	while (head < tail) {
		uint32_t u = q[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (h[v] == UINT32_MAX) {
				h[v] = h[u] + 1;
				q[tail++] = v;
			}
		}
	}
	free(q);
	return h;
}

/*
 * The paper's Fig. 7 claim: in a fat tree TP prohibits only turns from
 * an upper switch to an upper switch, which no shortest route between
 * hosts uses, so the host routes stay shortest and as balanced as turn
 * addition's (full bisection); and all routes are complete and
 * deadlock-free.
 */
static void expect_fat_tree(struct topo *t, uint64_t want_max,
			    const char *what)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_result tp, ta;
	uint32_t *h, s, i, j, prohibited = 0;
	uint64_t tp_max, tp_hops, ta_max, ta_hops;

	ck_assert_ptr_nonnull(g);
	route_tp(g, TA_MODE_TURN_PROHIBITION, &tp);
	route_tp(g, TA_MODE_TURN_ADDITION, &ta);
	h = height(g);
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++) {
				uint32_t a = g->sw[s].ends[i].peer;
				uint32_t b = g->sw[s].ends[j].peer;

				if (tp.turn_state[ta_turn(g, s, i, j)] !=
				    TA_TURN_PROHIBITED)
					continue;
				prohibited++;
				ck_assert_msg(h[a] > h[s] && h[b] > h[s],
					      "%s: turn %s-%s-%s prohibited",
					      what, g->sw[a].name,
					      g->sw[s].name, g->sw[b].name);
			}
	ck_assert_msg(prohibited > 0, "%s: nothing prohibited", what);
	tp_max = host_max_load(g, &tp, NULL, what, &tp_hops);
	ta_max = host_max_load(g, &ta, NULL, what, &ta_hops);
	ck_assert_msg(tp_hops == ta_hops && tp_max == ta_max,
		      "%s: turn prohibition: hops %llu, busiest channel %llu; turn addition: %llu, %llu",
		      what, (unsigned long long)tp_hops,
		      (unsigned long long)tp_max, (unsigned long long)ta_hops,
		      (unsigned long long)ta_max);
	/* and both as good as the hand-worked optimum, where there is one */
	ck_assert_msg(!want_max || tp_max == want_max,
		      "%s: busiest channel %llu, hand-worked optimum %llu", what,
		      (unsigned long long)tp_max, (unsigned long long)want_max);
	ck_assert_uint_eq(tp.stats.dests_fallback, 0);
	free(h);
	ta_result_free(&tp);
	ta_result_free(&ta);
	ta_graph_free(g);
	expect_good(t, what);
}

START_TEST(fat_trees)
{
	static const unsigned p[][4] = { { 4, 2, 2, 1 }, { 6, 3, 3, 1 },
					 { 8, 4, 4, 2 }, { 5, 3, 2, 3 } };
	struct topo t;
	char what[64];
	uint64_t want;
	unsigned k;

	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		snprintf(what, sizeof(what), "fat tree %u/%u/%u/%u", p[k][0],
			 p[k][1], p[k][2], p[k][3]);
		ck_assert_int_eq(topo_fattree2(&t, p[k][0], p[k][1], p[k][2],
					       p[k][3]), 0);
		/*
		 * as many up-links as hosts per leaf: a leaf's hosts send
		 * H * (N - H) over H up-links, N - H on each at best
		 */
		want = p[k][2] == p[k][1] * p[k][3] ?
			       (uint64_t)p[k][0] * p[k][2] - p[k][2] : 0;
		expect_fat_tree(&t, want, what);
	}
	ck_assert_int_eq(topo_fattree3(&t, 3, 2, 2, 4, 3), 0);
	expect_fat_tree(&t, 2 * 4 * 3 - 3, "3-level fat tree 3/2/2/4/3");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("turn prohibition");
	TCase *tc = tcase_create("tp");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ring4_by_hand);
	tcase_add_test(tc, bowtie_by_hand);
	tcase_add_test(tc, pieces_without_weights);
	tcase_add_test(tc, varied_orders);
	tcase_add_test(tc, rings_and_tori);
	tcase_add_test(tc, random_nets);
	tcase_add_test(tc, fat_trees);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
