/* SPDX-License-Identifier: MIT */
/*
 * Check assertions the unit tests share, on route_verify.c's independent
 * verdict and on channel loads walked hop by hop through a result.
 */
#ifndef ROUTE_ASSERT_H
#define ROUTE_ASSERT_H

#include <stdint.h>

#include "route_verify.h"

/*
 * Fails the test (messages start with what) unless the report has host
 * pairs, every host pair and host-to-switch route is reachable and the
 * channel dependency graph is acyclic.
 */
void assert_report_good(const struct verify_report *rep, const char *what);

/* verify_routes() on r, then assert_report_good(). */
void assert_routes_good(const struct ta_graph *g, const struct ta_result *r,
			const char *what);

/* which ordered host pairs (src, dst: destination indexes) send */
typedef int (*host_pair_filter)(const struct ta_graph *g, uint32_t src,
				uint32_t dst);

/*
 * Every counted host pair (counted NULL: all) sends one unit over the
 * routes of r, walked hop by hop from the source's switch; fails the test
 * on a route that is missing or loops.  Returns the load of the busiest
 * inter-switch channel (the throughput of lftcheck -t is its inverse);
 * *hop_sum (if not NULL) gets the inter-switch hops summed.
 */
uint64_t host_max_load(const struct ta_graph *g, const struct ta_result *r,
		       host_pair_filter counted, const char *what,
		       uint64_t *hop_sum);

/*
 * Permutation traffic: n random permutations of the hosts (topo_prng
 * seeded with seed) and up to `shifts` shifts i -> i + s of the hosts in
 * destination order (s spread evenly over 1 .. hosts - 1); each flow gets
 * 1 / (flows on the busiest inter-switch channel of its path, walked hop
 * by hop through r's ports; at least 1).  Returns the mean over all
 * flows; fails the test on a route that is missing or loops.
 */
double perm_bandwidth(const struct ta_graph *g, const struct ta_result *r,
		      unsigned n, unsigned shifts, uint64_t seed);

#endif
