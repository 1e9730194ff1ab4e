/* SPDX-License-Identifier: MIT */
/* The checks of lftcheck: reachability, hop counts and the CDG. */
#ifndef LC_CHECK_H
#define LC_CHECK_H

#include <stdio.h>

#include "lc_cdg.h"
#include "lc_fabric.h"
#include "lc_sl.h"

struct lc_report {
	unsigned hosts, switches;
	unsigned hosts_without_lid, switches_without_lid;
	unsigned long long host_pairs, unreachable_host_pairs;
	unsigned long long host_to_switch, unreachable_host_to_switch;
	unsigned max_hops;	/* inter-switch links, over reachable pairs */
	unsigned long long hop_sum, hop_pairs;
	struct lc_cdg cdg;
	int cdg_result;		/* 1: cycle found, 0: acyclic */
	unsigned *cycle;	/* CDG slots of the cycle */
	unsigned cycle_len;
	/*
	 * With an SL per route (lc_check_sl): cdg above holds SL 0's
	 * routes (and multicast's), sl[i] SL i's for 1 <= i < n_sl
	 */
	unsigned n_sl;		/* 0: one CDG for every route */
	struct lc_sl_cdg *sl;	/* [n_sl]; entry 0 unused */
	unsigned long long *sl_paths;	/* [n_sl]: (switch with hosts,
					 * LID) routes on each SL */
	unsigned long long sl_unset;	/* of those: no SL read (SL 0) */
};

/* the CDG of the routes on one SL */
struct lc_sl_cdg {
	struct lc_cdg cdg;
	int result;		/* 1: cycle found, 0: acyclic */
	unsigned *cycle;
	unsigned cycle_len;
};

/*
 * Runs every check on f.  Up to max_detail lines describing unreachable
 * routes are written to detail (may be NULL).  -1 if out of memory.
 */
int lc_check(const struct lc_fabric *f, struct lc_report *r, FILE *detail,
	     unsigned max_detail);

/*
 * The same with one CDG per SL: a route from switch s to LID l is on
 * SL lc_sl_get(sl, s, l) (SL 0 where unset).  sl NULL: lc_check.
 */
int lc_check_sl(const struct lc_fabric *f, const struct lc_sl *sl,
		struct lc_report *r, FILE *detail, unsigned max_detail);

void lc_report_free(struct lc_report *r);

/* 1 if everything is reachable, configured and every CDG acyclic. */
int lc_report_ok(const struct lc_report *r);

#endif /* LC_CHECK_H */
