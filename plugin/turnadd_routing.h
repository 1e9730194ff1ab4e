/* SPDX-License-Identifier: MIT */
/*
 * The "turnadd" routing engine as OpenSM sees it: the context shared
 * by the event plugin and the engine, and the engine's setup callback
 * that osm_register_external_routing_engine() hands to OpenSM.
 */
#ifndef TURNADD_ROUTING_H
#define TURNADD_ROUTING_H

#include <stdbool.h>

#include "turnadd_osm.h"
#include "lft_read.h"
#include "fabric_graph.h"
#include "mcast_trees.h"
#include "sl_table.h"
#include "ta_engine.h"
#include "ta_log.h"
#include "ta_restore.h"
#include "ta_saved.h"

#define TURNADD_ENGINE_NAME "turnadd"

struct turnadd_ctx {
	osm_opensm_t *osm;
	struct ta_log log;		/* to OpenSM's log */
	/* from build_lid_matrices to ucast_build_fwd_tables: */
	struct turnadd_graph graph;
	struct ta_result result;
	bool have_result;
	enum ta_lft_update lft_update;	/* of the options of this routing */
	/* across sweeps: decisions and home ports, for minimal change */
	struct ta_saved saved;
	/* the routing a restore returns to, this routing's fabric and the
	 * previous routing's (ta_restore.h) */
	struct ta_home home;
	struct ta_fabric_key key, last_key;
	/* the switches' LFTs read before this SM's first routing */
	struct lft_read lft_read;
	bool lft_read_on_start;	/* of the options last read */
	/* failures after this OpenSM routed once (turnadd_routing.c) */
	bool routed;		/* a routing of this OpenSM succeeded */
	bool keep_tables;	/* this routing failed: tables stay */
	unsigned routings;	/* routings attempted (test knob) */
	/* multicast trees over the latest routing's turns */
	struct turnadd_mcast mcast;
	struct osm_routing_engine *re;	/* as registered (its
					 * mcast_build_stree follows the
					 * mcast_trees option) */
	bool mcast_opensm;	/* of the options of this routing */
	bool trim_due;		/* routed: trim the heap at SUBNET_UP */
	/* the SL (layer) of every path, for path_sl: the latest
	 * successful routing's */
	struct turnadd_sl sl;
};

/* NULL on allocation failure */
struct turnadd_ctx *turnadd_ctx_new(osm_opensm_t *osm);
/* frees the per-routing state, keeps the context */
void turnadd_ctx_release(struct turnadd_ctx *ctx);
void turnadd_ctx_free(struct turnadd_ctx *ctx);

/*
 * Events of the sweep (from the event plugin): HEAVY_SWEEP_DONE posts
 * the LFT reads of a first master sweep, UCAST_ROUTING_DONE and
 * HEAVY_SWEEP_START end what the read changed in OpenSM (lft_read.h).
 */
void turnadd_sweep_event(struct turnadd_ctx *ctx, osm_epi_event_id_t id);

/* external_routing_engine_module_t.setup; re->context is the ctx */
int turnadd_routing_setup(struct osm_routing_engine *re,
			  struct osm_opensm *osm);

#endif
