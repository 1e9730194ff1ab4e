/* SPDX-License-Identifier: MIT */
/*
 * The input of la_assign() read from OpenSM in the sweep: the switches
 * of sw_guid_tbl found by this sweep (the routing core numbers the same
 * ones: the drop manager removes the others before routing), the end
 * ports of port_guid_tbl found by this sweep, their old LIDs (guid2lid
 * entry; else the LID the port already carries, as a weak claim) and,
 * as reservations, the guid2lid entries of ports that are absent.  The
 * caller holds OpenSM's lock.
 */
#ifndef LID_OSM_FABRIC_H
#define LID_OSM_FABRIC_H

#include "turnadd_osm.h"
#include "lid_order.h"

struct lid_osm_fabric {
	struct la_input in;
	uint64_t *sw_guid;
	uint32_t *sw_peers;	/* distinct neighbour switches */
	uint32_t *sw_peer;	/* which (la_input.sw_peer) */
	struct la_range *reserved;
	uint32_t from_db, from_wire;	/* old LIDs by source */
};

/* 0, or -1 on allocation failure */
int lid_osm_fabric_build(struct lid_osm_fabric *f, osm_subn_t *subn,
			 osm_db_domain_t *g2l);
void lid_osm_fabric_free(struct lid_osm_fabric *f);

#endif
