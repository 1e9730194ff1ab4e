/* SPDX-License-Identifier: MIT */
/*
 * Path diversity with LMC > 0: from every switch with hosts (a leaf),
 * how many distinct next-hop switches the 2^LMC LIDs of each host port
 * on another switch leave through.  LMC exists so that a port's LIDs
 * take different paths; on a fat tree the next hop out of the source
 * leaf is the spine (or the director's line switch).
 */
#ifndef LC_LMC_H
#define LC_LMC_H

#include "lc_fabric.h"

struct lc_lmc_report {
	unsigned long long pairs;	/* (leaf, host port elsewhere) */
	unsigned long long spine_sum;	/* distinct next hops, summed */
	unsigned min_spines;		/* least over the pairs */
	unsigned max_lids;		/* most LIDs a host port has */
	unsigned long long short_pairs;	/* fewer than wanted (below) */
	unsigned want;			/* 0: no requirement */
};

/*
 * Fills r; want > 0 counts in short_pairs the pairs whose LIDs use fewer
 * than min(want, the port's LIDs, the leaf's neighbour switches)
 * distinct next hops.  Entries that lead nowhere count as no next hop
 * (reachability is lc_check's).  -1 if out of memory.
 */
int lc_lmc_spread(const struct lc_fabric *f, unsigned want,
		  struct lc_lmc_report *r);

/* "lmc_pairs=... lmc_spines_min=... lmc_spines_mean=... ..." line */
void lc_lmc_print(const struct lc_lmc_report *r);

#endif /* LC_LMC_H */
