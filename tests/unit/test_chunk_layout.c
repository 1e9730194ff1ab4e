// SPDX-License-Identifier: MIT
/*
 * LMC 0 on oversubscribed 2-level fat trees whose spine count S does
 * not divide the host ports H (topogen fattree2 L S H with H > S): the
 * port-major layout (lid_assign) and the routing core's choice among
 * spines together.  The LIDs lid_assign gives are put into the core's
 * graph, the fabric is routed, and everything is judged from the tables
 * and LIDs alone (not from the rule that made them):
 *  - every LID reachable, channel dependency graph acyclic
 *    (route_verify);
 *  - for every leaf and spine, the 64-LID blocks holding a LID (host or
 *    leaf switch) that the leaf sends through that spine, i.e. what a
 *    failure of the spine rewrites on that leaf: at most the bound
 *    ceil((hosts + leaves) / S / 64), hosts counted with every leaf
 *    fully populated (scripts/mad_count.sh's bound, which counts the
 *    hosts present, is the same or one less);
 *  - after the spine's failure, routed again with the memory of the
 *    first routing (ta_saved, as the plugin does): the blocks whose
 *    entries changed on each leaf (its LFT MADs) at most that bound,
 *    all pairs reachable, acyclic;
 *  - the load stays spread: from every leaf, no spine carries more host
 *    LIDs of one other leaf than ceil(H / S) + 1 (so the spine's
 *    down-link to that leaf is not overloaded);
 *  - stability: LIDs given once, then swept with a spine gone (the
 *    leaves see S - 1 spines), then with the absent hosts arriving: no
 *    LID that existed moves, and every newcomer lands in the block
 *    range of the hosts sharing its spine.
 * Under the rank rule (rank r through spine r mod S) the block
 * count is about 3 per leaf where the bound is 1 (fattree2 36 16 20:
 * 2.97 times the bound under OpenSM).
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
#include "topo.h"

#define MAX_LID 0xc000u
#define NBLK (MAX_LID / 64)

struct chunk_case {
	unsigned leaves, spines, hosts;	/* topogen fattree2 L S H */
	unsigned absent_pct;		/* hosts left out, by a fixed hash */
	unsigned gone;			/* spine (0 .. S - 1) that fails */
};

struct built {
	struct topo t;
	struct la_port *ports;		/* switches first, then hosts */
	uint64_t *sw_guid;
	uint32_t *peers;
	unsigned *host_of;		/* port index of topo host i, or ~0 */
	struct ta_graph *g;
	struct ta_result r;
	unsigned *nb;			/* [sw][port]: neighbour switch */
	uint32_t dest_of[MAX_LID];	/* LID -> destination index */
};

static int absent(unsigned i, unsigned pct)
{
	return pct && (i * 2654435761u >> 7) % 100 < pct;
}

static void setup(struct built *b, const struct chunk_case *c)
{
	unsigned i, j, n = 0;
	struct la_input in = { 0 };
	struct la_result res;
	size_t nn;

	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(topo_fattree2(&b->t, c->leaves, c->spines, c->hosts,
				       1), 0);
	b->ports = calloc(b->t.n_sw + b->t.n_hosts, sizeof(*b->ports));
	b->sw_guid = calloc(b->t.n_sw, sizeof(*b->sw_guid));
	b->host_of = calloc(b->t.n_hosts + 1, sizeof(*b->host_of));
	b->peers = calloc(b->t.n_sw, sizeof(*b->peers));
	ck_assert(b->ports && b->sw_guid && b->host_of && b->peers);
	for (i = 0; i < b->t.n_sw; i++) {
		b->sw_guid[i] = 0x1000 + i;
		b->peers[i] = i < c->leaves ? c->spines : c->leaves;
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
	in.n_sw = b->t.n_sw;
	in.sw_guid = b->sw_guid;
	in.n_ports = n;
	in.ports = b->ports;
	in.sw_peers = b->peers;
	ck_assert_int_eq(la_assign(&in, &res), 0);
	ck_assert_uint_eq(res.failed, 0);
	ck_assert_uint_eq(res.overflow, 0);
	la_result_free(&res);
	nn = (size_t)b->t.n_sw * (TOPO_MAX_PORTS + 1);
	b->nb = malloc(nn * sizeof(*b->nb));
	ck_assert_ptr_nonnull(b->nb);
	memset(b->nb, 0xff, nn * sizeof(*b->nb));
	for (j = 0; j < b->t.n_links; j++) {
		const struct topo_link *l = &b->t.links[j];

		b->nb[l->a * (TOPO_MAX_PORTS + 1) + l->pa] = l->b;
		b->nb[l->b * (TOPO_MAX_PORTS + 1) + l->pb] = l->a;
	}
}

static void teardown(struct built *b)
{
	ta_result_free(&b->r);
	ta_graph_free(b->g);
	topo_free(&b->t);
	free(b->ports);
	free(b->sw_guid);
	free(b->peers);
	free(b->host_of);
	free(b->nb);
}

/* the core's graph without the topology switches marked in gone[] */
static struct ta_graph *graph_without_set(const struct built *b,
					  const uint8_t *gone)
{
	struct ta_graph *g = ta_graph_new();
	unsigned *gi = malloc(b->t.n_sw * sizeof(*gi)), i, n = 0;

	ck_assert(g && gi);
	for (i = 0; i < b->t.n_sw; i++) {	/* GUID order = index order */
		gi[i] = gone && gone[i] ? ~0u : n++;
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
		ck_assert_int_ge(ta_graph_add_dest(g, p->lid, gi[p->sw],
			p->sw_port, true, p->guid, NULL), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	free(gi);
	return g;
}

/* the core's graph without topology switch `gone` (~0u: none) */
static struct ta_graph *graph_without(const struct built *b, unsigned gone)
{
	uint8_t *set = calloc(b->t.n_sw + 1, 1);
	struct ta_graph *g;

	ck_assert_ptr_nonnull(set);
	if (gone < b->t.n_sw)
		set[gone] = 1;
	g = graph_without_set(b, set);
	free(set);
	return g;
}

static unsigned neighbour(const struct built *b, unsigned s, unsigned port)
{
	return port <= TOPO_MAX_PORTS ? b->nb[s * (TOPO_MAX_PORTS + 1) + port] :
					~0u;
}

static void check_routes(const struct ta_graph *g, const struct ta_result *r)
{
	struct verify_report rep;

	ck_assert_int_eq(verify_routes(g, r, &rep), 0);
	ck_assert_uint_eq(rep.unreachable_host_pairs, 0);
	ck_assert_uint_eq(rep.unreachable_host_to_switch, 0);
	ck_assert_int_eq(rep.cdg_cyclic, 0);
}

/* the bound: a spine's share of every host and leaf LID, in blocks */
static unsigned bound(const struct chunk_case *c)
{
	unsigned lids = (c->hosts + 1) * c->leaves;

	return (lids + c->spines * 64 - 1) / (c->spines * 64);
}

/*
 * Worst, over leaves and spines, of the blocks holding a leaf's LID
 * (host or leaf switch, on another leaf) that the leaf sends through
 * the spine; checks the down-link balance on the way.
 */
static unsigned blocks_per_spine(const struct built *b,
				 const struct chunk_case *c)
{
	const struct ta_graph *g = b->g;
	unsigned worst = 0, s, d, k, sp;
	uint8_t *blk = malloc((size_t)c->spines * NBLK);
	unsigned *load = malloc((size_t)c->spines * c->leaves *
				sizeof(*load));
	unsigned most = (c->hosts + c->spines - 1) / c->spines + 1;

	ck_assert(blk && load);
	for (s = 0; s < c->leaves; s++) {
		memset(blk, 0, (size_t)c->spines * NBLK);
		memset(load, 0, (size_t)c->spines * c->leaves * sizeof(*load));
		for (d = 0; d < g->n_dest; d++) {
			const struct ta_dest *x = &g->dest[d];

			if (x->sw == s || x->sw >= c->leaves)
				continue;	/* own, or a spine's LID */
			sp = neighbour(b, s, ta_result_port(&b->r, s, d));
			ck_assert_uint_ge(sp, c->leaves);
			ck_assert_uint_lt(sp, c->leaves + c->spines);
			sp -= c->leaves;
			blk[(size_t)sp * NBLK + x->lid / 64] = 1;
			if (x->is_host)
				load[sp * c->leaves + x->sw]++;
		}
		for (sp = 0; sp < c->spines; sp++) {
			unsigned n = 0;

			for (k = 0; k < NBLK; k++)
				n += blk[(size_t)sp * NBLK + k];
			worst = n > worst ? n : worst;
			for (d = 0; d < c->leaves; d++)
				ck_assert_msg(load[sp * c->leaves + d] <= most,
					      "leaf %u sends %u LIDs of leaf %u through spine %u, more than %u",
					      s, load[sp * c->leaves + d], d,
					      sp, most);
		}
	}
	free(blk);
	free(load);
	return worst;
}

/*
 * Worst, over the leaves, of the blocks whose entries differ.  The LIDs
 * gone with the failed switches keep their old entries, as the plugin
 * leaves them (plugin/lft_write.c), so they change nothing.
 */
static unsigned changed_blocks(const struct built *b,
			       const struct chunk_case *c,
			       const struct ta_graph *g1,
			       const struct ta_result *r1)
{
	static uint32_t dest1[MAX_LID];
	uint8_t blk[NBLK];
	unsigned worst = 0, s, lid, k;

	for (lid = 0; lid < MAX_LID; lid++)
		dest1[lid] = UINT32_MAX;
	for (k = 0; k < g1->n_dest; k++)
		dest1[g1->dest[k].lid] = k;
	/* the leaves come before the spines: same index in g1 */
	for (s = 0; s < c->leaves; s++) {
		unsigned n = 0;

		memset(blk, 0, sizeof(blk));
		for (lid = 1; lid < MAX_LID; lid++) {
			uint32_t d0 = b->dest_of[lid], d1 = dest1[lid];
			uint8_t old = d0 == UINT32_MAX ? TA_NO_PORT :
				      ta_result_port(&b->r, s, d0);
			uint8_t now = d1 == UINT32_MAX ? TA_NO_PORT :
				      ta_result_port(r1, s, d1);

			/* a LID gone keeps its entry (plugin/lft_write.c) */
			if (old != now && d1 != UINT32_MAX)
				blk[lid / 64] = 1;
		}
		for (k = 0; k < NBLK; k++)
			n += blk[k];
		worst = n > worst ? n : worst;
	}
	return worst;
}

static unsigned route_blocks(struct built *b, const struct chunk_case *c);

static void run_case(const struct chunk_case *c)
{
	static struct built b;
	struct ta_options o;
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_result r1;
	struct ta_graph *g1;
	unsigned worst, fail, gone = c->leaves + c->gone;

	setup(&b, c);
	worst = route_blocks(&b, c);
	ta_options_init(&o);
	ta_saved_init(&sv);
	ck_assert_int_eq(ta_saved_update(&sv, b.g, &b.r), 0);

	g1 = graph_without(&b, gone);
	ck_assert_int_eq(ta_saved_prior(&sv, g1, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g1, &o, &pb.prior, NULL, &r1), 0);
	check_routes(g1, &r1);
	fail = changed_blocks(&b, c, g1, &r1);
	printf("fattree2 %u %u %u absent %u%%: %u blocks per (leaf, spine), %u changed on a leaf when spine %u fails; bound %u\n",
	       c->leaves, c->spines, c->hosts, c->absent_pct, worst, fail,
	       c->gone, bound(c));
	ck_assert_uint_le(worst, bound(c));
	ck_assert_uint_le(fail, bound(c));
	ck_assert_uint_gt(fail, 0);
	ta_prior_buf_free(&pb);
	ta_result_free(&r1);
	ta_graph_free(g1);
	ta_saved_free(&sv);
	teardown(&b);
}

static const struct chunk_case cases[] = {
	/* 36-port switches, 20 down / 16 up: 21 x 36 / 16 = 47.25 LIDs a
	 * spine, 1 block (the rank rule: 3) */
	{ 36, 16, 20, 0, 1 },
	{ 36, 16, 20, 30, 5 },
	/* 40-port, 24 down / 16 up: 62.5 LIDs a spine, 1 block */
	{ 40, 16, 24, 0, 3 },
	{ 40, 16, 24, 20, 12 },
	/* 48 leaves, 25 / 10: 124.8 LIDs a spine, 2 blocks */
	{ 48, 10, 25, 0, 7 },
	/* small: 12 leaves, 5 / 3: 24 LIDs a spine, 1 block */
	{ 12, 3, 5, 0, 2 },
	/* 72 leaves, 22 / 12: 138 LIDs a spine, 3 blocks */
	{ 72, 12, 22, 25, 11 },
};

START_TEST(test_chunk_case)
{
	run_case(&cases[_i]);
}
END_TEST

/* routes b (LIDs set) and returns blocks_per_spine() */
static unsigned route_blocks(struct built *b, const struct chunk_case *c)
{
	struct ta_options o;
	unsigned i;

	b->g = graph_without(b, ~0u);
	for (i = 0; i < MAX_LID; i++)
		b->dest_of[i] = UINT32_MAX;
	for (i = 0; i < b->g->n_dest; i++)
		b->dest_of[b->g->dest[i].lid] = i;
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(b->g, &o, NULL, &b->r), 0);
	check_routes(b->g, &b->r);
	return blocks_per_spine(b, c);
}

/*
 * Stability: LIDs given with a part of the hosts absent; swept again
 * with a spine gone (the leaves see one spine less), then with every
 * host present: no LID moves, and with the newcomers' LIDs the fabric
 * (routed afresh) still has each spine's LIDs in the fewest blocks
 * (a newcomer outside the range of its spine's LIDs would add one).
 */
static void stable_case(unsigned leaves, unsigned spines, unsigned hosts,
			unsigned pct)
{
	static struct built b, f;
	const struct chunk_case c = { leaves, spines, hosts, pct, 0 };
	const struct chunk_case full = { leaves, spines, hosts, 0, 0 };
	struct la_port *p;
	uint16_t *lid_of;
	struct la_input in = { 0 };
	struct la_result res;
	unsigned n, i, round, gone = leaves + spines / 2, k, worst, arrived = 0;
	uint64_t guid[512];
	uint32_t peers[512];

	setup(&b, &c);
	ck_assert_uint_le(b.t.n_sw, 512);
	p = calloc(b.t.n_sw + b.t.n_hosts, sizeof(*p));
	lid_of = calloc(b.t.n_hosts + 1, sizeof(*lid_of));
	ck_assert(p && lid_of);
	for (i = 0; i < b.t.n_hosts; i++)
		lid_of[i] = b.host_of[i] == ~0u ? 0 : b.ports[b.host_of[i]].lid;
	for (round = 0; round < 2; round++) {
		k = 0;
		for (i = 0; i < b.t.n_sw; i++) {
			if (round == 0 && i == gone)
				continue;
			guid[k] = 0x1000 + i;
			peers[k] = i < leaves ? spines - (round == 0) :
						leaves;
			p[k] = (struct la_port){ .guid = guid[k],
				.kind = LA_SWITCH, .sw = k,
				.old_lid = b.ports[i].lid };
			k++;
		}
		n = k;
		for (i = 0; i < b.t.n_hosts; i++) {
			if (round == 0 && !lid_of[i])
				continue;	/* round 1: all arrive */
			/* hosts are on leaves, before the spines */
			p[n++] = (struct la_port){ .guid = 0x100000 + i,
				.kind = LA_HOST, .sw = b.t.hosts[i].sw,
				.sw_port = (uint8_t)b.t.hosts[i].port,
				.old_lid = lid_of[i] };
		}
		in = (struct la_input){ .n_sw = k, .sw_guid = guid,
			.n_ports = n, .ports = p, .sw_peers = peers };
		ck_assert_int_eq(la_assign(&in, &res), 0);
		ck_assert_uint_eq(res.overflow, 0);
		for (i = 0; i < n; i++) {
			unsigned h = (unsigned)(p[i].guid - 0x100000);

			if (p[i].kind != LA_HOST)
				continue;
			ck_assert_msg(!p[i].old_lid || p[i].lid == p[i].old_lid,
				      "%ux%ux%u round %u: host %u moved %u -> %u",
				      leaves, spines, hosts, round, h,
				      p[i].old_lid, p[i].lid);
			arrived += !p[i].old_lid;
			lid_of[h] = p[i].lid;
		}
		la_result_free(&res);
	}
	ck_assert_uint_gt(arrived, 0);
	/* the full fabric with these LIDs */
	setup(&f, &full);
	for (i = 0; i < f.t.n_hosts; i++)
		f.ports[f.host_of[i]].lid = lid_of[i];
	for (i = 0; i < f.t.n_sw; i++)
		f.ports[i].lid = p[i].lid;
	worst = route_blocks(&f, &full);
	printf("fattree2 %u %u %u, %u%% absent, then a spine gone, then %u hosts arrived: no LID moved, %u blocks per (leaf, spine), bound %u\n",
	       leaves, spines, hosts, pct, arrived, worst, bound(&full));
	ck_assert_uint_le(worst, bound(&full));
	free(p);
	free(lid_of);
	teardown(&f);
	teardown(&b);
}

START_TEST(test_chunk_stable)
{
	stable_case(36, 16, 20, 30);
	stable_case(40, 16, 24, 20);
	stable_case(12, 3, 5, 40);
}
END_TEST

/*
 * 3-level trees (topogen fattree3 D LINES FABS PER_LINE H, H > D, D not
 * dividing H; and, marked apart, D dividing H: rank groups, the
 * directors' switches in a group of their own, lid_groups.c): the
 * leaves face D directors, each a 2-level tree of line
 * and fabric switches.  A director's failure rewrites on a leaf the
 * blocks holding a LID the leaf sent through it (the director's own
 * switch LIDs go with it and keep their entries); counted from the LIDs
 * and tables (before:
 * per (leaf, director); after the failure, routed again with the memory
 * of the first routing: the blocks whose entries changed), at most
 * ceil((hosts + leaves) / D / 64) on every leaf.  A line switch's failure
 * changes no more.  lid_assign again without the failed switches moves
 * no LID.
 */
struct dir_case {
	unsigned dirs, lines, fabs, per_line, hosts;
	unsigned absent_pct;
	unsigned gone;		/* director that fails */
	int line;		/* >= 0: only that line switch of it fails */
	bool apart;		/* D divides H (rank groups, no chunks): the
				 * directors' own switch LIDs are in a group
				 * of their own (lid_groups.c) */
};

static unsigned dir_leaves(const struct dir_case *c)
{
	return c->lines * c->per_line;
}

/* director of topology switch s, ~0u for a leaf */
static unsigned dir_of(const struct dir_case *c, unsigned s)
{
	unsigned l = dir_leaves(c);

	return s < l ? ~0u : (s - l) / (c->lines + c->fabs);
}

static unsigned dir_bound(const struct dir_case *c)
{
	unsigned lids = (c->hosts + 1) * dir_leaves(c);

	return (lids + c->dirs * 64 - 1) / (c->dirs * 64);
}

/* distinct neighbour switches of every switch but gone[], as la_input */
static uint32_t *list_peers(const struct topo *t, const uint8_t *gone,
			    const unsigned *idx, uint32_t *count)
{
	uint32_t *list = malloc((2 * (size_t)t->n_links + 1) * sizeof(*list));
	uint32_t *at = calloc(t->n_sw + 1, sizeof(*at)), i, j, s, k = 0;

	ck_assert(list && at);
	for (s = 0; s < t->n_sw; s++) {
		if (gone[s])
			continue;
		at[s] = k;
		for (i = 0; i < t->n_links; i++) {
			const struct topo_link *l = &t->links[i];
			uint32_t o = l->a == s ? l->b : l->b == s ? l->a : ~0u;

			if (o == ~0u || gone[o])
				continue;
			for (j = at[s]; j < k && list[j] != idx[o]; j++)
				;
			if (j == k)
				list[k++] = idx[o];
		}
		count[idx[s]] = k - at[s];
	}
	free(at);
	return list;
}

/* la_assign on b without gone[], old LIDs from b; checks none moves */
static void reassign(struct built *b, const uint8_t *gone)
{
	unsigned n = 0, k = 0, i, *idx = calloc(b->t.n_sw + 1, sizeof(*idx));
	struct la_port *p = calloc(b->t.n_sw + b->t.n_hosts, sizeof(*p));
	uint64_t *guid = calloc(b->t.n_sw + 1, sizeof(*guid));
	uint32_t *count = calloc(b->t.n_sw + 1, sizeof(*count)), *list;
	struct la_input in = { 0 };
	struct la_result res;

	ck_assert(idx && p && guid && count);
	for (i = 0; i < b->t.n_sw; i++)
		idx[i] = gone[i] ? ~0u : k++;
	for (i = 0; i < b->t.n_sw; i++) {
		if (gone[i])
			continue;
		guid[idx[i]] = 0x1000 + i;
		p[n++] = (struct la_port){ .guid = 0x1000 + i,
			.kind = LA_SWITCH, .sw = idx[i],
			.old_lid = b->ports[i].lid };
	}
	for (i = 0; i < b->t.n_hosts; i++) {
		const struct la_port *h;

		if (b->host_of[i] == ~0u)
			continue;
		h = &b->ports[b->host_of[i]];
		p[n] = *h;
		p[n].sw = idx[h->sw];
		p[n++].old_lid = h->lid;
	}
	list = list_peers(&b->t, gone, idx, count);
	in = (struct la_input){ .n_sw = k, .sw_guid = guid, .n_ports = n,
		.ports = p, .sw_peers = count, .sw_peer = list };
	ck_assert_int_eq(la_assign(&in, &res), 0);
	for (i = 0; i < n; i++)
		ck_assert_msg(p[i].lid == p[i].old_lid,
			      "port %llx moved %u -> %u",
			      (unsigned long long)p[i].guid, p[i].old_lid,
			      p[i].lid);
	la_result_free(&res);
	free(list);
	free(idx);
	free(p);
	free(guid);
	free(count);
}

static void setup_dirs(struct built *b, const struct dir_case *c)
{
	unsigned i, n = 0;
	uint8_t *none;
	uint32_t *list;
	unsigned *idx;
	struct la_input in = { 0 };
	struct la_result res;
	size_t nn;

	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(topo_fattree3(&b->t, c->dirs, c->lines, c->fabs,
				       c->per_line, c->hosts), 0);
	b->ports = calloc(b->t.n_sw + b->t.n_hosts, sizeof(*b->ports));
	b->sw_guid = calloc(b->t.n_sw, sizeof(*b->sw_guid));
	b->host_of = calloc(b->t.n_hosts + 1, sizeof(*b->host_of));
	b->peers = calloc(b->t.n_sw, sizeof(*b->peers));
	none = calloc(b->t.n_sw + 1, 1);
	idx = calloc(b->t.n_sw + 1, sizeof(*idx));
	ck_assert(b->ports && b->sw_guid && b->host_of && b->peers && none &&
		  idx);
	for (i = 0; i < b->t.n_sw; i++) {
		idx[i] = i;
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
	list = list_peers(&b->t, none, idx, b->peers);
	in = (struct la_input){ .n_sw = b->t.n_sw, .sw_guid = b->sw_guid,
		.n_ports = n, .ports = b->ports, .sw_peers = b->peers,
		.sw_peer = list };
	ck_assert_int_eq(la_assign(&in, &res), 0);
	ck_assert_uint_eq(res.failed, 0);
	ck_assert_uint_eq(res.overflow, 0);
	la_result_free(&res);
	free(list);
	free(none);
	free(idx);
	nn = (size_t)b->t.n_sw * (TOPO_MAX_PORTS + 1);
	b->nb = malloc(nn * sizeof(*b->nb));
	ck_assert_ptr_nonnull(b->nb);
	memset(b->nb, 0xff, nn * sizeof(*b->nb));
	for (i = 0; i < b->t.n_links; i++) {
		const struct topo_link *l = &b->t.links[i];

		b->nb[l->a * (TOPO_MAX_PORTS + 1) + l->pa] = l->b;
		b->nb[l->b * (TOPO_MAX_PORTS + 1) + l->pb] = l->a;
	}
}

/*
 * Worst, over (leaf, director), of the blocks a failure of the director
 * rewrites on the leaf: those holding a LID (host or leaf switch) the
 * leaf sends through the director.  The director's own switch LIDs go
 * with it and keep their entries (plugin/lft_write.c).
 */
static unsigned blocks_per_dir(const struct built *b, const struct dir_case *c)
{
	const struct ta_graph *g = b->g;
	unsigned worst = 0, s, d, k, dir, l = dir_leaves(c);
	uint8_t *blk = malloc((size_t)c->dirs * NBLK);

	ck_assert_ptr_nonnull(blk);
	for (s = 0; s < l; s++) {
		memset(blk, 0, (size_t)c->dirs * NBLK);
		for (d = 0; d < g->n_dest; d++) {
			const struct ta_dest *x = &g->dest[d];

			if (x->sw == s || x->sw >= l)
				continue;
			dir = dir_of(c, neighbour(b, s,
					ta_result_port(&b->r, s, d)));
			ck_assert_uint_lt(dir, c->dirs);
			blk[(size_t)dir * NBLK + x->lid / 64] = 1;
		}
		for (dir = 0; dir < c->dirs; dir++) {
			unsigned n = 0;

			for (k = 0; k < NBLK; k++)
				n += blk[(size_t)dir * NBLK + k];
			worst = n > worst ? n : worst;
		}
	}
	free(blk);
	return worst;
}

static void run_dir_case(const struct dir_case *c)
{
	static struct built b;
	const struct chunk_case lv = { dir_leaves(c), c->dirs, c->hosts, 0,
				       0 };
	struct ta_options o;
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_result r1;
	struct ta_graph *g1;
	uint8_t *gone;
	unsigned worst, fail, i, first;

	setup_dirs(&b, c);
	b.g = graph_without(&b, ~0u);
	for (i = 0; i < MAX_LID; i++)
		b.dest_of[i] = UINT32_MAX;
	for (i = 0; i < b.g->n_dest; i++)
		b.dest_of[b.g->dest[i].lid] = i;
	ta_options_init(&o);
	ck_assert_int_eq(ta_route(b.g, &o, NULL, &b.r), 0);
	check_routes(b.g, &b.r);
	worst = blocks_per_dir(&b, c);
	ta_saved_init(&sv);
	ck_assert_int_eq(ta_saved_update(&sv, b.g, &b.r), 0);

	gone = calloc(b.t.n_sw + 1, 1);
	ck_assert_ptr_nonnull(gone);
	first = dir_leaves(c) + c->gone * (c->lines + c->fabs);
	for (i = 0; i < c->lines + c->fabs; i++)
		gone[first + i] = c->line < 0 || i == (unsigned)c->line;
	reassign(&b, gone);
	g1 = graph_without_set(&b, gone);
	ck_assert_int_eq(ta_saved_prior(&sv, g1, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g1, &o, &pb.prior, NULL, &r1), 0);
	check_routes(g1, &r1);
	fail = changed_blocks(&b, &lv, g1, &r1);
	printf("fattree3 %u %u %u %u %u absent %u%%: %u blocks per (leaf, director), %u changed on a leaf when %s of director %u fails; bound %u\n",
	       c->dirs, c->lines, c->fabs, c->per_line, c->hosts,
	       c->absent_pct, worst, fail, c->line < 0 ? "all" : "a line",
	       c->gone, dir_bound(c));
	ck_assert_uint_le(worst, dir_bound(c));
	/*
	 * one line switch: the leaves cabled to it also reach their
	 * director's other switches another way, one more block (those
	 * LIDs sit in the director's chunk, not in the chunk the leaf sends
	 * through it: the leaves' chunks differ, ta_intree.h leaf_rot)
	 */
	ck_assert_uint_le(fail, dir_bound(c) + (c->line >= 0));
	ck_assert_uint_gt(fail, 0);
	ta_prior_buf_free(&pb);
	ta_result_free(&r1);
	ta_graph_free(g1);
	ta_saved_free(&sv);
	free(gone);
	teardown(&b);
}

static const struct dir_case dir_cases[] = {
	/* 12 directors, 18 hosts a leaf, 64 leaves: 101 LIDs, 2 blocks */
	{ 12, 8, 4, 8, 18, 0, 3, -1, false },
	{ 12, 8, 4, 8, 18, 25, 7, -1, false },
	{ 12, 8, 4, 8, 18, 0, 5, 2, false },
	/* 8 directors, 12 hosts: 52 LIDs, 1 block */
	{ 8, 4, 2, 8, 12, 0, 0, -1, false },
	{ 8, 4, 2, 8, 12, 30, 6, 1, false },
	/* 6 directors, 16 hosts, 48 leaves: 136 LIDs, 3 blocks */
	{ 6, 6, 4, 8, 16, 20, 2, -1, false },
	/*
	 * Rank groups (D divides H): 6 directors, 12 hosts, 144 leaves,
	 * a director carries ranks k and k + 6: 288 host LIDs and 24
	 * leaf LIDs, 5 blocks.  With the 108 director switches spread over
	 * the groups (i mod G) there were 12 groups (one a rank) of 3
	 * blocks: 6 a director.
	 */
	{ 6, 12, 6, 12, 12, 0, 2, -1, true },	/* 5: 6 before */
	{ 6, 12, 6, 12, 12, 20, 4, -1, true },
	{ 6, 12, 6, 12, 12, 0, 1, 5, true },
};

START_TEST(test_dir_case)
{
	run_dir_case(&dir_cases[_i]);
}
END_TEST

/*
 * LIDs laid out by the rank rule on fattree3 6 12 6 12 12: one
 * group a rank (12), the director switches spread over them with the
 * leaves (switch i in group i mod 12): group r holds the rank-r hosts,
 * leaf by leaf, then its switches by GUID, from a block boundary (group
 * 0 from LID 1).  lid_assign keeps every one of them, with all switches
 * present and with director 2 gone: the new placement of the switches
 * without hosts moves no LID of a fabric numbered by the rank rule.
 */
START_TEST(test_dir_old_spread)
{
	static const struct dir_case c = { 6, 12, 6, 12, 12, 0, 2, -1, true };
	static struct built b;
	unsigned i, g_n = 12, l = dir_leaves(&c), next = 0, start[12];
	unsigned sws[12] = { 0 };
	uint8_t *gone;

	setup_dirs(&b, &c);
	for (i = 0; i < b.t.n_sw; i++)
		sws[i % g_n]++;
	for (i = 0; i < g_n; i++) {	/* the fewest blocks, as natural */
		unsigned size = l + sws[i], lo = i ? next : 1;

		start[i] = lo;
		next = i ? lo + (size + 63) / 64 * 64 :
			   (size + 1 + 63) / 64 * 64;
	}
	for (i = 0; i < b.t.n_sw; i++)
		b.ports[i].lid = (uint16_t)(start[i % g_n] + l + i / g_n);
	for (i = 0; i < b.t.n_hosts; i++) {
		struct la_port *h = &b.ports[b.host_of[i]];

		ck_assert_uint_lt(h->sw, l);
		h->lid = (uint16_t)(start[h->sw_port - 1u] + h->sw);
	}
	gone = calloc(b.t.n_sw + 1, 1);
	ck_assert_ptr_nonnull(gone);
	reassign(&b, gone);
	for (i = 0; i < c.lines + c.fabs; i++)
		gone[l + 2 * (c.lines + c.fabs) + i] = 1;
	reassign(&b, gone);
	free(gone);
	teardown(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chunk_layout");
	TCase *t = tcase_create("cases");
	TCase *st = tcase_create("stability");
	TCase *dt = tcase_create("directors");

	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, test_chunk_case, 0,
			    (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, t);
	tcase_set_timeout(st, 120);
	tcase_add_test(st, test_chunk_stable);
	suite_add_tcase(s, st);
	tcase_set_timeout(dt, 300);
	tcase_add_loop_test(dt, test_dir_case, 0,
			    (int)(sizeof(dir_cases) / sizeof(dir_cases[0])));
	tcase_add_test(dt, test_dir_old_spread);
	suite_add_tcase(s, dt);
	return run_suite(s);
}
