// SPDX-License-Identifier: MIT
/* Spreads from the spine sets (ta_spine_spread.h). */
#include <stdlib.h>

#include "ta_period.h"
#include "ta_spine_sets.h"
#include "ta_spine_spread.h"

static int cmp_pair(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) :
			      (a[1] < b[1] ? -1 : a[1] > b[1]);
}

/* leaf ordinal of every switch (GUID order = index order), ~0u: none */
static uint32_t leaf_ordinals(const struct ta_graph *g, uint32_t *ord)
{
	uint32_t d, s, n = 0;

	for (s = 0; s < g->n_sw; s++)
		ord[s] = ~0u;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host)
			ord[g->dest[d].sw] = 0;
	for (s = 0; s < g->n_sw; s++)
		if (!ord[s])
			ord[s] = n++;
	return n;
}

/* 1 if the host LIDs show the sets' layout; -1 out of memory */
static int layout_shown(const struct ta_graph *g,
			const struct ta_spine_sets *ss)
{
	uint32_t *pair = malloc((2 * (size_t)g->n_dest + 2) * sizeof(*pair));
	uint32_t d, n = 0;
	int shown;

	if (!pair)
		return -1;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host) {
			pair[2 * n] = g->dest[d].lid;
			pair[2 * n++ + 1] = g->dest[d].port - 1u;
		}
	qsort(pair, n, 2 * sizeof(*pair), cmp_pair);
	shown = ta_ss_shown(ss, pair, n);
	free(pair);
	return shown;
}

/*
 * Whether some set holds several ranks: only then do LIDs that show
 * the sets tell them from a layout of one group a rank (ta_ss_shown)
 */
static int multi_rank(const struct ta_spine_sets *ss)
{
	uint32_t c;

	for (c = 0; c < ss->n_class; c++)
		if (ss->class_ranks[c] > 1)
			return 1;
	return 0;
}

/*
 * 1 if the LIDs show the sets for p + 1 .. p + 8 spines on a two-level
 * tree (spines down), where some set holds several ranks; 0 if not, -1
 * out of memory
 */
static int shown_above(const struct ta_graph *g, uint32_t p, uint32_t m,
		       uint32_t r, uint32_t leaves, uint32_t w)
{
	struct ta_spine_sets ss;
	uint32_t p2;
	int ret = 0;

	for (p2 = p + 1; p2 <= p + 8 && p2 <= 255 && !ret; p2++) {
		ret = ta_spine_sets_make(&ss, p2, m, r, leaves, w);
		if (ret == 1)
			ret = multi_rank(&ss) ? layout_shown(g, &ss) : 0;
		ta_spine_sets_free(&ss);
	}
	return ret;
}

int ta_spine_spread(const struct ta_graph *g, uint32_t m, uint32_t *spread)
{
	uint32_t p = ta_graph_leaf_period(g), d, r = 0, w = 1, leaves;
	struct ta_spine_sets ss;
	uint32_t *ord;
	int ret, many;

	if (!p || m <= 1 || m >= p || p % m == 0)
		return 0;	/* the consecutive rule: spreads unchanged */
	ord = malloc((g->n_sw + 1) * sizeof(*ord));
	if (!ord)
		return -1;
	leaves = leaf_ordinals(g, ord);
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];

		if (x->is_host && x->port > r)
			r = x->port;
		if (!x->port && ord[x->sw] != ~0u && spread[d] % m + 1 > w)
			w = spread[d] % m + 1;
	}
	ret = ta_spine_sets_make(&ss, p, m, r, leaves, w);
	if (ret == 1)
		ret = layout_shown(g, &ss);
	many = ret == 1 && multi_rank(&ss);
	for (d = 0; ret == 1 && d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];
		uint32_t base = spread[d], o = base % m;

		if (x->is_host)
			spread[d] = ta_ss_host_spread(&ss, x->port - 1u, o);
		else if (!x->port && ord[x->sw] != ~0u)
			spread[d] = base - base % p +
				    ta_ss_leaf_spine(&ss, ord[x->sw], o);
	}
	ta_spine_sets_free(&ss);
	if (ret == 0 && g->n_sw - leaves == p)
		ret = many = shown_above(g, p, m, r, leaves, w);
	free(ord);
	return ret < 0 ? -1 : many == 1 && g->n_sw - leaves == p;
}
