// SPDX-License-Identifier: MIT
#include "lc_turns.h"

/* Inter-switch ports of switch index sw. */
static unsigned sw_links(const struct lc_fabric *f, unsigned sw)
{
	const struct lc_node *n = &f->node[f->sw_node[sw]];
	unsigned p, k = 0;

	for (p = 1; p <= n->n_ports; p++) {
		const struct lc_node *peer = lc_fabric_peer(f, n, p);

		k += peer && peer->is_switch;
	}
	return k;
}

/* Used turns entered over the channel leaving switch sw by port p. */
static unsigned long long used_from(const struct lc_cdg *g, unsigned sw,
				    unsigned p)
{
	const struct lc_fabric *f = g->f;
	const struct lc_node *n = &f->node[f->sw_node[sw]];
	const struct lc_node *peer = lc_fabric_peer(f, n, p);
	unsigned slot = g->slot_base[sw] + p, in = n->port[p].peer_port, q;
	unsigned long long used = 0;

	if (!peer || !peer->is_switch)
		return 0;
	for (q = 1; q <= peer->n_ports; q++)
		if (q != in && lc_cdg_has_edge(g, slot, q))
			used++;
	return used;
}

void lc_turns_count(const struct lc_cdg *g, struct lc_turns *t)
{
	const struct lc_fabric *f = g->f;
	unsigned s, p;

	t->total = t->used = 0;
	for (s = 0; s < f->n_switches; s++) {
		unsigned long long k = sw_links(f, s);

		t->total += k * (k ? k - 1 : 0);
		for (p = 1; p <= f->node[f->sw_node[s]].n_ports; p++)
			t->used += used_from(g, s, p);
	}
}
