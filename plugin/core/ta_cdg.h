/* SPDX-License-Identifier: MIT */
/*
 * The set of allowed turns, seen as a channel dependency graph (CDG):
 * channels are directed inter-switch links, a turn at switch s from
 * link end i to link end j is the CDG edge in_chan(s,i) -> out_chan(s,j).
 * Routes that only use allowed turns of an acyclic set are deadlock-free
 * on one virtual lane.
 */
#ifndef TA_CDG_H
#define TA_CDG_H

#include <stdint.h>

#include "ta_graph.h"

enum ta_turn_state {
	TA_TURN_UNDECIDED = 0,
	TA_TURN_ALLOWED = 1,
	TA_TURN_PROHIBITED = 2,
	TA_TURN_USELESS = 3,	/* U-turn back to the same neighbour */
};

struct ta_cdg {
	const struct ta_graph *g;
	uint8_t *state;		/* per turn slot */
	/*
	 * A topological order of the channels under the allowed turns,
	 * kept up to date as turns are allowed (Pearce and Kelly's dynamic
	 * topological sort): a new turn x -> y can only close a cycle when
	 * ord[y] < ord[x], and then only channels ordered between the two
	 * need a look.  Rebuilt from scratch after direct state writes.
	 */
	const uint32_t *level;	/* per switch, or NULL: the initial order
				 * puts channels towards lower levels first
				 * (up*, then down*), which the heavy turns
				 * of tree-like fabrics then keep */
	const double *hint_w;	/* per turn slot, or NULL: undecided turns
				 * of positive weight, likely to be allowed
				 * soon, are kept consistent with the
				 * initial order where the allowed turns
				 * let them (fewer searches later) */
	uint32_t *ord;		/* channel -> position */
	uint32_t *at;		/* position -> channel */
	int ord_valid;
	/* scratch for the searches */
	uint32_t *mark;		/* per channel: epoch of last visit */
	uint32_t *bmark;	/* same, for the backward search */
	uint32_t epoch;
	uint32_t *stack;
	uint32_t *fwd, n_fwd;	/* reached forward from y */
	uint32_t *bwd, n_bwd;	/* reached backward from x */
	uint32_t *slots;
	uint64_t *sort_buf;
	uint32_t fwd_x, fwd_y;	/* edge the fwd set was computed for */
	uint64_t searched;	/* channels visited, all searches */
	int naive;		/* decide with the naive check (tests) */
	/*
	 * Landmarks: up to 64 channels at the escape roots (level 0), with
	 * per channel the set of landmarks it reaches (to_lm) and the set
	 * that reach it (from_lm) over the allowed turns, as bit masks.
	 * to_lm[y] & from_lm[x] != 0 proves a path y -> x, i.e. that the
	 * edge x -> y closes a cycle, without a search.  Allowed turns only
	 * grow while turns are decided, so masks computed earlier stay
	 * true; they are refreshed (one pass over the turns in topological
	 * order) when the searches since the last refresh cost about as
	 * much.  Only a search answers "no cycle".
	 */
	uint64_t *to_lm, *from_lm;
	int lm_valid;		/* masks hold for the allowed turns */
	uint64_t lm_searched;	/* searched at the last refresh */
	uint32_t lm_allowed;	/* turns allowed since the last refresh */
};

int ta_cdg_init(struct ta_cdg *c, const struct ta_graph *g);
void ta_cdg_free(struct ta_cdg *c);

static inline int ta_cdg_allowed(const struct ta_cdg *c, uint32_t s,
				 uint32_t i, uint32_t j)
{
	return c->state[ta_turn(c->g, s, i, j)] == TA_TURN_ALLOWED;
}

/*
 * Would allowing turn (s: i -> j) close a cycle of allowed turns?
 * 1 if yes, 0 if no.  ta_cdg_closes_cycle_naive searches all allowed
 * turns (the paper's check; kept as the reference for tests).
 */
int ta_cdg_closes_cycle(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j);
int ta_cdg_closes_cycle_naive(struct ta_cdg *c, uint32_t s, uint32_t i,
			      uint32_t j);

/* allows turn (s: i -> j), which must not close a cycle */
void ta_cdg_allow(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j);

/* call after writing c->state directly: the order is rebuilt when needed */
static inline void ta_cdg_touch(struct ta_cdg *c)
{
	c->ord_valid = 0;
	c->lm_valid = 0;
}

/*
 * Decides the turn pair (s: i -> j, j -> i): both allowed unless one of
 * them closes a cycle, then both prohibited.  Returns 1 when allowed.
 * With c->naive set, uses the naive check (tests compare the two).
 */
int ta_cdg_decide_pair(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j);

/* Whole-graph check: 1 if the allowed turns contain a cycle. */
int ta_cdg_has_cycle(struct ta_cdg *c);

#endif
