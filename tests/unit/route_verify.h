/* SPDX-License-Identifier: MIT */
/*
 * Test-side verdict on a routing result, computed without the engine's
 * own cycle check or tree code: walks the output ports hop by hop and
 * checks the channel dependency graph of the walked routes with Kahn's
 * algorithm.
 */
#ifndef ROUTE_VERIFY_H
#define ROUTE_VERIFY_H

#include <stdint.h>

#include "ta_engine.h"

struct verify_report {
	uint64_t host_pairs;
	uint64_t unreachable_host_pairs;
	uint64_t unreachable_host_to_switch;
	uint64_t cdg_edges;
	int cdg_cyclic;
	uint32_t max_hops;
	double mean_hops;
	double max_chan_load;	/* busiest inter-switch channel under
				 * uniform host traffic (each host sends
				 * 1.0 spread over the others) */
};

int verify_routes(const struct ta_graph *g, const struct ta_result *r,
		  struct verify_report *rep);

#endif
