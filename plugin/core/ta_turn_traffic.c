// SPDX-License-Identifier: MIT
/* Turn traffic estimate from provisional (unrestricted) routes. */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_intree.h"
#include "ta_turnadd.h"

/* host counts per switch and traffic group */
static uint32_t *count_hosts(const struct ta_graph *g, const uint32_t *group,
			     uint32_t n_g)
{
	uint32_t *cnt = calloc((size_t)g->n_sw * n_g + 1, sizeof(*cnt));
	uint32_t d;

	if (!cnt)
		return NULL;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host)
			cnt[(size_t)g->dest[d].sw * n_g + group[d]]++;
	return cnt;
}

/* send[gd * n_sw + s]: traffic the hosts of s send to one host of gd */
static double *send_table(const struct ta_graph *g,
			  const struct ta_traffic *tr, const uint32_t *cnt,
			  uint32_t n_g)
{
	double *send = malloc((size_t)n_g * g->n_sw * sizeof(*send) + 1);
	uint32_t gd, s, gs;

	if (!send)
		return NULL;
	for (gd = 0; gd < n_g; gd++)
		for (s = 0; s < g->n_sw; s++) {
			double sum = 0;

			for (gs = 0; gs < n_g; gs++)
				sum += cnt[(size_t)s * n_g + gs] *
				       ta_traffic_weight(tr, gs, gd);
			send[(size_t)gd * g->n_sw + s] = sum;
		}
	return send;
}

static void add_flows(const struct ta_graph *g, const struct ta_intree *t,
		      const double *send, double *flow, double *w)
{
	uint32_t k;

	for (k = 0; k < t->n_order; k++)
		flow[t->order[k]] = send[t->order[k]];
	/* farthest first: a switch's flow is complete when it is reached */
	for (k = t->n_order; k-- > 1;) {
		uint32_t s = t->order[k], e = t->out_end[s];
		const struct ta_link *l = &g->links[g->sw[s].ends[e].link];
		uint32_t n = g->sw[s].ends[e].peer;
		uint32_t in = l->end[l->sw[0] == s ? 1 : 0];

		flow[n] += flow[s];
		if (t->out_end[n] != TA_OUT_DELIVER)
			w[ta_turn(g, n, in, t->out_end[n])] += flow[s];
	}
}

int ta_turn_traffic(const struct ta_graph *g, const struct ta_traffic *tr,
		    const uint32_t *group, const uint32_t *spread,
		    const uint32_t *order, double *w)
{
	uint32_t n_g = tr->n_groups + 1, d, x;
	uint32_t *cnt = count_hosts(g, group, n_g);
	double *send = cnt ? send_table(g, tr, cnt, n_g) : NULL;
	double *flow = malloc((g->n_sw + 1) * sizeof(*flow));
	struct ta_intree t;
	int ret = -1;

	if (!send || !flow || ta_intree_init(&t, g))
		goto out;
	/*
	 * Shortest paths with every turn allowed (but U-turns, which they
	 * never take); destinations grouped by switch share the preparation.
	 */
	for (x = 0; x < g->n_dest; x++) {
		d = order ? order[x] : x;
		if (!g->dest[d].is_host)
			continue;
		ta_intree_plain(&t, g->dest[d].sw, spread[d]);
		add_flows(g, &t, send + (size_t)group[d] * g->n_sw, flow, w);
	}
	ta_intree_free(&t);
	ret = 0;
out:
	free(cnt);
	free(send);
	free(flow);
	return ret;
}
