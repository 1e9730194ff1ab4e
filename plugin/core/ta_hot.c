// SPDX-License-Identifier: MIT
#include <stdlib.h>

#include "ta_flow.h"
#include "ta_hot.h"

/*
 * Adds the uniform traffic along port to load (2 * n_links channels);
 * with share, share[d * n_hot + h] = what destination d's routes carry
 * on channel hot[h].  0, or -1 when out of memory.
 */
static int uniform_load(const struct ta_graph *g, const uint8_t *port,
			double *load, const uint32_t *hot, uint32_t n_hot,
			double *share)
{
	uint32_t n = g->n_sw, s, d, h;
	uint32_t *hosts = calloc(n + 1, sizeof(*hosts));
	double *flow = malloc((n + 1) * sizeof(*flow));
	double *before = malloc((n_hot + 1) * sizeof(*before));
	struct ta_column_buf b = { 0 };
	int err = -1;

	if (!hosts || !flow || !before || ta_column_buf_init(&b, g))
		goto out;
	for (d = 0; d < g->n_dest; d++)
		hosts[g->dest[d].sw] += g->dest[d].is_host;
	for (d = 0; d < g->n_dest; d++) {
		if (!g->dest[d].is_host)
			continue;
		for (s = 0; s < n; s++)
			flow[s] = hosts[s] - (s == g->dest[d].sw);
		for (h = 0; h < n_hot; h++)
			before[h] = load[hot[h]];
		ta_flow_column(g, port, d, flow, &b, load);
		for (h = 0; share && h < n_hot; h++)
			share[(size_t)d * n_hot + h] = load[hot[h]] - before[h];
	}
	err = 0;
out:
	ta_column_buf_free(&b);
	free(hosts);
	free(flow);
	free(before);
	return err;
}

double ta_uniform_peak(const struct ta_graph *g, const uint8_t *port)
{
	double *load = calloc(2 * (size_t)g->n_links + 1, sizeof(*load));
	double peak = -1;
	size_t c;

	if (load && !uniform_load(g, port, load, NULL, 0, NULL)) {
		peak = 0;
		for (c = 0; c < 2 * (size_t)g->n_links; c++)
			if (load[c] > peak)
				peak = load[c];
	}
	free(load);
	return peak;
}

/* an index and the value it is sorted by, largest first */
struct keyed {
	double key;
	uint32_t i;
};

static int by_key(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* the channels above target, busiest first, at most TA_HOT_CHANNELS */
static uint32_t hot_channels(const struct ta_graph *g, const double *load,
			     double target, struct keyed *buf, uint32_t *hot)
{
	uint32_t c, n = 0;

	for (c = 0; c < 2 * g->n_links; c++)
		if (load[c] > target)
			buf[n++] = (struct keyed){ load[c], c };
	qsort(buf, n, sizeof(*buf), by_key);
	if (n > TA_HOT_CHANNELS)
		n = TA_HOT_CHANNELS;
	for (c = 0; c < n; c++)
		hot[c] = buf[c].i;
	return n;
}

/*
 * Block-aware marking (base given): the LFT blocks (switch, 64 LIDs)
 * where port already differs from base are dirty; moving destination d
 * off the hot channels rewrites, at most, d's block at every switch
 * whose route to d crosses one (its cost: those not dirty yet).
 */
struct blocks {
	const uint8_t *base;
	uint8_t *dirty;		/* [s * n_blocks + block] */
	uint32_t n_blocks;
	int8_t *cross;		/* per switch: -1 unknown, 0, 1 */
	uint32_t *stack;
	const uint8_t *is_hot;	/* per channel */
};

static int blocks_init(struct blocks *b, const struct ta_graph *g,
		       const uint8_t *port, const uint8_t *base,
		       const uint32_t *hot, uint32_t n_hot)
{
	uint32_t s, d, h;
	uint8_t *is_hot;

	b->base = base;
	b->n_blocks = 0;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid / 64u + 1 > b->n_blocks)
			b->n_blocks = g->dest[d].lid / 64u + 1;
	b->dirty = calloc((size_t)g->n_sw * b->n_blocks + 1, 1);
	b->cross = malloc(g->n_sw + 1);
	b->stack = malloc((g->n_sw + 1) * sizeof(*b->stack));
	is_hot = calloc(2 * (size_t)g->n_links + 1, 1);
	b->is_hot = is_hot;
	if (!b->dirty || !b->cross || !b->stack || !is_hot)
		return -1;
	for (h = 0; h < n_hot; h++)
		is_hot[hot[h]] = 1;
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++)
			if (port[(size_t)s * g->n_dest + d] !=
			    base[(size_t)s * g->n_dest + d])
				b->dirty[(size_t)s * b->n_blocks +
					 g->dest[d].lid / 64u] = 1;
	return 0;
}

static void blocks_free(struct blocks *b)
{
	free(b->dirty);
	free(b->cross);
	free(b->stack);
	free((void *)b->is_hot);
}

/* the out channel of s towards d along port, UINT32_MAX where none */
static uint32_t next_chan(const struct ta_graph *g, const uint8_t *port,
			  uint32_t s, uint32_t d, uint32_t *peer)
{
	uint8_t p = port[(size_t)s * g->n_dest + d];
	uint32_t e;

	if (p == TA_NO_PORT)
		return UINT32_MAX;
	e = ta_graph_end_of_port(g, s, p);
	if (e == UINT32_MAX)
		return UINT32_MAX;
	*peer = g->sw[s].ends[e].peer;
	return g->sw[s].ends[e].out_chan;
}

/*
 * cost of moving d: switches whose route to d crosses a hot channel,
 * at which d's block is not dirty; with set, makes those dirty
 */
static uint32_t move_cost(struct blocks *b, const struct ta_graph *g,
			  const uint8_t *port, uint32_t d, int set)
{
	uint32_t s, n = 0, top, u, c, peer = 0, blk = g->dest[d].lid / 64u;

	for (s = 0; s < g->n_sw; s++)
		b->cross[s] = -1;
	for (s = 0; s < g->n_sw; s++) {
		top = 0;
		u = s;
		while (b->cross[u] < 0 && top <= g->n_sw) {
			c = next_chan(g, port, u, d, &peer);
			if (c == UINT32_MAX) {
				b->cross[u] = 0;
				break;
			}
			if (b->is_hot[c]) {
				b->cross[u] = 1;
				break;
			}
			b->stack[top++] = u;
			u = peer;
		}
		while (top)
			b->cross[b->stack[--top]] = b->cross[u] > 0;
		if (b->cross[s] > 0 &&
		    !b->dirty[(size_t)s * b->n_blocks + blk]) {
			n++;
			if (set)
				b->dirty[(size_t)s * b->n_blocks + blk] = 1;
		}
	}
	return n;
}

/* marks the largest shares first until every channel's need is met */
static int64_t mark(const struct ta_graph *g, const double *share,
		    uint32_t n_hot, double *need, struct keyed *order,
		    uint8_t *release, struct blocks *b, const uint8_t *port)
{
	uint32_t d, h, n = 0, i;
	int64_t marked = 0;

	for (d = 0; d < g->n_dest; d++) {
		const double *x = share + (size_t)d * n_hot;
		double total = 0;

		for (h = 0; h < n_hot; h++)
			total += x[h];
		if (b && total > 0 && !release[d])
			total /= 1.0 + move_cost(b, g, port, d, 0);
		if (!release[d] && total > 0)
			order[n++] = (struct keyed){ total, d };
	}
	qsort(order, n, sizeof(*order), by_key);
	for (i = 0; i < n; i++) {
		const double *x = share + (size_t)order[i].i * n_hot;
		double useful = 0;

		for (h = 0; h < n_hot; h++)
			if (need[h] > 0)
				useful += x[h];
		if (useful <= 0)
			continue;
		release[order[i].i] = 1;
		if (b)
			move_cost(b, g, port, order[i].i, 1);
		marked++;
		for (h = 0; h < n_hot; h++)
			need[h] -= x[h];
	}
	return marked;
}

int64_t ta_hot_release(const struct ta_graph *g, const uint8_t *port,
		       double target, uint8_t *release, uint8_t *hot_mask)
{
	return ta_hot_release_blocks(g, port, NULL, target, release,
				     hot_mask);
}

int64_t ta_hot_release_blocks(const struct ta_graph *g, const uint8_t *port,
			      const uint8_t *base, double target,
			      uint8_t *release, uint8_t *hot_mask)
{
	struct blocks b = { 0 };
	size_t nc = 2 * (size_t)g->n_links, n_buf;
	double *load = calloc(nc + 1, sizeof(*load));
	uint32_t *hot = malloc((TA_HOT_CHANNELS + 1) * sizeof(*hot));
	struct keyed *buf;
	double need[TA_HOT_CHANNELS], *share = NULL;
	uint32_t n_hot, h;
	int64_t marked = -1;

	n_buf = nc > g->n_dest ? nc : g->n_dest;
	buf = malloc((n_buf + 1) * sizeof(*buf));
	if (!load || !hot || !buf ||
	    uniform_load(g, port, load, NULL, 0, NULL))
		goto out;
	n_hot = hot_channels(g, load, target, buf, hot);
	marked = 0;
	if (!n_hot)
		goto out;
	marked = -1;
	share = calloc((size_t)g->n_dest * n_hot + 1, sizeof(*share));
	if (!share)
		goto out;
	for (h = 0; h < n_hot; h++) {
		need[h] = load[hot[h]] - target;
		if (hot_mask)
			hot_mask[hot[h]] = 1;
	}
	for (h = 0; h < nc; h++)
		load[h] = 0;
	if (uniform_load(g, port, load, hot, n_hot, share))
		goto out;
	if (base && blocks_init(&b, g, port, base, hot, n_hot))
		goto out;
	marked = mark(g, share, n_hot, need, buf, release, base ? &b : NULL,
		      port);
out:
	blocks_free(&b);
	free(load);
	free(hot);
	free(buf);
	free(share);
	return marked;
}
