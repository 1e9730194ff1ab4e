/* SPDX-License-Identifier: MIT */
/*
 * The turn-addition routing engine core: options, the computation and
 * its result (one output port per switch and destination).
 */
#ifndef TA_ENGINE_H
#define TA_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "ta_graph.h"
#include "ta_log.h"

struct ta_traffic;

enum ta_mode {
	TA_MODE_TURN_ADDITION,	/* the product */
	TA_MODE_NONE_PROHIBITED,	/* reference only: not deadlock-free */
	TA_MODE_TURN_PROHIBITION,	/* reference: the paper's TP method */
};

enum ta_lid_order {
	TA_LID_PORT_MAJOR,	/* the plugin sets port-major LIDs */
	TA_LID_OPENSM,		/* OpenSM's own LID manager decides */
};

/* which LID layout the plugin sets (lid_assign/README) */
enum ta_lid_layout {
	TA_LAYOUT_AUTO,		/* group-major on a recognised Dragonfly+,
				 * else port-major */
	TA_LAYOUT_PORT_MAJOR,	/* port-major over the whole fabric */
	TA_LAYOUT_GROUP_MAJOR,	/* group-major wherever groups are found */
};

enum ta_lft_update {
	TA_LFT_CHANGED_BLOCKS,	/* push only blocks that changed */
	TA_LFT_OPENSM,		/* OpenSM's rule: whole tables of switches
				 * that saw a port state change */
};

enum ta_hop_tables {
	TA_HOPS_TURNADD,	/* the plugin fills OpenSM's min-hop tables */
	TA_HOPS_OPENSM,		/* OpenSM builds them (slower) */
};

struct ta_options {
	uint64_t seed;		/* shuffle of asymmetric ties */
	enum ta_lid_order lid_order;
	enum ta_lid_layout lid_layout;
	enum ta_lft_update lft_update;
	enum ta_hop_tables hop_tables;
	bool lft_read_on_start;	/* first routing of an SM: read the
				 * switches' LFTs (default true) */
	bool mcast_opensm;	/* mcast_trees opensm: OpenSM's own
				 * multicast trees (NOT deadlock-free
				 * with turnadd's unicast; comparison) */
	uint64_t escape_root_guid;	/* 0: pick automatically */
	char *traffic_file;	/* NULL: uniform traffic */
	/* traffic groups already read from traffic_file (borrowed, not
	 * freed by ta_options_clear): the core then does not read the file,
	 * so a caller can keep the last good groups in force */
	const struct ta_traffic *traffic;
	enum ta_mode mode;
	bool failure_compare;	/* a failure off fat trees: minimal change
				 * against a routing from scratch
				 * (ta_restore.h; default true) */
	bool failure_nexthop;	/* ... or, with it, next-hop repair
				 * (ta_repair.h; default false) */
	bool tp_candidate;	/* bring-up: also try TP's turn set, keep
				 * the less loaded (default true) */
	unsigned tp_orders;	/* ... with this many removal orders, the
				 * least loaded kept (1 to TA_TP_ORDERS_MAX,
				 * default TA_TP_ORDERS_DEFAULT) */
	bool reopen_after_loss;	/* set by ta_restore.c, not an option: a
				 * resweep that only lost parts of a fabric
				 * that is not a fat tree first allows the
				 * prohibited turns whose cycles went */
	bool reroute_plain;	/* set by ta_restore.c, not an option: the
				 * destinations minimal change reroutes see
				 * only each other's load, and home paths
				 * cost next to nothing (struct ta_choice's
				 * home_fixed off) */
	unsigned experiment;	/* TA_EXP_*: analysis only, default 0 */
	unsigned vls;		/* layers the routes may use, each on its
				 * own virtual lane: 1 (default) to
				 * TA_MAX_LAYERS (ta_layers.h) */
};

#define TA_MAX_LAYERS 8u
#define TA_TP_ORDERS_MAX 16u
#define TA_TP_ORDERS_DEFAULT 2u
#define TA_NO_LAYER 255u	/* in a prior's layer: no previous path */

/*
 * Option "experiment": switches one decision of turn addition off to
 * measure what it costs (scripts/analysis_random.sh --help).  Not for
 * production: without the tree turns first the
 * routes may be incomplete or deadlock.
 */
#define TA_EXP_NO_TREE_FIRST 1u	/* escape-tree turns not pre-allowed */
#define TA_EXP_FLAT_WEIGHTS 2u	/* every turn weighs the same */
#define TA_EXP_INDEX_CHOICE 4u	/* equal next hops by index everywhere
				 * (tp_candidate still runs) */
#define TA_EXP_HOP_CHOICE 8u	/* fabrics that are not tree-like:
				 * shortest allowed paths, equal next hops
				 * by load instead of the least-cost
				 * paths (tp_candidate runs) */
#define TA_EXP_NO_REPAIR 16u	/* a failure off fat trees on one VL:
				 * minimal change without the next-hop
				 * repair relieved by load (ta_fail_relief.c) */

void ta_options_init(struct ta_options *o);
void ta_options_clear(struct ta_options *o);

/*
 * Reads a "key value" config file into o (see turnadd.conf(5)).
 * A missing file is not an error when missing_ok.  On a malformed line
 * logs "FILE:LINE: problem" at TA_LOG_ERROR and returns -1.
 */
int ta_options_load(struct ta_options *o, const char *path, int missing_ok,
		    const struct ta_log *log);

struct ta_stats {
	uint32_t switches, links, hosts, dests;
	uint64_t turns;		/* turns considered (pairs x 2) */
	uint64_t turns_allowed, turns_prohibited;
	uint32_t escape_root;	/* switch index */
	uint32_t pieces;	/* connected pieces of the switch graph */
	uint32_t dests_fallback;	/* in-trees built with the escape rule */
	uint32_t dests_kept;	/* previous routes kept whole (resweep) */
	int traffic_estimated;	/* the unrestricted routing ran */
	uint64_t cycle_check_visits;	/* channels the cycle checks visited */
	uint64_t turns_kept;	/* decisions taken over from the prior */
	int prior_discarded;	/* prior turns clashed with the escape tree */
	uint64_t unreachable;	/* (switch, dest) entries with no port */
	int tp_tried;		/* bring-up: TP's turn set was tried */
	int tp_kept;		/* ... and its routes kept (less loaded) */
	int root_moved;		/* bring-up: an escape tree rooted where
				 * minor traffic turns was kept */
	int cut_tree;		/* bring-up: the escape tree through every
				 * link between the traffic groups was kept
				 * (ta_cut_tree.h) */
	int tree_carried;	/* resweep: the escape tree was rebuilt from
				 * the prior's (ta_prior.escape_carry) */
	uint32_t switches_gone;	/* from ta_prior: routed before, not now */
	uint32_t dests_gone;
	uint32_t switches_new;	/* from ta_prior: never routed before */
	unsigned reinstated;	/* an earlier routing reinstated whole
				 * (ta_home.h): its number, 0 if none */
	int home_carry;		/* reinstated: its escape tree is carried */
	int restore_fresh;	/* restore or failure: the routing from
				 * scratch was better than minimal change,
				 * so taken */
	int tree_unfit;		/* resweep: the escape tree did not fit the
				 * kept decisions (routes without it) */
	int adopted;		/* a takeover: routes from the switches'
				 * tables (ta_route_adopt()) */
	int takeover;		/* made by ta_route_adopt(), whichever
				 * routes it took (the tables, minimal
				 * change from them, from scratch) */
	int home_new;		/* a resweep's routing that becomes the
				 * routing to return to (ta_home_after():
				 * not reinstated, no part of that
				 * routing's fabric missing) */
	int least_cost;		/* routes over least-cost paths (fabrics
				 * that are not tree-like) */
	int layers_used;	/* vls > 1: the layered routes were taken
				 * (ta_layers.h) */
	int layers_spread;	/* ... routed with neighbour spreading
				 * (ta_layer_route.c) */
	uint32_t dests_layer0;	/* ... destinations routed on layer 0
				 * only (a switch stranded otherwise) */
	/* a resweep that takes a routing from scratch over layers: the
	 * paths whose layer (SL) differs from the previous routing's, as
	 * that routing chose them (after ta_layers_repick) and as taken
	 * (fewer where the routing again with the previous layers' turns
	 * first is taken, ta_restore.c) */
	uint64_t layer_changes_fresh, layer_changes;
	unsigned layers_taken;	/* vls > 1: the layers the routes taken
				 * may use (vls, fewer where those are not
				 * kept, 1: every path on layer 0); 0 if
				 * not routed over layers (vls 1, a
				 * reinstated routing) */
	double seconds;
};

struct ta_result {
	uint32_t n_sw, n_dest;
	uint8_t *port;		/* [sw * n_dest + dest], TA_NO_PORT if none */
	uint8_t *turn_state;	/* per turn slot, enum ta_turn_state */
	uint32_t *escape_parent;	/* per switch: escape tree parent end
					 * (TA_NO_END at roots); NULL in
					 * modes without one (ta_mcast.h) */
	uint8_t *layer;		/* [sw * n_dest + dest]: the layer (SL, VL)
				 * of the path from switch sw (and its
				 * hosts) to dest (ta_layers.h); NULL with
				 * vls 1: every path on layer 0 */
	uint8_t *turn_layers;	/* per turn slot: the layers that allow it
				 * (bit i: layer i) where the layered routes
				 * were taken, else NULL */
	struct ta_stats stats;
};

static inline uint8_t ta_result_port(const struct ta_result *r, uint32_t sw,
				     uint32_t dest)
{
	return r->port[(size_t)sw * r->n_dest + dest];
}

/*
 * What the previous routing of the same fabric decided, for minimal
 * change on a resweep.  Each array is indexed for the new graph g (the
 * adapter maps by GUIDs, ports and LIDs); a NULL array means none.
 */
struct ta_prior {
	const uint8_t *turn_state;	/* per turn slot: ALLOWED/PROHIBITED,
					 * UNDECIDED for turns new to it */
	const uint8_t *home_port;	/* [sw * n_dest + dest], TA_NO_PORT
					 * where the switch had no route */
	const uint8_t *last_port;	/* same layout: the latest routing's
					 * port (differs from home where the
					 * home port was displaced) */
	uint64_t escape_root_guid;	/* 0: none */
	/* [sw * n_dest + dest]: the previous routing's layer of each
	 * path (TA_NO_LAYER: none), or NULL; a path keeps it where it is
	 * still allowed */
	const uint8_t *layer;
	/* per turn slot: the layers that allowed it (ta_result's
	 * turn_layers), or NULL; each layer allows them again first, so
	 * the previous layers stay open to the paths that kept them */
	const uint8_t *turn_layers;
	/*
	 * The previous escape tree: per switch the end (index into
	 * g->sw[s].ends) of the link to its tree parent, UINT32_MAX
	 * (TA_NO_END) where it had none (a root, a switch new to the
	 * prior) or that link is gone.  NULL: unknown.  Only used when
	 * escape_carry is set: the tree was not turn addition's own
	 * breadth-first tree (Turn-Prohibition's, kept at bring-up by
	 * option tp_candidate), so a resweep rebuilds it from these links
	 * (ta_escape_carry) instead of growing a new one, and its turns
	 * match the carried decisions.
	 */
	const uint32_t *escape_parent;
	int escape_carry;
	/*
	 * Per destination, or NULL: nonzero where the destination is
	 * routed anew by the load of the whole way, its previous routes
	 * neither kept whole nor preferred (ta_restore.c moves such
	 * destinations off the busiest channels)
	 */
	const uint8_t *release;
	/*
	 * Per channel (2 * n_links), or NULL: a released destination
	 * keeps its home ports where its home path crosses none of these
	 * channels, and only the switches whose home path crosses one are
	 * routed anew (by the load of the whole way)
	 */
	const uint8_t *avoid;
	/* switch GUIDs and LIDs the previous routing had and g lacks
	 * (copied into the result's stats for the log) */
	uint32_t switches_gone, dests_gone;
	/* switches never routed before (added capacity): when set, the
	 * arrays above hold no route (every route is chosen afresh) */
	uint32_t switches_new;
};

/*
 * Routes g.  Returns 0 and fills res (free with ta_result_free), or -1
 * after logging why (bad traffic file, allocation failure, ...).
 * g must be finalized.
 */
int ta_route(const struct ta_graph *g, const struct ta_options *o,
	     const struct ta_log *log, struct ta_result *res);

/*
 * Same, keeping what prior decided where it still holds: turn decisions
 * of surviving turns, the escape root, and each switch's port towards
 * each destination when that port still lies on a shortest allowed
 * route (see ta_intree.h).  When the fabric only lost parts (every
 * turn's decision is carried over, none is new), a destination whose
 * latest routes are all still there keeps them whole: they are still
 * shortest (paths only get longer when parts go) and allowed; the
 * traffic estimate is then skipped too.  prior may be NULL.
 */
int ta_route_prior(const struct ta_graph *g, const struct ta_options *o,
		   const struct ta_prior *prior, const struct ta_log *log,
		   struct ta_result *res);
void ta_result_free(struct ta_result *res);

#endif
