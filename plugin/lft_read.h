/* SPDX-License-Identifier: MIT */
/*
 * Reading the switches' linear forwarding tables before the first
 * routing of an OpenSM (a fresh start, or a standby taking over).
 *
 * OpenSM 3.3.23 keeps a copy of each switch's LFT (p_sw->lft) and sends
 * a 64-LID block only where its new table differs from that copy, but a
 * fresh master starts with no copy and with the subnet-wide need_update
 * flag set, so it rewrites every block of every switch, and the routing
 * engine, having no memory, may move routes the switches already hold.
 * OpenSM never reads LFTs itself (the only reader, in osm_sw_info_rcv.c,
 * is compiled out).
 *
 * The plugin therefore, when the switches are known (event
 * HEAVY_SWEEP_DONE of a DISCOVERING or first master sweep):
 *  1. post: for every switch found in this sweep (a standby also knows
 *     switches from its own first sweep that may be gone) with
 *     LinearFDBTop > 0, marks the blocks
 *     0..LinearFDBTop/64 of p_sw->lft with a sentinel and posts one
 *     SubnGet(LinearForwardingTable) per block through osm_req_get();
 *     OpenSM's own LFT receiver copies each answer into p_sw->lft, and
 *     the state manager waits for the answers (qp0_mads_outstanding)
 *     before the LID manager and the routing run.  Nothing waits inside
 *     a callback (the routing runs under OpenSM's lock, which the
 *     receiver needs);
 *  2. collect (build_lid_matrices): a block still holding the sentinel
 *     was not answered (timeout or error status): that switch's table is
 *     not trusted (blocks reset, whole table pushed, as without the
 *     read).  The tables read seed the routing memory (ta_saved_seed):
 *     routes the switches hold are kept wherever they are still valid;
 *  3. apply (ucast_build_fwd_tables, after new_lft is written): switches
 *     read in full lose their need_update mark; entries above the
 *     LinearFDBTop read (invalid in the switch) are made to differ so
 *     that their blocks are sent; the subnet-wide need_update is cleared
 *     for OpenSM's LFT pass only (osm_qos_setup, which runs before it is
 *     put back, still rewrites every active port's QoS tables: this
 *     sweep's discovery marked each port; kept with use_optimized_slvl,
 *     whose tables follow the switches' own marks);
 *  4. routing_done (event UCAST_ROUTING_DONE, or the next heavy sweep's
 *     start): the subnet-wide need_update is put back, so every other
 *     manager (multicast, links, ...) still reconfigures everything.
 */
#ifndef LFT_READ_H
#define LFT_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "turnadd_osm.h"
#include "fabric_graph.h"
#include "lft_write.h"
#include "ta_log.h"
#include "ta_saved.h"

struct lft_read_switch {
	uint64_t guid;		/* host order */
	uint16_t top;		/* LinearFDBTop at discovery, > 0 */
	bool ok;		/* every block answered */
};

struct lft_read {
	struct lft_read_switch *sw;	/* sorted by guid */
	uint32_t n_sw;
	uint32_t n_empty;		/* switches with LinearFDBTop 0 */
	uint32_t n_gone;		/* known, not found this sweep */
	uint64_t blocks;		/* Gets posted */
	double t_post;
	bool pending;		/* posted, not yet collected */
	bool collected;		/* collected, not yet applied */
	bool restore;		/* subnet need_update cleared by apply */
	unsigned saved_need_update;
	const char *last_skip;	/* last reason logged for not reading */
};

void lft_read_init(struct lft_read *lr);
void lft_read_free(struct lft_read *lr);

/*
 * At HEAVY_SWEEP_DONE: posts the Gets if this is a DISCOVERING or first
 * master sweep, enabled is set and engine_ctx is the context of an
 * engine in OpenSM's routing_engine list.  Takes OpenSM's lock.
 */
void lft_read_post(struct lft_read *lr, osm_opensm_t *osm, bool enabled,
		   const void *engine_ctx, const struct ta_log *log);

/*
 * In build_lid_matrices (OpenSM's lock held, answers in): checks the
 * blocks read.  When the memory sv is empty or OpenSM comes out of
 * STANDBY, replaces it by the tables read.  Returns the switches read
 * in full (0 when nothing was posted this sweep), -1 on allocation
 * failure (nothing is then trusted).
 */
int lft_read_collect(struct lft_read *lr, osm_subn_t *subn,
		     struct ta_saved *sv, const struct ta_log *log);

/*
 * In ucast_build_fwd_tables after turnadd_lft_write(): see step 3 above.
 * st->blocks_changed is updated for the blocks made to differ.
 */
void lft_read_apply(struct lft_read *lr, const struct turnadd_graph *og,
		    osm_subn_t *subn, struct turnadd_lft_stats *st,
		    const struct ta_log *log);

/* UCAST_ROUTING_DONE or HEAVY_SWEEP_START: puts need_update back */
void lft_read_routing_done(struct lft_read *lr, osm_subn_t *subn);

#endif
