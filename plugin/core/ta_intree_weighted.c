// SPDX-License-Identifier: MIT
/*
 * The in-tree grown by path cost instead of hop level (ta_intree.h,
 * ta_intree_weighted()): Dijkstra over switches, where a switch may
 * join through a neighbour already in the tree only if the turn into
 * that neighbour's output is allowed.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_intree.h"

/*
 * The layers in which a switch may join through end in_end of switch u
 * (whose output is o): with one layer 1 if the turn is allowed, else 0;
 * with several (t->turn_layers) those of u's path that allow the turn.
 */
static uint8_t join_layers(const struct ta_intree *t, const uint8_t *state,
			   uint32_t u, uint32_t in_end, uint32_t o)
{
	uint32_t k;

	if (o == TA_OUT_DELIVER)
		return t->turn_layers ? t->layer_mask[u] : 1;
	k = ta_turn(t->g, u, in_end, o);
	if (!t->turn_layers)
		return state[k] == TA_TURN_ALLOWED;
	return t->layer_mask[u] & t->turn_layers[k];
}

static unsigned n_layers(uint8_t m)
{
	return (unsigned)__builtin_popcount(m);
}

static int room(struct ta_intree *t)
{
	const struct ta_graph *g = t->g;
	size_t n = (size_t)g->n_sw + 2 * (size_t)g->n_links + 1;

	if (t->heap_cap >= n)
		return 0;
	free(t->wcost);
	free(t->heap);
	free(t->home_walk);
	t->wcost = malloc(2 * (g->n_sw + 1) * sizeof(*t->wcost));
	t->heap = malloc(n * sizeof(*t->heap));
	t->home_walk = malloc((g->n_sw + 1) * sizeof(*t->home_walk));
	t->heap_cap = t->wcost && t->heap && t->home_walk ? n : 0;
	return t->heap_cap ? 0 : -1;
}

static int before(const struct ta_heap_item *a, const struct ta_heap_item *b)
{
	return a->cost < b->cost || (a->cost == b->cost && a->sw < b->sw);
}

static void push(struct ta_intree *t, size_t *n, double cost, uint32_t sw)
{
	struct ta_heap_item *h = t->heap, x = { cost, sw };
	size_t i = (*n)++;

	while (i > 0 && before(&x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static struct ta_heap_item pop(struct ta_intree *t, size_t *n)
{
	struct ta_heap_item *h = t->heap, top = h[0], x = h[--*n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
	return top;
}

/*
 * What a channel costs: one hop, plus (load / unit)^6 / 4 (flat up to
 * the mean load, then steep: the busiest channel is what throughput
 * is), plus 1/8 per destination of this switch routed over it before
 * (struct ta_choice's same: a switch's destinations apart, for the
 * permutations that send a whole switch to a whole switch).  The
 * constants were set on random nets, tori and meshes, judged by both
 * metrics of scripts/lftcheck (results/quality.md).
 */
#define LOAD_SCALE 0.25
#define SAME_COST 0.125

/* same[c] in a channel's cost: near[c] / near_div added where ch->near
 * is set (the choice among the ways within TOL counts same[] alone) */
static uint32_t same_count(const struct ta_choice *ch, uint32_t c)
{
	return ch->same[c] + (ch->near ? ch->near[c] / ch->near_div : 0);
}

static double weight(const struct ta_intree *t, uint32_t s, uint32_t e,
		     const struct ta_choice *ch, double unit)
{
	const struct ta_port_ref *r = &t->g->sw[s].ends[e];
	double x = ch->load[r->out_chan] / unit, x3 = x * x * x, away = 0;

	if (ch->home && !ch->home_fixed) {
		int home = ch->home[(size_t)s * ch->home_stride] == r->port;

		if (home && ch->home_bias <= 0)
			return TA_HOME_WEIGHT;
		away = home ? 0 : ch->home_bias;
	}
	return 1.0 + away + LOAD_SCALE * x3 * x3 +
	       (ch->same ? SAME_COST * same_count(ch, r->out_chan) : 0);
}

/* switch s's home end, TA_NO_END if it has none */
static uint32_t home_end(const struct ta_intree *t, const struct ta_choice *ch,
			 uint32_t s)
{
	uint8_t p = ch->home[(size_t)s * ch->home_stride];

	return p == TA_NO_PORT ? TA_NO_END : ta_graph_end_of_port(t->g, s, p);
}

/*
 * A switch of a destination moved off the busiest channels (ch->avoid)
 * keeps its home end where that way into the tree is within HOME_TOL
 * of the least cost: the destination's routes change where the busy
 * channels need it, no more
 */
#define HOME_TOL 0.2

static void keep_home(const struct ta_intree *t, const uint8_t *state,
		      uint32_t u, const struct ta_choice *ch, double unit,
		      const double *pure, double least, uint32_t *best_e,
		      double *best_c)
{
	const struct ta_graph *g = t->g;
	uint32_t h = home_end(t, ch, u), n;
	double c;

	if (h == TA_NO_END || h == *best_e)
		return;
	n = g->sw[u].ends[h].peer;
	if (t->seen[n] != UINT32_MAX ||
	    !join_layers(t, state, n, ta_graph_far_end(g, u, h),
			 t->out_end[n]))
		return;
	c = pure[n] + weight(t, u, h, ch, unit);
	if (c <= least * (1 + HOME_TOL)) {
		*best_e = h;
		*best_c = c;
	}
}

/*
 * u leaves the heap: among its ways into the tree (neighbours already in
 * it whose output u may turn into), those within TOL of the least cost,
 * and of them the output fewest earlier destinations of this switch
 * took (as the hop-level choice of ta_intree.c does), the cheaper on ties;
 * a destination moved off the busiest channels keeps its home end where
 * it can (keep_home())
 */
#define TOL 0.2

static void settle(struct ta_intree *t, const uint8_t *state, uint32_t u,
		   const struct ta_choice *ch, double unit, double *pure)
{
	const struct ta_graph *g = t->g;
	uint32_t e, best_e = t->out_end[u], best_n = UINT32_MAX;
	double least = pure[u], best_c = pure[u];

	unsigned best_l = 0;

	for (e = 0; ch->same && e < g->sw[u].n_ends; e++) {
		uint32_t n = g->sw[u].ends[e].peer, o = t->out_end[n], cnt;
		uint8_t m;
		unsigned l;
		double c;

		if (t->seen[n] != UINT32_MAX ||
		    !(m = join_layers(t, state, n, ta_graph_far_end(g, u, e), o)))
			continue;
		c = pure[n] + weight(t, u, e, ch, unit);
		if (c > least * (1 + TOL))
			continue;
		cnt = ch->same[g->sw[u].ends[e].out_chan];
		l = n_layers(m);
		if (t->layers_first && l != best_l ? l > best_l :
		    cnt < best_n ||
		    (cnt == best_n && (l > best_l ||
				       (l == best_l && c < best_c)))) {
			best_n = cnt;
			best_l = l;
			best_c = c;
			best_e = e;
		}
	}
	if (ch->home && ch->home_fixed && ch->avoid && !t->turn_layers)
		keep_home(t, state, u, ch, unit, pure, least, &best_e, &best_c);
	t->out_end[u] = best_e;
	pure[u] = best_c;
	t->dist[u] = t->dist[g->sw[u].ends[best_e].peer] + 1;
}

/*
 * Dijkstra from the n_heap switches in the heap (their out_end, dist and
 * pure cost set): a switch leaving the heap settles its output unless
 * it delivers or is fixed (routes kept), then offers every neighbour
 * not yet in the tree and not fixed a way through it, if that neighbour
 * may turn into its output.  Hands seen[] back clean.
 */
static void grow(struct ta_intree *t, const uint8_t *state,
		 const struct ta_choice *ch, double unit, double *pure,
		 const uint8_t *fixed, size_t n_heap)
{
	const struct ta_graph *g = t->g;
	uint32_t s;

	while (n_heap) {
		struct ta_heap_item it = pop(t, &n_heap);
		uint32_t u = it.sw, o, j;

		if (t->seen[u] == UINT32_MAX || it.cost != t->wcost[u])
			continue;	/* done, or a stale entry */
		t->seen[u] = UINT32_MAX;
		t->order[t->n_order++] = u;
		if (t->out_end[u] != TA_OUT_DELIVER && !(fixed && fixed[u]))
			settle(t, state, u, ch, unit, pure);
		o = t->out_end[u];
		if (t->turn_layers && o != TA_OUT_DELIVER) {
			uint32_t n = g->sw[u].ends[o].peer;

			t->layer_mask[u] = join_layers(t, state, n,
						       ta_graph_far_end(g, u, o),
						       t->out_end[n]);
		}
		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;
			uint32_t e = ta_graph_far_end(g, u, j);	/* v's end to u */
			double c;

			if ((fixed && fixed[v]) || t->seen[v] == UINT32_MAX ||
			    !join_layers(t, state, u, j, o))
				continue;
			c = pure[u] + weight(t, v, e, ch, unit);
			if (t->wcost[v] >= 0 && c >= t->wcost[v] * (1 - 1e-12))
				continue;
			t->wcost[v] = c;
			pure[v] = c;
			t->out_end[v] = e;
			push(t, &n_heap, c, v);
		}
	}
	/* seen[] is the stamp array of ta_intree.c: hand it back clean */
	memset(t->seen, 0, g->n_sw * sizeof(*t->seen));
	t->stamp = 0;
	for (s = 0; s < g->n_sw; s++)
		if (t->dist[s] == TA_UNREACHED)
			t->out_end[s] = TA_NO_END;
}

enum { HOME_UNKNOWN, HOME_WALKING, HOME_INTACT, HOME_BROKEN };

/*
 * ch->home_fixed: mark[s] = HOME_INTACT where following home ports from
 * s reaches dest_sw over allowed turns; those switches get their home
 * end, hop count and path cost (pure), nearest first along each walk
 */
static void mark_intact(struct ta_intree *t, const uint8_t *state,
			uint32_t dest_sw, const struct ta_choice *ch,
			double unit, double *pure, uint8_t *mark)
{
	const struct ta_graph *g = t->g;
	uint32_t *walk = t->home_walk, s, n_walk, k;

	memset(mark, HOME_UNKNOWN, g->n_sw);
	mark[dest_sw] = HOME_INTACT;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t u = s;
		uint8_t end = HOME_BROKEN;

		n_walk = 0;
		while (mark[u] == HOME_UNKNOWN) {
			uint32_t e = home_end(t, ch, u), n, o;

			mark[u] = HOME_WALKING;
			walk[n_walk++] = u;
			if (e == TA_NO_END ||
			    (ch->avoid && ch->avoid[g->sw[u].ends[e].out_chan]))
				break;
			n = g->sw[u].ends[e].peer;
			if (n != dest_sw) {
				o = home_end(t, ch, n);
				if (o == TA_NO_END ||
				    state[ta_turn(g, n, ta_graph_far_end(g, u, e), o)] !=
					    TA_TURN_ALLOWED)
					break;
			}
			u = n;
		}
		if (n_walk && mark[u] == HOME_INTACT &&
		    walk[n_walk - 1] != u)
			end = HOME_INTACT;
		for (k = n_walk; k-- > 0;) {
			uint32_t v = walk[k], e, n;

			mark[v] = end;
			if (end != HOME_INTACT)
				continue;
			e = home_end(t, ch, v);
			n = g->sw[v].ends[e].peer;
			t->out_end[v] = e;
			t->dist[v] = t->dist[n] + 1;
			pure[v] = pure[n] + weight(t, v, e, ch, unit);
		}
	}
}

uint32_t ta_intree_weighted(struct ta_intree *t, const uint8_t *state,
			    uint32_t dest_sw, const struct ta_choice *ch,
			    double unit)
{
	const struct ta_graph *g = t->g;
	size_t n_heap = 0;
	uint32_t s;
	double *pure;

	if (room(t))
		return 0;
	pure = t->wcost + g->n_sw + 1;
	for (s = 0; s < g->n_sw; s++) {
		t->dist[s] = TA_UNREACHED;
		t->out_end[s] = TA_NO_END;
		t->wcost[s] = -1;
	}
	t->n_order = 0;
	t->wcost[dest_sw] = 0;
	pure[dest_sw] = 0;
	t->out_end[dest_sw] = TA_OUT_DELIVER;
	t->dist[dest_sw] = 0;
	if (t->turn_layers)
		t->layer_mask[dest_sw] = t->all_layers;
	push(t, &n_heap, 0, dest_sw);
	if (ch->home && ch->home_fixed && !t->turn_layers) {
		uint8_t *mark = (uint8_t *)t->pending;	/* n_sw words: room */

		mark_intact(t, state, dest_sw, ch, unit, pure, mark);
		for (s = 0; s < g->n_sw; s++) {
			if (mark[s] != HOME_INTACT || s == dest_sw) {
				mark[s] = s == dest_sw;
				continue;
			}
			mark[s] = 1;
			t->wcost[s] = pure[s];
			push(t, &n_heap, pure[s], s);
		}
		grow(t, state, ch, unit, pure, mark, n_heap);
		return t->n_order;
	}
	grow(t, state, ch, unit, pure, NULL, n_heap);
	return t->n_order;
}

/* save[]: the tree's out_end, dist, order and n_order, to put back */
static void save_tree(const struct ta_intree *t, uint32_t *save)
{
	size_t n = t->g->n_sw;

	memcpy(save, t->out_end, n * sizeof(*save));
	memcpy(save + n, t->dist, n * sizeof(*save));
	memcpy(save + 2 * n, t->order, n * sizeof(*save));
	save[3 * n] = t->n_order;
}

void ta_intree_restore(struct ta_intree *t, const uint32_t *save)
{
	size_t n = t->g->n_sw;

	memcpy(t->out_end, save, n * sizeof(*save));
	memcpy(t->dist, save + n, n * sizeof(*save));
	memcpy(t->order, save + 2 * n, n * sizeof(*save));
	t->n_order = save[3 * n];
}

uint32_t ta_intree_reweigh_minor(struct ta_intree *t, const uint8_t *state,
				 uint32_t dest_sw, const struct ta_choice *ch,
				 double unit, uint32_t *save)
{
	const struct ta_graph *g = t->g;
	uint32_t n_before = t->n_order, s, k;
	size_t n_heap = 0;
	double *pure;
	uint8_t *fixed;

	if (room(t) || !ch->main_sw || !ch->load || !(unit > 0))
		return 0;
	pure = t->wcost + g->n_sw + 1;
	fixed = (uint8_t *)t->pending;	/* n_sw words: room */
	save_tree(t, save);
	/* fixed: main traffic passes it or a switch whose route it carries */
	memset(fixed, 0, g->n_sw);
	for (k = t->n_order; k-- > 0;) {
		uint32_t v = t->order[k], o = t->out_end[v];

		if (ch->main_sw[v] || v == dest_sw)
			fixed[v] = 1;
		if (fixed[v] && o < g->sw[v].n_ends)
			fixed[g->sw[v].ends[o].peer] = 1;
	}
	for (s = 0; s < g->n_sw; s++) {
		t->wcost[s] = -1;
		if (!fixed[s]) {
			t->out_end[s] = TA_NO_END;
			t->dist[s] = TA_UNREACHED;
		}
	}
	/* the fixed switches' path costs, nearest first */
	for (k = 0; k < t->n_order; k++) {
		uint32_t v = t->order[k], o = t->out_end[v];

		if (!fixed[v])
			continue;
		pure[v] = o < g->sw[v].n_ends ?
			pure[g->sw[v].ends[o].peer] + weight(t, v, o, ch, unit) :
			0;
		t->wcost[v] = pure[v];
		push(t, &n_heap, pure[v], v);
	}
	t->n_order = 0;
	grow(t, state, ch, unit, pure, fixed, n_heap);
	if (t->n_order < n_before) {	/* one stranded: the first tree */
		ta_intree_restore(t, save);
		return 0;
	}
	return t->n_order;
}
