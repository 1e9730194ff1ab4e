/* SPDX-License-Identifier: MIT */
/*
 * Multicast part of lftcheck: the multicast forwarding tables (OpenSM's
 * opensm.mcfdbs dump, or mftread's output in the same format) and the
 * per-group check.  A switch forwards a multicast packet to every port
 * of its entry except the one it came in on.  For each group (MLID),
 * a packet sent by each member port is followed through the tables:
 * every other member port must get it exactly once, no switch may see
 * it twice (a loop), and no branch may end at a switch without an
 * entry or at an uncabled port.  Every turn a packet takes between two
 * switch links is added to the channel dependency graph, which then
 * holds unicast and multicast together (lc_cdg.h).
 */
#ifndef LC_MCAST_H
#define LC_MCAST_H

#include <stdint.h>
#include <stdio.h>

#include "lc_cdg.h"
#include "lc_fabric.h"

#define LC_MC_MASK_BYTES 32	/* ports 0..255 */

struct lc_mcast {
	unsigned n_groups, cap_groups;
	unsigned *mlid;
	uint8_t *mask;		/* [group][switch][LC_MC_MASK_BYTES] */
	/* expected members ("joined" lines of mcjoin), per group */
	unsigned n_expect, cap_expect;
	unsigned *expect_mlid;
	uint64_t *expect_guid;
	int *expect_sw;		/* switch index and port the joined port */
	unsigned *expect_port;	/* is cabled to; -1: not in the topology */
	unsigned long expect_gone;	/* joined ports not in the topology */
	unsigned long unknown_switches;	/* table sections of switches not
					 * in the topology (skipped) */
};

struct lc_mc_report {
	unsigned groups;
	unsigned long members;		/* member ports, all groups */
	unsigned long pairs;		/* (sender, receiver) member pairs */
	unsigned long missed;		/* pairs not delivered */
	unsigned long duplicates;	/* deliveries beyond the first */
	unsigned long loops;		/* a switch reached twice */
	unsigned long dead_ends;	/* branch to no entry / no cable */
	unsigned long not_in_tree;	/* joined ports not in the tables */
	unsigned long stale;		/* groups with entries but fewer
					 * than 2 member ports */
};

void lc_mcast_init(struct lc_mcast *m);
void lc_mcast_free(struct lc_mcast *m);

/* Reads an mcfdbs dump; messages name PATH:LINE.  -1 on error. */
int lc_mcast_read(struct lc_mcast *m, const struct lc_fabric *f,
		  const char *path);

/*
 * Reads mcjoin output: "joined MGID 0xGUID mlid 0xMLID" adds an
 * expected member, "left ..." removes it, other lines are ignored.
 */
int lc_mcast_read_members(struct lc_mcast *m, const char *path);

/* Finds the joined ports' switch ports by their port GUIDs in TOPOLOGY */
int lc_mcast_resolve(struct lc_mcast *m, const struct lc_fabric *f,
		     const char *topo);

/*
 * Checks every group; adds the multicast turns to cdg.  Up to
 * max_detail lines about failures go to detail.  -1 if out of memory.
 */
int lc_mcast_check(const struct lc_mcast *m, const struct lc_fabric *f,
		   struct lc_cdg *cdg, struct lc_mc_report *r, FILE *detail,
		   unsigned max_detail);

/* 1 if every group passed */
int lc_mc_report_ok(const struct lc_mc_report *r);

#endif /* LC_MCAST_H */
