// SPDX-License-Identifier: MIT
/* The SL of every path between sweeps (see sl_table.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sl_table.h"

void turnadd_sl_init(struct turnadd_sl *t)
{
	memset(t, 0, sizeof(*t));
}

void turnadd_sl_free(struct turnadd_sl *t)
{
	free(t->src_row);
	free(t->layer);
	turnadd_sl_init(t);
}

/* highest layer of res + 1; 1 when every path is on layer 0 */
static unsigned layers_in(const struct ta_result *res)
{
	size_t k, n = (size_t)res->n_sw * res->n_dest;
	unsigned top = 0;

	for (k = 0; res->layer && k < n; k++)
		if (res->port[k] != TA_NO_PORT && res->layer[k] > top)
			top = res->layer[k];
	return top + 1;
}

int turnadd_sl_take(struct turnadd_sl *t, const struct ta_graph *g,
		    const struct ta_result *res)
{
	struct turnadd_sl n = { .n_sw = g->n_sw, .n_lids = 1 };
	uint32_t s, d;

	n.layers = layers_in(res);
	if (n.layers <= 1) {
		turnadd_sl_free(t);
		return 0;
	}
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid + 1u > n.n_lids)
			n.n_lids = g->dest[d].lid + 1u;
	n.src_row = malloc((size_t)n.n_lids * sizeof(*n.src_row));
	n.layer = malloc((size_t)n.n_sw * n.n_lids + 1);
	if (!n.src_row || !n.layer) {
		turnadd_sl_free(&n);
		return -1;
	}
	memset(n.src_row, 0xff, (size_t)n.n_lids * sizeof(*n.src_row));
	memset(n.layer, TURNADD_SL_NONE, (size_t)n.n_sw * n.n_lids);
	for (d = 0; d < g->n_dest; d++)
		n.src_row[g->dest[d].lid] = g->dest[d].sw;
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * res->n_dest + d;

			if (res->port[k] != TA_NO_PORT)
				n.layer[(size_t)s * n.n_lids +
					g->dest[d].lid] = res->layer[k];
		}
	turnadd_sl_free(t);
	*t = n;
	return 0;
}

uint8_t turnadd_sl_get(const struct turnadd_sl *t, uint8_t hint,
		       uint16_t slid, uint16_t dlid)
{
	uint32_t row;
	uint8_t l;

	if (!t->layer || slid >= t->n_lids || dlid >= t->n_lids)
		return hint;
	row = t->src_row[slid];
	if (row >= t->n_sw)
		return hint;
	l = t->layer[(size_t)row * t->n_lids + dlid];
	return l == TURNADD_SL_NONE ? hint : l;
}

int turnadd_sl_dump(FILE *f, const struct ta_graph *g,
		    const struct ta_result *res)
{
	uint32_t s, d;

	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * res->n_dest + d;

			if (fprintf(f, "0x%016" PRIx64 " %u %u\n",
				    g->sw[s].guid, g->dest[d].lid,
				    res->layer ? res->layer[k] : 0) < 0)
				return -1;
		}
	return 0;
}
