/* SPDX-License-Identifier: MIT */
/*
 * Writes the routing core's result into OpenSM's switches: new_lft of
 * every switch, for every LID up to the switch's max_lid_ho, entries
 * without a route set to OSM_NO_PATH.  OpenSM then sends the 64-LID
 * blocks that differ from what the switch holds (see set_lft_block()
 * in osm_ucast_mgr.c).
 */
#ifndef OSM_LFT_H
#define OSM_LFT_H

#include <stdint.h>

#include "fabric_graph.h"
#include "ta_engine.h"
#include "ta_log.h"

struct turnadd_lft_stats {
	uint32_t switches;
	uint16_t max_lid;		/* largest max_lid_ho seen */
	uint64_t blocks;		/* 64-LID blocks up to max_lid_ho */
	uint64_t blocks_changed;	/* of those, differing from sw->lft */
	uint32_t tables_trusted;	/* switches spared a whole rewrite */
};

/*
 * res must have been computed from og->g.  Checks every port the core
 * chose against OpenSM's switch (port exists and is cabled; port 0 only
 * for the switch's own LIDs).  Returns 0, or -1 after logging the first
 * bad entry; the tables are then not to be used.
 */
int turnadd_lft_write(const struct turnadd_graph *og,
		      const struct ta_result *res, const struct ta_log *log,
		      struct turnadd_lft_stats *st);

/*
 * OpenSM marks every switch that reported a port state change for a
 * whole-table rewrite (need_update 1), though a port going down or up
 * does not touch the switch's LFT.  For such switches that still report
 * a programmed table (LinearFDBTop not 0: a reset switch reports 0) and
 * whose stored table OpenSM trusts, clear the mark so that only changed
 * blocks are sent.  New switches (need_update 2) and subnet-wide updates
 * are left alone.
 */
void turnadd_lft_trust_tables(const struct turnadd_graph *og, osm_subn_t *subn,
			      struct turnadd_lft_stats *st);

#endif
