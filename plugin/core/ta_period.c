// SPDX-License-Identifier: MIT
/* The leaves' period (see ta_period.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "ta_period.h"

/* distinct neighbour switches of s (ends are sorted by port, not peer) */
static uint32_t neighbours(const struct ta_graph *g, uint32_t s)
{
	uint32_t n = 0, i, k;

	for (i = 0; i < g->sw[s].n_ends; i++) {
		uint32_t p = g->sw[s].ends[i].peer;

		for (k = 0; k < i && g->sw[s].ends[k].peer != p; k++)
			;
		n += k == i;
	}
	return n;
}

uint32_t ta_graph_leaf_period(const struct ta_graph *g)
{
	uint8_t *host = calloc(g->n_sw + 1, 1);
	uint32_t d, s, period = 0, bare = 0;

	if (!host)
		return 0;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host)
			host[g->dest[d].sw] = 1;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t n;

		if (!host[s]) {
			bare++;
			continue;
		}
		n = neighbours(g, s);
		if (period && n != period) {
			period = 0;
			break;
		}
		period = n;
	}
	free(host);
	return bare ? period : 0;
}

/*
 * Chunk keys (see ta_period.h).  Positions q = 1 + rank * N + leaf for
 * the hosts (rank = switch port - 1, leaf = the switch's place among the
 * N switches with hosts, by index) and q = 1 + R * N + leaf for a leaf
 * switch's own LID; position 0 stands for LID 0, which the first chunk's
 * block cannot use.  Chunk c = q * P / T, T = (R + 1) * N + 1.  The key
 * is c + P * (j + K * switch), j the destination's place among its
 * leaf's positions in chunk c (the next digit: parallel links), K above
 * any j.  lid_assign/lid_chunks.c cuts the same chunks.
 */
static uint64_t chunk_start(uint64_t c, uint64_t t, uint32_t p)
{
	return (c * t + p - 1) / p;
}

/* position of destination d on leaf place l (see above) */
static uint64_t position(const struct ta_graph *g, const uint32_t *spread,
			 uint32_t d, uint32_t l, uint32_t r, uint32_t n)
{
	uint32_t rank = g->dest[d].is_host ? spread[d] : r;

	return 1 + (uint64_t)rank * n + l;
}

/*
 * The LIDs are lid_assign's chunk layout for p chunks: every host LID
 * lies in the 64-LID blocks its chunk takes when the chunks are laid
 * out one after the other from LID 1, each from a block boundary.
 */
static bool lids_show(const struct ta_graph *g, const uint32_t *spread,
		      const uint32_t *leaf, uint32_t r, uint32_t n, uint32_t p)
{
	uint64_t t = (uint64_t)(r + 1) * n + 1, *first;
	uint32_t c, d;
	bool ok = true;

	first = malloc(((size_t)p + 1) * sizeof(*first));
	if (!first)
		return false;
	first[0] = 0;
	for (c = 0; c < p; c++)
		first[c + 1] = first[c] + (chunk_start(c + 1, t, p) -
					   chunk_start(c, t, p) + 63) / 64;
	for (d = 0; d < g->n_dest && ok; d++) {
		uint64_t blk = g->dest[d].lid / 64;

		if (!g->dest[d].is_host)
			continue;
		c = (uint32_t)(position(g, spread, d, leaf[g->dest[d].sw], r,
					n) * p / t);
		ok = blk >= first[c] && blk < first[c + 1];
	}
	free(first);
	return ok;
}

int ta_period_chunk_keys(const struct ta_graph *g, uint32_t period,
			 uint32_t *spread)
{
	uint32_t *leaf, d, s, r = 1, n = 0, bare = 0, k, p;
	uint64_t t;

	if (period < 2)
		return 0;
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];

		if (!x->is_host)
			continue;
		if (!x->port || spread[d] != x->port - 1u)
			return 0;	/* LMC > 0 (or no port): not here */
		if (spread[d] + 1 > r)
			r = spread[d] + 1;
	}
	if (r <= period || r % period == 0)
		return 0;
	leaf = malloc((g->n_sw + 1) * sizeof(*leaf));
	if (!leaf)
		return 0;
	for (s = 0; s < g->n_sw; s++)
		leaf[s] = UINT32_MAX;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host)
			leaf[g->dest[d].sw] = 0;
	for (s = 0; s < g->n_sw; s++) {
		if (leaf[s] == UINT32_MAX)
			bare++;
		else
			leaf[s] = n++;
	}
	/* 2-level trees only, LIDs laid out in chunks (ta_period.h) */
	for (p = r - 1; bare == period && p >= period; p--)
		if (r % p && lids_show(g, spread, leaf, r, n, p))
			break;
	if (bare != period || p < period) {
		free(leaf);
		return 0;
	}
	period = p;
	t = (uint64_t)(r + 1) * n + 1;
	k = (r + 1) / period + 2;
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];
		uint32_t l = leaf[x->sw], rank, c, r0;
		uint64_t q, start;

		if (l == UINT32_MAX) {	/* a spine: the rank rule's key */
			spread[d] += (r + period - 1) / period * period * x->sw;
			continue;
		}
		rank = x->is_host ? spread[d] : r;
		q = position(g, spread, d, l, r, n);
		c = (uint32_t)(q * period / t);
		start = chunk_start(c, t, period);
		r0 = start > l + 1 ? (uint32_t)((start - l - 1 + n - 1) / n) :
				     0;
		spread[d] = c + period * (rank - r0 + k * x->sw);
	}
	free(leaf);
	return 1;
}
