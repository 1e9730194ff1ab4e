/* SPDX-License-Identifier: MIT */
/*
 * Do the port-major LIDs, padded to whole 64-LID blocks per group, fit
 * the unicast LID space OpenSM offers (1 .. max_ucast_lid_ho: 0xBFFF,
 * or less when a switch's LinearFDBCap is lower)?  Read from
 * lid_assign's result: a port left without a LID means they do not.
 * Then the plugin does not apply the order this sweep (OpenSM gives
 * every LID in its own order; routing is unaffected, only a spine
 * failure rewrites more LFT blocks), and says so in one line.
 */
#ifndef LID_FIT_H
#define LID_FIT_H

#include "lid_order.h"
#include "ta_log.h"

/*
 * 1 (fits) or 0 (does not: one line logged, at the first sweep that
 * finds it and whenever the numbers change).
 */
int lid_fit_check(const struct la_input *in, const struct la_result *r,
		  const struct ta_log *log);

#endif
