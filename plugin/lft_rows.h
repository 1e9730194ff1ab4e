/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's copies of the switches' forwarding tables (p_sw->lft, one
 * port byte per LID, filled from the switches' answers to the LFT Sets)
 * as rows of the routing memory (ta_saved.h: struct ta_saved_row), so
 * that the memory does not keep a second copy of every table between
 * sweeps.
 */
#ifndef LFT_ROWS_H
#define LFT_ROWS_H

#include "fabric_graph.h"
#include "ta_saved.h"

/*
 * rows[s] = OpenSM's table of og's switch s (port NULL where it has
 * none); free() it.  NULL on allocation failure.
 */
struct ta_saved_row *turnadd_lft_rows(const struct turnadd_graph *og);

#endif
