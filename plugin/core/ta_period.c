// SPDX-License-Identifier: MIT
/* The leaves' period (see ta_period.h). */
#include <stdlib.h>

#include "ta_period.h"

/* distinct neighbour switches of s (ends are sorted by port, not peer) */
static uint32_t neighbours(const struct ta_graph *g, uint32_t s)
{
	uint32_t n = 0, i, k;

	for (i = 0; i < g->sw[s].n_ends; i++) {
		uint32_t p = g->sw[s].ends[i].peer;

		for (k = 0; k < i && g->sw[s].ends[k].peer != p; k++)
			;
		n += k == i;
	}
	return n;
}

uint32_t ta_graph_leaf_period(const struct ta_graph *g)
{
	uint8_t *host = calloc(g->n_sw + 1, 1);
	uint32_t d, s, period = 0, bare = 0;

	if (!host)
		return 0;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host)
			host[g->dest[d].sw] = 1;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t n;

		if (!host[s]) {
			bare++;
			continue;
		}
		n = neighbours(g, s);
		if (period && n != period) {
			period = 0;
			break;
		}
		period = n;
	}
	free(host);
	return bare ? period : 0;
}
