// SPDX-License-Identifier: MIT
/* OpenSM's switch tables as rows of the routing memory (see lft_rows.h). */
#include <stdlib.h>

#include "lft_rows.h"

struct ta_saved_row *turnadd_lft_rows(const struct turnadd_graph *og)
{
	uint32_t n = og->g ? og->g->n_sw : 0, s;
	struct ta_saved_row *rows = calloc(n + 1, sizeof(*rows));

	if (!rows)
		return NULL;
	for (s = 0; s < n; s++) {
		const osm_switch_t *sw = og->sw[s];

		if (sw && sw->lft) {
			rows[s].port = sw->lft;
			rows[s].n_lids = sw->lft_size;
		}
	}
	return rows;
}
