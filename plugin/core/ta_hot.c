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

/* marks the largest shares first until every channel's need is met */
static int64_t mark(const struct ta_graph *g, const double *share,
		    uint32_t n_hot, double *need, struct keyed *order,
		    uint8_t *release)
{
	uint32_t d, h, n = 0, i;
	int64_t marked = 0;

	for (d = 0; d < g->n_dest; d++) {
		const double *x = share + (size_t)d * n_hot;
		double total = 0;

		for (h = 0; h < n_hot; h++)
			total += x[h];
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
		marked++;
		for (h = 0; h < n_hot; h++)
			need[h] -= x[h];
	}
	return marked;
}

int64_t ta_hot_release(const struct ta_graph *g, const uint8_t *port,
		       double target, uint8_t *release, uint8_t *hot_mask)
{
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
	marked = mark(g, share, n_hot, need, buf, release);
out:
	free(load);
	free(hot);
	free(buf);
	free(share);
	return marked;
}
