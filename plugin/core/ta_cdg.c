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
	c->bmark = calloc(n, sizeof(*c->bmark));
	c->stack = malloc(n * sizeof(*c->stack));
	c->ord = malloc(n * sizeof(*c->ord));
	c->at = malloc(n * sizeof(*c->at));
	c->fwd = malloc(n * sizeof(*c->fwd));
	c->bwd = malloc(n * sizeof(*c->bwd));
	c->slots = malloc(n * sizeof(*c->slots));
	c->sort_buf = malloc(2 * n * sizeof(*c->sort_buf));
	c->to_lm = malloc(n * sizeof(*c->to_lm));
	c->from_lm = malloc(n * sizeof(*c->from_lm));
	if (!c->state || !c->mark || !c->bmark || !c->stack || !c->ord || !c->at ||
	    !c->fwd || !c->bwd || !c->slots || !c->sort_buf || !c->to_lm ||
	    !c->from_lm) {
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
	free(c->bmark);
	free(c->stack);
	free(c->ord);
	free(c->at);
	free(c->fwd);
	free(c->bwd);
	free(c->slots);
	free(c->sort_buf);
	free(c->to_lm);
	free(c->from_lm);
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
		memset(c->bmark, 0, 2 * c->g->n_links * sizeof(*c->bmark));
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

/* is turn k a constraint of the order (allowed), or a hint, or neither */
static inline int edge_kind(const struct ta_cdg *c, uint32_t k)
{
	if (c->state[k] == TA_TURN_ALLOWED)
		return 2;
	return c->hint_w && c->state[k] == TA_TURN_UNDECIDED &&
	       c->hint_w[k] > 0;
}

/*
 * Kahn's algorithm over the allowed turns plus the hinted ones: a
 * channel is placed when all its predecessors over both are placed
 * (heap `all`); when the hints form a cycle, the channel of lowest rank
 * whose allowed predecessors are all placed goes next (heap `hard`).
 * The order is topological for the allowed turns; -1 if they hold a
 * cycle.
 */
static int rebuild_order(struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t n = 2 * g->n_links, done = 0, n_all = 0, n_hard = 0;
	uint32_t s, i, j, ch;
	uint32_t *deg_all = c->mark, *deg_hard = c->bmark;	/* borrowed */
	uint64_t *all = malloc((n + 1) * sizeof(*all));
	uint64_t *hard = malloc((n + 1) * sizeof(*hard));
	uint8_t *placed = calloc(n + 1, 1);

	if (!all || !hard || !placed) {
		free(all);
		free(hard);
		free(placed);
		return -1;
	}
	memset(deg_all, 0, n * sizeof(*deg_all));
	memset(deg_hard, 0, n * sizeof(*deg_hard));
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++) {
				int kind = edge_kind(c, ta_turn(g, s, i, j));
				uint32_t y = ta_graph_out_chan(g, s, j);

				deg_all[y] += kind != 0;
				deg_hard[y] += kind == 2;
			}
	for (ch = 0; ch < n; ch++) {
		uint64_t key = (uint64_t)chan_rank(c, ch) << 32 | ch;

		if (!deg_all[ch])
			heap_push(all, &n_all, key);
		else if (!deg_hard[ch])
			heap_push(hard, &n_hard, key);
	}
	while (n_all || n_hard) {
		uint32_t x, e;

		x = (uint32_t)(n_all ? heap_pop(all, &n_all) :
				       heap_pop(hard, &n_hard));
		if (placed[x])
			continue;
		placed[x] = 1;
		c->ord[x] = done;
		c->at[done++] = x;
		chan_head(g, x, &s, &e);
		for (j = 0; j < g->sw[s].n_ends; j++) {
			int kind = edge_kind(c, ta_turn(g, s, e, j));
			uint32_t y = ta_graph_out_chan(g, s, j);
			uint64_t key = (uint64_t)chan_rank(c, y) << 32 | y;

			if (!kind || placed[y])
				continue;
			if (--deg_all[y] == 0)
				heap_push(all, &n_all, key);
			else if (kind == 2 && --deg_hard[y] == 0)
				heap_push(hard, &n_hard, key);
		}
	}
	free(all);
	free(hard);
	free(placed);
	memset(c->mark, 0, n * sizeof(*c->mark));
	memset(c->bmark, 0, n * sizeof(*c->bmark));
	c->epoch = 0;
	c->fwd_x = c->fwd_y = UINT32_MAX;
	c->ord_valid = done == n;
	c->lm_valid = 0;
	return c->ord_valid ? 0 : -1;
}

/* the landmark masks for the allowed turns (see struct ta_cdg) */
static void refresh_landmarks(struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t n = 2 * g->n_links, bit = 0, s, e, k, pass;

	memset(c->to_lm, 0, n * sizeof(*c->to_lm));
	memset(c->from_lm, 0, n * sizeof(*c->from_lm));
	/* channels into a root, then out of one */
	for (pass = 0; pass < 2; pass++)
		for (s = 0; s < g->n_sw && bit < 64; s++) {
			if (c->level[s])
				continue;
			for (e = 0; e < g->sw[s].n_ends && bit < 64; e++) {
				uint32_t ch = pass ? ta_graph_out_chan(g, s, e) :
						     ta_graph_in_chan(g, s, e);

				c->to_lm[ch] |= 1ull << bit;
				c->from_lm[ch] |= 1ull << bit;
				bit++;
			}
		}
	/* from: in topological order; to: in reverse */
	for (k = 0; k < n; k++) {
		uint32_t v = c->at[k], j;
		const uint8_t *row;

		chan_head(g, v, &s, &e);
		row = &c->state[ta_turn(g, s, e, 0)];
		for (j = 0; j < g->sw[s].n_ends; j++)
			if (row[j] == TA_TURN_ALLOWED)
				c->from_lm[g->sw[s].ends[j].out_chan] |=
					c->from_lm[v];
	}
	for (k = n; k-- > 0;) {
		uint32_t v = c->at[k], j;
		const uint8_t *row;
		uint64_t m = c->to_lm[v];

		chan_head(g, v, &s, &e);
		row = &c->state[ta_turn(g, s, e, 0)];
		for (j = 0; j < g->sw[s].n_ends; j++)
			if (row[j] == TA_TURN_ALLOWED)
				m |= c->to_lm[g->sw[s].ends[j].out_chan];
		c->to_lm[v] = m;
	}
	c->lm_valid = 1;
	c->lm_searched = c->searched;
	c->lm_allowed = 0;
}

/*
 * Refreshes the masks when turns were allowed since the last refresh
 * and the searches since then visited about twice as many channels as
 * a refresh passes.  Only called between decisions: a turn allowed on
 * trial and prohibited again must not be in the masks.
 */
static void maybe_refresh_landmarks(struct ta_cdg *c)
{
	uint64_t n = 2 * (uint64_t)c->g->n_links;

	if (!c->level || !c->ord_valid ||
	    (c->lm_valid && !c->lm_allowed) ||
	    c->searched - c->lm_searched < 2 * n)
		return;
	refresh_landmarks(c);
}

/*
 * The new edge x -> y with ord[y] < ord[x]: searches forward from y over
 * channels ordered at most ord[x] and backward from x over channels
 * ordered at least ord[y], one step each in turn.  The edge closes a
 * cycle iff the two searches meet; a short cycle is thus found after
 * few steps whichever side it is nearer to.  Without a cycle both
 * searches run out, leaving fwd and bwd complete for reorder().
 */
static int two_way(struct ta_cdg *c, uint32_t x, uint32_t y)
{
	const struct ta_graph *g = c->g;
	uint32_t ub = c->ord[x], lb = c->ord[y], fs = 0, bs = 0, ep;
	uint32_t *fstack = c->stack, *bstack = c->slots;

	new_epoch(c);
	ep = c->epoch;
	c->n_fwd = c->n_bwd = 0;
	c->fwd_x = c->fwd_y = UINT32_MAX;
	c->mark[y] = ep;
	c->bmark[x] = ep;
	fstack[fs++] = y;
	bstack[bs++] = x;
	while (fs || bs) {
		uint32_t s, e, k, n;

		if (fs) {
			uint32_t v = fstack[--fs];
			const uint8_t *row;

			c->searched++;
			c->fwd[c->n_fwd++] = v;
			chan_head(g, v, &s, &e);
			row = &c->state[ta_turn(g, s, e, 0)];
			n = g->sw[s].n_ends;
			for (k = 0; k < n; k++) {
				uint32_t w;

				if (row[k] != TA_TURN_ALLOWED)
					continue;
				w = g->sw[s].ends[k].out_chan;
				if (c->bmark[w] == ep)
					return 1;
				if (c->mark[w] == ep || c->ord[w] > ub)
					continue;
				c->mark[w] = ep;
				fstack[fs++] = w;
			}
		}
		if (bs) {
			uint32_t u = bstack[--bs];

			c->searched++;
			c->bwd[c->n_bwd++] = u;
			chan_tail(g, u, &s, &e);
			n = g->sw[s].n_ends;
			for (k = 0; k < n; k++) {
				uint32_t p;

				if (c->state[ta_turn(g, s, k, e)] !=
				    TA_TURN_ALLOWED)
					continue;
				p = g->sw[s].ends[k].out_chan ^ 1u;
				if (c->mark[p] == ep)
					return 1;
				if (c->bmark[p] == ep || c->ord[p] < lb)
					continue;
				c->bmark[p] = ep;
				bstack[bs++] = p;
			}
		}
	}
	c->fwd_x = x;
	c->fwd_y = y;
	return 0;
}

/* sorts v[0..n) ascending: quicksort, insertion sort for short runs */
static void sort_u64(uint64_t *v, uint32_t n)
{
	while (n > 16) {
		uint64_t p = v[n / 2], t;
		uint32_t i = 0, j = n - 1;

		for (;;) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		/* recurse on the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			sort_u64(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_u64(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (uint32_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		uint32_t k = i;

		for (; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
}

/* the channels of set as (ord << 32 | channel), sorted by ord */
static void sorted_by_ord(const struct ta_cdg *c, const uint32_t *set,
			  uint32_t n, uint64_t *out)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		out[k] = (uint64_t)c->ord[set[k]] << 32 | set[k];
	sort_u64(out, n);
}

/*
 * Moves bwd before fwd inside the positions both sets held (the two
 * sets are disjoint and both sorted by position, so the positions come
 * out sorted by merging them).
 */
static void reorder(struct ta_cdg *c)
{
	uint64_t *b = c->sort_buf, *f = c->sort_buf + c->n_bwd;
	uint32_t nb = c->n_bwd, nf = c->n_fwd, ib = 0, jf = 0, k;

	sorted_by_ord(c, c->bwd, nb, b);
	sorted_by_ord(c, c->fwd, nf, f);
	for (k = 0; k < nb + nf; k++) {
		uint32_t slot;

		if (jf == nf || (ib < nb && b[ib] >> 32 < f[jf] >> 32))
			slot = (uint32_t)(b[ib++] >> 32);
		else
			slot = (uint32_t)(f[jf++] >> 32);
		c->stack[k] = slot;
	}
	for (k = 0; k < nb + nf; k++) {
		uint32_t ch = (uint32_t)(k < nb ? b[k] : f[k - nb]);

		c->ord[ch] = c->stack[k];
		c->at[c->stack[k]] = ch;
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
	if (c->lm_valid && (c->to_lm[y] & c->from_lm[x]))
		return 1;	/* y reaches a landmark that reaches x */
	return two_way(c, x, y);
}

void ta_cdg_allow(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	uint32_t x = ta_graph_in_chan(c->g, s, i);
	uint32_t y = ta_graph_out_chan(c->g, s, j);

	c->state[ta_turn(c->g, s, i, j)] = TA_TURN_ALLOWED;
	c->lm_allowed++;
	if (!c->ord_valid || c->ord[x] < c->ord[y])
		return;
	if ((c->fwd_x != x || c->fwd_y != y) && two_way(c, x, y))
		return;	/* a cycle: the caller broke its promise */
	reorder(c);
	c->fwd_x = c->fwd_y = UINT32_MAX;
}

static int decide(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j,
		  int naive)
{
	uint32_t fwd = ta_turn(c->g, s, i, j), rev = ta_turn(c->g, s, j, i);

	if (!naive) {
		if (!c->ord_valid && rebuild_order(c))
			goto prohibit;	/* already cyclic: refuse everything */
		maybe_refresh_landmarks(c);
	}
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
