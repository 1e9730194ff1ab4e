/* SPDX-License-Identifier: MIT */
/*
 * Uniform traffic over a routing's tables (every host sends 1 to every
 * other host): the busiest channel, and which destinations to move off
 * the channels busier than a target (ta_fail_relief.c, after a failure).
 */
#ifndef TA_HOT_H
#define TA_HOT_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * The busiest channel's load when every host sends 1 to every other
 * host along port ([sw * g->n_dest + d]); -1 when out of memory.
 */
double ta_uniform_peak(const struct ta_graph *g, const uint8_t *port);

/*
 * Marks in release[] (per destination) the host destinations whose
 * routes along port carry most of the load above target on the busiest
 * channels (at most TA_HOT_CHANNELS of them, busiest first): largest
 * share first, until what they carry there covers each such channel's
 * excess.  Destinations already marked do not count: port routed them
 * again, and what they still carry there is part of the excess.
 * Returns how many
 * it marked, 0 when no channel is busier than target (or nothing is
 * left to mark), -1 when out of memory.
 */
#define TA_HOT_CHANNELS 64u
int64_t ta_hot_release(const struct ta_graph *g, const uint8_t *port,
		       double target, uint8_t *release, uint8_t *hot_mask);

/*
 * The same, each destination's share weighed against the LFT blocks
 * moving it would newly rewrite: base holds the routes before the
 * failure (same layout as port); a (switch, 64-LID block) where port
 * already differs from base costs nothing.  A destination's share is
 * divided by 1 + the blocks not yet rewritten that hold its LID at the
 * switches whose route to it crosses a hot channel.
 */
int64_t ta_hot_release_blocks(const struct ta_graph *g, const uint8_t *port,
			      const uint8_t *base, double target,
			      uint8_t *release, uint8_t *hot_mask);

#endif
