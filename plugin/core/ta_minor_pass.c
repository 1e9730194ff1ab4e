// SPDX-License-Identifier: MIT
/* The minor traffic's second pass: trees back from columns. */
#include <stddef.h>

#include "ta_minor_pass.h"

void ta_minor_tree_of(struct ta_intree *t, const struct ta_graph *g,
		      uint32_t dest_sw, const uint8_t *col)
{
	uint32_t *slot = t->slot_child, s, head = 0;

	for (s = 0; s < g->n_sw; s++) {
		uint32_t e = TA_NO_END;

		t->dist[s] = TA_UNREACHED;
		if (s != dest_sw && col[s] != TA_NO_PORT)
			e = ta_graph_end_of_port(g, s, col[s]);
		t->out_end[s] = e;
		/* s under its next switch, at that switch's end of the link */
		if (e != TA_NO_END)
			slot[t->end_base[g->sw[s].ends[e].peer] +
			     ta_graph_far_end(g, s, e)] = s;
	}
	t->out_end[dest_sw] = TA_OUT_DELIVER;
	t->dist[dest_sw] = 0;
	t->order[0] = dest_sw;
	t->n_order = 1;
	/* nearest first: the switches whose chosen link leads into u, in
	 * the order of u's ends */
	while (head < t->n_order) {
		uint32_t u = t->order[head++], j;
		const uint32_t *at = slot + t->end_base[u];

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = at[j];

			if (v == UINT32_MAX || t->dist[v] != TA_UNREACHED)
				continue;
			t->dist[v] = t->dist[u] + 1;
			t->order[t->n_order++] = v;
		}
	}
	for (s = 0; s < g->n_sw; s++) {
		uint32_t e = t->out_end[s];

		if (e < g->sw[s].n_ends)
			slot[t->end_base[g->sw[s].ends[e].peer] +
			     ta_graph_far_end(g, s, e)] = UINT32_MAX;
	}
}

void ta_minor_take_out(const struct ta_flow *f, const struct ta_graph *g,
		       const struct ta_intree *t, uint32_t dgroup,
		       double *tmp, double *load)
{
	uint32_t k;

	ta_flow_add(f, g, t, dgroup, NULL, tmp);
	for (k = 1; k < t->n_order; k++) {
		uint32_t s = t->order[k];
		uint32_t c = g->sw[s].ends[t->out_end[s]].out_chan;

		load[c] -= tmp[c];
		if (load[c] < 0)
			load[c] = 0;
		tmp[c] = 0;
	}
}
