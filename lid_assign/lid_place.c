// SPDX-License-Identifier: MIT
/*
 * Placement under a chosen layout: kept ports keep their claims; the
 * others of a group take the lowest free aligned runs of the group's
 * range, in member order (switch GUID order); what does not fit, and
 * loose ports, take the lowest free aligned runs after all groups.
 */
#include "lid_work.h"

static bool run_free(const struct la_work *w, uint32_t lid, uint32_t n)
{
	uint32_t l;

	for (l = lid; l < lid + n; l++)
		if (w->used[l])
			return false;
	return true;
}

/* lowest free aligned run of width in [*from, next); 0 if none */
static uint32_t take_run(struct la_work *w, uint32_t *from, uint32_t next,
			 uint32_t width)
{
	uint32_t lid = (*from + width - 1) / width * width, l;

	if (!lid)
		lid = width;
	for (; lid + width <= next; lid += width) {
		if (!run_free(w, lid, width))
			continue;
		for (l = lid; l < lid + width; l++)
			w->used[l] = 1;
		*from = lid + width;
		return lid;
	}
	*from = next;
	return 0;
}

static void set_lid(struct la_port *port, uint32_t lid, uint8_t width,
		    enum la_fate fate)
{
	port->lid = (uint16_t)lid;
	port->n_lids = lid ? width : 0;
	port->fate = lid ? fate : LA_FAILED;
}

/* old claims that are not kept give their LIDs back */
static void release_moved(struct la_work *w, const struct la_layout *l)
{
	uint32_t p, lid;

	for (p = 0; p < w->in->n_ports; p++) {
		if (!w->claim[p] || la_claim_kept(w, l, p))
			continue;
		for (lid = w->claim[p];
		     lid < w->claim[p] + la_port_width(w, p); lid++)
			w->used[lid] = 0;
		w->claim[p] = 0;
	}
}

static void place_group(struct la_work *w, const struct la_layout *l,
			uint32_t g)
{
	uint32_t from = l->lo[g], i;

	for (i = w->first[g]; i < w->first[g + 1]; i++) {
		uint32_t p = w->order[i];
		struct la_port *port = &w->in->ports[p];

		if (w->claim[p])
			set_lid(port, w->claim[p], w->width[g], LA_KEPT);
		else
			set_lid(port, take_run(w, &from, l->next[g],
					       w->width[g]),
				w->width[g], LA_PLACED);
	}
}

/* the ports left without a LID, in member order, after all groups */
static void place_overflow(struct la_work *w, const struct la_layout *l)
{
	uint32_t from[8], i, k;

	for (k = 0; k < 8; k++)
		from[k] = l->end;
	for (i = 0; i < w->in->n_ports; i++) {
		uint32_t p = w->order[i];
		struct la_port *port = &w->in->ports[p];
		uint8_t width = la_port_width(w, p);
		uint32_t lid;

		if (port->group != LA_NO_GROUP && port->fate != LA_FAILED)
			continue;
		if (w->claim[p]) {
			set_lid(port, w->claim[p], width, LA_KEPT);
			continue;
		}
		for (k = 0; (1u << k) < width; k++)
			;
		lid = take_run(w, &from[k], w->max_lid + 1u, width);
		set_lid(port, lid, width, LA_OVERFLOW);
	}
}

void la_place(struct la_work *w, const struct la_layout *l)
{
	uint32_t g, p;

	release_moved(w, l);
	for (p = 0; p < w->in->n_ports; p++)
		w->in->ports[p].fate = LA_FAILED;
	for (g = 0; g < w->n_groups; g++)
		place_group(w, l, g);
	place_overflow(w, l);
}
