// SPDX-License-Identifier: MIT
/*
 * LMC > 0: the port-major layout (lid_assign) and the routing core's
 * choice among spines agree.  On fat trees of several shapes (spines S,
 * host ports P, LMC L, hosts absent, 2 and 3 levels) the LIDs of
 * lid_assign are given to the core's graph, every LID of every port a
 * destination, and the routes are judged from the tables alone:
 *  - every LID reachable, channel dependency graph acyclic
 *    (route_verify, independent of the engine's code);
 *  - from every leaf, the 2^L LIDs of a port on another leaf leave
 *    through min(2^L, S) distinct spines;
 *  - for every leaf and spine, the 64-LID blocks holding a LID (of a
 *    host, or of a leaf switch) that the leaf sends through that spine,
 *    i.e. the blocks a failure of the spine rewrites on that leaf: at
 *    most the count worked out by hand for the case (comment of each).
 * The lower bound for any layout where a port's LIDs are one aligned
 * run on min(m, S) distinct spines (m = 2^L) is ceil((hosts * m *
 * min(m, S) / S + leaves / S) / 64) blocks per leaf and spine
 * (results/mads.md, "With LMC"; lid_assign/README, "LMC").
 * During a spine (director) failure, routed again with the memory of
 * the first routing (ta_saved, as the plugin does): from every leaf a
 * remote port's LIDs still leave through min(2^L, surviving spines)
 * distinct spines, and only the entries that led into the failed
 * switches change (the LFT MADs stay those the failure forces).
 * A fabric that loses its period for a while (some leaves lose an
 * uplink, or a failed director comes back one switch at a time, so
 * the leaves differ in neighbour count) moves no LID that was given,
 * with LMC or without (test_lmc_lost_period).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lid_order.h"
#include "route_verify.h"
#include "run_suite.h"
#include "ta_engine.h"
#include "ta_saved.h"
#include "ta_spine_sets.h"
#include "topo.h"

struct lmc_case {
	unsigned levels;		/* 2 or 3 */
	unsigned a, b, c, d, e;		/* topo_fattree2 (a, b, c, 1) or
					 * topo_fattree3 (a, b, c, d, e) */
	uint8_t lmc;
	unsigned absent_pct;		/* hosts left out, by a fixed hash */
	unsigned max_blocks;		/* per (leaf, spine), by hand */
};

struct built {
	struct topo t;
	struct la_port *ports;		/* switches first, then hosts */
	uint64_t *sw_guid;
	uint32_t *peers;
	unsigned *host_of;		/* port index of topo host i, or ~0 */
	unsigned n_leaves;		/* switches with hosts */
	struct ta_graph *g;
	struct ta_result r;
	unsigned *nb;			/* [sw][port]: neighbour switch */
	uint32_t dest_of[0xc000];	/* LID -> destination index */
};

static int absent(unsigned i, unsigned pct)
{
	return pct && (i * 2654435761u >> 7) % 100 < pct;
}

static void make_topo(struct built *b, const struct lmc_case *c)
{
	int ret = c->levels == 2 ? topo_fattree2(&b->t, c->a, c->b, c->c, 1) :
		  topo_fattree3(&b->t, c->a, c->b, c->c, c->d, c->e);

	ck_assert_int_eq(ret, 0);
}

/* distinct neighbour switches of every switch (lid_assign's period) */
static void count_peers(struct built *b)
{
	unsigned i, j;

	b->peers = calloc(b->t.n_sw, sizeof(*b->peers));
	ck_assert_ptr_nonnull(b->peers);
	for (i = 0; i < b->t.n_sw; i++) {
		unsigned seen_last = ~0u;

		for (j = 0; j < b->t.n_links; j++) {
			const struct topo_link *l = &b->t.links[j];
			unsigned o = l->a == i ? l->b : l->b == i ? l->a : ~0u;

			/* links are made per pair in a row: skip parallels */
			if (o != ~0u && o != seen_last) {
				b->peers[i]++;
				seen_last = o;
			}
		}
	}
}

static void assign_lids(struct built *b, const struct lmc_case *c)
{
	struct la_input in = { 0 };
	struct la_result res;
	unsigned i, n = 0;

	b->ports = calloc(b->t.n_sw + b->t.n_hosts, sizeof(*b->ports));
	b->sw_guid = calloc(b->t.n_sw, sizeof(*b->sw_guid));
	b->host_of = calloc(b->t.n_hosts + 1, sizeof(*b->host_of));
	ck_assert(b->ports && b->sw_guid && b->host_of);
	for (i = 0; i < b->t.n_sw; i++) {
		b->sw_guid[i] = 0x1000 + i;
		b->ports[n++] = (struct la_port){ .guid = 0x1000 + i,
						  .kind = LA_SWITCH, .sw = i };
	}
	for (i = 0; i < b->t.n_hosts; i++) {
		b->host_of[i] = ~0u;
		if (absent(i, c->absent_pct))
			continue;
		b->host_of[i] = n;
		b->ports[n++] = (struct la_port){
			.guid = 0x100000 + i, .kind = LA_HOST,
			.sw = b->t.hosts[i].sw,
			.sw_port = (uint8_t)b->t.hosts[i].port };
	}
	count_peers(b);
	in.n_sw = b->t.n_sw;
	in.sw_guid = b->sw_guid;
	in.n_ports = n;
	in.ports = b->ports;
	in.sw_peers = b->peers;
	in.lmc = c->lmc;
	ck_assert_int_eq(la_assign(&in, &res), 0);
	ck_assert_uint_eq(res.failed, 0);
	ck_assert_uint_eq(res.overflow, 0);
	la_result_free(&res);
}

/*
 * The core's graph of the fabric without switches gone .. gone + n_gone
 * - 1 (topology indices) and their links and LIDs, as OpenSM sees it
 * once they died; the others keep their LIDs.  Graph switch index: the
 * topology's, less the gone ones before it.
 */
static struct ta_graph *graph_without(const struct built *b, unsigned gone,
				      unsigned n_gone)
{
	struct ta_graph *g = ta_graph_new();
	unsigned *gi = malloc(b->t.n_sw * sizeof(*gi)), i, k, n = 0;

	ck_assert(g && gi);
	for (i = 0; i < b->t.n_sw; i++) {	/* GUID order = index order */
		gi[i] = i >= gone && i - gone < n_gone ? ~0u : n++;
		if (gi[i] != ~0u)
			ck_assert_int_ge(ta_graph_add_switch(g, 0x1000 + i,
							     b->t.sw_name[i]),
					 0);
	}
	for (i = 0; i < b->t.n_links; i++) {
		const struct topo_link *l = &b->t.links[i];

		if (gi[l->a] != ~0u && gi[l->b] != ~0u)
			ck_assert_int_ge(ta_graph_add_link(g, gi[l->a],
				(uint8_t)l->pa, gi[l->b], (uint8_t)l->pb), 0);
	}
	for (i = 0; i < b->t.n_sw; i++)
		if (gi[i] != ~0u)
			ck_assert_int_ge(ta_graph_add_dest(g, b->ports[i].lid,
				gi[i], 0, false, 0x1000 + i, NULL), 0);
	for (i = 0; i < b->t.n_hosts; i++) {
		const struct la_port *p;

		if (b->host_of[i] == ~0u)
			continue;
		p = &b->ports[b->host_of[i]];
		for (k = 0; k < p->n_lids; k++)
			ck_assert_int_ge(ta_graph_add_dest(g,
				(uint16_t)(p->lid + k), gi[p->sw], p->sw_port,
				true, p->guid, NULL), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	free(gi);
	return g;
}

static void build_graph(struct built *b)
{
	unsigned i;

	b->g = graph_without(b, ~0u, 0);
	for (i = 0; i < 0xc000; i++)
		b->dest_of[i] = UINT32_MAX;
	for (i = 0; i < b->g->n_dest; i++)
		b->dest_of[b->g->dest[i].lid] = i;
}

/* the switch behind port `port` of switch s, or ~0u */
static unsigned neighbour(const struct built *b, unsigned s, unsigned port)
{
	return port <= TOPO_MAX_PORTS ? b->nb[s * (TOPO_MAX_PORTS + 1) + port] :
					~0u;
}

static void make_neighbours(struct built *b)
{
	size_t n = (size_t)b->t.n_sw * (TOPO_MAX_PORTS + 1);
	unsigned j;

	b->nb = malloc(n * sizeof(*b->nb));
	ck_assert_ptr_nonnull(b->nb);
	memset(b->nb, 0xff, n * sizeof(*b->nb));
	for (j = 0; j < b->t.n_links; j++) {
		const struct topo_link *l = &b->t.links[j];

		b->nb[l->a * (TOPO_MAX_PORTS + 1) + l->pa] = l->b;
		b->nb[l->b * (TOPO_MAX_PORTS + 1) + l->pb] = l->a;
	}
}

static uint8_t *leaf_marks(const struct built *b)
{
	uint8_t *leaf = calloc(b->t.n_sw, 1);
	unsigned i;

	ck_assert_ptr_nonnull(leaf);
	for (i = 0; i < b->t.n_hosts; i++)
		if (b->host_of[i] != ~0u)
			leaf[b->t.hosts[i].sw] = 1;
	return leaf;
}

/*
 * Worst (leaf, spine) block count, and the distinct spines per (leaf,
 * remote port) checked against min(m, spines of the leaf).
 */
static unsigned judge(const struct built *b, unsigned m)
{
	const struct ta_graph *g = b->g;
	uint8_t *leaf = leaf_marks(b);
	unsigned nblk = 0xc000 / 64, worst = 0, s, d, i;
	uint8_t *blk = malloc((size_t)b->t.n_sw * nblk);

	ck_assert_ptr_nonnull(blk);
	for (s = 0; s < b->t.n_sw; s++) {
		if (!leaf[s])
			continue;
		memset(blk, 0, (size_t)b->t.n_sw * nblk);
		for (d = 0; d < g->n_dest; d++) {
			const struct ta_dest *x = &g->dest[d];
			uint8_t out = ta_result_port(&b->r, s, d);
			unsigned sp;

			if (x->sw == s || !leaf[x->sw])
				continue;	/* own, or not a leaf's LID */
			sp = neighbour(b, s, out);
			ck_assert_uint_ne(sp, ~0u);
			blk[(size_t)sp * nblk + x->lid / 64] = 1;
		}
		for (d = 0; d < b->t.n_sw; d++) {
			unsigned n = 0, k;

			for (k = 0; k < nblk; k++)
				n += blk[(size_t)d * nblk + k];
			if (n > worst)
				worst = n;
		}
		/* distinct spines of every remote port's LIDs */
		for (i = 0; i < b->t.n_hosts; i++) {
			const struct la_port *p;
			unsigned seen[128], n_seen = 0, k, j, want;

			if (b->host_of[i] == ~0u)
				continue;
			p = &b->ports[b->host_of[i]];
			if (p->sw == s)
				continue;
			for (k = 0; k < p->n_lids; k++) {
				uint32_t dd = b->dest_of[p->lid + k];
				unsigned sp;

				ck_assert_uint_lt(dd, g->n_dest);
				sp = neighbour(b, s,
					       ta_result_port(&b->r, s, dd));
				for (j = 0; j < n_seen && seen[j] != sp; j++)
					;
				if (j == n_seen)
					seen[n_seen++] = sp;
			}
			want = m < b->peers[s] ? m : b->peers[s];
			ck_assert_msg(n_seen == want,
				      "leaf %u: port 0x%llx's %u LIDs use %u spines, want %u",
				      s, (unsigned long long)p->guid, m,
				      n_seen, want);
		}
	}
	free(blk);
	free(leaf);
	return worst;
}

static void run_case(const struct lmc_case *c)
{
	static struct built b;
	struct ta_options o;
	struct verify_report rep;
	unsigned worst;

	memset(&b, 0, sizeof(b));
	make_topo(&b, c);
	assign_lids(&b, c);
	build_graph(&b);
	make_neighbours(&b);
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(b.g, &o, NULL, &b.r), 0);
	ck_assert_int_eq(verify_routes(b.g, &b.r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	worst = judge(&b, 1u << c->lmc);
	printf("fattree%u %u %u %u %u %u lmc %u absent %u%%: %u blocks per (leaf, spine), at most %u\n",
	       c->levels, c->a, c->b, c->c, c->d, c->e, c->lmc,
	       c->absent_pct, worst, c->max_blocks);
	ck_assert_uint_le(worst, c->max_blocks);
	ta_result_free(&b.r);
	ta_graph_free(b.g);
	topo_free(&b.t);
	free(b.ports);
	free(b.sw_guid);
	free(b.peers);
	free(b.host_of);
	free(b.nb);
}

/*
 * The cases, m = 2^lmc, S spines, P host ports a leaf, N leaves.  A
 * rank's class is r mod S / gcd(S, m); the LIDs a spine carries are
 * those of the classes using it, each class one group of block-aligned
 * LIDs (hosts of its ranks on every leaf, then its switches).
 */
static const struct lmc_case cases[] = {
	/* S 4, P 4, m 2: classes {0, 2} and {1, 3} (ranks), 2 groups of
	 * 8 x 2 x 2 host LIDs + 6 switch LIDs: one block (lower bound:
	 * (32 x 2 x 2 / 4 + 8 / 4) = 34 LIDs, 1 block) */
	/* S 6, P 6, m 2: 3 classes of 2 ranks: 12 x 2 x 2 + 18 / 3 = 54
	 * LIDs, one block */
	{ 2, 12, 6, 6, 0, 0, 1, 0, 1 },
	/* the same with a third of the hosts absent: ranges are sized for
	 * every leaf full, so no more blocks */
	{ 2, 12, 6, 6, 0, 0, 1, 33, 1 },
	/* S 6, m 4: a rank uses 4 of 6 spines, a spine 4 ranks' worth
	 * (2 of 3 classes): 4 ranks x 12 x 4 = 192 LIDs: 4 blocks with
	 * the leaves' own (lower bound (72*16/6 + 2) / 64 -> 4) */
	{ 2, 12, 6, 6, 0, 0, 2, 0, 4 },
	/* S 4, m 8 > S: every port uses every spine: all 32 x 8 = 256
	 * host LIDs and the 12 switch LIDs, 5 blocks */
	{ 2, 8, 4, 4, 0, 0, 3, 0, 5 },
	/* 648 hosts, S 18: lmc 0 one block; lmc 1 classes of 2 ranks:
	 * 144 + 6 LIDs, 3 blocks (lower bound 146 -> 3); lmc 2: a spine
	 * carries 2 classes of 2 ranks, 2 x 5 blocks (lower bound 578
	 * LIDs -> 10) */
	{ 2, 36, 18, 18, 0, 0, 0, 0, 1 },
	{ 2, 36, 18, 18, 0, 0, 1, 0, 3 },
	{ 2, 36, 18, 18, 0, 0, 2, 0, 10 },
	{ 2, 36, 18, 18, 0, 0, 1, 30, 3 },
	/* 3 levels, 18 directors (S 18 at the leaves), 36 leaves of 18:
	 * lmc 1: 2 ranks x 36 x 2 + 198 switches / 9 = 166 LIDs, 3 blocks */
	{ 3, 18, 6, 3, 6, 18, 1, 0, 3 },
	/*
	 * 2^L not dividing S where the consecutive spines of a port cost
	 * blocks: the spine sets (plugin/core/ta_spine_sets.h) reach the
	 * lower bound.  S 18, m 8 (648 hosts): bound (648 x 64 + 36) / 18
	 * = 2,306 LIDs, 37 blocks (consecutive spines: 9 classes of 2
	 * ranks, a spine in 4: 4 x 10 = 40).  With a third absent: the
	 * ranges are sized for every leaf full, the same 37.
	 */
	{ 2, 36, 18, 18, 0, 0, 3, 0, 37 },
	{ 2, 36, 18, 18, 0, 0, 3, 33, 37 },
	/* S 12, m 8 (288 hosts): (288 x 64 + 24) / 12 = 1,538 LIDs, 25
	 * blocks (consecutive: 26) */
	{ 2, 24, 12, 12, 0, 0, 3, 0, 25 },
	/*
	 * S 6, m 4, 8 host ports a leaf (oversubscribed), 18 leaves: the
	 * stated bound (144 x 16 + 18) / 6 = 387 LIDs, 7 blocks, is not
	 * reached with a spine set a rank: 32 rank LIDs over 6 spines put
	 * 6 ranks (432 LIDs) on some spine, in two sets of 4 (every spine
	 * is in two of the three), 4 + 4 blocks.  8, the consecutive rule.
	 */
	{ 2, 18, 6, 8, 0, 0, 2, 0, 8 },
	/* S 18, m 4 (as ft3-5832 at LMC 2), 72 leaves of 18: bound
	 * (1,296 x 16 + 72) / 18 = 1,156 LIDs, 19 blocks (consecutive:
	 * 9 classes of 2 ranks, 2 x 10) */
	{ 2, 72, 18, 18, 0, 0, 2, 0, 19 },
	/* S 6, m 4, 24 leaves of 6: (144 x 16 + 24) / 6 = 388, 7 blocks
	 * (consecutive: 8) */
	{ 2, 24, 6, 6, 0, 0, 2, 0, 7 },
	/* S 12, m 8, 12 leaves: (144 x 64 + 12) / 12 = 769, 13 blocks,
	 * the leaf LIDs' block first (it loses LID 0, no set's group
	 * does; consecutive: 14) */
	{ 2, 12, 12, 12, 0, 0, 3, 0, 13 },
	/* 3 levels, S 18 at the leaves, m 8: 37 as on 2 levels */
	{ 3, 18, 6, 3, 6, 18, 3, 0, 37 },
	/* lmc 7: a port is 128 LIDs, 2 blocks, and uses every spine: the
	 * blocks of the 15 ports on other leaves and the one of the
	 * switch LIDs */
	{ 2, 6, 3, 3, 0, 0, 7, 0, 31 },
};

START_TEST(test_lmc_case)
{
	run_case(&cases[_i]);
}
END_TEST

/* distinct neighbour switches of graph switch s */
static unsigned graph_peers(const struct ta_graph *g, unsigned s)
{
	unsigned j, k, n = 0;

	for (j = 0; j < g->sw[s].n_ends; j++) {
		for (k = 0; k < j; k++)
			if (g->sw[s].ends[k].peer == g->sw[s].ends[j].peer)
				break;
		n += k == j;
	}
	return n;
}

/*
 * The failure's tables g1/r1 against those of the full fabric (b->g,
 * b->r): entries that did not lead into a gone switch (topology indices
 * gone .. gone + n_gone - 1) are unchanged; from every leaf, each remote
 * port's LIDs leave through min(m, surviving spines) distinct spines.
 * Returns the number of displaced entries.
 */
static unsigned judge_failure(const struct built *b, const struct ta_graph *g1,
			      const struct ta_result *r1, unsigned m,
			      unsigned gone, unsigned n_gone)
{
	static uint32_t dest1[0xc000];
	uint8_t *leaf = leaf_marks(b);
	unsigned s, d, i, displaced = 0;

	for (i = 0; i < 0xc000; i++)
		dest1[i] = UINT32_MAX;
	for (d = 0; d < g1->n_dest; d++)
		dest1[g1->dest[d].lid] = d;
	for (s = 0; s < g1->n_sw; s++) {
		unsigned ts = (unsigned)(g1->sw[s].guid - 0x1000), want;

		for (d = 0; d < g1->n_dest; d++) {
			uint32_t d0 = b->dest_of[g1->dest[d].lid];
			uint8_t old = ta_result_port(&b->r, ts, d0);
			uint8_t now = ta_result_port(r1, s, d);
			unsigned nb = neighbour(b, ts, old);

			if (old != TA_NO_PORT && nb != ~0u && nb >= gone &&
			    nb - gone < n_gone) {
				displaced++;
				continue;
			}
			ck_assert_msg(old == now,
				      "switch %u LID %u moved %u -> %u", ts,
				      g1->dest[d].lid, old, now);
		}
		if (!leaf[ts])
			continue;
		want = graph_peers(g1, s);
		want = m < want ? m : want;
		for (i = 0; i < b->t.n_hosts; i++) {
			const struct la_port *p;
			unsigned seen[128], n_seen = 0, k, j;

			if (b->host_of[i] == ~0u)
				continue;
			p = &b->ports[b->host_of[i]];
			if (p->sw == ts)
				continue;
			for (k = 0; k < p->n_lids; k++) {
				uint32_t dd = dest1[p->lid + k];
				unsigned sp;

				ck_assert_uint_lt(dd, g1->n_dest);
				sp = neighbour(b, ts,
					       ta_result_port(r1, s, dd));
				ck_assert_uint_ne(sp, ~0u);
				for (j = 0; j < n_seen && seen[j] != sp; j++)
					;
				if (j == n_seen)
					seen[n_seen++] = sp;
			}
			ck_assert_msg(n_seen == want,
				      "failure: leaf %u: port 0x%llx's %u LIDs use %u spines, want %u",
				      ts, (unsigned long long)p->guid, m,
				      n_seen, want);
		}
	}
	free(leaf);
	return displaced;
}

struct fail_case {
	struct lmc_case c;	/* max_blocks unused */
	unsigned gone, n_gone;	/* topology indices of the failed switches */
};

static void run_failure(const struct fail_case *fc)
{
	static struct built b;
	struct ta_options o;
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_result r1;
	struct verify_report rep;
	struct ta_graph *g1;
	unsigned displaced;

	memset(&b, 0, sizeof(b));
	make_topo(&b, &fc->c);
	assign_lids(&b, &fc->c);
	build_graph(&b);
	make_neighbours(&b);
	ta_options_init(&o);
	ta_saved_init(&sv);
	ck_assert_int_eq(ta_route(b.g, &o, NULL, &b.r), 0);
	ck_assert_int_eq(ta_saved_update(&sv, b.g, &b.r), 0);
	g1 = graph_without(&b, fc->gone, fc->n_gone);
	ck_assert_int_eq(ta_saved_prior(&sv, g1, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g1, &o, &pb.prior, NULL, &r1), 0);
	ck_assert_int_eq(verify_routes(g1, &r1, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
	displaced = judge_failure(&b, g1, &r1, 1u << fc->c.lmc, fc->gone,
				  fc->n_gone);
	printf("fattree%u %u %u %u %u %u lmc %u absent %u%%, switches %u-%u gone: %u entries displaced, every port's LIDs on distinct spines\n",
	       fc->c.levels, fc->c.a, fc->c.b, fc->c.c, fc->c.d, fc->c.e,
	       fc->c.lmc, fc->c.absent_pct, fc->gone,
	       fc->gone + fc->n_gone - 1, displaced);
	ck_assert_uint_gt(displaced, 0);
	ta_prior_buf_free(&pb);
	ta_result_free(&r1);
	ta_graph_free(g1);
	ta_saved_free(&sv);
	ta_result_free(&b.r);
	ta_graph_free(b.g);
	topo_free(&b.t);
	free(b.ports);
	free(b.sw_guid);
	free(b.peers);
	free(b.host_of);
	free(b.nb);
}

/*
 * Spine failures: leaves first in topology order, then the spines (2
 * levels) or per director its line and fabric switches (3 levels).
 */
static const struct fail_case fail_cases[] = {
	/* S 6 -> 5, m 2 and 4 (4 of 5 survivors), a third absent */
	{ { 2, 12, 6, 6, 0, 0, 1, 0, 0 }, 12 + 1, 1 },
	{ { 2, 12, 6, 6, 0, 0, 2, 0, 0 }, 12 + 1, 1 },
	{ { 2, 12, 6, 6, 0, 0, 2, 33, 0 }, 12 + 4, 1 },
	/* S 4 -> 3 with m 4: a port's LIDs on all 3 survivors */
	{ { 2, 8, 4, 4, 0, 0, 2, 0, 0 }, 8 + 0, 1 },
	/* S 18 (m does not divide it) -> 17, m 4 */
	{ { 2, 36, 18, 18, 0, 0, 2, 0, 0 }, 36 + 5, 1 },
	/* two spines of 6 gone, m 4: 4 of the 4 survivors */
	{ { 2, 12, 6, 6, 0, 0, 2, 0, 0 }, 12 + 2, 2 },
	/* spine sets: S 18 and 12 with m 8, absent hosts, 3 levels */
	{ { 2, 36, 18, 18, 0, 0, 3, 0, 0 }, 36 + 5, 1 },
	{ { 2, 24, 12, 12, 0, 0, 3, 25, 0 }, 24 + 11, 1 },
	{ { 3, 18, 6, 3, 6, 18, 3, 0, 0 }, 36 + 9, 9 },
	{ { 2, 24, 6, 6, 0, 0, 2, 20, 0 }, 24 + 3, 1 },
	/* 3 levels: director 1 (6 line, 3 fabric switches) of 18, m 2, 4 */
	{ { 3, 18, 6, 3, 6, 18, 1, 0, 0 }, 36 + 9, 9 },
	{ { 3, 18, 6, 3, 6, 18, 2, 20, 0 }, 36 + 9, 9 },
};

START_TEST(test_lmc_failure)
{
	run_failure(&fail_cases[_i]);
}
END_TEST

/*
 * Stability with LMC: LIDs given once, then the fabric swept again
 * unchanged, then with spine `gone` failed (switch indices after it
 * shift, the leaves see one spine less): no host LID moves.
 */
static void stable_case_absent(unsigned leaves, unsigned spines,
			       unsigned hosts, uint8_t lmc, unsigned pct)
{
	struct topo t;
	struct la_port *p, *q;
	uint64_t *guid;
	uint32_t *peers;
	struct la_input in = { 0 };
	struct la_result res;
	unsigned n = 0, i, round, gone = leaves + 1;

	ck_assert_int_eq(topo_fattree2(&t, leaves, spines, hosts, 1), 0);
	p = calloc(t.n_sw + t.n_hosts, sizeof(*p));
	q = calloc(t.n_sw + t.n_hosts, sizeof(*q));
	guid = calloc(t.n_sw, sizeof(*guid));
	peers = calloc(t.n_sw, sizeof(*peers));
	ck_assert(p && q && guid && peers);
	for (round = 0; round < 3; round++) {
		unsigned k = 0;

		/* round 2: spine `gone` is absent */
		for (i = 0; i < t.n_sw; i++) {
			if (round == 2 && i == gone)
				continue;
			guid[k] = 0x1000 + i;
			peers[k] = i < leaves ? spines - (round == 2) : leaves;
			k++;
		}
		n = 0;
		for (i = 0; i < k; i++)
			p[n++] = (struct la_port){ .guid = guid[i],
				.kind = LA_SWITCH, .sw = i };
		for (i = 0; i < t.n_hosts; i++)
			if (!absent(i, pct))
				p[n++] = (struct la_port){
					.guid = 0x100000 + i,
					.kind = LA_HOST, .sw = t.hosts[i].sw,
					.sw_port = (uint8_t)t.hosts[i].port };
		/* old LIDs by GUID from the previous round */
		for (i = 0; round && i < n; i++) {
			unsigned j;

			for (j = 0; j < t.n_sw + t.n_hosts; j++)
				if (q[j].guid == p[i].guid)
					p[i].old_lid = q[j].lid;
		}
		in = (struct la_input){ .n_sw = k, .sw_guid = guid,
			.n_ports = n, .ports = p, .sw_peers = peers,
			.lmc = lmc };
		ck_assert_int_eq(la_assign(&in, &res), 0);
		if (round)
			for (i = k; i < n; i++)
				ck_assert_msg(p[i].lid == p[i].old_lid,
					      "%ux%ux%u lmc %u absent %u%% round %u: host 0x%llx moved %u -> %u",
					      leaves, spines, hosts, lmc, pct,
					      round,
					      (unsigned long long)p[i].guid,
					      p[i].old_lid, p[i].lid);
		la_result_free(&res);
		memset(q, 0, (t.n_sw + t.n_hosts) * sizeof(*q));
		memcpy(q, p, n * sizeof(*p));
	}
	topo_free(&t);
	free(p);
	free(q);
	free(guid);
	free(peers);
}

static void stable_case(unsigned leaves, unsigned spines, unsigned hosts,
			uint8_t lmc)
{
	stable_case_absent(leaves, spines, hosts, lmc, 0);
}

START_TEST(test_lmc_stable)
{
	stable_case(36, 18, 18, 1);
	stable_case(36, 18, 18, 2);
	stable_case(12, 6, 6, 2);
	stable_case(8, 4, 4, 1);
	stable_case(12, 6, 6, 3);
	/* a rank fills whole blocks (32 x 2, 16 x 4 LIDs): no block shows
	 * two ranks, the order of the ranks tells the groups */
	stable_case(32, 18, 18, 1);
	stable_case(16, 18, 18, 2);
	/* spine sets (m 8 does not divide S 18, 12) */
	stable_case(36, 18, 18, 3);
	stable_case(24, 12, 12, 3);
	stable_case(24, 6, 6, 2);
	stable_case(12, 12, 12, 3);
	/*
	 * hosts absent, 2^L dividing S until a spine fails (S 6 -> 5 at
	 * LMC 1, 8 -> 7 at LMC 2): the old layout (the consecutive rule,
	 * a group a rank) must not be taken for the spine sets of the
	 * survivors, or the LIDs are regrouped during the failure
	 */
	stable_case_absent(12, 6, 3, 1, 15);
	stable_case_absent(16, 6, 3, 1, 20);
	stable_case_absent(12, 8, 3, 2, 15);
	stable_case_absent(16, 8, 2, 2, 25);
}
END_TEST

/*
 * A fabric that loses its period for a while: the switches with hosts
 * differ in neighbour count because some leaves lost uplinks (links
 * down, or part of a failed director back).  LIDs given fresh, then
 * given again from the old ones for each later state of the fabric;
 * no port that was swept before moves.  la_input from topology t
 * without the switches gone[] and the links cut[] (sw_peers counted
 * from what remains), old LIDs by GUID from the previous round (q, nq).
 */
struct lost_fab {
	struct topo t;
	struct la_port *p, *q;
	unsigned np, nq;
	uint64_t *guid;
	uint32_t *peers;
	unsigned *sw_at;		/* topology switch -> input index */
	unsigned char *mark;
};

static unsigned lost_round(struct lost_fab *f, const unsigned char *gone,
		       const unsigned char *cut, uint8_t lmc, unsigned pct,
		       const char *what)
{
	const struct topo *t = &f->t;
	struct la_input in = { 0 };
	struct la_result res;
	unsigned i, j, k = 0, n = 0, moved = 0;

	for (i = 0; i < t->n_sw; i++) {
		f->sw_at[i] = ~0u;
		if (gone[i])
			continue;
		f->sw_at[i] = k;
		f->guid[k++] = 0x1000 + i;
	}
	for (i = 0; i < t->n_sw; i++) {
		if (gone[i])
			continue;
		memset(f->mark, 0, t->n_sw);
		f->peers[f->sw_at[i]] = 0;
		for (j = 0; j < t->n_links; j++) {
			const struct topo_link *l = &t->links[j];
			unsigned o = l->a == i ? l->b : l->b == i ? l->a : ~0u;

			if (o == ~0u || cut[j] || gone[o] || f->mark[o])
				continue;
			f->mark[o] = 1;
			f->peers[f->sw_at[i]]++;
		}
	}
	for (i = 0; i < t->n_sw; i++)
		if (!gone[i])
			f->p[n++] = (struct la_port){ .guid = 0x1000 + i,
				.kind = LA_SWITCH, .sw = f->sw_at[i] };
	for (i = 0; i < t->n_hosts; i++)
		if (!absent(i, pct) && !gone[t->hosts[i].sw])
			f->p[n++] = (struct la_port){ .guid = 0x100000 + i,
				.kind = LA_HOST, .sw = f->sw_at[t->hosts[i].sw],
				.sw_port = (uint8_t)t->hosts[i].port };
	for (i = 0; i < n; i++)
		for (j = 0; j < f->nq; j++)
			if (f->q[j].guid == f->p[i].guid)
				f->p[i].old_lid = f->q[j].lid;
	in = (struct la_input){ .n_sw = k, .sw_guid = f->guid, .n_ports = n,
		.ports = f->p, .sw_peers = f->peers, .lmc = lmc };
	ck_assert_int_eq(la_assign(&in, &res), 0);
	ck_assert_uint_eq(res.failed, 0);
	for (i = 0; i < n; i++)
		moved += f->p[i].old_lid && f->p[i].lid != f->p[i].old_lid;
	ck_assert_uint_eq(moved, res.moved);
	if (moved)
		fprintf(stderr, "%s, lmc %u, absent %u%%: %u ports moved (%u groups)\n",
			what, lmc, pct, moved, res.n_groups);
	la_result_free(&res);
	/* the LIDs of ports absent now stay what they were */
	for (j = 0; j < f->nq; j++) {
		for (i = 0; i < n && f->p[i].guid != f->q[j].guid; i++)
			;
		if (i == n)
			f->p[n++] = f->q[j];
	}
	memcpy(f->q, f->p, n * sizeof(*f->p));
	f->nq = n;
	return moved;
}

static void lost_fab_init(struct lost_fab *f, int ret)
{
	unsigned n;

	ck_assert_int_eq(ret, 0);
	n = f->t.n_sw + f->t.n_hosts;
	f->p = calloc(n, sizeof(*f->p));
	f->q = calloc(n, sizeof(*f->q));
	f->guid = calloc(f->t.n_sw, sizeof(*f->guid));
	f->peers = calloc(f->t.n_sw, sizeof(*f->peers));
	f->sw_at = calloc(f->t.n_sw, sizeof(*f->sw_at));
	f->mark = calloc(f->t.n_sw, 1);
	f->nq = 0;
	ck_assert(f->p && f->q && f->guid && f->peers && f->sw_at && f->mark);
}

static void lost_fab_free(struct lost_fab *f)
{
	topo_free(&f->t);
	free(f->p);
	free(f->q);
	free(f->guid);
	free(f->peers);
	free(f->sw_at);
	free(f->mark);
}

/*
 * 2-level: leaves x spines x hosts, fresh, then the links of every
 * third leaf to spine 0 down (those leaves have spines - 1 neighbours,
 * the others all), then back
 */
static unsigned lost_links(unsigned leaves, unsigned spines, unsigned hosts,
			   uint8_t lmc, unsigned pct)
{
	struct lost_fab f;
	unsigned char *gone, *cut;
	unsigned j, moved;
	char what[64];

	lost_fab_init(&f, topo_fattree2(&f.t, leaves, spines, hosts, 1));
	gone = calloc(f.t.n_sw, 1);
	cut = calloc(f.t.n_links, 1);
	ck_assert(gone && cut);
	snprintf(what, sizeof(what), "fattree2 %u %u %u", leaves, spines,
		 hosts);
	moved = lost_round(&f, gone, cut, lmc, pct, what);
	for (j = 0; j < f.t.n_links; j++) {
		const struct topo_link *l = &f.t.links[j];

		cut[j] = l->a < leaves && l->a % 3 == 0 && l->b == leaves;
	}
	snprintf(what, sizeof(what), "fattree2 %u %u %u, uplinks down",
		 leaves, spines, hosts);
	moved += lost_round(&f, gone, cut, lmc, pct, what);
	memset(cut, 0, f.t.n_links);
	snprintf(what, sizeof(what), "fattree2 %u %u %u, uplinks back",
		 leaves, spines, hosts);
	moved += lost_round(&f, gone, cut, lmc, pct, what);
	free(gone);
	free(cut);
	lost_fab_free(&f);
	return moved;
}

/*
 * 3-level (topo_fattree3 dirs lines fabs per_line hosts): fresh, then
 * director d failed (every leaf one neighbour less: a period), then its
 * switches back one at a time, line switches first, as a paced ReLink
 * brings them (only the leaves below a returned line switch see
 * director d again: no period), then all back
 */
static unsigned lost_director(unsigned dirs, unsigned lines, unsigned fabs,
			      unsigned per_line, unsigned hosts, uint8_t lmc,
			      unsigned pct, unsigned d)
{
	struct lost_fab f;
	unsigned char *gone, *cut;
	unsigned leaves = lines * per_line, first, i, moved;
	char what[96];

	lost_fab_init(&f, topo_fattree3(&f.t, dirs, lines, fabs, per_line,
					hosts));
	gone = calloc(f.t.n_sw, 1);
	cut = calloc(f.t.n_links, 1);
	ck_assert(gone && cut);
	snprintf(what, sizeof(what), "fattree3 %u %u %u %u %u", dirs, lines,
		 fabs, per_line, hosts);
	moved = lost_round(&f, gone, cut, lmc, pct, what);
	first = leaves + d * (lines + fabs);
	memset(gone + first, 1, lines + fabs);
	snprintf(what, sizeof(what), "fattree3 %u %u %u %u %u, dir%u down",
		 dirs, lines, fabs, per_line, hosts, d);
	moved += lost_round(&f, gone, cut, lmc, pct, what);
	for (i = 0; i < lines + fabs; i++) {
		gone[first + i] = 0;
		snprintf(what, sizeof(what),
			 "fattree3 %u %u %u %u %u, dir%u: %u of %u switches back",
			 dirs, lines, fabs, per_line, hosts, d, i + 1,
			 lines + fabs);
		moved += lost_round(&f, gone, cut, lmc, pct, what);
	}
	free(gone);
	free(cut);
	lost_fab_free(&f);
	return moved;
}

START_TEST(test_lmc_lost_period)
{
	unsigned moved = 0;
	uint8_t lmc;

	for (lmc = 1; lmc <= 2; lmc++) {
		/* the fabric of tests/integration/lmc_reroute.sh */
		moved += lost_director(6, 4, 2, 4, 6, lmc, 15, 2);
		moved += lost_director(6, 4, 2, 4, 6, lmc, 0, 1);
		moved += lost_director(8, 4, 2, 4, 8, lmc, 10, 1);
		moved += lost_links(12, 6, 6, lmc, 0);
		moved += lost_links(16, 8, 8, lmc, 20);
	}
	/*
	 * LMC 0 on oversubscribed leaves: G = P < R (24 12 24: 12 groups
	 * of 2 ranks; 16 6 10, P not dividing R: 6 chunk groups); a leaf
	 * that lost a link must not regroup the fabric into R groups
	 */
	moved += lost_links(24, 12, 24, 0, 0);
	moved += lost_links(24, 12, 24, 0, 10);
	moved += lost_links(16, 6, 10, 0, 20);
	moved += lost_links(12, 6, 6, 0, 0);
	moved += lost_director(6, 4, 2, 4, 6, 0, 15, 2);
	ck_assert_msg(!moved, "%u ports moved while the fabric had no period",
		      moved);
}
END_TEST

/*
 * ta_ss_shown (plugin/core/ta_spine_sets.h) on host LIDs laid out by
 * hand, on shapes where some set holds several ranks: the sets' own
 * layout (a set's ranks together, block-aligned) is shown; an old
 * layout of one group a rank in rank order (the consecutive rule's,
 * e.g. made while 2^L divided the spines) is not, though its ranks are
 * in order and no block holds two sets.  (Where every set holds one
 * rank, or a rank fills whole blocks, the two group the host LIDs
 * alike; la_assign then keeps whichever rule moves fewer LIDs, which
 * test_lmc_stable checks.)
 */
static unsigned shown_layout(const struct ta_spine_sets *ss, int per_rank,
			     uint32_t *pair)
{
	unsigned lid = 64, n = 0, r, j, o;

	for (r = 0; r < ss->r; r++) {
		if (per_rank || !r ||
		    ss->rank_class[r] != ss->rank_class[r - 1])
			lid = (lid + 63) / 64 * 64;	/* a new group */
		for (j = 0; j < ss->leaves; j++) {
			pair[2 * n] = lid;
			pair[2 * n++ + 1] = r;
			for (o = 0; o < ss->m; o++)
				lid++;
		}
	}
	return n;
}

START_TEST(test_lmc_shown)
{
	static const unsigned shapes[][4] = {	/* S, m, ranks, leaves */
		{ 5, 2, 3, 12 }, { 5, 2, 3, 16 }, { 11, 4, 12, 22 },
		{ 17, 4, 18, 36 }, { 17, 8, 18, 36 },
	};
	unsigned i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const unsigned *x = shapes[i];
		struct ta_spine_sets ss;
		uint32_t *pair = calloc(2 * (size_t)x[2] * x[3], sizeof(*pair));
		unsigned n;

		ck_assert_ptr_nonnull(pair);
		ck_assert_int_eq(ta_spine_sets_make(&ss, x[0], x[1], x[2], x[3],
						    1), 1);
		n = shown_layout(&ss, 0, pair);
		ck_assert_msg(ta_ss_shown(&ss, pair, n) == 1,
			      "S %u m %u: the sets' own layout not shown",
			      x[0], x[1]);
		n = shown_layout(&ss, 1, pair);
		ck_assert_msg(ta_ss_shown(&ss, pair, n) == 0,
			      "S %u m %u R %u L %u: a group a rank taken for the sets",
			      x[0], x[1], x[2], x[3]);
		ta_spine_sets_free(&ss);
		free(pair);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lmc_layout");
	TCase *t = tcase_create("cases");
	TCase *st = tcase_create("stability");
	TCase *f = tcase_create("failure");

	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, test_lmc_case, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, t);
	tcase_add_test(st, test_lmc_stable);
	tcase_add_test(st, test_lmc_shown);
	tcase_add_test(st, test_lmc_lost_period);
	suite_add_tcase(s, st);
	tcase_set_timeout(f, 300);
	tcase_add_loop_test(f, test_lmc_failure, 0,
			    (int)(sizeof(fail_cases) / sizeof(fail_cases[0])));
	suite_add_tcase(s, f);
	return run_suite(s);
}
