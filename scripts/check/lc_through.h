/* SPDX-License-Identifier: MIT */
/*
 * The routes that cross a part of the fabric (lftcheck --through): for
 * every switch outside the part and every LID that outlives it, whether
 * the switch's route toward the LID, followed through the LFTs, enters a
 * failed switch or crosses a failed cable.  Read from the tables before a
 * failure, these are the routes the failure forces to move; the 64-LID
 * LFT blocks holding them, switch by switch, are the blocks a reroute
 * that moves only them has to write (mad_count.sh --bound paths).
 */
#ifndef LC_THROUGH_H
#define LC_THROUGH_H

#include "lc_fabric.h"

#define LC_THROUGH_MAX 64

/* a failed switch (port 0) or the cable on one of its ports */
struct lc_part {
	unsigned node;		/* node index of the switch */
	unsigned port;		/* 0: the whole switch */
};

struct lc_through_report {
	unsigned switches;		/* switches with a crossing route */
	unsigned long long entries;	/* (switch, LID) routes crossing */
	unsigned long long blocks;	/* (switch, 64-LID block) holding one */
	unsigned long long hop_entries;	/* of those: next hop the failed part */
	unsigned long long hop_blocks;	/* their (switch, block) pairs */
};

/*
 * Parses "NAME" or "NAME:PORT" (a switch's node description, as
 * ibnetdiscover prints it; PORT one of its cabled ports).  Prints
 * "lftcheck: ..." and returns -1 if there is no such switch or port.
 */
int lc_part_parse(const struct lc_fabric *f, const char *spec,
		  struct lc_part *p);

/* Fills r for the n parts; -1 if out of memory. */
int lc_through(const struct lc_fabric *f, const struct lc_part *parts,
	       unsigned n, struct lc_through_report *r);

#endif /* LC_THROUGH_H */
