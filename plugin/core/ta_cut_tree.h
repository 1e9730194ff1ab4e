/* SPDX-License-Identifier: MIT */
/*
 * An escape tree for traffic groups joined by a cut, with minor traffic
 * between them (ta_turn_class.h).  Each switch belongs to the group of
 * the nearest switch with hosts; the root's group is the near side.  The
 * near side is a BFS tree from the root over its own switches; on the
 * far side every switch at the end of a cut link hangs from that link,
 * and the others take parents so that no far switch has tree neighbours
 * higher than itself (height: hops to the nearest switch with hosts) in
 * two classes.  A class: the far switches at least one higher than the
 * lowest far cut end, connected among themselves (two fat trees joined
 * at the middle level: each upper switch alone; at the bottom level:
 * the middle and upper switches of one slot), which traffic that climbs
 * into one of them reaches on the fabric's own turns.  One cut end holds
 * a switch of each class.  The far side's tree turns then go down and up
 * again only within a class, and each cut end that holds one can let
 * traffic climb on both sides without a cycle through the others.
 */
#ifndef TA_CUT_TREE_H
#define TA_CUT_TREE_H

#include <stdint.h>

#include "ta_escape.h"
#include "ta_graph.h"

/*
 * group: per destination (traffic group).  n_bent: switches that could
 * only join against the rule (or, on the near side, from the far side).
 * Returns 0; 1 where it does not apply (the root reaches no switch with
 * hosts, every switch is in the root's group, or some switch is not
 * reached); -1 out of memory.  On non-zero e is empty.
 */
int ta_escape_build_cut(struct ta_escape *e, const struct ta_graph *g,
			const double *turn_weight, const uint32_t *group,
			uint32_t root, uint32_t *n_bent);

#endif
