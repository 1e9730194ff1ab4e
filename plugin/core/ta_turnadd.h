/* SPDX-License-Identifier: MIT */
/*
 * Turn addition (the paper's method): estimate the traffic crossing each
 * turn from routes with nothing prohibited, then decide turn pairs
 * heaviest first, allowing a pair unless it closes a cycle of allowed
 * turns.
 */
#ifndef TA_TURNADD_H
#define TA_TURNADD_H

#include <stdint.h>

#include "ta_cdg.h"
#include "ta_graph.h"
#include "ta_traffic.h"

/*
 * Adds to w[turn] the traffic that crosses each turn when every host
 * sends to every host over shortest paths with no turn prohibited.
 * group[d] is each destination's traffic group, spread[d] its choice
 * index among equal next hops (ta_intree_build); destinations are taken
 * in the given order (grouped by switch: faster), or index order if NULL.
 */
int ta_turn_traffic(const struct ta_graph *g, const struct ta_traffic *tr,
		    const uint32_t *group, const uint32_t *spread,
		    const uint32_t *order, double *w);

/*
 * Decides every undecided turn pair of c, heaviest first (sum of both
 * directions).  Equal weights: one pair per switch in turn, each switch
 * rotating over the far-end neighbours of its pairs; switches in index
 * order, or in a seeded shuffled order when seed != 0.
 */
int ta_turnadd_decide(struct ta_cdg *c, const double *w, uint64_t seed);

/*
 * The same with turn classes (ta_turn_class.h), light[turn] != 0 for a
 * light turn (NULL: no classes, ta_turnadd_decide): first the pairs
 * the main traffic crosses, as above; then the light pairs (each
 * direction light or without traffic), by the switch's level[] (the
 * escape tree's: nearest the root first; NULL: all alike), then as
 * above; last the pairs without any traffic, as above.
 */
int ta_turnadd_decide_classed(struct ta_cdg *c, const double *w,
			      const uint8_t *light, const uint32_t *level,
			      uint64_t seed);

#endif
