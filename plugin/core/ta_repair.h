/* SPDX-License-Identifier: MIT */
/*
 * Next-hop repair after a failure (option failure_routes nexthop,
 * ta_restore.c): towards each destination, every switch whose latest
 * port leads nowhere now takes the port to a neighbour that still
 * reaches the destination, over turns the routing allows (the fewest
 * hops, then the port that carries the fewest destinations), and every
 * other entry stays.  Only the entries the failure forces change.
 */
#ifndef TA_REPAIR_H
#define TA_REPAIR_H

#include <stdint.h>

#include "ta_engine.h"

/*
 * res: a minimal change of g from prior (routes over one layer), whose
 * turn decisions the repair keeps.  out ([sw * n_dest + dest]) gets
 * prior's latest ports repaired; a destination that cannot be repaired
 * so (a switch with no such neighbour, a kept route over a turn res
 * does not allow) keeps res's routes.  Returns the destinations
 * repaired or kept whole, -1 when out of memory.
 */
int64_t ta_repair(const struct ta_graph *g, const struct ta_prior *prior,
		  const struct ta_result *res, uint8_t *out);

#endif
