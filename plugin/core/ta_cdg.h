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
	/* scratch for the cycle search */
	uint32_t *mark;		/* per channel: epoch of last visit */
	uint32_t epoch;
	uint32_t *stack;
	uint64_t searched;	/* channels visited, all searches */
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
 * 1 if yes, 0 if no.
 */
int ta_cdg_closes_cycle(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j);

/*
 * Decides the turn pair (s: i -> j, j -> i): both allowed unless one of
 * them closes a cycle, then both prohibited.  Returns 1 when allowed.
 */
int ta_cdg_decide_pair(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j);

/* Whole-graph check: 1 if the allowed turns contain a cycle. */
int ta_cdg_has_cycle(struct ta_cdg *c);

#endif
