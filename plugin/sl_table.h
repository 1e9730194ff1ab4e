/* SPDX-License-Identifier: MIT */
/*
 * The SL of every path, as SA PathRecords hand it out (the engine's
 * path_sl callback): the layer the routing put the path from a source
 * switch to a destination LID on (ta_result.layer).  A source port's
 * path is its switch's path (a switch LID's: that switch's own).  The
 * table lives between sweeps and is replaced only by a routing that
 * succeeds; a routing on one layer leaves none, and path_sl then
 * answers OpenSM's own SL (the hint).
 *
 * Size: one byte per switch and LID (1,620 switches and 13,000 LIDs:
 * 21 MB) plus 4 bytes per LID, only while paths are off layer 0.
 *
 * No OpenSM header here: LIDs are in host order.
 */
#ifndef SL_TABLE_H
#define SL_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "ta_engine.h"
#include "ta_graph.h"

#define TURNADD_SL_NONE 255u	/* layer[]: no route */

struct turnadd_sl {
	uint32_t n_sw;		/* rows: the routing's switches */
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
	uint32_t *src_row;	/* [lid]: row of the switch the LID's port
				 * is on, UINT32_MAX if none */
	uint8_t *layer;		/* [row * n_lids + lid], NULL: none */
	unsigned layers;	/* highest layer in use + 1 */
};

void turnadd_sl_init(struct turnadd_sl *t);
void turnadd_sl_free(struct turnadd_sl *t);

/*
 * Replaces t by the layers of routing res of g: a table where a path
 * is off layer 0, else none.  0, or -1 on allocation failure (t is
 * then left as it was).
 */
int turnadd_sl_take(struct turnadd_sl *t, const struct ta_graph *g,
		    const struct ta_result *res);

/* the SL of the path slid -> dlid, hint where t holds none */
uint8_t turnadd_sl_get(const struct turnadd_sl *t, uint8_t hint,
		       uint16_t slid, uint16_t dlid);

/*
 * Writes one line per (switch, destination LID) of routing res of g:
 * "0x<switch GUID, 16 hex digits> <dlid> <sl>", SL 0 where res has no
 * layers.  0, or -1 on a write error.
 */
int turnadd_sl_dump(FILE *f, const struct ta_graph *g,
		    const struct ta_result *res);

#endif
