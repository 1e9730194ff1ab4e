// SPDX-License-Identifier: MIT
/*
 * Allowed-turn set and the cycle check used by turn addition: a dynamic
 * topological order of the channel dependency graph (Pearce and Kelly,
 * "A dynamic topological sort algorithm for directed acyclic graphs",
 * JEA 2006), with the plain search kept as the reference.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"

int ta_cdg_init(struct ta_cdg *c, const struct ta_graph *g)
{
	uint32_t s, i, n = 2 * g->n_links + 1;

	memset(c, 0, sizeof(*c));
	c->g = g;
	c->state = calloc(g->n_turn_slots ? g->n_turn_slots : 1, 1);
	c->mark = calloc(n, sizeof(*c->mark));
	c->stack = malloc(n * sizeof(*c->stack));
	c->ord = malloc(n * sizeof(*c->ord));
	c->at = malloc(n * sizeof(*c->at));
	c->fwd = malloc(n * sizeof(*c->fwd));
	c->bwd = malloc(n * sizeof(*c->bwd));
	c->slots = malloc(n * sizeof(*c->slots));
	if (!c->state || !c->mark || !c->stack || !c->ord || !c->at ||
	    !c->fwd || !c->bwd || !c->slots) {
		ta_cdg_free(c);
		return -1;
	}
	/* turns back to the neighbour a packet came from are never needed */
	for (s = 0; s < g->n_sw; s++) {
		const struct ta_switch *sw = &g->sw[s];

		for (i = 0; i < sw->n_ends; i++) {
			uint32_t j;

			for (j = 0; j < sw->n_ends; j++)
				if (sw->ends[i].peer == sw->ends[j].peer)
					c->state[ta_turn(g, s, i, j)] =
						TA_TURN_USELESS;
		}
	}
	return 0;
}

void ta_cdg_free(struct ta_cdg *c)
{
	free(c->state);
	free(c->mark);
	free(c->stack);
	free(c->ord);
	free(c->at);
	free(c->fwd);
	free(c->bwd);
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

/* the switch a channel enters, and the link end it enters through */
static inline void chan_head(const struct ta_graph *g, uint32_t ch,
			     uint32_t *s, uint32_t *e)
{
	const struct ta_link *l = &g->links[ch >> 1];
	uint32_t side = (ch & 1) ? 0 : 1;

	*s = l->sw[side];
	*e = l->end[side];
}

/* the switch a channel leaves, and the link end it leaves through */
static inline void chan_tail(const struct ta_graph *g, uint32_t ch,
			     uint32_t *s, uint32_t *e)
{
	const struct ta_link *l = &g->links[ch >> 1];
	uint32_t side = ch & 1;

	*s = l->sw[side];
	*e = l->end[side];
}

static void new_epoch(struct ta_cdg *c)
{
	if (++c->epoch == 0) {
		memset(c->mark, 0, 2 * c->g->n_links * sizeof(*c->mark));
		c->epoch = 1;
	}
}

/* ---- the reference: search everything reachable ---- */

static int reaches(struct ta_cdg *c, uint32_t from_chan, uint32_t to_chan)
{
	const struct ta_graph *g = c->g;
	uint32_t sp = 0;

	new_epoch(c);
	c->mark[from_chan] = c->epoch;
	c->stack[sp++] = from_chan;
	while (sp) {
		uint32_t ch = c->stack[--sp], s, e, j;
		const uint8_t *row;

		c->searched++;
		if (ch == to_chan)
			return 1;
		chan_head(g, ch, &s, &e);
		row = &c->state[ta_turn(g, s, e, 0)];
		for (j = 0; j < g->sw[s].n_ends; j++) {
			uint32_t nx;

			if (row[j] != TA_TURN_ALLOWED)
				continue;
			nx = ta_graph_out_chan(g, s, j);
			if (c->mark[nx] == c->epoch)
				continue;
			c->mark[nx] = c->epoch;
			c->stack[sp++] = nx;
		}
	}
	return 0;
}

int ta_cdg_closes_cycle_naive(struct ta_cdg *c, uint32_t s, uint32_t i,
			      uint32_t j)
{
	/* the new edge is in(s,i) -> out(s,j): a cycle iff out reaches in */
	return reaches(c, ta_graph_out_chan(c->g, s, j),
		       ta_graph_in_chan(c->g, s, i));
}

/* ---- the dynamic topological order ---- */

/*
 * Preferred place of a channel in the initial order: channels going up
 * (towards the root's level) first, from the deepest up, then channels
 * going down, from the top down.
 */
static uint32_t chan_rank(const struct ta_cdg *c, uint32_t ch)
{
	uint32_t s, e, t, f, ls, lt;

	if (!c->level)
		return 0;
	chan_tail(c->g, ch, &s, &e);
	chan_head(c->g, ch, &t, &f);
	ls = c->level[s];
	lt = c->level[t];
	if (lt < ls || (lt == ls && t < s))
		return 0x7fffffffu - ls;	/* up */
	return 0x80000000u + ls;		/* down */
}

/* binary min-heap of (rank << 32 | channel) */
static void heap_push(uint64_t *h, uint32_t *n, uint64_t v)
{
	uint32_t i = (*n)++;

	while (i && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static uint64_t heap_pop(uint64_t *h, uint32_t *n)
{
	uint64_t top = h[0], v = h[--(*n)];
	uint32_t i = 0;

	for (;;) {
		uint32_t k = 2 * i + 1;

		if (k >= *n)
			break;
		if (k + 1 < *n && h[k + 1] < h[k])
			k++;
		if (h[k] >= v)
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = v;
	return top;
}

/* Kahn's algorithm over the allowed turns; -1 if they hold a cycle */
static int rebuild_order(struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t n = 2 * g->n_links, done = 0, n_heap = 0, s, i, j, ch;
	uint32_t *indeg = c->mark;	/* borrowed; reset below */
	uint64_t *heap = malloc((n + 1) * sizeof(*heap));

	if (!heap)
		return -1;
	memset(indeg, 0, n * sizeof(*indeg));
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++)
				if (c->state[ta_turn(g, s, i, j)] ==
				    TA_TURN_ALLOWED)
					indeg[ta_graph_out_chan(g, s, j)]++;
	for (ch = 0; ch < n; ch++)
		if (!indeg[ch])
			heap_push(heap, &n_heap,
				  (uint64_t)chan_rank(c, ch) << 32 | ch);
	while (n_heap) {
		uint32_t x = (uint32_t)heap_pop(heap, &n_heap), e;

		c->ord[x] = done;
		c->at[done++] = x;
		chan_head(g, x, &s, &e);
		for (j = 0; j < g->sw[s].n_ends; j++) {
			uint32_t y = ta_graph_out_chan(g, s, j);

			if (c->state[ta_turn(g, s, e, j)] == TA_TURN_ALLOWED &&
			    --indeg[y] == 0)
				heap_push(heap, &n_heap,
					  (uint64_t)chan_rank(c, y) << 32 | y);
		}
	}
	free(heap);
	memset(c->mark, 0, n * sizeof(*c->mark));
	c->epoch = 0;
	c->fwd_x = c->fwd_y = UINT32_MAX;
	c->ord_valid = done == n;
	return c->ord_valid ? 0 : -1;
}

/*
 * Forward search from y over channels ordered at most ub; fills fwd.
 * Returns 1 if it meets x (the new edge x -> y would close a cycle).
 */
static int search_forward(struct ta_cdg *c, uint32_t x, uint32_t y)
{
	const struct ta_graph *g = c->g;
	uint32_t ub = c->ord[x], sp = 0;

	new_epoch(c);
	c->n_fwd = 0;
	c->fwd_x = x;
	c->fwd_y = y;
	c->mark[y] = c->epoch;
	c->stack[sp++] = y;
	while (sp) {
		uint32_t ch = c->stack[--sp], s, e, j;
		const uint8_t *row;

		c->searched++;
		if (ch == x)
			return 1;
		c->fwd[c->n_fwd++] = ch;
		chan_head(g, ch, &s, &e);
		row = &c->state[ta_turn(g, s, e, 0)];
		for (j = 0; j < g->sw[s].n_ends; j++) {
			uint32_t nx;

			if (row[j] != TA_TURN_ALLOWED)
				continue;
			nx = ta_graph_out_chan(g, s, j);
			if (c->mark[nx] == c->epoch || c->ord[nx] > ub)
				continue;
			c->mark[nx] = c->epoch;
			c->stack[sp++] = nx;
		}
	}
	return 0;
}

/* backward search from x over channels ordered at least lb; fills bwd */
static void search_backward(struct ta_cdg *c, uint32_t x, uint32_t lb)
{
	const struct ta_graph *g = c->g;
	uint32_t sp = 0;
	uint32_t ep;

	new_epoch(c);
	ep = c->epoch;
	c->n_bwd = 0;
	c->mark[x] = ep;
	c->stack[sp++] = x;
	while (sp) {
		uint32_t ch = c->stack[--sp], s, e, i;
		uint32_t n;

		c->searched++;
		c->bwd[c->n_bwd++] = ch;
		chan_tail(g, ch, &s, &e);
		n = g->sw[s].n_ends;
		for (i = 0; i < n; i++) {
			uint32_t pv;

			if (c->state[ta_turn(g, s, i, e)] != TA_TURN_ALLOWED)
				continue;
			pv = ta_graph_in_chan(g, s, i);
			if (c->mark[pv] == ep || c->ord[pv] < lb)
				continue;
			c->mark[pv] = ep;
			c->stack[sp++] = pv;
		}
	}
}

static const uint32_t *sort_ord;

static int cmp_by_ord(const void *a, const void *b)
{
	uint32_t x = sort_ord[*(const uint32_t *)a];
	uint32_t y = sort_ord[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* moves bwd before fwd inside the positions both sets held */
static void reorder(struct ta_cdg *c)
{
	uint32_t k, n = 0;

	sort_ord = c->ord;
	qsort(c->bwd, c->n_bwd, sizeof(*c->bwd), cmp_by_ord);
	qsort(c->fwd, c->n_fwd, sizeof(*c->fwd), cmp_by_ord);
	for (k = 0; k < c->n_bwd; k++)
		c->slots[n++] = c->ord[c->bwd[k]];
	for (k = 0; k < c->n_fwd; k++)
		c->slots[n++] = c->ord[c->fwd[k]];
	qsort(c->slots, n, sizeof(*c->slots), cmp_u32);
	n = 0;
	for (k = 0; k < c->n_bwd; k++, n++) {
		c->ord[c->bwd[k]] = c->slots[n];
		c->at[c->slots[n]] = c->bwd[k];
	}
	for (k = 0; k < c->n_fwd; k++, n++) {
		c->ord[c->fwd[k]] = c->slots[n];
		c->at[c->slots[n]] = c->fwd[k];
	}
}

int ta_cdg_closes_cycle(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	uint32_t x = ta_graph_in_chan(c->g, s, i);
	uint32_t y = ta_graph_out_chan(c->g, s, j);

	if (!c->ord_valid && rebuild_order(c))
		return 1;	/* already cyclic: refuse everything */
	if (c->ord[x] < c->ord[y])
		return 0;
	return search_forward(c, x, y);
}

void ta_cdg_allow(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	uint32_t x = ta_graph_in_chan(c->g, s, i);
	uint32_t y = ta_graph_out_chan(c->g, s, j);

	c->state[ta_turn(c->g, s, i, j)] = TA_TURN_ALLOWED;
	if (!c->ord_valid || c->ord[x] < c->ord[y])
		return;
	if (c->fwd_x != x || c->fwd_y != y)
		search_forward(c, x, y);
	search_backward(c, x, c->ord[y]);
	reorder(c);
	c->fwd_x = c->fwd_y = UINT32_MAX;
}

static int decide(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j,
		  int naive)
{
	uint32_t fwd = ta_turn(c->g, s, i, j), rev = ta_turn(c->g, s, j, i);

	if (naive ? ta_cdg_closes_cycle_naive(c, s, i, j) :
		    ta_cdg_closes_cycle(c, s, i, j))
		goto prohibit;
	if (naive)
		c->state[fwd] = TA_TURN_ALLOWED;
	else
		ta_cdg_allow(c, s, i, j);
	if (naive ? ta_cdg_closes_cycle_naive(c, s, j, i) :
		    ta_cdg_closes_cycle(c, s, j, i))
		goto prohibit;	/* dropping an edge keeps the order valid */
	if (naive)
		c->state[rev] = TA_TURN_ALLOWED;
	else
		ta_cdg_allow(c, s, j, i);
	return 1;
prohibit:
	c->state[fwd] = TA_TURN_PROHIBITED;
	c->state[rev] = TA_TURN_PROHIBITED;
	return 0;
}

int ta_cdg_decide_pair(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	return decide(c, s, i, j, c->naive);
}

/* colours for the whole-graph DFS */
enum { WHITE = 0, GREY = 1, BLACK = 2 };

int ta_cdg_has_cycle(struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t n_chan = 2 * g->n_links, root, sp;
	uint8_t *colour = calloc(n_chan ? n_chan : 1, 1);
	uint32_t *next = calloc(n_chan ? n_chan : 1, sizeof(*next));
	int cyc = 0;

	if (!colour || !next) {
		free(colour);
		free(next);
		return -1;
	}
	for (root = 0; root < n_chan && !cyc; root++) {
		if (colour[root] != WHITE)
			continue;
		sp = 0;
		c->stack[sp++] = root;
		colour[root] = GREY;
		while (sp && !cyc) {
			uint32_t ch = c->stack[sp - 1], s, e, j, nx;

			chan_head(g, ch, &s, &e);
			if (next[ch] >= g->sw[s].n_ends) {
				colour[ch] = BLACK;
				sp--;
				continue;
			}
			j = next[ch]++;
			if (c->state[ta_turn(g, s, e, j)] != TA_TURN_ALLOWED)
				continue;
			nx = ta_graph_out_chan(g, s, j);
			if (colour[nx] == GREY)
				cyc = 1;
			else if (colour[nx] == WHITE) {
				colour[nx] = GREY;
				c->stack[sp++] = nx;
			}
		}
	}
	free(colour);
	free(next);
	return cyc;
}
