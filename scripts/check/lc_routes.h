/* SPDX-License-Identifier: MIT */
/*
 * Following the LFTs toward one destination LID from every switch.
 * Because an LFT has one output per destination, the routes toward a
 * LID form a functional graph over the switches; each switch's outcome
 * (delivered after k inter-switch hops, or why not) is computed once.
 */
#ifndef LC_ROUTES_H
#define LC_ROUTES_H

#include "lc_fabric.h"

enum lc_fail {
	LC_DELIVERED = 0,
	LC_NO_ROUTE,		/* no LFT entry */
	LC_DEAD_PORT,		/* entry points to an unconnected port */
	LC_WRONG_NODE,		/* to a CA that does not own the LID */
	LC_WRONG_SWITCH,	/* port 0 of a switch that does not own it */
	LC_LOOP,		/* forwarding loop */
	LC_N_FAILS
};

struct lc_outcome {
	enum lc_fail fail;
	unsigned hops;		/* inter-switch links until delivery */
	unsigned at;		/* switch index where it failed */
};

/* One step: where switch index sw sends lid. */
struct lc_step {
	enum lc_fail fail;	/* LC_DELIVERED: delivered here or moving on */
	int next_sw;		/* next switch index, -1 if none */
	unsigned port;		/* output port */
};

struct lc_walker {
	const struct lc_fabric *f;
	struct lc_outcome *out;	/* per switch index, for the current LID */
	unsigned char *state;
	unsigned *path;
};

int lc_walker_init(struct lc_walker *w, const struct lc_fabric *f);
void lc_walker_free(struct lc_walker *w);

struct lc_step lc_step(const struct lc_fabric *f, unsigned sw, unsigned lid);

/* Fills w->out[] for every switch toward lid. */
void lc_walk_lid(struct lc_walker *w, unsigned lid);

const char *lc_fail_name(enum lc_fail fail);

#endif /* LC_ROUTES_H */
