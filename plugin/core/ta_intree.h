/* SPDX-License-Identifier: MIT */
/*
 * One destination's routes as an LFT can hold them: an in-tree where
 * every switch has one output, grown level by level from the
 * destination's switch.  A switch joins through a neighbour one level
 * closer only if the turn into that neighbour's chosen output is
 * allowed, so every route uses allowed turns only.
 *
 * Plain mode gives shortest allowed paths but can strand switches (a
 * neighbour's output already rules the turn out).  Escape mode adds one
 * rule: a switch may only pick an output that its escape-tree children
 * (tree neighbours whose tree path to the destination runs through it,
 * and that have no route yet) can turn into.  Then the tree link is
 * always a valid choice for them, so every switch of the destination's
 * piece joins: by induction along the tree path, the first switch
 * without a route would find its tree parent's output open to it.
 */
#ifndef TA_INTREE_H
#define TA_INTREE_H

#include <stdint.h>

#include "ta_escape.h"
#include "ta_graph.h"

#define TA_OUT_DELIVER (UINT32_MAX - 1)	/* at the destination's switch */
#define TA_UNREACHED UINT32_MAX

struct ta_heap_item {
	double cost;
	uint32_t sw;
};

struct ta_intree {
	const struct ta_graph *g;
	/*
	 * NULL, or per switch a number added to the neighbour digit at the
	 * switches with hosts (the leaves), set by the caller after init:
	 * with chunk keys (ta_period.h) leaf i sends chunk c through
	 * neighbour (c + leaf_rot[i]) mod P, so a destination's traffic
	 * comes down to its leaf through every spine, not one
	 */
	const uint32_t *leaf_rot;
	uint32_t *dist;		/* hops to the destination switch */
	/* ta_minor_tree_of(): per switch the index of its first end in
	 * slot_child (n_sw + 1), and per end the switch whose chosen link
	 * arrives there (UINT32_MAX between calls) */
	uint32_t *end_base;
	uint32_t *slot_child;
	uint32_t *out_end;	/* chosen link end, or TA_OUT_DELIVER */
	uint32_t *order;	/* switches with a route, nearest first */
	uint32_t n_order;
	uint32_t *tree_next;	/* escape mode: end towards dest on tree */
	uint32_t *pending;
	uint32_t *cand;
	/* the divisor of struct ta_choice, for the switch div_sw */
	uint32_t *div;
	uint32_t div_sw;
	uint32_t *lvl;		/* plain hop distance to div_sw */
	uint32_t *seen;		/* per switch: stamp, to count peers */
	uint32_t stamp;
	uint8_t *has_host;
	uint32_t *height;	/* hops to the nearest switch with hosts */
	double *bneck;		/* load-aware choice: the busiest channel
				 * of each routed switch's path */
	uint32_t *bdist;	/* ... and that channel's hops to the
				 * destination switch */
	/* ta_intree_plain(): per destination switch, prepared once */
	uint32_t plain_sw;	/* switch prepared for, or UINT32_MAX */
	uint32_t *plain_order;	/* BFS order from it */
	uint32_t n_plain;
	uint32_t *pc_start;	/* per switch: first candidate in pc */
	uint32_t *pc;		/* candidates, sorted as sort_cand() does */
	uint32_t *pg;		/* per candidate: start of its peer group */
	uint32_t *pg_start;	/* per switch: first group start in pg */
	uint32_t *n_peers;	/* per switch: candidate neighbours */
	uint32_t *pc_n;		/* per switch: candidates */
	/* ta_intree_fast(): per candidate in pc, for fast_state */
	uint8_t *pc_open;	/* 1: every turn into it from a switch one
				 * level farther is allowed */
	const uint8_t *fast_state;
	uint32_t fast_sw;	/* pc_open is for this switch, or UINT32_MAX */
	/*
	 * Several layers (ta_layers.h), or NULL: one.  Per turn slot the
	 * layers that allow the turn (bit i: layer i); ta_intree_weighted()
	 * then lets a switch join through a neighbour only where the
	 * layers allowing its whole path stay non-empty: layer_mask[s] =
	 * layer_mask[next hop] & turn_layers[turn at the next hop], and
	 * all_layers at the destination's switch.  The caller owns both
	 * arrays (layer_mask: n_sw bytes).
	 */
	const uint8_t *turn_layers;
	uint8_t *layer_mask;
	uint8_t all_layers;
	uint8_t layers_first;	/* ways within the tolerance: the most
				 * layers first (fewer switches stranded),
				 * else the fewest of the destination
				 * switch's routes first, as with one */
	/* ta_intree_weighted(), allocated at its first call */
	double *wcost;		/* path cost to the destination switch */
	struct ta_heap_item *heap;
	size_t heap_cap;
	uint32_t *home_walk;	/* ch->home_fixed: a walk along home ports */
};

int ta_intree_init(struct ta_intree *t, const struct ta_graph *g);
void ta_intree_free(struct ta_intree *t);

/*
 * How a switch picks among its equal choices (candidates ordered by
 * neighbour switch index, then port, the same at every switch):
 *  - home[s * home_stride] is the port the switch used before (minimal
 *    change); TA_NO_PORT if none.  When home is NULL or has no port
 *    for s, the switch takes the neighbour ((spread / div(s)) mod p)
 *    among its p candidate neighbours, and among parallel links to it
 *    the next digit, like a fat tree's digit-by-digit choice: div(s) is
 *    1 at switches with hosts (where traffic enters), else the largest
 *    product, over the switches one hop farther from the destination
 *    that feed s and are nearer to the hosts than s, of their div and
 *    their number of next-hop switches.  So the leaves choose by the low
 *    digit (destinations of equal rank leave every leaf the same way:
 *    port-major LIDs line up with spines) and the switches above them by
 *    the next digits (which spreads what one spine receives).  Feeders
 *    as high as s do not count: in two fat trees joined at their middle
 *    level, the other tree's middle switch feeds a middle switch too,
 *    but the traffic that climbs through s comes from the leaves below.
 *  - when its home port is no candidate any more (a failure), the switch
 *    takes candidate ((spread + s + dest_sw) mod n): a displaced
 *    destination's traffic spreads over the remaining links differently
 *    per source switch, and one switch's displaced destinations spread
 *    by their switch.  With siblings (the other LIDs of the
 *    destination's port, LMC > 0) that candidate stays if no more
 *    siblings use its neighbour switch at s than any other's; else it
 *    takes the ((spread + s + dest_sw) / n mod f)-th of the f
 *    candidates whose neighbour the fewest siblings use: a port's LIDs
 *    keep leaving s through distinct neighbours (the path diversity LMC
 *    is for) where there are enough, and what a sibling's neighbour
 *    would have taken spreads evenly over the others.  No sibling: the
 *    rule above, unchanged.
 */
struct ta_sibling {
	const uint8_t *col;	/* the sibling's port at switch s: */
	uint32_t stride;	/* col[s * stride], TA_NO_PORT if none */
};

struct ta_choice {
	uint32_t spread;
	uint8_t sets_2level;	/* LIDs in spine sets on a two-level tree:
				 * displaced_pick's key mod f (ta_intree.c) */
	/*
	 * Minor traffic (ta_turn_class.h), or NULL: main_sw[s] = 0 where no
	 * main traffic to this destination passes switch s.  There, with
	 * no home port, the switch takes the candidate whose path to the
	 * destination has the least loaded busiest channel under load[]
	 * (per channel: the minor traffic of the destinations routed
	 * before), trying the rule above's pick first and then the
	 * candidates after it in order, so equal loads keep that pick.
	 * Elsewhere the rule above, unchanged: the main traffic keeps its
	 * digit-by-digit spreading.  ta_intree_fast() returns 0 when main_sw
	 * is set.
	 */
	const uint8_t *main_sw;
	const double *load;
	/*
	 * NULL, or per channel the routes of the destinations of this
	 * destination's switch routed before it: least_loaded compares
	 * that count at the switch's own output first (the destinations
	 * of one switch leave every switch by different links where they
	 * can, as the index rule spreads them), then the path's load
	 */
	const uint32_t *same;
	/*
	 * NULL, or per channel the routes of the destinations at the
	 * switches next to this destination's switch (over layers,
	 * ta_layer_route.c): with same set, near[c] / near_div more count
	 * as same[c] in the channel's cost (not in the choice among the
	 * ways within the tolerance, which same[] alone orders), so the
	 * routes towards a group of neighbouring switches spread over
	 * several links where one would gather them
	 */
	const uint32_t *near;
	uint32_t near_div;
	const uint8_t *home;	/* NULL, or this destination's column */
	uint32_t home_stride;
	/*
	 * ta_intree_weighted() with home ports, one layer: the switches
	 * whose home ports still lead to the destination over allowed turns
	 * keep them, and their paths cost what their channels' loads say
	 * (not TA_HOME_WEIGHT), so the switches rerouted choose by the load
	 * of the whole way, kept part included
	 */
	uint8_t home_fixed;
	/*
	 * ta_intree_weighted() with home ports, not fixed: > 0, the home
	 * port costs what its load says and every other port this much
	 * more (a destination moved off busy channels leaves its home
	 * only where the load outweighs it); 0: the home port costs
	 * TA_HOME_WEIGHT
	 */
	double home_bias;
	/*
	 * home_fixed: per channel, or NULL; a home path over one of these
	 * is not kept, and a switch routed anew keeps its home port where
	 * that way is within 20 % of the least cost (ta_intree_weighted.c)
	 */
	const uint8_t *avoid;
	const struct ta_sibling *sib;	/* n_sib siblings' ports, or NULL */
	uint32_t n_sib;
};

/*
 * Builds the in-tree towards switch dest_sw using turns marked
 * TA_TURN_ALLOWED in state.  esc != NULL selects escape mode.  Returns
 * the number of switches that got a route.
 */
uint32_t ta_intree_build(struct ta_intree *t, const uint8_t *state,
			 const struct ta_escape *esc, uint32_t dest_sw,
			 const struct ta_choice *ch);

/*
 * The same tree as ta_intree_build() with every turn allowed but the
 * U-turns and no home ports (the traffic estimate's provisional routes),
 * faster: the hop levels, divisors and sorted candidates of a
 * destination switch are prepared once for all its destinations, then
 * each switch only picks its digit.  Fills order/n_order/out_end/dist
 * like ta_intree_build() and returns n_order.
 */
uint32_t ta_intree_plain(struct ta_intree *t, uint32_t dest_sw,
			 uint32_t spread);

/*
 * ta_intree_build(t, state, NULL, dest_sw, ch) when it can be had
 * without growing the tree turn by turn, else 0 (then call
 * ta_intree_build).  That is when the tree of ta_intree_plain() (with
 * ch's home ports) only picks outputs that every switch one level
 * farther may turn into: then every switch has the same candidates as
 * in the plain tree, and ta_intree_build picks the same.  Which outputs
 * are so open is found once per destination switch and state; state
 * must not change between calls for one destination switch.
 */
uint32_t ta_intree_fast(struct ta_intree *t, const uint8_t *state,
			uint32_t dest_sw, const struct ta_choice *ch);

/*
 * The in-tree of least path cost, for fabrics where every switch has
 * hosts (ta_engine.c): a channel costs 1 + ch->load[chan] / unit (the
 * routes so far, as SSSP raises a link's weight after each destination
 * routed over it), a switch's home port (ch->home) TA_HOME_WEIGHT, so
 * the switches whose previous path is still open keep it (minimal
 * change) and the displaced ones take the least loaded allowed path.
 * A switch joins through a neighbour already in the tree only if the
 * turn into that neighbour's output is allowed, so paths may be longer
 * than the shortest allowed ones where those are loaded.  Returns the
 * number of switches that got a route (0 also when out of memory:
 * then call ta_intree_build).  ch->load must be set.  With
 * t->turn_layers set, a turn is usable where the layers allowing the
 * path through it are not empty (state is not read), and among ways
 * within the tolerance of the least cost the one with more layers is
 * taken where they carry as many routes of the destination's switch
 * (first, with t->layers_first); t->layer_mask then holds each routed
 * switch's layers.
 */
#define TA_HOME_WEIGHT 1e-6

uint32_t ta_intree_weighted(struct ta_intree *t, const uint8_t *state,
			    uint32_t dest_sw, const struct ta_choice *ch,
			    double unit);

/*
 * Minor traffic (struct ta_choice's main_sw): t holds a tree of
 * ta_intree_build(); the switches that neither main traffic to the
 * destination passes nor carry a route of one that it does are routed
 * again as ta_intree_weighted() does (ch->load: the minor traffic's
 * loads), grown from the others, whose routes stay.  Minor traffic may
 * so take longer paths where the shortest ones gather it on few links
 * (two trees joined at positions the destination's side reaches first).
 * If a switch is then stranded, t is put back as it was and 0 returned;
 * else the number of switches with a route.  save: 3 * n_sw + 1 words,
 * where the first tree is kept: ta_intree_restore() puts it back.
 */
uint32_t ta_intree_reweigh_minor(struct ta_intree *t, const uint8_t *state,
				 uint32_t dest_sw, const struct ta_choice *ch,
				 double unit, uint32_t *save);
void ta_intree_restore(struct ta_intree *t, const uint32_t *save);

#endif
