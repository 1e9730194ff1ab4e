/* SPDX-License-Identifier: MIT */
/*
 * Chunk groups: LMC 0 on a 2-level fat tree whose spine count P does
 * not divide the host ports R, or a 3-level one with P such directors
 * (the parts of plugin/core/ta_chunk_math.h, whose arithmetic this
 * uses) (lid_assign/README, "Oversubscribed
 * leaves").  The positions (rank r, leaf l), rank-major (q = r * N + l,
 * N leaves, l a leaf's place among them in GUID order), then the leaf
 * switches' own LIDs as rank R, after one position for LID 0 (q + 1),
 * are cut into P contiguous chunks of T / P positions, T = (R + 1) * N
 * + 1; chunk c is group c and climbs
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
	uint32_t *crowd;	/* [p] 3-level: switches of part g (their
				 * LIDs go with chunk g), or NULL */
};

/*
 * Decides whether the layout applies, given R, today's period p and
 * the switches' GUID-order indices; fills c (c->p = 0 if not).  Without
 * old host LIDs it applies where p does not divide R.  Old host LIDs
 * keep the P they show: the highest from R - 1 down to p whose chunks,
 * laid out from LID 1, hold every old host LID in its chunk's blocks (a
 * spine failure lowers p for a while).  If none does, old LIDs where
 * consecutive ranks share blocks (the leaves changed) take today's p if
 * it applies; other old LIDs (rank groups) leave the choice to
 * lid_groups.c.  0 or -ENOMEM.
 */
int la_chunks_choose(const struct la_input *in, uint32_t r, uint32_t p,
		     const uint32_t *sw_rank, struct la_chunks *c);
void la_chunks_free(struct la_chunks *c);
/*
 * The group of a host or switch port 0: its chunk.  A spine's LID goes
 * with the chunk it carries (spine k in GUID order: chunk k mod P; a
 * director's switches: the director's ordinal k), so
 * its failure rewrites no other block for it, if the chunk's blocks
 * have room for it (with every leaf fully populated); else into group
 * P, after the chunks (a full chunk's hosts keep their blocks).
 */
uint32_t la_chunk_group(const struct la_chunks *c, const struct la_port *p);
/* P, or P + 1 when some spine's LID goes after the chunks */
uint32_t la_chunk_groups(const struct la_chunks *c);
/* host positions in chunk g (every leaf fully populated) */
uint32_t la_chunk_room(const struct la_chunks *c, uint32_t g);

#endif
