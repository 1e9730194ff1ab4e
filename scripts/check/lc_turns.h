/* SPDX-License-Identifier: MIT */
/*
 * Turn usage of the routes.  A turn is a pair (input link, output link)
 * at a switch between two different inter-switch ports of it: a switch
 * with k ports linked to switches has k(k - 1) turns (parallel links are
 * different links; leaving by the port a route came in by, a U-turn, is
 * not a turn).  A turn is used if some route of the channel dependency
 * graph takes it: the routes from every switch with hosts to every host
 * and switch LID (see lc_cdg.h), i.e. the CDG's edges but U-turns.
 */
#ifndef LC_TURNS_H
#define LC_TURNS_H

#include "lc_cdg.h"

struct lc_turns {
	unsigned long long total, used;
};

void lc_turns_count(const struct lc_cdg *g, struct lc_turns *t);

#endif /* LC_TURNS_H */
