/* SPDX-License-Identifier: MIT */
/* The checks of lftcheck: reachability, hop counts and the CDG. */
#ifndef LC_CHECK_H
#define LC_CHECK_H

#include <stdio.h>

#include "lc_cdg.h"
#include "lc_fabric.h"

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
};

/*
 * Runs every check on f.  Up to max_detail lines describing unreachable
 * routes are written to detail (may be NULL).  -1 if out of memory.
 */
int lc_check(const struct lc_fabric *f, struct lc_report *r, FILE *detail,
	     unsigned max_detail);

void lc_report_free(struct lc_report *r);

/* 1 if everything is reachable, configured and deadlock-free. */
int lc_report_ok(const struct lc_report *r);

#endif /* LC_CHECK_H */
