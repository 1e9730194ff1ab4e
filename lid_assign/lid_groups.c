// SPDX-License-Identifier: MIT
/*
 * Groups.  R is the highest switch port number a host is cabled to (1
 * in a fabric of switches only); a host's rank is its switch port - 1.
 * The number of groups G is R, or the leaves' period P when that is
 * less (oversubscribed leaves, see below).  Group g holds the hosts of
 * the ranks r with r mod G = g, rank by rank, each ordered by switch
 * node GUID, then the
 * switches whose index in node GUID order (among all switches) is g
 * mod G, by GUID.  These are the routing core's spreads: a leaf sends
 * rank r through spine r mod P (plugin/core/ta_period.h), so the ranks
 * that share a spine share a group.  A host's group does not depend on
 * which other hosts are present.  Loose ports come after all groups, by
 * port GUID.
 *
 * P is the number of neighbour switches every switch with hosts has
 * (sw_peers), when they all have the same and some switch has none;
 * it is used only where the ranks that share a spine fill fewer 64-LID
 * blocks together than apart (see n_groups()).  A
 * spine failure lowers it for a while, so once LIDs were given the
 * period the old host LIDs show wins: the greatest common divisor of
 * the rank differences of hosts whose old LIDs share a 64-LID block,
 * if it is at least today's P and below R.  Old LIDs that show none
 * (every block holds one rank) keep G = R; only a fabric without old
 * host LIDs takes P from the topology.  With LMC > 0 the choice of G is
 * lid_groups_lmc.c's (the ranks that share spines are r mod P /
 * gcd(P, 2^LMC) there), and the switches without hosts take a group
 * of their own after the others (bare_switches()); without LMC they do
 * where that saves blocks (n_groups()), else they are spread like the
 * leaf switches.  A resweep whose
 * switches with hosts differ in neighbour count (leaves that lost
 * uplinks: a link down, part of a failed director back) has no P;
 * where grouping it without one moves LIDs, la_assign tries again with
 * P the largest count (w->keep_period, la_period_lost()), with or
 * without LMC.
 *
 * On a Dragonfly+ (lid_dfly.h) none of that: group g is Dragonfly+
 * group g (assign_dfly()), hosts rank by rank, then its switches.  On
 * a dragonfly (lid_df.h) group g is dragonfly group g, hosts router by
 * router (switch GUID order, then port), then its switches.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lid_chunks.h"
#include "lid_df.h"
#include "lid_gcd.h"
#include "lid_groups_lmc.h"
#include "lid_work.h"

/* qsort has no context argument: the run being sorted */
static const struct la_work *sort_work;

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_sw_guid(const void *x, const void *y)
{
	const uint64_t *g = sort_work->in->sw_guid;

	return cmp3(g[*(const uint32_t *)x], g[*(const uint32_t *)y]);
}

/*
 * By (group, hosts before switches, rank, switch GUID, port GUID); on a
 * dragonfly (router-major inside a group) hosts by switch GUID first.
 */
static int cmp_member(const void *x, const void *y)
{
	const struct la_input *in = sort_work->in;
	const struct la_port *a = &in->ports[*(const uint32_t *)x];
	const struct la_port *b = &in->ports[*(const uint32_t *)y];
	int c = cmp3(a->group, b->group);

	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind == LA_HOST ? -1 : 1;
	if (a->kind == LA_HOST && a->rank != b->rank &&
	    !(sort_work->dfly.classic && a->sw != b->sw))
		return cmp3(a->rank, b->rank);
	if (a->kind != LA_LOOSE && a->sw != b->sw)
		return cmp3(in->sw_guid[a->sw], in->sw_guid[b->sw]);
	return cmp3(a->guid, b->guid);
}

/* every switch's index in GUID order; -EINVAL on a duplicate GUID */
static int switch_ranks(struct la_work *w, uint32_t *rank)
{
	const struct la_input *in = w->in;
	uint32_t *idx = malloc((in->n_sw + 1) * sizeof(*idx));
	uint32_t i;
	int ret = 0;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < in->n_sw; i++)
		idx[i] = i;
	sort_work = w;
	qsort(idx, in->n_sw, sizeof(*idx), cmp_sw_guid);
	for (i = 0; i < in->n_sw; i++) {
		if (i && in->sw_guid[idx[i]] == in->sw_guid[idx[i - 1]])
			ret = -EINVAL;
		rank[idx[i]] = i;
	}
	free(idx);
	return ret;
}

/*
 * The topology's P (see above), 0 if none; *leaves: switches with hosts.
 * keep (a resweep where the fabric lost its period, la_period_lost()):
 * when the switches with hosts differ in neighbour count, the largest
 * (the others are leaves that lost uplinks for a while).
 */
static uint32_t topo_period(const struct la_input *in, bool keep,
			    uint32_t *leaves)
{
	uint8_t *host;
	uint32_t i, bare = 0, most = 0;
	bool differ = false;

	if (!in->sw_peers || !in->n_sw)
		return 0;
	host = calloc(in->n_sw, 1);
	if (!host)
		return 0;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST)
			host[in->ports[i].sw] = 1;
	*leaves = 0;
	for (i = 0; i < in->n_sw; i++) {
		*leaves += host[i];
		if (!host[i]) {
			bare++;
			continue;
		}
		if (most && in->sw_peers[i] != most)
			differ = true;
		if (in->sw_peers[i] > most)
			most = in->sw_peers[i];
		if (differ && !keep)
			break;
	}
	free(host);
	return bare && (keep || !differ) ? most : 0;
}

static int cmp_lid_rank(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) :
			      (a[1] < b[1] ? -1 : a[1] > b[1]);
}

/*
 * The period the old host LIDs show: gcd of rank differences inside
 * 64-LID blocks; 0 if no block holds two ranks; UINT32_MAX if no host
 * has an old LID (or out of memory: then R is used).
 */
static uint32_t old_period(const struct la_input *in)
{
	uint32_t *pair = malloc((2 * (size_t)in->n_ports + 2) *
				sizeof(*pair));
	uint32_t i, n = 0, g = 0;

	if (!pair)
		return 0;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST && in->ports[i].old_lid) {
			pair[2 * n] = in->ports[i].old_lid / LA_BLOCK;
			pair[2 * n++ + 1] = in->ports[i].sw_port - 1u;
		}
	qsort(pair, n, 2 * sizeof(*pair), cmp_lid_rank);
	for (i = 1; i < n; i++)
		if (pair[2 * i] == pair[2 * i - 2])
			g = (uint32_t)la_gcd(g, pair[2 * i + 1] -
						   pair[2 * i - 1]);
	free(pair);
	return n ? g : UINT32_MAX;
}

static uint64_t blocks(uint64_t lids)
{
	return (lids + LA_BLOCK - 1) / LA_BLOCK;
}

/*
 * LMC 0: the blocks per leaf the worst spine's failure rewrites with
 * g_n groups.  Group g holds the ranks x with x mod g_n = g (every leaf
 * fully populated), then its switches (index i mod g_n = g), by GUID;
 * a spine's failure rewrites its blocks up to its last host or leaf
 * switch LID (the LIDs of switches without hosts after that are
 * reached over fixed links; a failed switch's LIDs keep their stale
 * entries, plugin/lft_write.c).  apart: the switches without hosts in
 * a group of their own instead (bare_switches()).  Spine k carries the
 * ranks x with x mod p = k: the sum of their groups' blocks.
 * UINT64_MAX if out of memory.
 */
static uint64_t lmc0_cost(const struct la_work *w, const uint32_t *sw_rank,
			  uint32_t g_n, uint32_t r, uint32_t p,
			  uint32_t leaves, bool apart)
{
	const struct la_input *in = w->in;
	uint32_t *by_rank = malloc((in->n_sw + 1) * sizeof(*by_rank));
	uint32_t *cnt = calloc(g_n + 1, sizeof(*cnt));
	uint32_t *span = calloc(g_n + 1, sizeof(*span));
	uint8_t *host = calloc(in->n_sw + 1, 1);
	uint8_t *on = calloc((size_t)g_n * p + 1, 1);
	uint64_t worst = UINT64_MAX, sum;
	uint32_t i, k, g;

	if (!by_rank || !cnt || !span || !host || !on)
		goto out;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST)
			host[in->ports[i].sw] = 1;
	for (i = 0; i < in->n_sw; i++)
		by_rank[sw_rank[i]] = i;
	for (i = 0; i < in->n_sw; i++) {	/* in GUID order */
		if (apart && !host[by_rank[i]])
			continue;
		g = i % g_n;
		cnt[g]++;
		if (host[by_rank[i]])
			span[g] = cnt[g];
	}
	for (i = 0; i < r; i++)
		on[(size_t)(i % p) * g_n + i % g_n] = 1;
	worst = 0;
	for (k = 0; k < p; k++) {
		sum = 0;
		for (g = 0; g < g_n; g++)
			if (on[(size_t)k * g_n + g])
				sum += blocks((uint64_t)leaves *
					      ((r - 1 - g) / g_n + 1) +
					      span[g]);
		worst = sum > worst ? sum : worst;
	}
out:
	free(by_rank);
	free(cnt);
	free(span);
	free(host);
	free(on);
	return worst;
}

/*
 * Old LIDs with the switches without hosts in a group of their own:
 * some of them has an old LID and all of theirs lie above every old
 * host LID.
 */
static bool old_bare_apart(const struct la_input *in)
{
	uint8_t *host = calloc(in->n_sw + 1, 1);
	uint32_t i, top = 0;
	bool any = false, above = true;

	if (!host)
		return false;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST) {
			host[in->ports[i].sw] = 1;
			if (in->ports[i].old_lid > top)
				top = in->ports[i].old_lid;
		}
	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *q = &in->ports[i];

		if (q->kind != LA_SWITCH || host[q->sw] || !q->old_lid)
			continue;
		any = true;
		above = above && q->old_lid > top;
	}
	free(host);
	return any && above;
}

/*
 * G, the number of groups, given R (see above).  A fresh fabric takes
 * P only where it saves blocks: when the LIDs of all the ranks sharing
 * a spine (every leaf fully populated, and the switches) fill fewer
 * 64-LID blocks together than in one group per rank; otherwise one
 * group per rank keeps what one of several parallel links carries
 * within its own blocks.
 *
 * LMC 0: the switches without hosts (spines, directors) are spread
 * over the groups like the leaf switches, unless a group of their own
 * after the others (w->bare_apart, bare_switches(); G chosen again
 * from P and R, counting only the hosts and the leaf switches) gives
 * the worst spine fewer blocks per leaf (lmc0_cost()): no spine's
 * failure reroutes them, so in the rank groups they only take room
 * (topogen fattree3 6 12 6 12 12: 108 director switches in 12 rank
 * groups of 3 blocks, 6 a director; apart, 6 groups of 5 blocks).
 * Where that saves nothing the layout stays as it was (a group of
 * their own would only add blocks to every LFT).  With old host LIDs
 * G is the one they show, and the switches go apart if that saves
 * blocks for it or if their old LIDs are apart (old_bare_apart(): a
 * tie, as where the leaves come first in GUID order and a resweep
 * keeps G = P; apart never costs more for the same G).
 */
static uint32_t n_groups(struct la_work *w, const uint32_t *sw_rank,
			 uint32_t r)
{
	const struct la_input *in = w->in;
	uint32_t leaves = 0, p = topo_period(in, w->keep_period, &leaves);
	uint32_t old, per, g0, g1;
	uint64_t hw = 1u << in->lmc, sw = in->sp0_lmc ? hw : 1;
	uint64_t one, shared, c0, c1, cr;

	w->bare_apart = false;
	if (!p || r <= 1)
		return r;
	old = old_period(in);
	if (in->lmc)
		return old == UINT32_MAX ? la_lmc_groups(in, r, p, leaves) :
			la_lmc_keep_old(in, r, p, leaves, old);
	if (old != UINT32_MAX) {
		g0 = old >= p && old < r ? old : r;
	} else if (p >= r) {
		g0 = r;
	} else {
		per = (r + p - 1) / p;	/* ranks sharing a spine */
		one = blocks(leaves * hw + (in->n_sw + r - 1) / r * sw);
		shared = blocks(leaves * per * hw +
				(in->n_sw + p - 1) / p * sw);
		g0 = shared < per * one ? p : r;
	}
	c0 = lmc0_cost(w, sw_rank, g0, r, p, leaves, false);
	g1 = g0;
	c1 = lmc0_cost(w, sw_rank, g0, r, p, leaves, true);
	if (old == UINT32_MAX && p < r) {	/* a fresh choice of G */
		c1 = lmc0_cost(w, sw_rank, p, r, p, leaves, true);
		cr = lmc0_cost(w, sw_rank, r, r, p, leaves, true);
		g1 = c1 < cr ? p : r;
		c1 = c1 < cr ? c1 : cr;
	}
	w->bare_apart = c1 < c0 ||
			(old != UINT32_MAX && old_bare_apart(in));
	return w->bare_apart ? g1 : g0;
}

/*
 * With LMC > 0 on a fat tree (a period), the switches without hosts
 * (spines, directors) get a group of their own after the others: their
 * LIDs are reached over fixed links, no spine's failure reroutes them,
 * so they would only fill the blocks of the rank groups.  With LMC 0
 * where n_groups() found that saves blocks (w->bare_apart).  Never for
 * the chunks (lid_chunks.c places the spines).  NULL: none.
 */
static uint8_t *bare_switches(const struct la_work *w, uint32_t r)
{
	const struct la_input *in = w->in;
	uint32_t leaves = 0, i;
	uint8_t *bare;

	if ((!in->lmc && !w->bare_apart) || r <= 1 ||
	    !topo_period(in, w->keep_period, &leaves))
		return NULL;
	bare = malloc(in->n_sw + 1);
	if (!bare)
		return NULL;	/* no switch group: only more blocks */
	memset(bare, 1, in->n_sw + 1);
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST)
			bare[in->ports[i].sw] = 0;
	return bare;
}

/* chunk groups (lid_chunks.h): every port's group is its chunk */
static void assign_chunks(struct la_work *w, const uint32_t *sw_rank,
			  const struct la_chunks *c)
{
	uint32_t i;

	w->n_groups = la_chunk_groups(c);
	w->rank_groups = c->p;
	for (i = 0; i < w->in->n_ports; i++) {
		struct la_port *p = &w->in->ports[i];

		p->group = p->kind == LA_LOOSE ? LA_NO_GROUP :
			   la_chunk_group(c, p);
		p->rank = p->kind == LA_HOST ? p->sw_port - 1u :
			  p->kind == LA_SWITCH ? sw_rank[p->sw] : 0;
	}
}

/*
 * With LMC where 2^LMC does not divide P, the spine sets' groups
 * (ta_spine_sets.h) if they save blocks: w->sets.  0, or -ENOMEM.
 */
static int spine_sets(struct la_work *w, uint32_t r)
{
	uint32_t leaves = 0, p;

	if (!w->in->lmc || r <= 1 || w->no_sets)
		return 0;
	p = topo_period(w->in, w->keep_period, &leaves);
	if (!p)
		return 0;
	return la_lmc_sets(w->in, r, p, leaves, &w->sets, w->force_sets) < 0 ?
	       -ENOMEM : 0;
}

bool la_sets_may_apply(const struct la_input *in)
{
	uint32_t leaves = 0, p;

	if (!in->lmc)
		return false;
	p = topo_period(in, false, &leaves);
	return p != 0;
}

bool la_period_lost(const struct la_input *in)
{
	uint32_t leaves = 0, i;

	if (topo_period(in, false, &leaves) ||
	    !topo_period(in, true, &leaves))
		return false;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST && in->ports[i].old_lid)
			return true;
	return false;
}

/*
 * Groups from the spine sets: a host's is its rank's set, a leaf
 * switch's the one its LID was given (leaves counted in GUID order),
 * the other switches after all (bare).  Frees bare.
 */
static int set_groups(struct la_work *w, const uint32_t *sw_rank,
		      uint8_t *bare)
{
	struct la_input *in = w->in;
	uint32_t *by_rank = malloc((in->n_sw + 1) * sizeof(*by_rank));
	uint32_t *leaf_of = malloc((in->n_sw + 1) * sizeof(*leaf_of));
	uint32_t i, n = 0;
	int ret = 0;

	if (!by_rank || !leaf_of) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < in->n_sw; i++)
		by_rank[sw_rank[i]] = i;
	for (i = 0; i < in->n_sw; i++)		/* leaves in GUID order */
		leaf_of[by_rank[i]] = bare[by_rank[i]] ? ~0u : n++;
	for (i = 0; i < in->n_ports; i++) {
		struct la_port *p = &in->ports[i];
		uint32_t j;

		p->group = LA_NO_GROUP;
		p->rank = 0;
		if (p->kind == LA_HOST) {
			p->rank = p->sw_port - 1u;
			p->group = ta_ss_rank_group(&w->sets, p->rank);
		} else if (p->kind == LA_SWITCH) {
			p->rank = sw_rank[p->sw];
			j = leaf_of[p->sw];
			p->group = j < w->sets.leaves ?
				   w->sets.leaf_group[j] : w->rank_groups;
		}
	}
out:
	free(by_rank);
	free(leaf_of);
	free(bare);
	return ret;
}

/*
 * Group-major (a Dragonfly+, lid_dfly.h): group g holds the hosts of
 * Dragonfly+ group g, rank by rank (port-major inside the group), then
 * its switches by GUID; forced switches of no group (cores) take one
 * group after the others.  Ranks as on every fabric: the routing core's
 * spreads do not change.
 */
static void assign_dfly(struct la_work *w, const uint32_t *sw_rank)
{
	const struct la_dfly *d = &w->dfly;
	uint32_t i;

	w->n_groups = d->n_groups + (d->extra ? 1u : 0u);
	w->rank_groups = w->n_groups;
	w->pack = true;
	for (i = 0; i < w->in->n_ports; i++) {
		struct la_port *p = &w->in->ports[i];
		uint32_t g = p->kind == LA_LOOSE ? LA_NO_GROUP :
			     d->group[p->sw];

		p->group = p->kind == LA_LOOSE ? LA_NO_GROUP :
			   g == UINT32_MAX ? d->n_groups : g;
		p->rank = p->kind == LA_HOST ? p->sw_port - 1u :
			  p->kind == LA_SWITCH ? sw_rank[p->sw] : 0;
	}
}

static int assign_groups(struct la_work *w, const uint32_t *sw_rank,
			 struct la_chunks *c)
{
	struct la_input *in = w->in;
	uint32_t i, r = 0, leaves = 0;
	bool any_sw = false;
	uint8_t *bare;

	if (w->dfly.found) {
		assign_dfly(w, sw_rank);
		return 0;
	}
	for (i = 0; i < in->n_ports; i++) {
		if (in->ports[i].kind == LA_HOST && in->ports[i].sw_port > r)
			r = in->ports[i].sw_port;
		if (in->ports[i].kind == LA_SWITCH)
			any_sw = true;
	}
	if (la_chunks_choose(in, r, topo_period(in, w->keep_period, &leaves),
			     sw_rank, c))
		return -ENOMEM;
	if (c->p) {		/* LMC 0 only: no spine sets then */
		assign_chunks(w, sw_rank, c);
		return 0;
	}
	if (spine_sets(w, r) < 0)
		return -ENOMEM;
	w->n_groups = w->sets.n_class ? w->sets.n_groups :
		      r ? n_groups(w, sw_rank, r) : any_sw ? 1 : 0;
	w->rank_groups = w->n_groups;
	bare = bare_switches(w, r);
	if (bare)
		w->n_groups++;
	if (bare && w->sets.n_class)
		return set_groups(w, sw_rank, bare);
	for (i = 0; i < in->n_ports; i++) {
		struct la_port *p = &in->ports[i];

		p->group = LA_NO_GROUP;
		p->rank = 0;
		if (p->kind == LA_HOST) {
			p->rank = p->sw_port - 1u;
			p->group = p->rank % w->rank_groups;
		} else if (p->kind == LA_SWITCH) {
			p->rank = sw_rank[p->sw];
			p->group = bare && bare[p->sw] ? w->rank_groups :
				   p->rank % w->rank_groups;
		}
	}
	free(bare);
	return 0;
}

/*
 * Room for absent hosts: on a fat tree (a period, see above) a group's
 * range is sized for its ranks on every leaf (switch with hosts), so
 * hosts absent at bring-up find their place in it when they arrive,
 * whichever were present; on a Dragonfly+ (group-major) for R ranks
 * on every leaf of the group.  Elsewhere for the hosts present.
 */
static void size_rooms(struct la_work *w, const struct la_chunks *c)
{
	uint32_t leaves = 0, r = 0, g, i;

	if (c->p) {
		for (g = 0; g < w->n_groups; g++) {
			uint32_t full = la_chunk_room(c, g);

			w->room[g] = full > w->n_hosts[g] ? full :
							    w->n_hosts[g];
		}
		return;
	}

	for (i = 0; i < w->in->n_ports; i++)
		if (w->in->ports[i].kind == LA_HOST &&
		    w->in->ports[i].sw_port > r)
			r = w->in->ports[i].sw_port;
	if (w->dfly.found) {	/* every leaf of the group fully populated */
		for (g = 0; g < w->n_groups; g++) {
			uint64_t full = g < w->dfly.n_groups ?
				(uint64_t)w->dfly.leaves_in[g] * r : 0;

			w->room[g] = full > w->n_hosts[g] ? (uint32_t)full :
							    w->n_hosts[g];
		}
		return;
	}
	if (!topo_period(w->in, w->keep_period, &leaves))
		leaves = 0;
	for (g = 0; g < w->n_groups; g++) {
		uint32_t ranks = g < r && g < w->rank_groups ?
				 (r - 1 - g) / w->rank_groups + 1 : 0;
		uint64_t full;

		if (w->sets.n_class)	/* a set's ranks; none: leaf LIDs */
			ranks = g < w->rank_groups ?
				ta_ss_group_ranks(&w->sets, g) : 0;
		full = (uint64_t)leaves * ranks;

		w->room[g] = full > w->n_hosts[g] ? (uint32_t)full :
						    w->n_hosts[g];
	}
}

/*
 * A Dragonfly+ (lid_dfly.h), else, with layout group-major, a dragonfly
 * (lid_df.h); not found:
 * the Dragonfly+ reason, or the dragonfly's where the Dragonfly+ test
 * failed for leaves cabled together.  0 or -ENOMEM.
 */
static int detect_groups(struct la_work *w)
{
	static const char leaves_cabled[] =
		"not a Dragonfly+: switches with hosts are cabled together";
	struct la_dfly df;
	int ret = la_dfly_detect(w->in, &w->dfly);

	/* a classic dragonfly only when asked: its recognition does not
	 * survive several router failures, and an SM that takes over a
	 * fabric it does not recognise would renumber it */
	if (ret || w->dfly.found || w->in->layout != LA_LAYOUT_GROUP_MAJOR)
		return ret;
	ret = la_df_detect(w->in, &df);
	if (ret)
		return ret;
	if (df.found) {
		la_dfly_free(&w->dfly);
		w->dfly = df;
	} else if (w->dfly.why && !strncmp(w->dfly.why, leaves_cabled,
					   sizeof(leaves_cabled) - 1)) {
		w->dfly.why = df.why;
	}
	return 0;
}

int la_make_groups(struct la_work *w)
{
	struct la_input *in = w->in;
	uint32_t n = in->n_ports, i, g;
	uint32_t *sw_rank = malloc((in->n_sw + 1) * sizeof(*sw_rank));
	struct la_chunks chunks = { 0 };
	int ret;

	if (!sw_rank)
		return -ENOMEM;
	ret = w->no_dfly ? 0 : detect_groups(w);
	if (!ret)
		ret = switch_ranks(w, sw_rank);
	if (!ret)
		ret = assign_groups(w, sw_rank, &chunks);
	free(sw_rank);
	if (ret) {
		la_chunks_free(&chunks);
		return ret;
	}
	w->host_width = (uint8_t)(1u << in->lmc);
	w->sw_width = in->sp0_lmc ? w->host_width : 1;

	w->order = malloc((n + 1) * sizeof(*w->order));
	w->first = calloc(w->n_groups + 2, sizeof(*w->first));
	w->n_hosts = calloc(w->n_groups + 1, sizeof(*w->n_hosts));
	w->room = calloc(w->n_groups + 1, sizeof(*w->room));
	if (!w->order || !w->first || !w->n_hosts || !w->room) {
		la_chunks_free(&chunks);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		w->order[i] = i;
	sort_work = w;
	qsort(w->order, n, sizeof(*w->order), cmp_member);
	w->n_loose = 0;
	for (i = 0; i < n; i++) {
		const struct la_port *p = &in->ports[w->order[i]];

		if (p->group == LA_NO_GROUP) {
			w->n_loose++;
			continue;
		}
		w->first[p->group + 1]++;
		if (p->kind == LA_HOST)
			w->n_hosts[p->group]++;
	}
	for (g = 0; g < w->n_groups; g++)
		w->first[g + 1] += w->first[g];
	size_rooms(w, &chunks);
	la_chunks_free(&chunks);
	return 0;
}
