/* SPDX-License-Identifier: MIT */
/*
 * Permutation traffic over a routing's tables, for choosing between
 * candidate routings (ta_engine.c): every host sends to one host and
 * receives from one, and a flow gets 1 / (flows on the busiest channel
 * of its path).  The mean over the flows is the effective bisection
 * bandwidth of the SSSP/DFSSSP papers; scripts/lftcheck --perm computes
 * the same independently from tables read back from the switches.
 */
#ifndef TA_PERM_H
#define TA_PERM_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * port: [sw * g->n_dest + d], as struct ta_result's.  Patterns: n_rand
 * random permutations of the hosts (seeded) and up to n_shift shifts
 * i -> i + s of the hosts in node-description order, numbers by value
 * (s spread evenly over 1 .. hosts - 1).  Returns the mean over all their flows, 1 with fewer
 * than two hosts, -1 when out of memory.
 */
double ta_perm_bandwidth(const struct ta_graph *g, const uint8_t *port,
			 unsigned n_rand, unsigned n_shift, uint64_t seed);

#endif
