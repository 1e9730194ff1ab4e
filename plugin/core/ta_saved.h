/* SPDX-License-Identifier: MIT */
/*
 * Routing memory kept between sweeps, keyed by what survives a change of
 * the fabric: switch GUIDs, port numbers and LIDs.  After each routing
 * it records the turn decisions, the escape tree (each switch's parent
 * link by port and parent GUID, and its root) and every switch's
 * "home" port towards every LID (the port it used when the LID was first
 * routed, kept while the port is displaced by a failure so the route
 * moves back when the failure heals).  Before the next routing it
 * produces the struct ta_prior for the new graph.
 *
 * Size: the latest routing's port of every switch towards every LID
 * ("last") is what the switches' forwarding tables hold, which OpenSM
 * keeps anyway (one byte per LID).  With lft_rows set (the plugin), the
 * memory keeps no copy: the caller passes those tables as rows
 * (struct ta_saved_row) to ta_saved_prior_rows and ta_saved_update_rows.
 * Homes equal last except where a failure displaced a route or a LID
 * left, so they are kept only where they differ ("away" entries), or as
 * a whole row when a switch has many such entries.  On 16,000 hosts
 * this keeps about 6 MB instead of 72 MB between sweeps.
 *
 * Where the layered routes were taken (option vls, ta_layers.h) it also
 * keeps each path's layer (one byte per LID, only on switches with a
 * path off layer 0) and the layers of each turn (one byte per turn), so
 * the next routing keeps both where the fabric allows (struct
 * ta_prior's layer and turn_layers).
 *
 * A switch that comes back (or is new) while the fabric is still
 * growing, e.g. the first boards of a director that returns board by
 * board, is routed afresh at every routing in which switches join
 * (struct ta_saved_switch, settling): so once the whole director is
 * back its routes are the ones a single restore gives, not the ones it
 * chose while its neighbours were missing.
 *
 * A switch never routed before (seen) that joins is added capacity: a
 * director or spine that was down when the memory began (OpenSM came up
 * without it) or one added to the fabric.  Minimal change would leave it
 * carrying almost nothing (every other switch keeps its routes, which
 * still hold), so that routing chooses every route afresh, as at a
 * bring-up of the whole fabric (the turn decisions are kept; LIDs are
 * not the memory's business).  A switch that comes back after a failure
 * (one seen before): minimal change.
 */
#ifndef TA_SAVED_H
#define TA_SAVED_H

#include <stddef.h>
#include <stdint.h>

#include "ta_engine.h"

struct ta_saved_switch {
	uint64_t guid;
	uint32_t n_ports;	/* port numbers 0..n_ports-1 */
	uint8_t *turn;		/* [in_port * n_ports + out_port] */
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
	uint8_t *last;		/* [lid] port of the latest routing; NULL:
				 * the caller's row holds it (lft_rows) */
	uint8_t *home;		/* [lid] port, TA_NO_PORT if none; NULL:
				 * home is last except at the away LIDs */
	uint32_t n_away;
	uint16_t *away_lid;	/* ascending */
	uint8_t *away_port;	/* home there (TA_NO_PORT: none) */
	/*
	 * 1: the switch joined after the first routing and switches kept
	 * joining since (a director coming back board by board): its
	 * routes were chosen in a fabric still incomplete, so they are no
	 * homes.  While switches keep joining it is routed afresh at each
	 * routing; the first routing in which none joins settles it (its
	 * routes then become its homes).
	 */
	uint8_t settling;
	uint8_t *layer;		/* [lid] layer (SL) of the latest routing's
				 * path; NULL: every path on layer 0 */
	uint8_t *turn_layers;	/* [in_port * n_ports + out_port]: the
				 * layers that allowed the turn; NULL: none
				 * kept (layered routes not taken) */
	uint8_t parent_port;	/* escape tree: port to the parent switch,
				 * TA_NO_PORT if none (root, unknown) */
	uint64_t parent_guid;	/* ... and the parent's GUID */
};

struct ta_saved {
	uint64_t escape_root_guid;
	int escape_carry;	/* the next routing rebuilds the tree from
				 * the saved one (see struct ta_prior) */
	uint32_t n_sw;
	struct ta_saved_switch *sw;	/* sorted by guid */
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
	uint8_t *routed;	/* [lid] 1 if a destination last time */
	int lft_rows;		/* last comes from the caller's rows */
	uint64_t *seen;		/* GUIDs of every switch routed since the
				 * memory began, ascending */
	uint32_t n_seen;
};

/*
 * A switch's forwarding table as its owner keeps it (OpenSM's p_sw->lft):
 * port per LID, TA_NO_PORT (OSM_NO_PATH) if none.  Entries of LIDs that
 * were no destination of the latest routing are not read.  After a
 * routing recorded with ta_saved_update_rows the owner's row must hold
 * that routing's ports (a row that differs, e.g. a block whose write
 * failed, only loses minimal change there: its routes are chosen anew).
 */
struct ta_saved_row {
	const uint8_t *port;	/* NULL: none */
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
};

/* storage of the arrays of a struct ta_prior made by ta_saved_prior */
struct ta_prior_buf {
	struct ta_prior prior;
	uint8_t *turn_state;
	uint8_t *home_port;	/* NULL: prior.home_port is last_port
				 * (every home equals its last port) */
	uint8_t *last_port;
	uint32_t *escape_parent;
	uint8_t *layer;		/* NULL: no saved path off layer 0 */
	uint8_t *turn_layers;	/* NULL: no layers' turns saved */
};

void ta_saved_init(struct ta_saved *sv);
void ta_saved_free(struct ta_saved *sv);
/* 1 if nothing was saved yet */
int ta_saved_empty(const struct ta_saved *sv);

/*
 * fills pb for graph g, with the switches and LIDs of the last routing
 * that g lacks counted in pb->prior; -1 on allocation failure
 */
int ta_saved_prior(const struct ta_saved *sv, const struct ta_graph *g,
		   struct ta_prior_buf *pb);
/* same; rows[s]: the table of g's switch s (needed when sv->lft_rows) */
int ta_saved_prior_rows(const struct ta_saved *sv, const struct ta_graph *g,
			const struct ta_saved_row *rows,
			struct ta_prior_buf *pb);
void ta_prior_buf_free(struct ta_prior_buf *pb);
/*
 * points pb->prior's arrays at pb's (home_port at last_port where pb
 * keeps none of its own) and sets the escape root and carry
 */
void ta_prior_buf_link(struct ta_prior_buf *pb, uint64_t escape_root_guid,
		       int escape_carry);

/* one switch's forwarding table as read from the fabric */
struct ta_saved_table {
	uint64_t guid;
	const uint8_t *port;	/* [lid]: output port, TA_NO_PORT if none */
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
};

/*
 * Replaces the memory in sv by n tables read from the switches (a fresh
 * OpenSM, or one taking over from another SM): each switch's home port
 * towards each LID is the port its table holds, so the next routing
 * keeps every entry that still lies on a shortest allowed route.  No
 * turn decision and no escape tree are known: they are decided afresh.
 * The takeover's routing (ta_route_adopt(), struct ta_stats' takeover)
 * then records its own routes as the homes, whether it kept the tables
 * or routed anew.  Returns 0, or -1 on allocation failure (sv is then
 * empty).
 */
int ta_saved_seed(struct ta_saved *sv, const struct ta_saved_table *t,
		  uint32_t n);

/* records the routing res of g; -1 on allocation failure (sv emptied) */
int ta_saved_update(struct ta_saved *sv, const struct ta_graph *g,
		    const struct ta_result *res);
/*
 * same; rows[s]: the table of g's switch s as it was before res is
 * written to it (it still holds the previous routing; needed when
 * sv->lft_rows)
 */
int ta_saved_update_rows(struct ta_saved *sv, const struct ta_graph *g,
			 const struct ta_result *res,
			 const struct ta_saved_row *rows);

/* bytes of memory sv holds (for the log) */
size_t ta_saved_bytes(const struct ta_saved *sv);

#endif
