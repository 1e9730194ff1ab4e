// SPDX-License-Identifier: MIT
/*
 * Routes over several layers (option vls, ta_layers.h; ta_job.h,
 * route_layers()): after the one-layer routing, on fabrics that are
 * not tree-like, every destination's in-tree is grown again by least
 * cost with a switch joining through a neighbour wherever some layer
 * allows the whole path (struct ta_intree, turn_layers), then routed
 * again under the others' loads as the one-layer routing is.  The
 * layered routes are kept only where neither the busiest channel (under
 * the routing's traffic) nor permutation bandwidth is more than SLACK
 * worse than with the one-layer routes and the product of the two
 * throughputs is no lower.  Where the routes over N layers are not
 * kept, those over N - 1, ..., 2 layers are tried in turn, each exactly
 * as option vls of that many layers routes them (the first n layers'
 * turns of the N layers' decisions are the n layers' decisions), so
 * vls N ends on the routes of vls N - 1 where its own are not kept;
 * where none is kept, every path stays on layer 0.
 *
 * More layers let more routes take the fewest hops, and where a few
 * links join whole groups of switches (a dragonfly's one global link
 * between two groups) those routes gather the permutations that send
 * the hosts of one group to another (the shifts of ta_perm.h, hosts in
 * name order) on that link.  So where the routes over n layers miss
 * the permutation margin, the n layers are routed again with each
 * destination also kept apart from the routes of the destinations at
 * the switches next to its own (NEAR_DIV, struct ta_choice's near);
 * those are taken where they are within the margins, else n - 1
 * layers are tried (plain, then spread).  Where the plain routes are
 * kept nothing changes.
 *
 * A resweep by minimal change after a routing that took layers carries
 * them instead (carried()): the same layers and turns, the
 * destinations whose routes still hold kept whole, the others routed
 * again over the layers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_job.h"
#include "ta_layers.h"
#include "ta_minor_pass.h"
#include "ta_perm.h"
#include "ta_turnadd.h"

#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u

/*
 * The layered routes are taken where neither metric is more than 3 %
 * worse than on one layer and the product of the two throughputs (the
 * busiest channel's inverse, permutation bandwidth) is no lower: on
 * dragonflies the layers lift uniform throughput by 40-60 % at 1-3 %
 * less permutation bandwidth (plugin/DESIGN.md, "Layers").
 */
#define SLACK 0.03

/*
 * Neighbour spreading: in a channel's cost, a route of a destination at
 * a neighbouring switch counts as 1/NEAR_DIV of one of the destination's
 * own switch (struct ta_choice's same); tried on dragonfly 10 5 5 51
 * and 12 6 6 73 (results/layers.md)
 */
#define NEAR_DIV 2u

struct layer_run {
	struct route_job *j;
	struct ta_result *res;
	struct ta_intree t;
	uint8_t *turn_layers;	/* per turn slot: the layers tried */
	uint8_t *decided;	/* per turn slot: all vls layers' decisions */
	double *load;		/* per channel: the layered routes' flow */
	double *tmp;		/* per channel, zero between uses */
	uint32_t *same;		/* struct ta_choice's same */
	uint8_t *col;		/* one destination's column */
	uint8_t *used;		/* destinations routed by layered trees */
	uint8_t *alone;		/* destinations whose latest pass left them
				 * on layer 0 alone */
	uint32_t fallback;	/* how many alone[] holds */
	/* neighbour spreading (NEAR_DIV), where spread is set: */
	int spread;
	uint32_t *near;		/* per channel, struct ta_choice's near */
	uint32_t *first;	/* per switch: its first by_switch index */
	uint32_t *chan_of;	/* [sw * 256 + port]: channel out, or
				 * UINT32_MAX (no inter-switch link) */
	uint32_t *nb_seen;	/* per switch: stamp of the last count */
	uint32_t *dl;		/* destinations counted (n_dest) */
	/* a resweep over the previous routing's layers (carried()): */
	int carried;
	uint8_t *mask;		/* per switch: the layers its path may use */
	uint8_t *stay;		/* per destination: its routes stay */
	uint32_t unmoved;	/* destinations whose routes stayed whole */
};

static size_t at(const struct ta_result *res, uint32_t s, uint32_t d)
{
	return (size_t)s * res->n_dest + d;
}

/* t: destination d's tree as port (a table like res->port) routes it */
static void tree_of(struct layer_run *r, const uint8_t *port, uint32_t d)
{
	const struct ta_graph *g = r->j->g;
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		r->col[s] = port[at(r->res, s, d)];
	ta_minor_tree_of(&r->t, g, g->dest[d].sw, r->col);
}

/* writes t (layered, complete) as d's routes and layers */
static void write_layered(struct layer_run *r, uint32_t d)
{
	const struct ta_graph *g = r->j->g;
	const uint8_t *prev = r->j->prior ? r->j->prior->layer : NULL;
	struct ta_result *res = r->res;
	uint32_t s;

	for (s = 0; s < g->n_sw; s++) {
		uint32_t e = r->t.out_end[s];
		size_t k = at(res, s, d);

		if (r->t.dist[s] == TA_UNREACHED) {
			res->layer[k] = 0;
			continue;
		}
		res->port[k] = e == TA_OUT_DELIVER ? g->dest[d].port :
						     g->sw[s].ends[e].port;
		res->layer[k] = ta_layer_pick(r->t.layer_mask[s],
					      prev ? prev[k] : UINT8_MAX);
	}
}

/* writes t (grown on layer 0 alone) as d's routes, layer 0 */
static void write_plain(struct layer_run *r, uint32_t d)
{
	const struct ta_graph *g = r->j->g;
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		r->t.layer_mask[s] = 1;
	write_layered(r, d);
}

/* d's layer-0 routes back (port0: the one-layer routing), layer 0 */
static void write_layer0(struct layer_run *r, const uint8_t *port0,
			 uint32_t d)
{
	struct ta_result *res = r->res;
	uint32_t s;

	for (s = 0; s < res->n_sw; s++) {
		res->port[at(res, s, d)] = port0[at(res, s, d)];
		res->layer[at(res, s, d)] = 0;
	}
	tree_of(r, port0, d);
}

static void choice_for(struct layer_run *r, uint32_t d, struct ta_choice *ch)
{
	struct route_job *j = r->j;

	memset(ch, 0, sizeof(*ch));
	ch->spread = j->spread[d];
	ch->sets_2level = j->sets_2level;
	ch->main_sw = j->bal_main;
	ch->load = r->load;
	ch->same = r->same;
	if (r->spread) {
		ch->near = r->near;
		ch->near_div = NEAR_DIV;
	}
	if (j->prior && j->prior->home_port) {
		ch->home = j->prior->home_port + d;
		ch->home_stride = j->g->n_dest;
		if (j->prior->release && j->prior->release[d])
			ch->home_bias = RELEASE_BIAS;
	}
}

/*
 * d routed over the layers.  Where a switch strands: again with the
 * most layers first among the ways within the tolerance, then on
 * layer 0 alone under the same loads, last its one-layer routes (they
 * reach every switch: the escape rule).
 */
static void route_one(struct layer_run *r, const uint8_t *port0, uint32_t d)
{
	struct route_job *j = r->j;
	uint32_t sw = j->g->dest[d].sw, need = j->piece_size[j->esc.piece[sw]];
	struct ta_choice ch;
	uint32_t got;

	choice_for(r, d, &ch);
	got = ta_intree_weighted(&r->t, j->cdg.state, sw, &ch, j->bal_unit);
	if (got < need) {
		r->t.layers_first = 1;
		got = ta_intree_weighted(&r->t, j->cdg.state, sw, &ch,
					 j->bal_unit);
		r->t.layers_first = 0;
	}
	r->used[d] = j->g->dest[d].is_host;
	if (got >= need) {
		write_layered(r, d);
		r->fallback -= r->alone[d];
		r->alone[d] = 0;
		return;
	}
	r->fallback += !r->alone[d];
	r->alone[d] = 1;
	r->t.turn_layers = NULL;	/* layer 0: the one-layer rule */
	got = ta_intree_weighted(&r->t, j->cdg.state, sw, &ch, j->bal_unit);
	r->t.turn_layers = r->turn_layers;
	if (got >= need) {
		write_plain(r, d);
		return;
	}
	write_layer0(r, port0, d);
	r->used[d] = 0;
}

/* the same rows of same[] as bal_second_pass() keeps: switch sw's */
static void count_switch(struct layer_run *r, uint32_t k0, uint32_t sw)
{
	const struct ta_graph *g = r->j->g;
	uint32_t k;

	memset(r->same, 0, 2 * (size_t)g->n_links * sizeof(*r->same));
	for (k = k0; k < g->n_dest && g->dest[r->j->by_switch[k]].sw == sw;
	     k++) {
		uint32_t d = r->j->by_switch[k];

		if (!r->used[d])
			continue;
		tree_of(r, r->res->port, d);
		count_same(g, &r->t, r->same);
	}
}

/*
 * near[] for the destinations of switch sw: per channel, the routes of
 * the destinations routed so far (used[]) at the switches next to sw
 */
static void count_near(struct layer_run *r, uint32_t sw)
{
	const struct ta_graph *g = r->j->g;
	const uint8_t *port = r->res->port;
	uint32_t e, k, n = 0, s;

	memset(r->near, 0, 2 * (size_t)g->n_links * sizeof(*r->near));
	for (e = 0; e < g->sw[sw].n_ends; e++) {
		uint32_t nb = g->sw[sw].ends[e].peer;

		if (r->nb_seen[nb] == sw + 1)
			continue;	/* parallel links */
		r->nb_seen[nb] = sw + 1;
		for (k = r->first[nb]; k < g->n_dest &&
		     g->dest[r->j->by_switch[k]].sw == nb; k++)
			if (r->used[r->j->by_switch[k]])
				r->dl[n++] = r->j->by_switch[k];
	}
	for (s = 0; n && s < g->n_sw; s++) {
		const uint8_t *row = port + (size_t)s * g->n_dest;
		const uint32_t *chan = r->chan_of + (size_t)s * 256;

		for (k = 0; k < n; k++) {
			uint32_t c = chan[row[r->dl[k]]];

			if (c != UINT32_MAX && g->dest[r->dl[k]].sw != s)
				r->near[c]++;
		}
	}
}

/*
 * A resweep over the previous routing's layers: 1 if d's previous
 * routes (struct ta_prior's last_port, the routes the layers were
 * given to; home_port where it is NULL) still reach it from every
 * switch of its piece and every path's previous layer still allows
 * it, unless the prior releases d; d's routes then stay as they were,
 * with their layers (t holds its tree).  The layers a path may use
 * follow the tree from d's switch out: the next switch's and the turn
 * into its output.
 */
static int unmoved(struct layer_run *r, uint32_t d)
{
	struct route_job *j = r->j;
	const struct ta_graph *g = j->g;
	const struct ta_prior *pr = j->prior;
	const uint8_t *last = pr->last_port ? pr->last_port : pr->home_port;
	uint32_t i, dsw = g->dest[d].sw;

	if (pr->release && pr->release[d])
		return 0;	/* moved off the busiest channels */
	tree_of(r, last, d);
	if (r->t.n_order < j->piece_size[j->esc.piece[dsw]])
		return 0;
	r->mask[dsw] = r->t.all_layers;
	for (i = 1; i < r->t.n_order; i++) {
		uint32_t u = r->t.order[i], e = r->t.out_end[u];
		uint32_t v = g->sw[u].ends[e].peer;
		uint8_t l = pr->layer[at(r->res, u, d)], m = r->mask[v];

		if (v != dsw)
			m &= r->turn_layers[ta_turn(g, v,
						    ta_graph_far_end(g, u, e),
						    r->t.out_end[v])];
		if (l >= 8 || !(m >> l & 1u))
			return 0;
		r->mask[u] = m;
	}
	for (i = 0; i < r->t.n_order; i++) {
		size_t k = at(r->res, r->t.order[i], d);

		r->res->port[k] = last[k];
		r->res->layer[k] = i ? pr->layer[k] : 0;
	}
	return 1;
}

/*
 * first pass: every destination, loads of those routed before; over
 * carried layers the destinations whose routes stay first, so those
 * routed again see all of their load
 */
static void first_pass(struct layer_run *r, const uint8_t *port0)
{
	struct route_job *j = r->j;
	const struct ta_graph *g = j->g;
	uint32_t k, k0, same_sw = UINT32_MAX;

	r->unmoved = 0;
	memset(r->stay, 0, g->n_dest);
	for (k = 0; r->carried && k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k];

		if (!unmoved(r, d))
			continue;
		r->stay[d] = 1;
		r->unmoved++;
		r->used[d] = g->dest[d].is_host;
		if (g->dest[d].is_host)
			ta_flow_add(&j->bal_flow, g, &r->t, j->group[d], NULL,
				    r->load);
	}
	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k], sw = g->dest[d].sw;

		if (r->stay[d])
			continue;
		if (sw != same_sw) {
			/* the destinations of sw that stay count as routed */
			for (k0 = k;
			     k0 && g->dest[j->by_switch[k0 - 1]].sw == sw; k0--)
				;
			count_switch(r, k0, sw);
			if (r->spread)
				count_near(r, sw);
		}
		same_sw = sw;
		route_one(r, port0, d);
		if (g->dest[d].is_host)
			ta_flow_add(&j->bal_flow, g, &r->t, j->group[d], NULL,
				    r->load);
		count_same(g, &r->t, r->same);
	}
}

/* rip-up and reroute (bal_second_pass()'s, over the layers); moved:
 * only the destinations not kept whole (r->stay) */
static void again_pass(struct layer_run *r, const uint8_t *port0, int moved)
{
	struct route_job *j = r->j;
	const struct ta_graph *g = j->g;
	uint32_t k, same_sw = UINT32_MAX;

	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k], sw = g->dest[d].sw;

		if (!r->used[d] || (moved && r->stay[d]))
			continue;
		if (sw != same_sw) {
			count_switch(r, k, sw);
			if (r->spread)
				count_near(r, sw);
		}
		same_sw = sw;
		tree_of(r, r->res->port, d);
		uncount_same(g, &r->t, r->same);
		ta_minor_take_out(&j->bal_flow, g, &r->t, j->group[d], r->tmp,
				  r->load);
		route_one(r, port0, d);
		ta_flow_add(&j->bal_flow, g, &r->t, j->group[d], NULL,
			    r->load);
		count_same(g, &r->t, r->same);
	}
}

/* the busiest channel of port's routes under the routing's traffic */
static double busiest(struct layer_run *r, const uint8_t *port)
{
	struct route_job *j = r->j;
	const struct ta_graph *g = j->g;
	double top = 0;
	uint32_t d, c;

	memset(r->tmp, 0, 2 * (size_t)g->n_links * sizeof(*r->tmp));
	for (d = 0; d < g->n_dest; d++) {
		if (!g->dest[d].is_host)
			continue;
		tree_of(r, port, d);
		ta_flow_add(&j->bal_flow, g, &r->t, j->group[d], NULL, r->tmp);
	}
	for (c = 0; c < 2 * g->n_links; c++) {
		if (r->tmp[c] > top)
			top = r->tmp[c];
		r->tmp[c] = 0;
	}
	return top;
}

/* the turn weights: the routing's estimate, or made here if skipped */
static const double *weights(struct layer_run *r, double **own)
{
	struct route_job *j = r->j;

	*own = NULL;
	if (r->res->stats.traffic_estimated)
		return j->turn_w;
	*own = calloc((size_t)j->g->n_turn_slots + 1, sizeof(**own));
	if (!*own || ta_turn_traffic(j->g, j->tr, j->group, j->spread,
				     j->by_switch, *own))
		return NULL;
	return *own;
}

static void run_free(struct layer_run *r)
{
	free(r->t.layer_mask);
	ta_intree_free(&r->t);
	free(r->turn_layers);
	free(r->decided);
	free(r->load);
	free(r->tmp);
	free(r->same);
	free(r->col);
	free(r->used);
	free(r->alone);
	free(r->near);
	free(r->first);
	free(r->chan_of);
	free(r->nb_seen);
	free(r->dl);
	free(r->mask);
	free(r->stay);
}

/* what neighbour spreading needs (once, at its first use) */
static int spread_init(struct layer_run *r)
{
	const struct ta_graph *g = r->j->g;
	uint32_t s, e, k;

	if (r->near)
		return 0;
	r->near = calloc(2 * (size_t)g->n_links + 1, sizeof(*r->near));
	r->first = malloc((g->n_sw + 1) * sizeof(*r->first));
	r->chan_of = malloc(((size_t)g->n_sw * 256 + 1) * sizeof(*r->chan_of));
	r->nb_seen = calloc(g->n_sw + 1, sizeof(*r->nb_seen));
	r->dl = malloc((g->n_dest + 1) * sizeof(*r->dl));
	if (!r->near || !r->first || !r->chan_of || !r->nb_seen || !r->dl)
		return -1;
	for (s = 0; s < g->n_sw; s++)
		r->first[s] = g->n_dest;
	for (k = g->n_dest; k-- > 0;)
		r->first[g->dest[r->j->by_switch[k]].sw] = k;
	memset(r->chan_of, 0xff, (size_t)g->n_sw * 256 * sizeof(*r->chan_of));
	for (s = 0; s < g->n_sw; s++)
		for (e = 0; e < g->sw[s].n_ends; e++)
			r->chan_of[(size_t)s * 256 + g->sw[s].ends[e].port] =
				g->sw[s].ends[e].out_chan;
	return 0;
}

static int run_init(struct layer_run *r, struct route_job *j,
		    struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	size_t n_ch = 2 * (size_t)g->n_links + 1;

	memset(r, 0, sizeof(*r));
	r->j = j;
	r->res = res;
	if (ta_intree_init(&r->t, g))
		return -1;
	r->t.layer_mask = malloc(g->n_sw + 1);
	r->turn_layers = malloc((size_t)g->n_turn_slots + 1);
	r->decided = malloc((size_t)g->n_turn_slots + 1);
	r->load = calloc(n_ch, sizeof(*r->load));
	r->tmp = calloc(n_ch, sizeof(*r->tmp));
	r->same = calloc(n_ch, sizeof(*r->same));
	r->col = malloc(g->n_sw + 1);
	r->used = calloc(g->n_dest + 1, 1);
	r->alone = calloc(g->n_dest + 1, 1);
	r->mask = malloc(g->n_sw + 1);
	r->stay = calloc(g->n_dest + 1, 1);
	if (!r->t.layer_mask || !r->turn_layers || !r->decided || !r->load ||
	    !r->tmp || !r->same || !r->col || !r->used || !r->alone ||
	    !r->mask || !r->stay)
		return -1;
	r->t.turn_layers = r->turn_layers;
	return 0;
}

/* a try's busiest channel and permutation bandwidth */
struct layer_try {
	double b, p;
};

/* 1 if t is within the margins of the one-layer routes' one */
static int within(const struct layer_try *t, const struct layer_try *one)
{
	return t->b <= one->b * (1 + SLACK) && t->p >= one->p * (1 - SLACK) &&
	       one->b * t->p >= t->b * one->p * (1 - 1e-9);
}

/*
 * Routes over the first n layers into res (from a clean state: the
 * same routes as option vls n gives), with neighbour spreading where
 * r->spread is set; their metrics into *t.  0, or -1 when out of
 * memory.
 */
static int try_layers(struct layer_run *r, const uint8_t *port0, unsigned n,
		      struct layer_try *t)
{
	struct route_job *j = r->j;
	struct ta_result *res = r->res;
	const struct ta_graph *g = j->g;
	size_t n_ch = 2 * (size_t)g->n_links + 1, n_paths;
	uint8_t mask = (uint8_t)((1u << n) - 1);
	unsigned pass;
	uint32_t k;

	if (r->spread && spread_init(r))
		return -1;
	n_paths = (size_t)g->n_sw * g->n_dest;
	for (k = 0; k < g->n_turn_slots; k++)
		r->turn_layers[k] = r->decided[k] & mask;
	r->t.all_layers = mask;
	memset(r->load, 0, n_ch * sizeof(*r->load));
	memset(r->used, 0, g->n_dest);
	memset(r->alone, 0, g->n_dest);
	r->fallback = 0;
	memcpy(res->port, port0, n_paths);
	memset(res->layer, 0, n_paths);
	first_pass(r, port0);
	if (r->carried) {
		again_pass(r, port0, 1);
		ta_logf(j->log, TA_LOG_INFO,
			"vls %u: a resweep over the previous routing's %u layers and their turns: %u destinations keep their routes and layers whole, %u routed again over the layers (%u on layer 0 alone)",
			j->o->vls, n, r->unmoved, g->n_dest - r->unmoved,
			r->fallback);
		t->b = t->p = 0;	/* not compared */
		return 0;
	}
	for (pass = 0; !(j->prior && j->prior->home_port) && pass < BAL_PASSES;
	     pass++)
		again_pass(r, port0, 0);
	t->b = busiest(r, res->port);
	t->p = ta_perm_bandwidth(g, res->port, PERM_RANDOM, PERM_SHIFTS, 1);
	return t->p < 0 ? -1 : 0;
}

static void log_try(struct layer_run *r, unsigned n, const struct layer_try *t,
		    const struct layer_try *one, const char *verdict)
{
	ta_logf(r->j->log, TA_LOG_INFO,
		"vls %u: routes over %u layers%s: busiest channel %.1f against %.1f on one layer, permutation bandwidth %.4f against %.4f, %u destinations on layer 0 alone (a switch stranded over the layers): %s",
		r->j->o->vls, n,
		r->spread ? ", spread from the neighbouring switches' destinations" : "",
		t->b, one->b, t->p, one->p, r->fallback, verdict);
}

/*
 * The routes over n layers: 1 if kept (in res), 0 if not, -1 when out
 * of memory.  Plain first; where they miss the permutation margin, again
 * with neighbour spreading, kept where within the margins.
 */
static int try_count(struct layer_run *r, const uint8_t *port0, unsigned n,
		     const struct layer_try *one)
{
	struct layer_try plain, spread;
	const char *no = n > 2 ? "fewer layers tried" :
			 "one-layer routes kept, every path on layer 0";
	char why[160];

	r->spread = 0;
	if (try_layers(r, port0, n, &plain))
		return -1;
	if (within(&plain, one)) {
		log_try(r, n, &plain, one, "layered routes taken");
		return 1;
	}
	if (plain.p >= one->p * (1 - SLACK)) {
		snprintf(why, sizeof(why),
			 "not taken (a metric more than 3 %% worse or a lower product), %s",
			 no);
		log_try(r, n, &plain, one, why);
		return 0;
	}
	log_try(r, n, &plain, one,
		"not taken (permutation bandwidth more than 3 % worse), routed again with neighbour spreading");
	r->spread = 1;
	if (try_layers(r, port0, n, &spread))
		return -1;
	if (within(&spread, one)) {
		log_try(r, n, &spread, one, "layered routes taken");
		return 1;
	}
	log_try(r, n, &spread, one, why);
	return 0;
}

/*
 * A resweep by minimal change (every turn decision carried) whose
 * previous routing took layers: its layers above 0 keep exactly the
 * turns they allowed (those of the fabric's remaining parts: still
 * acyclic, checked), none decided anew, and as many layers are taken
 * as it used, so no path changes layer where its route stays and no
 * layer count is tried again.  Returns that count into r->decided, or
 * 0 (a routing that decides its layers).
 */
static unsigned carried(struct layer_run *r)
{
	struct route_job *j = r->j;
	const struct ta_graph *g = j->g;
	const struct ta_prior *pr = j->prior;
	const uint8_t *state0 = r->res->turn_state ? r->res->turn_state :
						     j->cdg.state;
	unsigned n = 0, l;
	uint32_t k;

	if (!pr || !pr->turn_layers || !pr->layer || !pr->home_port ||
	    !j->all_carried)
		return 0;
	for (k = 0; k < g->n_turn_slots; k++) {
		uint8_t above = pr->turn_layers[k] & 0xfe;

		while (above >> n)
			n++;
		r->decided[k] = (uint8_t)((state0[k] == TA_TURN_ALLOWED) |
					  above);
	}
	if (n > j->o->vls)
		n = j->o->vls;
	if (n < 2)
		return 0;
	for (l = 1; l < n; l++)
		if (ta_layers_cyclic(g, r->decided, l))
			return 0;
	r->carried = 1;
	return n;
}

/*
 * Layered routes and layers into res: those over the most layers (vls,
 * then fewer) that do no worse than the one-layer routes port0.
 */
static int route_layered(struct layer_run *r, uint8_t *port0)
{
	struct route_job *j = r->j;
	struct ta_result *res = r->res;
	const struct ta_graph *g = j->g;
	size_t n = (size_t)g->n_sw * g->n_dest;
	double *own = NULL;
	const double *w;
	struct layer_try one;
	unsigned layers = carried(r);
	int keep = 0;

	if (layers) {
		r->spread = 0;
		if (try_layers(r, port0, layers, &one))
			return -1;
		keep = 1;
		goto taken;
	}
	w = weights(r, &own);
	if (!w || ta_layers_decide(g, res->turn_state ? res->turn_state :
				   j->cdg.state, w,
				   j->prior ? j->prior->turn_layers : NULL,
				   j->o->vls, r->decided,
				   &res->stats.cycle_check_visits)) {
		free(own);
		return -1;
	}
	free(own);
	one.b = busiest(r, port0);
	one.p = ta_perm_bandwidth(g, port0, PERM_RANDOM, PERM_SHIFTS, 1);
	if (one.p < 0)
		return -1;
	for (layers = j->o->vls; layers >= 2; layers--) {
		keep = try_count(r, port0, layers, &one);
		if (keep < 0)
			return -1;
		if (keep)
			break;
	}
taken:
	res->stats.layers_used = keep;
	res->stats.layers_spread = keep && r->spread;
	res->stats.layers_taken = keep ? layers : 1;
	res->stats.dests_layer0 = r->fallback;
	if (!r->carried)
		ta_logf(j->log, TA_LOG_INFO,
			keep ? "vls %u: %u layers taken: the most layers whose routes are within 3 %% of the one-layer routes' busiest channel and permutation bandwidth, with no lower product" :
			       "vls %u: %u layer taken: no routes over 2 or more layers within 3 %% of the one-layer routes' busiest channel and permutation bandwidth with no lower product",
			j->o->vls, res->stats.layers_taken);
	if (!keep) {
		memcpy(res->port, port0, n);
		memset(res->layer, 0, n);
	} else {
		/* for the next routing's prior (ta_saved.h) */
		res->turn_layers = r->turn_layers;
		r->turn_layers = NULL;
	}
	return 0;
}

int route_layers(struct route_job *j, struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	size_t n = (size_t)g->n_sw * g->n_dest;
	struct layer_run r;
	uint8_t *port0;
	int err;

	res->layer = calloc(n + 1, 1);
	if (!res->layer)
		return -1;
	res->stats.layers_taken = 1;
	if (!(j->bal_unit > 0) || j->o->mode == TA_MODE_NONE_PROHIBITED) {
		ta_logf(j->log, TA_LOG_INFO,
			"vls %u: every path on layer 0 (%s)", j->o->vls,
			j->o->mode == TA_MODE_NONE_PROHIBITED ?
			"mode no_prohibition" :
			"tree-like fabric: its shortest routes need no more turns");
		return 0;
	}
	port0 = malloc(n + 1);
	if (!port0)
		return -1;
	memcpy(port0, res->port, n);
	err = run_init(&r, j, res) || route_layered(&r, port0) ? -1 : 0;
	if (err)
		memcpy(res->port, port0, n);
	run_free(&r);
	free(port0);
	if (err)
		ta_logf(j->log, TA_LOG_ERROR, "out of memory routing over layers");
	return err;
}
