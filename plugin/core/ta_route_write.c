// SPDX-License-Identifier: MIT
/*
 * Writing routes: one destination's tree into a column, columns into
 * the table; a resweep's kept routes (ta_job.h).
 */
#include <stdlib.h>

#include "ta_job.h"

void flush_columns(const struct ta_graph *g, struct columns *c,
		   struct ta_result *res)
{
	uint32_t s, k;

	for (s = 0; s < g->n_sw; s++) {
		uint8_t *row = res->port + (size_t)s * res->n_dest;

		for (k = 0; k < c->n; k++)
			row[c->d[k]] = c->buf[(size_t)k * g->n_sw + s];
	}
	c->n = 0;
}

/* the column for destination d, flushed first if the buffer is full */
uint8_t *next_column(const struct ta_graph *g, struct columns *c,
		     uint32_t d, struct ta_result *res)
{
	if (c->n == COLS)
		flush_columns(g, c, res);
	c->d[c->n] = d;
	return c->buf + (size_t)c->n++ * g->n_sw;
}

void write_routes(const struct ta_graph *g, const struct ta_intree *t,
		  uint32_t d, uint8_t *col, struct ta_result *res)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++) {
		uint32_t e = t->out_end[s];
		uint8_t port = TA_NO_PORT;

		if (t->dist[s] == TA_UNREACHED)
			port = TA_NO_PORT;
		else if (e == TA_OUT_DELIVER)
			port = g->dest[d].port;
		else
			port = g->sw[s].ends[e].port;
		col[s] = port;
		if (port == TA_NO_PORT)
			res->stats.unreachable++;
	}
}

/*
 * Which destinations keep their previous routes whole (see ta_keep.h):
 * kept[d] = 1; none that the prior releases.  The previous table is read
 * 64 columns at a time (one cache line of each row), each column then
 * checked from a copy.
 */
int find_kept(const struct route_job *j, struct ta_keep *keep,
	      uint8_t *kept)
{
	const struct ta_graph *g = j->g;
	const uint8_t *last = j->prior->last_port;
	uint8_t *buf = malloc((size_t)64 * g->n_sw + 1);
	uint32_t d0, s, k;

	if (!buf)
		return -1;
	for (d0 = 0; d0 < g->n_dest; d0 += 64) {
		uint32_t n = g->n_dest - d0 < 64 ? g->n_dest - d0 : 64;

		for (s = 0; s < g->n_sw; s++) {
			const uint8_t *row = last + (size_t)s * g->n_dest + d0;

			for (k = 0; k < n; k++)
				buf[(size_t)k * g->n_sw + s] = row[k];
		}
		for (k = 0; k < n; k++) {
			uint32_t d = d0 + k;

			if (j->prior->release && j->prior->release[d]) {
				kept[d] = 0;
				continue;
			}
			kept[d] = (uint8_t)ta_keep_check(
				keep, j->cdg.state, buf + (size_t)k * g->n_sw,
				1, g->dest[d].sw, g->dest[d].port,
				j->esc.piece);
		}
	}
	free(buf);
	return 0;
}

/* the previous routes of the kept destinations, row by row */
void write_kept(const struct route_job *j, const uint8_t *kept,
		struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	uint32_t s, d;

	for (s = 0; s < g->n_sw; s++) {
		const uint8_t *last = j->prior->last_port +
				      (size_t)s * g->n_dest;
		uint8_t *row = res->port + (size_t)s * g->n_dest;

		for (d = 0; d < g->n_dest; d++) {
			if (!kept[d])
				continue;
			row[d] = j->esc.piece[s] == j->esc.piece[g->dest[d].sw] ?
				 last[d] : TA_NO_PORT;
			if (row[d] == TA_NO_PORT)
				res->stats.unreachable++;
		}
	}
}
