/* SPDX-License-Identifier: MIT */
/*
 * Link loads and throughput of the routes in the LFTs, the papers'
 * metric: every host sends 1.0 split evenly over all other hosts (and
 * over the 2^LMC LIDs of each), every link direction carries 1.0, and
 * throughput = 1 / (load of the most loaded link direction).  Host links
 * count too (each carries 1.0 into the fabric), so throughput <= 1.
 *
 * Computed per destination LID, not per pair: the routes to one LID
 * form a tree over the switches, so each switch forwards the sum of its
 * own hosts' traffic and what its children forward to it, O(LIDs x
 * switches) in all.
 */
#ifndef LC_LOAD_H
#define LC_LOAD_H

#include "lc_fabric.h"

struct lc_load_report {
	unsigned hosts;
	double max_load;	/* most loaded link direction, >= 1 */
	double throughput;	/* 1 / max_load */
	int max_sw;		/* switch index of that link; -1: host link */
	unsigned max_port;	/* its output port */
	unsigned links_at_max;	/* switch output ports at max_load */
	double lost;		/* traffic not delivered; all sent: hosts */
};

/* Fills r; -1 if out of memory. */
int lc_load_compute(const struct lc_fabric *f, struct lc_load_report *r);

#endif /* LC_LOAD_H */
