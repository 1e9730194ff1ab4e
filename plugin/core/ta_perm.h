/* SPDX-License-Identifier: MIT */
/*
 * Permutation traffic over a routing's tables, for choosing between
 * candidate routings (ta_engine.c): every host sends to one host and
 * receives from one, and a flow gets 1 / (flows on the busiest channel
 * of its path).  The mean over the flows is the effective bisection
 * bandwidth of the SSSP/DFSSSP papers; scripts/lftcheck --perm computes
 * the same independently from tables read back from the switches.
 */
#ifndef TA_PERM_H
#define TA_PERM_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * port: [sw * g->n_dest + d], as struct ta_result's.  Patterns: n_rand
 * random permutations of the hosts (seeded) and up to n_shift shifts
 * i -> i + s of the hosts in node-description order, numbers by value
 * (s spread evenly over 1 .. hosts - 1).  Returns the mean over all their flows, 1 with fewer
 * than two hosts, -1 when out of memory.
 */
double ta_perm_bandwidth(const struct ta_graph *g, const uint8_t *port,
			 unsigned n_rand, unsigned n_shift, uint64_t seed);

/*
 * The same metric with its random part estimated from n_draw random
 * permutations (n_draw > n_rand: less noise), weighed as n_rand of
 * them against the shifts.
 */
double ta_perm_bandwidth_drawn(const struct ta_graph *g, const uint8_t *port,
			       unsigned n_rand, unsigned n_shift,
			       uint64_t seed, unsigned n_draw);

/*
 * Routings a and b (b may be NULL) on the same patterns: *pa and *pb as
 * ta_perm_bandwidth_drawn(), and *se the standard error of pa - pb as
 * measured with n_rand random permutations (the spread of one
 * pattern's difference over the n_draw draws, weighed as in the
 * metric), which tells how far a check of the tables on a sample of
 * its own may find them apart.  0, or -1 when out of memory.
 */
int ta_perm_paired(const struct ta_graph *g, const uint8_t *a,
		   const uint8_t *b, unsigned n_rand, unsigned n_shift,
		   uint64_t seed, unsigned n_draw, double *pa, double *pb,
		   double *se);

/*
 * The same in two steps, for several routings against one: the
 * reference routing's patterns run once (ta_perm_ref_init: its metric
 * in p, each draw's mean kept), then each routing against it
 * (ta_perm_against: *p and *se as ta_perm_paired's *pa and *se).
 * 0, or -1 when out of memory.
 */
struct ta_perm_ref {
	double *mean;		/* per random draw: its flows' mean */
	double p;		/* the reference's metric */
	unsigned n_rand, n_shift, n_draw;
	uint64_t seed;
	uint32_t hosts;
};

int ta_perm_ref_init(struct ta_perm_ref *ref, const struct ta_graph *g,
		     const uint8_t *port, unsigned n_rand, unsigned n_shift,
		     uint64_t seed, unsigned n_draw);
void ta_perm_ref_free(struct ta_perm_ref *ref);
int ta_perm_against(const struct ta_graph *g, const uint8_t *port,
		    const struct ta_perm_ref *ref, double *p, double *se);

#endif
