/* SPDX-License-Identifier: MIT */
/*
 * A second pass for minor traffic (ta_turn_class.h): the load-aware
 * choice of the first pass only knows the destinations routed before,
 * not the minor traffic that later ones are forced onto a link.  So each
 * destination whose routes used that choice is taken out of the loads
 * (its flow along its routes, read back from its column of the table),
 * routed again under the loads of all the others, and put back: a
 * rip-up and reroute, once over all of them.  Main traffic routes stay
 * (at switches the main traffic passes the choice is the digit rule,
 * which does not depend on the loads).
 */
#ifndef TA_MINOR_PASS_H
#define TA_MINOR_PASS_H

#include <stdint.h>

#include "ta_flow.h"
#include "ta_graph.h"
#include "ta_intree.h"

/*
 * Rebuilds t (order, n_order, out_end) from the column col (col[s]:
 * port of switch s towards the destination, TA_NO_PORT if none) of a
 * destination on switch dest_sw.
 */
void ta_minor_tree_of(struct ta_intree *t, const struct ta_graph *g,
		      uint32_t dest_sw, const uint8_t *col);

/*
 * Subtracts from load[] the flow f sends along t towards a host of
 * group dgroup; tmp: per channel, all zero, left all zero.
 */
void ta_minor_take_out(const struct ta_flow *f, const struct ta_graph *g,
		       const struct ta_intree *t, uint32_t dgroup,
		       double *tmp, double *load);

#endif
