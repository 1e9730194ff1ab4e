/* SPDX-License-Identifier: MIT */
/*
 * Dragonfly+ recognised from the cabling alone (lid_assign/README,
 * "Group-major LIDs on Dragonfly+").  Leaves are the switches with
 * hosts, spines the switches without; the groups are the connected
 * components of the leaf-spine cables (spine-spine cables left out).
 * A fabric is a Dragonfly+ when:
 *
 *   - no cable joins two leaves (leaves meet spines only);
 *   - every switch without hosts is cabled to a leaf (a spine), or
 *     only to spines of one group (a leaf whose hosts are all absent:
 *     it joins that group as an empty leaf); a switch without hosts
 *     cabled to no leaf and to spines of several groups is a fat
 *     tree's core or director switch: not a Dragonfly+;
 *   - there are at least two groups, and the spine-spine cables
 *     between groups join them all (one fabric);
 *
 * whatever the groups' sizes (a group of one spine, groups with fewer
 * leaves or hosts, a missing global link are still a Dragonfly+).  A
 * leaf not cabled to every spine of its group (a cable down) is
 * counted (missing) but still recognised, so a cable's failure does
 * not change the layout.  A fat tree is one group (2-level) or has
 * core switches (3-level, joined trees): never recognised.
 *
 * Groups are numbered by the lowest old host LID in them (groups
 * whose hosts have none after those, by their lowest switch GUID), so
 * the group order of a numbered fabric stays whatever switch or group
 * comes and goes.
 */
#ifndef LID_DFLY_H
#define LID_DFLY_H

#include "lid_order.h"

struct la_dfly {
	bool found;
	uint32_t n_groups;
	uint32_t *group;	/* [n_sw] group of each switch (found) */
	uint32_t *leaves_in;	/* [n_groups] leaves, empty ones too */
	uint32_t leaves;	/* switches with hosts */
	uint32_t empty;		/* leaves without hosts */
	uint32_t spines;
	uint32_t missing;	/* leaf-spine cables missing in groups */
	uint32_t extra;		/* forced: switches of no group (cores),
				 * one group after the others */
	const char *why;	/* not found: why (static text) */
	/* a classic dragonfly (lid_df.h): groups of routers cabled all to
	 * all; hosts router by router inside a group */
	bool classic;
	uint32_t largest;	/* classic: routers in the largest group */
	uint32_t pairs_missing;	/* classic: group pairs not joined */
};

/*
 * Fills d for in (in->layout: LA_LAYOUT_PORT_MAJOR finds nothing;
 * LA_LAYOUT_GROUP_MAJOR waives the checks that need no groups: leaves
 * cabled together join one group, switches without hosts that join no
 * group take a group of their own after the others, the groups need
 * not be joined).  0, or -ENOMEM (d is then empty).
 */
int la_dfly_detect(const struct la_input *in, struct la_dfly *d);
void la_dfly_free(struct la_dfly *d);

/*
 * A group's place in the order of groups (lid_dfly.c, lid_df.c): by its
 * lowest old host LID, then its lowest switch GUID, so the order
 * survives failures and restarts; slot is the caller's group number.
 */
struct la_group_key {
	uint64_t lid, guid;
	uint32_t slot;
};

/* qsort() order of struct la_group_key */
int la_group_key_cmp(const void *a, const void *b);

/* union-find over switch indices (uf[i] = i at first): the root of i,
 * paths halved; la_uf_unite() joins two sets under the lower root */
uint32_t la_uf_find(uint32_t *uf, uint32_t i);
void la_uf_unite(uint32_t *uf, uint32_t a, uint32_t b);

#endif
