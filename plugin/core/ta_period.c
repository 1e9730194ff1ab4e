// SPDX-License-Identifier: MIT
/* The leaves' period (see ta_period.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "ta_chunk_math.h"
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
 * Chunk keys (see ta_period.h; the arithmetic in ta_chunk_math.h).  The
 * key is c + P * (j + switch), j the destination's place among its
 * leaf's positions in chunk c: the next digit (parallel links at the
 * leaf, the next hop one level up) counts switches, offset by j, so it
 * reaches every next hop whatever their number.  lid_assign/lid_chunks.c
 * cuts the same chunks.
 */

/* position of destination d on leaf place l (see above) */
static uint64_t position(const struct ta_graph *g, const uint32_t *spread,
			 uint32_t d, uint32_t l, uint32_t r, uint32_t n)
{
	return ta_chunk_position(g->dest[d].is_host ? spread[d] : r, l, n);
}

/*
 * The LIDs are lid_assign's chunk layout for p chunks: every host LID
 * lies in the 64-LID blocks its chunk takes when the chunks are laid
 * out one after the other from LID 1, each from a block boundary.
 */
static bool lids_show(const struct ta_graph *g, const uint32_t *spread,
		      const uint32_t *leaf, uint32_t r, uint32_t n, uint32_t p)
{
	uint64_t t = ta_chunk_positions(r, n), *first;
	uint32_t c, d;
	bool ok = true;

	first = malloc(((size_t)p + 1) * sizeof(*first));
	if (!first)
		return false;
	first[0] = 0;
	for (c = 0; c < p; c++)
		first[c + 1] = first[c] + ta_chunk_blocks(c, t, p);
	for (d = 0; d < g->n_dest && ok; d++) {
		uint64_t blk = g->dest[d].lid / TA_CHUNK_BLOCK;

		if (!g->dest[d].is_host)
			continue;
		c = ta_chunk_of(position(g, spread, d, leaf[g->dest[d].sw], r,
					 n), t, p);
		ok = blk >= first[c] && blk < first[c + 1];
	}
	free(first);
	return ok;
}

/*
 * 3-level trees: the parts (ta_chunk_math.h) of the switches without
 * hosts, when they are fewer than those switches (a part of several
 * switches: a director); 0 if none or not such a tree.
 */
static uint32_t director_parts(const struct ta_graph *g, const uint32_t *leaf,
			       uint32_t bare)
{
	uint32_t *start = malloc((g->n_sw + 1) * sizeof(*start));
	uint32_t *part = malloc((g->n_sw + 1) * sizeof(*part));
	uint8_t *host = malloc(g->n_sw + 1);
	uint32_t *peer = NULL, s, i, m = 0;
	int d = 0;

	if (!start || !part || !host)
		goto out;
	for (s = 0; s < g->n_sw; s++) {
		start[s] = m;
		m += g->sw[s].n_ends;
		host[s] = leaf[s] != UINT32_MAX;
	}
	start[g->n_sw] = m;
	peer = malloc(((size_t)m + 1) * sizeof(*peer));
	if (!peer)
		goto out;
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			peer[start[s] + i] = g->sw[s].ends[i].peer;
	d = ta_chunk_parts(g->n_sw, host, start, peer, part);
out:
	free(start);
	free(part);
	free(host);
	free(peer);
	return d > 1 && (uint32_t)d < bare ? (uint32_t)d : 0;
}

int ta_period_chunk_keys(const struct ta_graph *g, uint32_t period,
			 uint32_t *spread, uint32_t **leaf_rot)
{
	uint32_t *leaf, d, s, r = 1, n = 0, bare = 0, p, parts;
	uint64_t t;

	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];

		if (!x->is_host)
			continue;
		if (!x->port || spread[d] != x->port - 1u)
			return 0;	/* LMC > 0 (or no port): not here */
		if (spread[d] + 1 > r)
			r = spread[d] + 1;
	}
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
	/*
	 * 2-level trees: P spines, every leaf facing all (today's
	 * period); 3-level: P directors, whatever the leaves face today
	 */
	if (period < 2 || bare != period) {
		parts = n && bare > 1 ? director_parts(g, leaf, bare) : 0;
		period = parts;
		bare = parts;
	}
	if (period < 2 || r <= period || r % period == 0) {
		free(leaf);
		return 0;
	}
	/* LIDs laid out in chunks (ta_period.h) */
	for (p = r - 1; bare == period && p >= period; p--)
		if (r % p && lids_show(g, spread, leaf, r, n, p))
			break;
	if (bare != period || p < period) {
		free(leaf);
		return 0;
	}
	period = p;
	t = ta_chunk_positions(r, n);
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
		c = ta_chunk_of(q, t, period);
		start = ta_chunk_start(c, t, period);
		r0 = start > l + 1 ? (uint32_t)((start - l - 1 + n - 1) / n) :
				     0;
		spread[d] = c + period * (rank - r0 + x->sw);
	}
	*leaf_rot = leaf;
	return 1;
}
