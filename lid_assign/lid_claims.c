// SPDX-License-Identifier: MIT
/*
 * Old LIDs: a port's old base LID is a claim if it is aligned to the
 * port's LID count, inside the unicast range, and overlaps neither a
 * reserved range (absent ports) nor an earlier claim.  Persisted LIDs
 * are claimed before the ones only seen on the wire; inside each pass
 * in member order, so the outcome does not depend on input order.
 */
#include "lid_work.h"

static bool range_free(const struct la_work *w, uint32_t lo, uint32_t n)
{
	uint32_t l;

	if (!lo || lo + n - 1 > w->max_lid)
		return false;
	for (l = lo; l < lo + n; l++)
		if (w->used[l])
			return false;
	return true;
}

static void claim_pass(struct la_work *w, bool weak)
{
	const struct la_input *in = w->in;
	uint32_t i, l;

	for (i = 0; i < in->n_ports; i++) {
		uint32_t p = w->order[i];
		const struct la_port *port = &in->ports[p];
		uint8_t width = la_port_width(w, p);

		if (!port->old_lid || port->old_weak != weak ||
		    port->old_lid % width)
			continue;
		if (!range_free(w, port->old_lid, width))
			continue;
		w->claim[p] = port->old_lid;
		for (l = port->old_lid; l < port->old_lid + width; l++)
			w->used[l] = 1;
	}
}

void la_check_claims(struct la_work *w)
{
	const struct la_input *in = w->in;
	uint32_t i, l;

	w->used[0] = 1;
	for (i = 0; i < in->n_reserved; i++)
		for (l = in->reserved[i].lo;
		     l <= in->reserved[i].hi && l <= w->max_lid; l++)
			w->used[l] = 1;
	claim_pass(w, false);
	claim_pass(w, true);
}
