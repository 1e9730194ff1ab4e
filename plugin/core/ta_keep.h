/* SPDX-License-Identifier: MIT */
/*
 * Keeping a destination's previous routes whole on a resweep after parts
 * of the fabric went away: they are kept when every switch of the
 * destination's piece still has its previous output, that output is
 * still a cable, each step turns onto the next switch's previous output
 * by an allowed turn, and following the outputs from any switch ends at
 * the destination.  ta_engine.c uses this only when no turn is new, so
 * the kept routes are still shortest over the allowed turns.
 */
#ifndef TA_KEEP_H
#define TA_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "ta_graph.h"

struct ta_keep {
	const struct ta_graph *g;
	uint8_t *end_of_port;	/* [s * 256 + port]: link end, or 0xff */
	uint8_t *mark;		/* per switch, scratch */
	uint32_t *stack;	/* per switch, scratch */
};

int ta_keep_init(struct ta_keep *k, const struct ta_graph *g);
void ta_keep_free(struct ta_keep *k);

/*
 * 1 if the previous outputs last[s * stride] (one destination's column)
 * form such an in-tree to dest_sw over the switches s with piece[s] ==
 * piece[dest_sw], delivering by port deliver there; else 0.
 */
int ta_keep_check(struct ta_keep *k, const uint8_t *state,
		  const uint8_t *last, size_t stride, uint32_t dest_sw,
		  uint8_t deliver, const uint32_t *piece);

#endif
