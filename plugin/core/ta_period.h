/* SPDX-License-Identifier: MIT */
/*
 * The leaves' period: the number of neighbour switches that every
 * switch with hosts has, when they all have the same number (a fat
 * tree's leaves: its spines or directors), else 0; also 0 unless some
 * switch has no host (only tree-like fabrics have leaves).  The route choice
 * sends host rank r through neighbour r mod period at every leaf
 * (ta_engine.c), and lid_assign groups ranks by the same period, so
 * the LIDs one spine carries stay together on oversubscribed leaves
 * (where P does not divide R: by chunks, below).
 */
#ifndef TA_PERIOD_H
#define TA_PERIOD_H

#include <stdint.h>

#include "ta_graph.h"

/* 0 for none (no host, or switches with hosts differ) */
uint32_t ta_graph_leaf_period(const struct ta_graph *g);

/*
 * Oversubscribed 2-level trees whose spine count does not divide the
 * host ports (LMC 0, R > P, P not dividing R, exactly P switches
 * without hosts), and 3-level trees whose P directors (the parts of
 * ta_chunk_math.h: the switches without hosts, connected without the
 * leaves, every leaf facing each at most once, in one order by switch
 * index) do not divide R: rank granularity cannot balance R ranks over P
 * spines (spines r < R mod P would carry two ranks, the others one, and
 * the leaf LIDs yet other blocks).  Instead the positions (rank r, leaf
 * L), rank-major, leaves in index order, every leaf fully populated,
 * then the leaf switches' own LIDs as rank R, are cut into P contiguous
 * chunks of (R + 1) * N / P positions (N leaves); leaf i (the i-th
 * switch with hosts by index) sends chunk c through its neighbour
 * (c + i) mod P (by switch index: spine or director), so every spine
 * carries one chunk of every leaf and a destination's traffic comes down
 * to its leaf through every spine (struct ta_intree, leaf_rot), and
 * lid_assign gives each chunk its own
 * block-aligned range (lid_assign/README, "Oversubscribed leaves").  So
 * a spine carries the fewest 64-LID blocks per leaf.  Used only where
 * the LIDs show that layout (every host LID in its chunk's blocks) for
 * some P' from R - 1 down to P with P' not dividing R, with that P' (a
 * spine failure lowers P for a while, and a tree whose spine count
 * divides R keeps the rank rule after it); LIDs in another order (rank
 * groups, OpenSM's own) keep the rank rule too.  spread[] holds
 * make_spread()'s values (rank, or switch index); rewrites them into
 * keys and returns 1, else (not such a tree, or out of memory) changes
 * nothing and returns 0.  With 1, *leaf_rot (the caller frees it) gets
 * each switch with hosts' place among them by index, the rotation of
 * struct ta_intree (UINT32_MAX at the others).
 */
int ta_period_chunk_keys(const struct ta_graph *g, uint32_t period,
			 uint32_t *spread, uint32_t **leaf_rot);

#endif
