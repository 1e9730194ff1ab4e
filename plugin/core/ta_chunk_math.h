/* SPDX-License-Identifier: MIT */
/*
 * The chunk layout's arithmetic, shared by the routing core
 * (ta_period.c: the keys) and lid_assign (lid_chunks.c: the groups), so
 * both cut the same chunks.  Pure functions, no OpenSM header.
 *
 * Positions: q = 1 + rank * N + leaf for a host (rank = switch port - 1,
 * leaf = its switch's place among the N switches with hosts) and
 * q = 1 + R * N + leaf for a leaf switch's own LID; position 0 stands
 * for LID 0.  T = (R + 1) * N + 1 positions are cut into P contiguous
 * chunks; chunk c starts at ceil(c * T / P).
 *
 * Parts: the switches without hosts, split into the connected pieces
 * they form without the leaves (a 2-level tree's spines one by one, a
 * 3-level tree's directors: line and fabric switches).  Chunk c climbs
 * through part c at every leaf, and part c's own switch LIDs go with
 * chunk c.  The routing core picks among a leaf's neighbours by their
 * switch index, so the parts are ordered by the lowest index among their
 * switches that face a leaf, and the layout applies only where every
 * leaf's neighbours, by index, lie in distinct parts in that order (the
 * same at every leaf); both sides check it the same way here.
 */
#ifndef TA_CHUNK_MATH_H
#define TA_CHUNK_MATH_H

#include <stdint.h>
#include <stdlib.h>

#define TA_CHUNK_BLOCK 64u
#define TA_CHUNK_NONE UINT32_MAX

static inline uint64_t ta_chunk_positions(uint32_t r, uint32_t n)
{
	return (uint64_t)(r + 1) * n + 1;
}

/* first position of chunk c of p over t positions */
static inline uint64_t ta_chunk_start(uint64_t c, uint64_t t, uint32_t p)
{
	return (c * t + p - 1) / p;
}

static inline uint32_t ta_chunk_of(uint64_t q, uint64_t t, uint32_t p)
{
	return (uint32_t)(q * p / t);
}

static inline uint64_t ta_chunk_position(uint32_t rank, uint32_t leaf,
					 uint32_t n)
{
	return 1 + (uint64_t)rank * n + leaf;
}

/* 64-LID blocks chunk c takes */
static inline uint64_t ta_chunk_blocks(uint32_t c, uint64_t t, uint32_t p)
{
	return (ta_chunk_start(c + 1, t, p) - ta_chunk_start(c, t, p) +
		TA_CHUNK_BLOCK - 1) / TA_CHUNK_BLOCK;
}

static inline int ta_chunk_cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Parts (see above).  n_sw switches; host[s]: s has hosts; the
 * neighbour switches of s are peer[start[s] .. start[s + 1] - 1] (in
 * any order, repeats allowed).  Writes part[s]: the ordinal of s's part,
 * TA_CHUNK_NONE for a leaf.  Returns the number of parts, 0 if the
 * fabric is not such a tree (no leaf, a leaf next to a leaf, two
 * neighbours of a leaf in one part, a part facing no leaf, or leaves
 * that order the parts differently), -1 if out of memory.
 */
static inline int ta_chunk_parts(uint32_t n_sw, const uint8_t *host,
				 const uint32_t *start, const uint32_t *peer,
				 uint32_t *part)
{
	uint32_t *stack = malloc(((size_t)n_sw + 1) * sizeof(*stack));
	uint32_t *low = malloc(((size_t)n_sw + 1) * sizeof(*low));
	size_t n_nb = start[n_sw] > n_sw ? start[n_sw] : n_sw;
	uint32_t *nb = malloc((n_nb + 1) * sizeof(*nb));
	uint32_t s, i, k, top, d = 0, leaves = 0;
	int ret = 0;

	if (!stack || !low || !nb) {
		ret = -1;
		goto out;
	}
	for (s = 0; s < n_sw; s++)
		part[s] = TA_CHUNK_NONE;
	/* pieces without the leaves; low[]: lowest switch facing a leaf */
	for (s = 0; s < n_sw; s++) {
		if (host[s] || part[s] != TA_CHUNK_NONE)
			continue;
		low[d] = TA_CHUNK_NONE;
		part[s] = d;
		stack[0] = s;
		top = 1;
		while (top) {
			uint32_t x = stack[--top];

			for (i = start[x]; i < start[x + 1]; i++) {
				uint32_t y = peer[i];

				if (host[y]) {
					low[d] = x < low[d] ? x : low[d];
				} else if (part[y] == TA_CHUNK_NONE) {
					part[y] = d;
					stack[top++] = y;
				}
			}
		}
		if (low[d] == TA_CHUNK_NONE)
			goto out;	/* a part facing no leaf */
		d++;
	}
	/* parts in the order of low[]: ordinals */
	for (k = 0; k < d; k++)
		stack[k] = k;
	for (k = 1; k < d; k++) {	/* insertion sort by low[] */
		uint32_t v = stack[k];

		for (i = k; i && low[stack[i - 1]] > low[v]; i--)
			stack[i] = stack[i - 1];
		stack[i] = v;
	}
	for (k = 0; k < d; k++)
		nb[stack[k]] = k;
	for (s = 0; s < n_sw; s++)
		if (part[s] != TA_CHUNK_NONE)
			part[s] = nb[part[s]];
	/* every leaf: neighbours by index in distinct parts, in order */
	for (s = 0; s < n_sw; s++) {
		uint32_t m = 0, prev = TA_CHUNK_NONE;

		if (!host[s])
			continue;
		leaves++;
		for (i = start[s]; i < start[s + 1]; i++)
			nb[m++] = peer[i];
		qsort(nb, m, sizeof(*nb), ta_chunk_cmp_u32);
		for (i = 0; i < m; i++) {
			if (i && nb[i] == nb[i - 1])
				continue;	/* parallel links */
			if (host[nb[i]] || (prev != TA_CHUNK_NONE &&
					    part[nb[i]] <= prev))
				goto out;
			prev = part[nb[i]];
		}
	}
	ret = leaves ? (int)d : 0;
out:
	free(stack);
	free(low);
	free(nb);
	return ret;
}

#endif
