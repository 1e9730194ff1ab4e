// SPDX-License-Identifier: MIT
/* Turn traffic estimate from provisional (unrestricted) routes. */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_flow.h"
#include "ta_intree.h"
#include "ta_turnadd.h"

int ta_turn_traffic(const struct ta_graph *g, const struct ta_traffic *tr,
		    const uint32_t *group, const uint32_t *spread,
		    const uint32_t *order, double *w)
{
	struct ta_flow f;
	struct ta_intree t;
	uint32_t d, x;

	if (ta_flow_init(&f, g, tr, group))
		return -1;
	if (ta_intree_init(&t, g)) {
		ta_flow_free(&f);
		return -1;
	}
	/*
	 * Shortest paths with every turn allowed (but U-turns, which they
	 * never take); destinations grouped by switch share the preparation.
	 */
	for (x = 0; x < g->n_dest; x++) {
		d = order ? order[x] : x;
		if (!g->dest[d].is_host)
			continue;
		ta_intree_plain(&t, g->dest[d].sw, spread[d]);
		ta_flow_add(&f, g, &t, group[d], w, NULL);
	}
	ta_intree_free(&t);
	ta_flow_free(&f);
	return 0;
}
