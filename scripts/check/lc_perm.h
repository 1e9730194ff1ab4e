/* SPDX-License-Identifier: MIT */
/*
 * Permutation traffic: the effective bisection bandwidth of the SSSP and
 * DFSSSP papers.  In a permutation every host sends one flow to one other
 * host and receives one.  A flow's bandwidth is 1 / (number of flows of
 * its pattern on the most shared link direction of its path), every link
 * direction having capacity 1.0; the result is the mean over the flows
 * of every pattern.
 *
 * Hosts are numbered in the natural order of their node descriptions
 * (digit runs compared as numbers, then port), not by LID, so that every
 * routing engine meets the same patterns whatever LIDs it was given.
 * Patterns: `random` uniformly random permutations drawn from a fixed
 * seed (a host mapped to itself sends nothing), then the shifts: host i
 * sends to host (i + s) mod n, for s = 1 .. n - 1, or for `max_shifts`
 * shifts spread evenly over that range when n - 1 is more.  A flow the
 * tables do not deliver (no route, a loop) counts with bandwidth 0.
 * Flows go to the base LID of the destination port.
 */
#ifndef LC_PERM_H
#define LC_PERM_H

#include <stdint.h>

#include "lc_fabric.h"

struct lc_perm_opts {
	unsigned random;	/* random permutations */
	unsigned max_shifts;	/* at most this many shift patterns */
	uint64_t seed;
};

#define LC_PERM_DEFAULT_RANDOM 100u
#define LC_PERM_DEFAULT_SHIFTS 256u
#define LC_PERM_DEFAULT_SEED 1u

struct lc_perm_report {
	unsigned hosts;
	unsigned patterns;		/* random + shifts */
	unsigned shifts;
	double bandwidth;		/* mean over all flows */
	double random_bandwidth;	/* over the random permutations' */
	double shift_bandwidth;		/* over the shifts' */
	double worst_pattern;		/* lowest mean of a pattern with flows */
	unsigned long long flows, undelivered;
	unsigned long long flows_before;	/* flows of earlier patterns */
};

/* Fills r for the LFTs of f; -1 if out of memory. */
int lc_perm_compute(const struct lc_fabric *f, const struct lc_perm_opts *o,
		    struct lc_perm_report *r);

#endif /* LC_PERM_H */
