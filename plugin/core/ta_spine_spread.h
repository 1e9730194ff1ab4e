/* SPDX-License-Identifier: MIT */
/*
 * The routing core's side of the spine sets (ta_spine_sets.h): where
 * 2^LMC does not divide the leaves' period P and the LIDs show the
 * sets' layout (lid_assign made it for today's P), each LID's spread
 * gets as low digit (spread mod P: the spine its leaf sends it
 * through) a spine of its set; a host LID's higher digits number the
 * host LIDs of a leaf that spine carries (ta_ss_host_spread), a leaf
 * switch LID keeps its own.  Elsewhere
 * (LMC 0, 2^LMC dividing P or at least P, LIDs in another layout, e.g.
 * while a spine is down) the spreads stay the consecutive ones.
 */
#ifndef TA_SPINE_SPREAD_H
#define TA_SPINE_SPREAD_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * spread[d]: rank (or switch index) * m + LID offset, m LIDs a host
 * port.  1: the LIDs show the sets (for P, or while spines are down
 * for up to 8 more) on a two-level tree (the switches without hosts
 * are the P spines); 0: not; -1 out of memory.
 */
int ta_spine_spread(const struct ta_graph *g, uint32_t m, uint32_t *spread);

#endif
