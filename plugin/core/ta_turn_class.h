/* SPDX-License-Identifier: MIT */
/*
 * Light turns: with a traffic file whose weights come in classes (the
 * two-tree file: 1 inside a tree, 1/100 between), the turns that only
 * the minor traffic crosses.  Turn addition decides them after every
 * turn the main traffic crosses, in the escape tree's level order
 * (ta_turnadd_decide_classed): their weights, a small fraction of the
 * main ones, only say which way the provisional routes happened to go,
 * while the order in which they are decided says which way the minor
 * traffic can go at all.  Between two fat trees joined by several
 * links, deciding the join turns by those weights opens some joins at
 * one tree's end and others at the other's, so inter-tree routes from
 * a join open at one end to one open at the other have no way but the
 * few links open at both, and crowd there.  In level order every join
 * is opened at its end nearer the root first; the far ends then close,
 * but for the escape tree's own join, and every join carries its share.
 */
#ifndef TA_TURN_CLASS_H
#define TA_TURN_CLASS_H

#include <stdint.h>

#include "ta_graph.h"
#include "ta_traffic.h"

/*
 * A traffic weight counts as minor when it is below 1/TA_MINOR_RATIO
 * of the largest weight of the matrix.
 */
#define TA_MINOR_RATIO 10.0

struct ta_classes {
	uint8_t *light;		/* per turn slot: only minor traffic */
	uint8_t *main_sw;	/* [group * n_sw + s]: main traffic to a
				 * host of the group passes s */
	uint8_t *has_minor;	/* per group: some switch is not main */
	struct ta_traffic minor;	/* tr with the main weights 0 */
	struct ta_traffic main;		/* tr with the minor weights 0 */
	uint32_t n_sw;
};

/*
 * With w ta_turn_traffic's estimate for tr: fills c and returns the
 * number of light turns (light[turn] = 1 where w[turn] > 0 but no main
 * traffic crosses the turn under the same provisional routes), or 0
 * when tr has no minor weight (c is then empty), -1 out of memory.
 */
int64_t ta_classes_find(struct ta_classes *c, const struct ta_graph *g,
			const struct ta_traffic *tr, const uint32_t *group,
			const uint32_t *spread, const uint32_t *order,
			const double *w);
void ta_classes_free(struct ta_classes *c);

#endif
