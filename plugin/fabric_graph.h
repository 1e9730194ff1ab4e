/* SPDX-License-Identifier: MIT */
/*
 * Builds the routing core's graph from OpenSM's subnet: switches in
 * node GUID order, every cable between two switches as one link
 * (parallel cables are separate links), and one destination per LID
 * in LID order: the switches' port-0 LIDs and every LID of the LMC
 * range of each CA/router port that is cabled to a switch.
 */
#ifndef OSM_GRAPH_H
#define OSM_GRAPH_H

#include <stdint.h>

#include "turnadd_osm.h"
#include "ta_graph.h"
#include "ta_log.h"

struct turnadd_graph {
	struct ta_graph *g;		/* finalized */
	osm_switch_t **sw;		/* [g->n_sw]: graph index -> switch */
	uint32_t host_ports;		/* CA/router ports given destinations */
	uint32_t unattached_ports;	/* CA/router ports with no switch peer */
	uint32_t skipped_ports;		/* ports without a usable LID */
	uint32_t max_lids_per_port;	/* 1 << largest LMC seen */
};

/* 0 on success; -1 after logging why (og is then empty) */
int turnadd_graph_build(struct turnadd_graph *og, osm_subn_t *subn,
			const struct ta_log *log);
void turnadd_graph_clear(struct turnadd_graph *og);

/* graph index of sw, or -1 if the graph does not hold it */
int64_t turnadd_graph_switch_index(const struct turnadd_graph *og,
				   const osm_switch_t *sw);

#endif
