// SPDX-License-Identifier: MIT
/* OpenSM's switch tables without OpenSM (see lft_sim.h). */
#include <stdlib.h>
#include <string.h>

#include "lft_sim.h"

void lft_sim_init(struct lft_sim *t, uint32_t n_lids)
{
	memset(t, 0, sizeof(*t));
	t->n_lids = n_lids;
}

void lft_sim_free(struct lft_sim *t)
{
	uint32_t i;

	for (i = 0; i < t->n_sw; i++)
		free(t->row[i]);
	free(t->row);
	free(t->guid);
	free(t->rows);
	lft_sim_init(t, 0);
}

static int64_t find(const struct lft_sim *t, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < t->n_sw; i++)
		if (t->guid[i] == guid)
			return i;
	return -1;
}

const struct ta_saved_row *lft_sim_rows(struct lft_sim *t,
					const struct ta_graph *g)
{
	uint64_t *guid = calloc(g->n_sw + 1, sizeof(*guid));
	uint8_t **row = calloc(g->n_sw + 1, sizeof(*row));
	struct ta_saved_row *rows = calloc(g->n_sw + 1, sizeof(*rows));
	uint32_t s, i;

	if (!guid || !row || !rows)
		goto fail;
	/* new switches first, so that a failure leaves t as it was */
	for (s = 0; s < g->n_sw; s++)
		if (find(t, g->sw[s].guid) < 0) {
			row[s] = malloc(t->n_lids + 1);
			if (!row[s])
				goto fail;
			memset(row[s], TA_NO_PORT, t->n_lids);
		}
	for (s = 0; s < g->n_sw; s++) {
		int64_t k = find(t, g->sw[s].guid);

		guid[s] = g->sw[s].guid;
		if (k >= 0) {
			row[s] = t->row[k];
			t->row[k] = NULL;
		}
		rows[s].port = row[s];
		rows[s].n_lids = t->n_lids;
	}
	for (i = 0; i < t->n_sw; i++)
		free(t->row[i]);	/* switches gone */
	free(t->row);
	free(t->guid);
	free(t->rows);
	t->row = row;
	t->guid = guid;
	t->rows = rows;
	t->n_sw = g->n_sw;
	return rows;
fail:
	for (s = 0; row && s < g->n_sw; s++)
		free(row[s]);
	free(guid);
	free(row);
	free(rows);
	return NULL;
}

void lft_sim_write(struct lft_sim *t, const struct ta_graph *g,
		   const struct ta_result *r)
{
	uint32_t s, d;

	for (s = 0; s < g->n_sw && s < t->n_sw; s++)
		for (d = 0; d < g->n_dest; d++)
			if (g->dest[d].lid < t->n_lids)
				t->row[s][g->dest[d].lid] =
					ta_result_port(r, s, d);
}
