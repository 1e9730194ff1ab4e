// SPDX-License-Identifier: MIT
/* Ordering and deciding turn pairs, heaviest first. */
#include <math.h>
#include <stdlib.h>

#include "ta_prng.h"
#include "ta_turnadd.h"

struct turn_pair {
	uint32_t cls;		/* 0: main traffic crosses it (or no
				 * classes); 1: light (ta_turn_class.h),
				 * by level; 2: no traffic at all */
	uint32_t lvl;		/* light pairs: the switch's escape level */
	int64_t wq;		/* quantised weight of both directions, times
				 * 2, plus 1 unless the pair is a valley */
	uint32_t round;		/* position in its switch's rotation */
	uint32_t order;		/* the switch's place in a round */
	uint32_t far;		/* far-end neighbour the rotation is over */
	uint32_t k;		/* how many earlier pairs share wq and far */
	uint32_t s, i, j;
};

static int64_t quantise(double w)
{
	return (int64_t)llround(w * 1e6);
}

/* within a switch: weight, then far end, to count repeats of a far end */
static int cmp_in_switch(const void *a, const void *b)
{
	const struct turn_pair *x = a, *y = b;

	if (x->wq != y->wq)
		return x->wq > y->wq ? -1 : 1;
	if (x->far != y->far)
		return x->far < y->far ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->j < y->j ? -1 : (x->j > y->j);
}

/* rotation inside a switch: first use of each far end, then second... */
static int cmp_rotation(const void *a, const void *b)
{
	const struct turn_pair *x = a, *y = b;

	if (x->wq != y->wq)
		return x->wq > y->wq ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return cmp_in_switch(a, b);
}

static int cmp_global(const void *a, const void *b)
{
	const struct turn_pair *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->lvl != y->lvl)
		return x->lvl < y->lvl ? -1 : 1;
	if (x->wq != y->wq)
		return x->wq > y->wq ? -1 : 1;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return 0;
}

static uint32_t *switch_order(uint32_t n, uint64_t seed)
{
	uint32_t *perm = malloc((n + 1) * sizeof(*perm)), i;
	uint64_t st = seed;

	if (!perm)
		return NULL;
	for (i = 0; i < n; i++)
		perm[i] = i;
	if (seed)
		ta_shuffle_u32(perm, n, &st);
	return perm;
}

/*
 * height[s]: hops from s to the nearest switch with hosts.  A valley is
 * a turn pair at a switch lower than both its far ends (down, then up
 * again: a fat tree's routes never take one).  Among pairs of equal
 * weight the others go first, so that where hosts are absent (turns
 * without estimated traffic) every turn a fat tree's routes may need is
 * decided before any valley and stays allowed, as when all are present.
 */
static uint32_t *heights(const struct ta_graph *g)
{
	uint32_t *h = malloc((g->n_sw + 1) * sizeof(*h));
	uint32_t *q = malloc((g->n_sw + 1) * sizeof(*q));
	uint32_t head = 0, tail = 0, s, d;

	if (!h || !q) {
		free(h);
		free(q);
		return NULL;
	}
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

/* a pair's class (struct turn_pair) */
static uint32_t pair_class(const uint8_t *light, const double *w,
			   uint32_t fwd, uint32_t rev)
{
	if (!light)
		return 0;
	if (w[fwd] <= 0 && w[rev] <= 0)
		return 2;
	return (light[fwd] || w[fwd] <= 0) && (light[rev] || w[rev] <= 0);
}

/* the pairs of switch s still undecided, in rotation order */
static uint32_t switch_pairs(const struct ta_cdg *c, const double *w,
			     const uint8_t *light, const uint32_t *level,
			     const uint32_t *height, uint32_t s,
			     uint32_t order, struct turn_pair *out)
{
	const struct ta_graph *g = c->g;
	uint32_t n = g->sw[s].n_ends, i, j, cnt = 0, r;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			struct turn_pair *p = &out[cnt];

			if (c->state[ta_turn(g, s, i, j)] != TA_TURN_UNDECIDED)
				continue;
			p->wq = quantise(w[ta_turn(g, s, i, j)] +
					 w[ta_turn(g, s, j, i)]) * 2;
			p->cls = pair_class(light, w, ta_turn(g, s, i, j),
					    ta_turn(g, s, j, i));
			p->lvl = p->cls == 1 && level ? level[s] : 0;
			p->far = g->sw[s].ends[j].peer;
			if (height[s] >= height[g->sw[s].ends[i].peer] ||
			    height[s] >= height[p->far])
				p->wq++;
			p->s = s;
			p->i = i;
			p->j = j;
			p->order = order;
			cnt++;
		}
	qsort(out, cnt, sizeof(*out), cmp_in_switch);
	for (r = 0; r < cnt; r++)
		out[r].k = (r && out[r - 1].wq == out[r].wq &&
			    out[r - 1].far == out[r].far) ? out[r - 1].k + 1 : 0;
	qsort(out, cnt, sizeof(*out), cmp_rotation);
	for (r = 0; r < cnt; r++)
		out[r].round = (r && out[r - 1].wq == out[r].wq) ?
				       out[r - 1].round + 1 : 0;
	return cnt;
}

int ta_turnadd_decide(struct ta_cdg *c, const double *w, uint64_t seed)
{
	return ta_turnadd_decide_classed(c, w, NULL, NULL, seed);
}

int ta_turnadd_decide_classed(struct ta_cdg *c, const double *w,
			      const uint8_t *light, const uint32_t *level,
			      uint64_t seed)
{
	const struct ta_graph *g = c->g;
	uint64_t max_pairs = 0;
	uint32_t s, *perm = switch_order(g->n_sw, seed);
	uint32_t *height = heights(g);
	struct turn_pair *pairs;
	size_t n = 0, k;

	for (s = 0; s < g->n_sw; s++)
		max_pairs += (uint64_t)g->sw[s].n_ends * g->sw[s].n_ends / 2;
	pairs = malloc((max_pairs + 1) * sizeof(*pairs));
	if (!perm || !pairs || !height) {
		free(perm);
		free(pairs);
		free(height);
		return -1;
	}
	for (s = 0; s < g->n_sw; s++)
		n += switch_pairs(c, w, light, level, height, s, perm[s],
				  pairs + n);
	qsort(pairs, n, sizeof(*pairs), cmp_global);
	for (k = 0; k < n; k++) {
		const struct turn_pair *p = &pairs[k];

		if (c->state[ta_turn(g, p->s, p->i, p->j)] ==
		    TA_TURN_UNDECIDED)
			ta_cdg_decide_pair(c, p->s, p->i, p->j);
	}
	free(perm);
	free(pairs);
	free(height);
	return 0;
}
