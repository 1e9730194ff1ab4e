// SPDX-License-Identifier: MIT
/* Chunk groups (see lid_chunks.h). */
#include <errno.h>
#include <stdlib.h>

#include "lid_chunks.h"
#include "../plugin/core/ta_chunk_math.h"
#include "lid_gcd.h"

#define BLOCK TA_CHUNK_BLOCK

static uint64_t positions(const struct la_chunks *c)
{
	return ta_chunk_positions(c->r, c->n);
}

/* first position of chunk g */
static uint64_t chunk_start(const struct la_chunks *c, uint64_t g)
{
	return ta_chunk_start(g, positions(c), c->p);
}

static uint32_t chunk_of(const struct la_chunks *c, uint64_t q)
{
	return ta_chunk_of(q, positions(c), c->p);
}

static uint64_t position(const struct la_chunks *c, const struct la_port *p)
{
	return ta_chunk_position(p->kind == LA_HOST ? p->sw_port - 1u : c->r,
				 c->place[p->sw], c->n);
}

/* blocks of chunk g's positions */
static uint64_t chunk_blocks(const struct la_chunks *c, uint32_t g)
{
	return ta_chunk_blocks(g, positions(c), c->p);
}

/*
 * chunk g's blocks hold its positions and the LIDs of the switches
 * without hosts that go with it (at least one LID more)
 */
static bool spine_fits(const struct la_chunks *c, uint32_t g)
{
	uint32_t more = c->crowd && c->crowd[g] > 1 ? c->crowd[g] : 1;

	return chunk_blocks(c, g) * BLOCK >=
	       chunk_start(c, g + 1) - chunk_start(c, g) + more;
}

uint32_t la_chunk_group(const struct la_chunks *c, const struct la_port *p)
{
	uint32_t g;

	if (p->kind == LA_SWITCH && c->spine[p->sw]) {
		g = c->place[p->sw] % c->p;
		return spine_fits(c, g) ? g : c->p;
	}
	return chunk_of(c, position(c, p));
}

uint32_t la_chunk_groups(const struct la_chunks *c)
{
	uint32_t g;

	for (g = 0; g < c->p && spine_fits(c, g); g++)
		;
	return g < c->p ? c->p + 1 : c->p;
}

uint32_t la_chunk_room(const struct la_chunks *c, uint32_t g)
{
	uint64_t hosts = 1 + (uint64_t)c->r * c->n;
	uint64_t lo, hi;

	if (g >= c->p)
		return 0;
	lo = chunk_start(c, g);
	hi = chunk_start(c, g + 1);
	lo = lo > 1 ? lo : 1;
	lo = lo < hosts ? lo : hosts;
	hi = hi < hosts ? hi : hosts;
	return (uint32_t)(hi - lo);
}

void la_chunks_free(struct la_chunks *c)
{
	free(c->place);
	free(c->spine);
	free(c->crowd);
	c->place = NULL;
	c->spine = NULL;
	c->crowd = NULL;
	c->p = 0;
}

static int cmp_pair(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) :
			      (a[1] < b[1] ? -1 : a[1] > b[1]);
}

/*
 * Old host LIDs as (block, position) pairs sorted; *ranks: the greatest
 * common divisor of the rank differences inside blocks (1 for this
 * layout, a multiple of P for the rank groups, 0: no block holds two
 * ranks).  Returns the number of pairs.
 */
static size_t old_pairs(const struct la_input *in, const struct la_chunks *c,
			uint64_t *pair, uint64_t *ranks)
{
	size_t n = 0, i;

	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];

		if (p->kind != LA_HOST || !p->old_lid)
			continue;
		pair[2 * n] = p->old_lid / BLOCK;
		pair[2 * n++ + 1] = position(c, p);
	}
	qsort(pair, n, 2 * sizeof(*pair), cmp_pair);
	*ranks = 0;
	for (i = 1; i < n; i++)
		if (pair[2 * i] == pair[2 * i - 2])
			*ranks = la_gcd(*ranks, (pair[2 * i + 1] - 1) / c->n -
					     (pair[2 * i - 1] - 1) / c->n);
	return n;
}

/*
 * Every old host LID lies in the blocks its chunk of c->p takes when
 * the chunks are laid out one after the other, each from a block
 * boundary (the natural layout of lid_layout.c).  pair[] is sorted by
 * block, so the chunks come in order.
 */
static bool shows(const struct la_chunks *c, const uint64_t *pair, size_t n)
{
	uint64_t first = 0;
	uint32_t g = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t want = chunk_of(c, pair[2 * i + 1]);

		while (g < want)
			first += chunk_blocks(c, g++);
		if (g != want || pair[2 * i] < first ||
		    pair[2 * i] >= first + chunk_blocks(c, g))
			return false;
	}
	return true;
}

/* leaves and spines in GUID order; *bare: the number of spines */
static int find_leaves(const struct la_input *in, const uint32_t *sw_rank,
		       struct la_chunks *c, uint32_t *bare)
{
	uint32_t *by_rank = malloc((in->n_sw + 1) * sizeof(*by_rank));
	uint32_t i;

	c->place = malloc((in->n_sw + 1) * sizeof(*c->place));
	c->spine = malloc(in->n_sw + 1);
	if (!by_rank || !c->place || !c->spine) {
		free(by_rank);
		return -ENOMEM;
	}
	for (i = 0; i < in->n_sw; i++) {
		c->spine[i] = 1;
		by_rank[sw_rank[i]] = i;
	}
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST)
			c->spine[in->ports[i].sw] = 0;
	c->n = 0;
	*bare = 0;
	for (i = 0; i < in->n_sw; i++) {
		uint32_t s = by_rank[i];

		c->place[s] = c->spine[s] ? (*bare)++ : c->n++;
	}
	free(by_rank);
	return 0;
}

/*
 * 3-level trees: the spines' places become their parts' ordinals
 * (ta_chunk_math.h), when the parts are fewer than the spines; returns
 * their number (the chunks' P), 0 if not such a tree, -ENOMEM.
 */
static int director_parts(const struct la_input *in, struct la_chunks *c,
			  uint32_t bare)
{
	uint32_t *start = malloc((in->n_sw + 1) * sizeof(*start));
	uint32_t *part = malloc((in->n_sw + 1) * sizeof(*part));
	uint8_t *host = malloc(in->n_sw + 1);
	uint32_t i;
	int d = -ENOMEM;

	if (!start || !part || !host)
		goto out;
	start[0] = 0;
	for (i = 0; i < in->n_sw; i++) {
		start[i + 1] = start[i] + in->sw_peers[i];
		host[i] = !c->spine[i];
	}
	d = ta_chunk_parts(in->n_sw, host, start, in->sw_peer, part);
	if (d < 0) {
		d = -ENOMEM;
	} else if (d < 2 || (uint32_t)d >= bare) {
		d = 0;
	} else {
		/* [chunk]: the chunks can outnumber today's parts */
		c->crowd = calloc((size_t)c->r + d + 1, sizeof(*c->crowd));
		if (!c->crowd) {
			d = -ENOMEM;
			goto out;
		}
		for (i = 0; i < in->n_sw; i++) {
			if (!c->spine[i])
				continue;
			c->place[i] = part[i];
			c->crowd[part[i]]++;
		}
	}
out:
	free(start);
	free(part);
	free(host);
	return d;
}

int la_chunks_choose(const struct la_input *in, uint32_t r, uint32_t p,
		     const uint32_t *sw_rank, struct la_chunks *c)
{
	uint64_t *pair;
	uint64_t ranks;
	uint32_t bare, k;
	size_t n;

	c->p = 0;
	c->r = r;
	c->place = NULL;
	c->spine = NULL;
	c->crowd = NULL;
	if (in->lmc || (in->sw_peer ? r < 3 : p < 2 || r <= p))
		return 0;
	if (find_leaves(in, sw_rank, c, &bare)) {
		la_chunks_free(c);
		return -ENOMEM;
	}
	/* 2-level: P spines, every leaf facing all (today's period) */
	if ((p < 2 || bare != p) && c->n && bare > 1 && in->sw_peer) {
		/* 3-level: P directors, whatever the leaves face today */
		int d = director_parts(in, c, bare);

		if (d < 0) {
			la_chunks_free(c);
			return d;
		}
		p = (uint32_t)d;
		bare = p;
	}
	if (bare != p || !c->n || p < 2 || r <= p) {
		la_chunks_free(c);
		return 0;
	}
	pair = malloc((2 * (size_t)in->n_ports + 2) * sizeof(*pair));
	if (!pair) {
		la_chunks_free(c);
		return -ENOMEM;
	}
	n = old_pairs(in, c, pair, &ranks);
	if (n) {
		/* LIDs given by this layout: the P they show */
		for (k = r - 1; k >= p; k--) {
			c->p = k;
			if (r % k && shows(c, pair, n))
				break;
		}
		/* none, but consecutive ranks share blocks (the leaves
		 * changed): today's, if it applies; else rank groups */
		c->p = k >= p ? k : ranks == 1 && r % p ? p : 0;
	} else {
		c->p = r % p ? p : 0;	/* a fresh fabric */
	}
	free(pair);
	if (!c->p)
		la_chunks_free(c);
	return 0;
}
