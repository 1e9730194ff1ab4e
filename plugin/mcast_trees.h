/* SPDX-License-Identifier: MIT */
/*
 * turnadd's multicast trees in OpenSM: the routing engine's
 * mcast_build_stree callback.  OpenSM's multicast manager clears a
 * group's MFT entries and then calls it; the tree comes from the core
 * (ta_mcast.h) over the turns of the latest turnadd routing, and is set
 * into the switches' mcast_tbl, which OpenSM then sends (its own MFT
 * path).  Each group's tree is remembered by switch GUIDs and ports, so
 * the next routing keeps what still holds (minimal change).
 */
#ifndef OSM_MCAST_H
#define OSM_MCAST_H

#include <stdint.h>

#include "turnadd_osm.h"
#include "ta_engine.h"
#include "ta_graph.h"
#include "ta_log.h"
#include "ta_mcast.h"

struct turnadd_mc_saved;

/* what the multicast manager asked for since the latest routing */
struct turnadd_mc_tally {
	uint32_t groups;	/* trees built */
	uint32_t kept, partly, rebuilt, fresh, escape;
	uint32_t removed;	/* groups left with fewer than 2 members */
	uint32_t failed;	/* unreached members or unset MFT entries */
	uint64_t links;		/* links of the trees built */
};

struct turnadd_mcast {
	struct ta_graph *g;	/* of the latest turnadd routing (owned) */
	uint8_t *turn_state;
	uint32_t *escape_parent;
	struct ta_mcast m;
	uint32_t epoch;		/* routings adopted */
	struct turnadd_mc_saved **tree;	/* per MLID - 0xC000, or NULL */
	struct turnadd_mc_tally tally;
};

void turnadd_mcast_init(struct turnadd_mcast *mc);
void turnadd_mcast_free(struct turnadd_mcast *mc);

/*
 * Takes over the graph and the turn decisions of a routing (*g,
 * res->turn_state and res->escape_parent are set to NULL).  Trees are
 * built over them until the next routing.  -1 (logged) if out of
 * memory: no tree is built then.
 */
int turnadd_mcast_adopt(struct turnadd_mcast *mc, struct ta_graph **g,
			struct ta_result *res, const struct ta_log *log);

/* the mcast_build_stree callback's work; IB_SUCCESS or IB_ERROR */
ib_api_status_t turnadd_mcast_build(struct turnadd_mcast *mc, osm_subn_t *subn,
				    osm_mgrp_box_t *mbox,
				    const struct ta_log *log);

/*
 * One line summing the trees built since the latest routing (at
 * OpenSM's SUBNET UP, after its multicast manager ran); nothing if no
 * tree was asked for.  Zeroes the tally.
 */
void turnadd_mcast_report(struct turnadd_mcast *mc, const struct ta_log *log);

#endif
