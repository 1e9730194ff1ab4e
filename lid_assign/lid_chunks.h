/* SPDX-License-Identifier: MIT */
/*
 * Chunk groups: LMC 0 on a 2-level fat tree whose spine count P does
 * not divide the host ports R (lid_assign/README, "Oversubscribed
 * leaves").  The positions (rank r, leaf l), rank-major (q = r * N + l,
 * N leaves, l a leaf's place among them in GUID order), then the leaf
 * switches' own LIDs as rank R, are cut into P contiguous chunks of
 * T / P positions, T = (R + 1) * N; chunk c is group c and climbs
 * through spine c, as the routing core's keys say
 * (plugin/core/ta_period.h, ta_period_chunk_keys()).
 */
#ifndef LID_CHUNKS_H
#define LID_CHUNKS_H

#include <stdint.h>

#include "lid_order.h"

struct la_chunks {
	uint32_t p;		/* chunks (groups); 0: not this layout */
	uint32_t r;		/* host ranks R */
	uint32_t n;		/* leaves N */
	uint32_t *place;	/* [n_sw] place among the leaves, or among
				 * the spines (switches without hosts) */
	uint8_t *spine;		/* [n_sw] 1: a spine */
};

/*
 * Decides whether the layout applies, given R, today's period p and
 * the switches' GUID-order indices; fills c (c->p = 0 if not).  Old
 * host LIDs that show this layout (two ranks in one block, every block
 * inside one chunk) keep the P they show, from p up (a spine failure
 * lowers p for a while).  0 or -ENOMEM.
 */
int la_chunks_choose(const struct la_input *in, uint32_t r, uint32_t p,
		     const uint32_t *sw_rank, struct la_chunks *c);
void la_chunks_free(struct la_chunks *c);
/*
 * The group of a host or switch port 0: its chunk; a spine's LID goes
 * with the chunk it carries (spine k in GUID order: chunk k mod P), so
 * its failure rewrites no other block for it.
 */
uint32_t la_chunk_group(const struct la_chunks *c, const struct la_port *p);
/* host positions in chunk g (every leaf fully populated) */
uint32_t la_chunk_room(const struct la_chunks *c, uint32_t g);

#endif
