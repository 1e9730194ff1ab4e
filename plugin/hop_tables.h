/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's min-hop tables (the "LID matrices": per switch, per switch
 * LID and per port, the hops to that LID leaving by that port), filled
 * by breadth-first search from every switch instead of OpenSM's
 * relaxation rounds.  The multicast manager and the SA read them.
 *
 * The result is the table osm_ucast_mgr_build_lid_matrices() builds
 * with the default hop weight 1: the switch's own LID has 0 hops on
 * port 0; a port cabled to another switch has 1 hop to that switch's
 * LID (whatever the link's health); a port whose link is healthy has
 * 1 + the least hops of the switch behind it to every other switch
 * LID it reaches; port 0 holds the least hops.  Only switch LIDs have
 * entries, as in OpenSM.  tests/integration/hop_tables.sh compares the
 * two tables as OpenSM dumps them.
 */
#ifndef OSM_HOPS_H
#define OSM_HOPS_H

#include "fabric_graph.h"
#include "ta_log.h"

/*
 * Fills the hop tables of og's switches (OpenSM has reset them before
 * routing).  Returns 0, or -1 after logging why (allocation failure).
 */
int turnadd_hops_fill(const struct turnadd_graph *og, const struct ta_log *log);

#endif
