/* SPDX-License-Identifier: MIT */
/*
 * Internal state of one la_assign() run, shared by its steps: groups
 * (lid_groups.c), old LIDs checked (lid_claims.c), layout of the group
 * ranges (lid_layout.c), placement (lid_place.c).
 */
#ifndef LID_WORK_H
#define LID_WORK_H

#include "lid_order.h"

struct la_layout {
	uint32_t *lo, *next;	/* [n_groups]: LIDs lo .. next - 1;
				 * next <= lo: empty */
	uint32_t end;		/* first LID after the last range */
};

struct la_work {
	struct la_input *in;
	uint16_t max_lid;
	uint32_t n_groups, n_host_groups;
	uint8_t *width;		/* [n_groups] LIDs per port */
	uint32_t *order;	/* [n_ports] port indices, group by group */
	uint32_t *first;	/* [n_groups + 1] offsets into order */
	uint32_t n_loose;	/* loose ports at the end of order */
	uint16_t *claim;	/* [n_ports] valid old base LID or 0 */
	uint8_t *used;		/* [max_lid + 1] LID taken */
};

static inline uint8_t la_port_width(const struct la_work *w, uint32_t p)
{
	const struct la_port *port = &w->in->ports[p];

	if (port->group == LA_NO_GROUP)
		return (uint8_t)(1u << w->in->lmc);
	return w->width[port->group];
}

/* ranks, groups, member order; 0 or -ENOMEM */
int la_make_groups(struct la_work *w);
/* keeps the old LIDs that are valid and unique in claim[]; marks used[] */
void la_check_claims(struct la_work *w);
/* the two candidate layouts (lid_layout.c); 0 or -ENOMEM */
int la_layout_natural(const struct la_work *w, struct la_layout *l);
int la_layout_inherited(const struct la_work *w, struct la_layout *l);
void la_layout_free(struct la_layout *l);
/* true if p keeps its claim under layout l */
bool la_claim_kept(const struct la_work *w, const struct la_layout *l,
		   uint32_t p);
/* gives every port its LID under layout l */
void la_place(struct la_work *w, const struct la_layout *l);

#endif
