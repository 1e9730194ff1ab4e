/* SPDX-License-Identifier: MIT */
/*
 * Internal state of one la_assign() run, shared by its steps: groups
 * (lid_groups.c), old LIDs checked (lid_claims.c), layout of the group
 * ranges (lid_layout.c), placement (lid_place.c).
 */
#ifndef LID_WORK_H
#define LID_WORK_H

#include "lid_order.h"
#include "lid_dfly.h"
#include "ta_spine_sets.h"

struct la_layout {
	uint32_t *lo, *next;	/* [n_groups]: LIDs lo .. next - 1;
				 * next <= lo: empty */
	uint32_t end;		/* first LID after the last range */
};

struct la_work {
	struct la_input *in;
	uint16_t max_lid;
	uint32_t n_groups;	/* R (or G), plus the switch group if any */
	uint32_t rank_groups;	/* G: a rank's group is rank mod G, or
				 * with spine sets the groups of sets */
	struct ta_spine_sets sets;	/* n_class 0: not used */
	bool no_sets;		/* the consecutive rule even where the
				 * spine sets would apply */
	uint32_t force_sets;	/* 1 + k: the sets for P + k, whatever
				 * the old LIDs show (la_lmc_sets) */
	bool bare_apart;	/* LMC 0: the switches without hosts
				 * take a group of their own (n_groups(),
				 * bare_switches()) */
	bool keep_period;	/* the switches with hosts differ in
				 * neighbour count: P is the largest
				 * (la_period_lost) */
	uint8_t host_width;	/* LIDs per host (and loose) port */
	uint8_t sw_width;	/* LIDs per switch port 0 */
	uint32_t *order;	/* [n_ports] port indices, group by group:
				 * hosts, then switches */
	uint32_t *first;	/* [n_groups + 1] offsets into order */
	uint32_t *n_hosts;	/* [n_groups] host members */
	uint32_t *room;		/* [n_groups] host runs its range is sized
				 * for: n_hosts, or on a fat tree every leaf
				 * fully populated (absent hosts arrive) */
	uint32_t n_loose;	/* loose ports at the end of order */
	uint16_t *claim;	/* [n_ports] valid old base LID or 0 */
	uint8_t *used;		/* [max_lid + 1] LID taken */
	bool sw_anywhere;	/* this placement keeps switch LIDs that
				 * lie in another group's range */
	bool no_dfly;		/* port-major even on a Dragonfly+ (its
				 * group-major layout did not fit) */
	struct la_dfly dfly;	/* found: group-major (lid_groups.c) */
	bool pack;		/* group-major: groups share blocks where
				 * none spans more than it must
				 * (lid_layout.c) */
};

static inline uint8_t la_port_width(const struct la_work *w, uint32_t p)
{
	return w->in->ports[p].kind == LA_SWITCH ? w->sw_width :
						   w->host_width;
}

/* LMC on a fat tree (a period): the spine sets may apply (la_lmc_sets) */
bool la_sets_may_apply(const struct la_input *in);
/*
 * Hosts with old LIDs, and no period today only because the switches
 * with hosts differ in neighbour count (leaves that lost uplinks: a
 * link down, part of a director back): la_assign then also tries P =
 * the largest count (keep_period), with or without LMC
 */
bool la_period_lost(const struct la_input *in);
/* ranks, groups, member order; 0, -EINVAL or -ENOMEM */
int la_make_groups(struct la_work *w);
/* keeps the old LIDs that are valid and unique in claim[]; marks used[] */
void la_check_claims(struct la_work *w);
/* the two candidate layouts (lid_layout.c); 0 or -ENOMEM */
int la_layout_natural(const struct la_work *w, struct la_layout *l);
int la_layout_inherited(const struct la_work *w, struct la_layout *l);
void la_layout_free(struct la_layout *l);
/* true if p's claim lies where layout l wants p (its group's range, or
 * after all groups) */
bool la_claim_at_home(const struct la_work *w, const struct la_layout *l,
		      uint32_t p);
/* the group whose range holds lid under l, or LA_NO_GROUP */
uint32_t la_group_at(const struct la_work *w, const struct la_layout *l,
		     uint32_t lid);
/* gives every port its LID under layout l; sets w->sw_anywhere */
void la_place(struct la_work *w, const struct la_layout *l);

#endif
