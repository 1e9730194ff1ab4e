/* SPDX-License-Identifier: MIT */
/*
 * ta_job.h: the state of one routing (struct route_job) and the
 * contract between the files that share it.  Internal to the core: the
 * plugin and the tests see ta_engine.h only.
 *
 * ta_engine.c, the routing job: prepares (traffic, the destinations'
 * spread keys and groups, turn weights), has the turns decided, routes
 * every destination (route_all()) and hands back the result.
 * ta_job_turns.c: the turn decisions (carried from the prior, escape
 * tree, turn addition or the reference modes; decide_turns()).
 * ta_route_write.c: the routes of one destination into the table, a
 * column buffer at a time, and a resweep's kept routes.
 * ta_second_pass.c: the least-loaded choice on fabrics that are not
 * tree-like (balance_init()) and the second passes that route
 * destinations again under the others' loads.
 * ta_candidates.c: the candidate search at bring-up (option
 * tp_candidate): which candidates exist, when each is tried, how the
 * better is kept.
 *
 * What the routing job gives the candidate search (route_once()):
 * - measure_init() is called after prepare() and before the turns are
 *   decided; it sets j->measure, and with it j->flow and j->load, so
 *   that route_all() adds each host destination's flow to j->load.
 * - try_tp_candidate() is called, only if j->measure, after the turns
 *   are decided, balance_init() and the first route_all(): j->cdg,
 *   j->esc and res (port, stats) hold the first candidate, j->load and
 *   j->minor_load its channel loads; st0 is the statistics the job
 *   started from.  j->g, j->o, j->tr, j->group, j->spread,
 *   j->by_switch, j->turn_w, j->cls, j->root and the bal_* state are
 *   read only.
 *
 * What a candidate search must do and keep:
 * - route every candidate through route_all() over its own j->cdg and
 *   j->esc, with j->piece_size and j->load cleared first, and compare
 *   candidates by their busiest channel (j->load, then j->minor_load;
 *   on fabrics that are not tree-like also by permutation bandwidth);
 *   a tie keeps the earlier candidate;
 * - return 0 with the kept candidate's turns, escape tree, routes and
 *   statistics in j->cdg, j->esc, res->port and res->stats (tp_tried,
 *   tp_kept, root_moved and cut_tree set), every other candidate freed;
 *   a candidate that runs out of memory is logged and dropped, the
 *   routes found so far are kept; < 0 fails the routing.
 */
#ifndef TA_JOB_H
#define TA_JOB_H

#include <stdint.h>
#include <time.h>

#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_escape.h"
#include "ta_flow.h"
#include "ta_intree.h"
#include "ta_keep.h"
#include "ta_root.h"
#include "ta_traffic.h"
#include "ta_turn_class.h"

struct route_job {
	const struct ta_graph *g;
	const struct ta_options *o;
	const struct ta_prior *prior;	/* NULL: route from scratch */
	const struct ta_log *log;
	struct ta_traffic traffic;	/* owned when read here */
	const struct ta_traffic *tr;	/* traffic or the options' groups */
	struct ta_root_choice root;
	int no_trial;		/* keep the previous root even if the
				 * configured one is back */
	uint32_t *group;	/* per destination */
	uint32_t *spread;	/* per destination */
	uint32_t *leaf_rot;	/* chunk keys: struct ta_intree's, or NULL
				 * (ta_period_chunk_keys()) */
	uint8_t sets_2level;	/* LIDs in spine sets on a two-level tree
				 * (ta_spine_spread()) */
	uint32_t *by_switch;	/* destination indices grouped by switch */
	double *turn_w;		/* per turn slot */
	struct ta_classes cls;	/* minor traffic (ta_turn_class.h) */
	struct ta_flow minor_flow;	/* of cls.minor, when cls has it */
	double *minor_load;	/* per channel, as destinations are routed */
	double minor_unit;	/* ta_intree_reweigh_minor()'s unit, or 0 */
	uint32_t *minor_save;	/* its room */
	/* the second passes' room, allocated at the first that runs */
	double *chan_tmp;	/* per channel, all zero between uses */
	uint8_t *col;		/* one destination's column */
	/*
	 * Fabrics that are not tree-like (not_tree_like(): random
	 * nets, tori): equal next hops chosen by the load of the routes so far
	 * (bal_load, of tr scaled so the largest sender sends 1), not by
	 * index; bal_main all zero (struct ta_choice's main_sw: no switch
	 * keeps the index rule).  Destinations with minor traffic keep
	 * the minor rule.
	 */
	struct ta_flow bal_flow;
	double *bal_load;
	uint8_t *bal_main;
	uint32_t *bal_same;	/* struct ta_choice's same */
	double bal_unit;	/* ta_intree_weighted()'s unit, 0: not used */
	/* bal_* only for the destinations minimal change reroutes, under
	 * the load of the routes it keeps (a tree-like fabric that is not
	 * a fat tree); every routing by load preloads the kept routes */
	int bal_rerouted_only;
	struct ta_cdg cdg;
	struct ta_escape esc;
	uint32_t *piece_size;
	int all_carried;	/* every turn decided by the prior */
	/*
	 * A resweep whose escape tree does not fit the kept decisions (a
	 * part of it failed): every decision is kept and routes use the
	 * allowed turns only, without the escape tree (no_escape).  If a
	 * destination cannot reach every switch that way (escape_needed),
	 * the routing is made again the other way (redecide_around_tree).
	 */
	int keep_try;		/* this routing may try it */
	int reopen;		/* allow_fitting() before routing */
	int no_escape;
	int escape_needed;
	/* bring-up (try_tp_candidate()): channel loads of the routes */
	int measure;
	struct ta_flow flow;
	double *load;		/* per channel */
};

/*
 * Routes are made one destination (a column of res->port) at a time,
 * in switch order, which is not LID order: a column written straight
 * into the table touches one cache line per switch.  They go to a
 * buffer of COLS columns (each contiguous), copied into the table
 * switch by switch when it is full.
 */
#define COLS 1024u

struct columns {
	uint8_t *buf;		/* COLS x n_sw */
	uint32_t d[COLS];
	uint32_t n;
};

/* bal_second_pass()'s passes at a routing from scratch */
#define BAL_PASSES 2u

/*
 * What a port other than its home port costs a destination the prior
 * releases (struct ta_prior's release), beyond its load: half a hop
 */
#define RELEASE_BIAS 0.5

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ta_engine.c */
int route_all(struct route_job *j, struct ta_result *res);

/* ta_job_turns.c: every turn decided (j->cdg), the escape tree built
 * (j->esc) and j->piece_size counted; 0, or -1 (logged) */
int decide_turns(struct route_job *j, struct ta_stats *st);

/* ta_route_write.c */
void flush_columns(const struct ta_graph *g, struct columns *c,
		   struct ta_result *res);
uint8_t *next_column(const struct ta_graph *g, struct columns *c,
		     uint32_t d, struct ta_result *res);
void write_routes(const struct ta_graph *g, const struct ta_intree *t,
		  uint32_t d, uint8_t *col, struct ta_result *res);
int find_kept(const struct route_job *j, struct ta_keep *keep,
	      uint8_t *kept);
void write_kept(const struct route_job *j, const uint8_t *kept,
		struct ta_result *res);

/* ta_second_pass.c */
int balance_init(struct route_job *j);
double shortest_mean_load(const struct route_job *j,
			  const struct ta_flow *f);
void minor_second_pass(struct route_job *j, struct ta_intree *t,
		       const uint8_t *used, struct ta_result *res);
void count_same(const struct ta_graph *g, const struct ta_intree *t,
		uint32_t *same);
void uncount_same(const struct ta_graph *g, const struct ta_intree *t,
		  uint32_t *same);
void bal_second_pass(struct route_job *j, struct ta_intree *t,
		     const uint8_t *used, struct ta_result *res);

/*
 * ta_layer_route.c: with option vls > 1, after route_all() and the
 * candidate search: res->layer allocated, and on fabrics that are not
 * tree-like the routes made again over the layers (ta_layers.h), kept
 * where they do about as well as the one-layer routes (ta_layer_route.c,
 * SLACK).  0, or -1 when out of memory (res->port then holds the
 * one-layer routes).
 */
int route_layers(struct route_job *j, struct ta_result *res);

/* ta_candidates.c: the candidate search (the contract above) */
int measure_init(struct route_job *j);
int try_tp_candidate(struct route_job *j, struct ta_result *res,
		     const struct ta_stats *st0);

#endif
