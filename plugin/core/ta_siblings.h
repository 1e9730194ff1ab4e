/* SPDX-License-Identifier: MIT */
/*
 * Sibling LIDs: with LMC > 0 a port has an aligned run of 2^LMC LIDs,
 * i.e. several destinations with the same switch and port.  When a
 * failure displaces one of them (its home port is gone), its new output
 * must not join a sibling's neighbour where another is free, so the
 * port's LIDs keep their distinct paths (struct ta_choice, ta_intree.h).
 *
 * The routing visits the destinations port by port (order: by switch,
 * port, LID), and each destination routed anew is told, for each
 * sibling, the column of ports to read: the routes just made for the
 * siblings visited before it, the previous routes of siblings that keep
 * them whole, and the home ports of the siblings still to come (where a
 * home port is still there it is kept; where it is gone, that sibling
 * is displaced too and takes the others into account in its turn).
 * Only active with a prior that has home ports and some port with more
 * than one LID: otherwise nothing changes (order is NULL, no sibling).
 */
#ifndef TA_SIBLINGS_H
#define TA_SIBLINGS_H

#include <stdint.h>

#include "ta_engine.h"
#include "ta_intree.h"

struct ta_sibs {
	const struct ta_graph *g;
	const struct ta_prior *prior;
	uint32_t *order;	/* destinations by switch, port, LID; NULL:
				 * inactive */
	uint32_t *pos;		/* per destination: its place in order */
	uint32_t *first;	/* per destination: its port's first place */
	uint32_t *count;	/* per destination: LIDs of its port */
	uint8_t *buf;		/* routes made for the current port's LIDs,
				 * one column of n_sw per LID */
	struct ta_sibling *sib;	/* room for the largest port's siblings */
};

/* 0, or -1 on allocation failure (or 2^20 switches or more) */
int ta_sibs_init(struct ta_sibs *sb, const struct ta_graph *g,
		 const struct ta_prior *prior);
void ta_sibs_free(struct ta_sibs *sb);

/*
 * Points ch->sib / ch->n_sib at d's siblings (none when inactive);
 * kept[e] = 1: destination e keeps its previous routes whole.
 */
void ta_sibs_for(struct ta_sibs *sb, uint32_t d, const uint8_t *kept,
		 struct ta_choice *ch);

/* records d's new routes col[s] (s < n_sw) for its later siblings */
void ta_sibs_routed(struct ta_sibs *sb, uint32_t d, const uint8_t *col);

#endif
