/* SPDX-License-Identifier: MIT */
/*
 * Routing at a resweep with the routing the fabric returns to
 * (ta_home.h).  A restore is a resweep whose fabric has a part the
 * previous routing's fabric lacked (a switch, link or LID back or new);
 * a failure one whose fabric only lacks parts.
 *  - At a restore to exactly the fabric of the kept routing, that
 *    routing is reinstated whole.
 *  - Off fat trees, at a restore to a part of that fabric (parts still
 *    missing, none it lacks), the failure of the parts still missing
 *    is routed from the kept routing (ta_home_prior(), then as a
 *    failure below): the routes that failure alone gets, whatever came
 *    in between.
 *  - At any other restore, minimal change (ta_route_prior) is compared
 *    with a routing from scratch of the same fabric, on the busiest
 *    channel under uniform traffic and on permutation bandwidth
 *    (ta_perm.h): minimal change is kept if it is at least as good on
 *    both, else the routing from scratch is taken (more LFT blocks
 *    change, the routes are a bring-up's).
 *  - At a failure, minimal change is kept where it is within 2 % of a
 *    routing from scratch on both metrics, else that routing is taken.
 *    Fat trees (every link between adjacent levels) skip the comparison
 *    where the failure came to the fabric of the routing to return to
 *    (their minimal change is at its bound there), unless the escape
 *    tree clashed with the kept decisions or destinations still need
 *    the escape rule; a failure on top of an earlier one, or after a
 *    takeover (routes another SM made), is compared.  Off fat trees,
 *    minimal change within 2 % of the routing to return to on both
 *    metrics (the busiest channel scaled to the hosts left) is kept
 *    without a routing from scratch: the failure leaves the fabric no
 *    worse than before it, where a routing from scratch would move
 *    nearly every LFT block (and, over layers, decide its layers
 *    afresh, changing the SL of paths whose routes stay).
 *  - Any other resweep is minimal change.
 * One log line at every restore, and at every compared failure, says
 * which was done and why.
 */
#ifndef TA_RESTORE_H
#define TA_RESTORE_H

#include "ta_engine.h"
#include "ta_fabric_key.h"
#include "ta_home.h"

/*
 * key: g's; last: the previous routing's (empty: none).  h may be empty.
 * Returns as ta_route_prior.
 */
int ta_route_resweep(const struct ta_home *h, const struct ta_fabric_key *key,
		     const struct ta_fabric_key *last,
		     const struct ta_graph *g, const struct ta_options *o,
		     const struct ta_prior *prior, const struct ta_log *log,
		     struct ta_result *res);

/*
 * After routing res of g has been written: the kept routing becomes res
 * where g has every part of the kept one's fabric (or none is kept),
 * unless res reinstated it.  key: g's (copied).  0, or -1 on allocation
 * failure (h is then empty).
 */
int ta_home_after(struct ta_home *h, const struct ta_graph *g,
		  const struct ta_result *res, const struct ta_fabric_key *key,
		  unsigned routing);

/*
 * The first routing of an SM that read the switches' tables (a standby
 * taking over, or a fresh start): prior holds those tables as its last
 * ports (ta_saved_seed).  Routes as ta_route_prior; then, if the tables
 * route g completely (every switch reaches every destination, no loop)
 * over turns that are acyclic together with the routing's own allowed
 * turns where they fit, the tables are kept whole (no LFT block
 * changes) with those turns, whatever their balance; the log line
 * compares it with a routing from scratch (busiest channel, permutation
 * bandwidth).  Else the routing stands, and the line says why.
 */
int ta_route_adopt(const struct ta_graph *g, const struct ta_options *o,
		   const struct ta_prior *prior, const struct ta_log *log,
		   struct ta_result *res);

#endif
