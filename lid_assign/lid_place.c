// SPDX-License-Identifier: MIT
/*
 * Placement under a chosen layout: kept ports keep their claims; the
 * others of a group take the lowest free aligned runs of the group's
 * range, in member order (hosts by switch GUID, then switches by GUID);
 * what does not fit, and loose ports, take the lowest free aligned runs
 * after all groups.
 *
 * A claim is kept when it lies in the port's group's range, or after all
 * groups.  A switch's group follows R and the switch's index among the
 * switches present, both of which change when a host or a switch comes
 * or goes; so when the old LIDs are port-major (more than half of the
 * hosts with an old LID keep it), a switch also keeps an old LID that
 * lies in another group's range: a guest there, as long as that group
 * has room for its own ports.  When the old LIDs are in another order
 * (OpenSM's own), switches are moved into their groups like hosts.
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

static void release(struct la_work *w, uint32_t p)
{
	uint32_t lid;

	for (lid = w->claim[p]; lid < w->claim[p] + la_port_width(w, p);
	     lid++)
		w->used[lid] = 0;
	w->claim[p] = 0;
}

/* the group p's claim is a guest in, or LA_NO_GROUP */
static uint32_t guest_group(const struct la_work *w,
			    const struct la_layout *l, uint32_t p)
{
	uint32_t c = w->claim[p], g;

	if (!c || w->in->ports[p].kind != LA_SWITCH ||
	    la_claim_at_home(w, l, p))
		return LA_NO_GROUP;
	g = la_group_at(w, l, c);
	if (g == LA_NO_GROUP || c + la_port_width(w, p) > l->next[g])
		return LA_NO_GROUP;
	return g;
}

/* old LIDs port-major: more than half of the host claims are at home */
static bool old_lids_port_major(const struct la_work *w,
				const struct la_layout *l)
{
	uint32_t p, claims = 0, home = 0;

	for (p = 0; p < w->in->n_ports; p++) {
		if (w->in->ports[p].kind != LA_HOST || !w->claim[p])
			continue;
		claims++;
		if (la_claim_at_home(w, l, p))
			home++;
	}
	return claims && 2 * home > claims;
}

/* old claims that are not kept give their LIDs back */
static void release_moved(struct la_work *w, const struct la_layout *l)
{
	uint32_t p;

	w->sw_anywhere = old_lids_port_major(w, l);
	for (p = 0; p < w->in->n_ports; p++) {
		if (!w->claim[p] || la_claim_at_home(w, l, p))
			continue;
		if (w->sw_anywhere && guest_group(w, l, p) != LA_NO_GROUP)
			continue;
		release(w, p);
	}
}

/* free aligned runs of width in [lo, next) */
static uint32_t free_runs(const struct la_work *w, uint32_t lo,
			  uint32_t next, uint32_t width)
{
	uint32_t lid = (lo + width - 1) / width * width, n = 0, l;

	if (!lid)
		lid = width;
	for (; lid + width <= next; lid += width) {
		for (l = lid; l < lid + width && !w->used[l]; l++)
			;
		n += l == lid + width;
	}
	return n;
}

/* does g's range still hold g's ports that have no claim? */
static bool has_room(const struct la_work *w, const struct la_layout *l,
		     uint32_t g)
{
	uint32_t i, hosts = 0, sws = 0, hw = w->host_width;

	for (i = w->first[g]; i < w->first[g + 1]; i++) {
		uint32_t p = w->order[i];

		if (w->claim[p])
			continue;
		if (w->in->ports[p].kind == LA_HOST)
			hosts++;
		else
			sws++;
	}
	if (!hosts && !sws)
		return true;
	/* switch LIDs counted in host-width runs: a bound, not exact */
	return free_runs(w, l->lo[g], l->next[g], hw) >=
	       hosts + (sws * w->sw_width + hw - 1) / hw;
}

/* guests leave a group that lacks room for its own ports, highest first */
static void make_room(struct la_work *w, const struct la_layout *l)
{
	uint32_t g, p, best;

	for (g = 0; w->sw_anywhere && g < w->n_groups; g++) {
		while (!has_room(w, l, g)) {
			best = UINT32_MAX;
			for (p = 0; p < w->in->n_ports; p++)
				if (guest_group(w, l, p) == g &&
				    (best == UINT32_MAX ||
				     w->claim[p] > w->claim[best]))
					best = p;
			if (best == UINT32_MAX)
				break;
			release(w, best);
		}
	}
}

static void place_group(struct la_work *w, const struct la_layout *l,
			uint32_t g)
{
	uint32_t from = l->lo[g], i;

	for (i = w->first[g]; i < w->first[g + 1]; i++) {
		uint32_t p = w->order[i];
		struct la_port *port = &w->in->ports[p];
		uint8_t width = la_port_width(w, p);

		if (w->claim[p])
			set_lid(port, w->claim[p], width, LA_KEPT);
		else
			set_lid(port, take_run(w, &from, l->next[g], width),
				width, LA_PLACED);
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
	make_room(w, l);
	for (p = 0; p < w->in->n_ports; p++)
		w->in->ports[p].fate = LA_FAILED;
	for (g = 0; g < w->n_groups; g++)
		place_group(w, l, g);
	place_overflow(w, l);
}
