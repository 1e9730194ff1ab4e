// SPDX-License-Identifier: MIT
/* Chunk groups (see lid_chunks.h). */
#include <errno.h>
#include <stdlib.h>

#include "lid_chunks.h"
#include "lid_gcd.h"

#define BLOCK 64u

/* position 0 stands for LID 0, which group 0's first block lacks */
static uint64_t positions(const struct la_chunks *c)
{
	return (uint64_t)(c->r + 1) * c->n + 1;
}

/* first position of chunk g */
static uint64_t chunk_start(const struct la_chunks *c, uint64_t g)
{
	return (g * positions(c) + c->p - 1) / c->p;
}

static uint32_t chunk_of(const struct la_chunks *c, uint64_t q)
{
	return (uint32_t)(q * c->p / positions(c));
}

static uint64_t position(const struct la_chunks *c, const struct la_port *p)
{
	uint32_t rank = p->kind == LA_HOST ? p->sw_port - 1u : c->r;

	return 1 + (uint64_t)rank * c->n + c->place[p->sw];
}

/* blocks of chunk g's positions */
static uint64_t chunk_blocks(const struct la_chunks *c, uint32_t g)
{
	return (chunk_start(c, g + 1) - chunk_start(c, g) + BLOCK - 1) / BLOCK;
}

/* chunk g's positions and one LID more fit its blocks */
static bool spine_fits(const struct la_chunks *c, uint32_t g)
{
	return chunk_blocks(c, g) * BLOCK >
	       chunk_start(c, g + 1) - chunk_start(c, g);
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
	c->place = NULL;
	c->spine = NULL;
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
	if (in->lmc || p < 2 || r <= p)
		return 0;
	if (find_leaves(in, sw_rank, c, &bare)) {
		la_chunks_free(c);
		return -ENOMEM;
	}
	if (bare != p || !c->n) {	/* 2-level trees only */
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
