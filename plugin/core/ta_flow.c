// SPDX-License-Identifier: MIT
/* Flows of the traffic matrix along in-trees (ta_flow.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_flow.h"

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

/* the busiest host link: most sent or received by one host */
static double host_bound(const struct ta_graph *g,
			 const struct ta_traffic *tr, const uint32_t *cnt,
			 uint32_t n_g)
{
	double *in_g = calloc(n_g, sizeof(*in_g)), best = 0;
	uint32_t s, a, b;

	if (!in_g)
		return 0;
	for (s = 0; s < g->n_sw; s++)
		for (a = 0; a < n_g; a++)
			in_g[a] += cnt[(size_t)s * n_g + a];
	for (a = 0; a < n_g; a++) {
		double out = 0, in = 0;

		if (!in_g[a])
			continue;
		for (b = 0; b < n_g; b++) {
			double others = in_g[b] - (a == b);

			out += others * ta_traffic_weight(tr, a, b);
			in += others * ta_traffic_weight(tr, b, a);
		}
		if (out > best)
			best = out;
		if (in > best)
			best = in;
	}
	free(in_g);
	return best;
}

int ta_flow_init(struct ta_flow *f, const struct ta_graph *g,
		 const struct ta_traffic *tr, const uint32_t *group)
{
	uint32_t n_g = tr->n_groups + 1, gd, s, gs;
	uint32_t *cnt = count_hosts(g, group, n_g);

	memset(f, 0, sizeof(*f));
	f->n_g = n_g;
	f->n_sw = g->n_sw;
	f->send = malloc((size_t)n_g * g->n_sw * sizeof(*f->send) + 1);
	f->flow = malloc((g->n_sw + 1) * sizeof(*f->flow));
	if (!cnt || !f->send || !f->flow) {
		free(cnt);
		ta_flow_free(f);
		return -1;
	}
	for (gd = 0; gd < n_g; gd++)
		for (s = 0; s < g->n_sw; s++) {
			double sum = 0;

			for (gs = 0; gs < n_g; gs++)
				sum += cnt[(size_t)s * n_g + gs] *
				       ta_traffic_weight(tr, gs, gd);
			f->send[(size_t)gd * g->n_sw + s] = sum;
		}
	f->host_bound = host_bound(g, tr, cnt, n_g);
	f->cnt = cnt;
	return 0;
}

void ta_flow_free(struct ta_flow *f)
{
	free(f->send);
	free(f->flow);
	free(f->cnt);
	memset(f, 0, sizeof(*f));
}

double ta_flow_bound(const struct ta_flow *f, const struct ta_graph *g)
{
	double best = f->host_bound;
	double *all_in = calloc(2 * (size_t)f->n_g, sizeof(*all_in));
	double *hosts = all_in + f->n_g;
	uint32_t s, gd, t;

	if (!all_in)
		return best;
	/* all_in[gd]: sent to one host of gd by every host; hosts[gd] */
	for (gd = 0; gd < f->n_g; gd++)
		for (t = 0; t < g->n_sw; t++) {
			all_in[gd] += f->send[(size_t)gd * g->n_sw + t];
			hosts[gd] += f->cnt[(size_t)t * f->n_g + gd];
		}
	for (s = 0; s < g->n_sw; s++) {
		double out = 0, in = 0;

		if (!g->sw[s].n_ends)
			continue;
		for (gd = 0; gd < f->n_g; gd++) {
			uint32_t here = f->cnt[(size_t)s * f->n_g + gd];
			double from_s = f->send[(size_t)gd * g->n_sw + s];

			out += from_s * (hosts[gd] - here);
			in += (all_in[gd] - from_s) * here;
		}
		if (out / g->sw[s].n_ends > best)
			best = out / g->sw[s].n_ends;
		if (in / g->sw[s].n_ends > best)
			best = in / g->sw[s].n_ends;
	}
	free(all_in);
	return best;
}

void ta_flow_add(const struct ta_flow *f, const struct ta_graph *g,
		 const struct ta_intree *t, uint32_t dgroup, double *turn_w,
		 double *chan_load)
{
	const double *send = f->send + (size_t)dgroup * f->n_sw;
	double *flow = f->flow;
	uint32_t k;

	for (k = 0; k < t->n_order; k++)
		flow[t->order[k]] = send[t->order[k]];
	/* farthest first: a switch's flow is complete when it is reached */
	for (k = t->n_order; k-- > 1;) {
		uint32_t s = t->order[k], e = t->out_end[s];
		const struct ta_port_ref *r = &g->sw[s].ends[e];
		uint32_t n = r->peer;
		uint32_t in = ta_graph_far_end(g, s, e);

		flow[n] += flow[s];
		if (chan_load)
			chan_load[r->out_chan] += flow[s];
		if (turn_w && t->out_end[n] != TA_OUT_DELIVER)
			turn_w[ta_turn(g, n, in, t->out_end[n])] += flow[s];
	}
}

int ta_column_buf_init(struct ta_column_buf *b, const struct ta_graph *g)
{
	size_t n = (size_t)g->n_sw + 1;

	b->next = malloc(n * sizeof(*b->next));
	b->pend = malloc(n * sizeof(*b->pend));
	b->queue = malloc(n * sizeof(*b->queue));
	if (b->next && b->pend && b->queue)
		return 0;
	ta_column_buf_free(b);
	return -1;
}

void ta_column_buf_free(struct ta_column_buf *b)
{
	free(b->next);
	free(b->pend);
	free(b->queue);
	memset(b, 0, sizeof(*b));
}

/* by Kahn's order: a loop's switches never pass their flow on */
void ta_flow_column(const struct ta_graph *g, const uint8_t *port, uint32_t d,
		    double *flow, struct ta_column_buf *b, double *chan_load)
{
	uint32_t n = g->n_sw, dsw = g->dest[d].sw, s, head = 0, tail = 0;
	uint32_t *next = b->next, *pend = b->pend, *queue = b->queue;

	memset(pend, 0, n * sizeof(*pend));
	for (s = 0; s < n; s++) {
		next[s] = s == dsw ? TA_NO_END :
			  ta_graph_end_of_port(g, s,
					       port[(size_t)s * g->n_dest + d]);
		if (next[s] != TA_NO_END)
			pend[g->sw[s].ends[next[s]].peer]++;
	}
	for (s = 0; s < n; s++)
		if (!pend[s])
			queue[tail++] = s;
	while (head < tail) {
		uint32_t u = queue[head++], e = next[u], v;

		if (e == TA_NO_END)
			continue;
		chan_load[g->sw[u].ends[e].out_chan] += flow[u];
		v = g->sw[u].ends[e].peer;
		flow[v] += flow[u];
		if (!--pend[v])
			queue[tail++] = v;
	}
}

int ta_flow_add_ports(const struct ta_flow *f, const struct ta_graph *g,
		      const uint8_t *port, const uint8_t *pick,
		      const uint32_t *group, double *chan_load)
{
	struct ta_column_buf b;
	uint32_t d;

	if (ta_column_buf_init(&b, g))
		return -1;
	for (d = 0; d < g->n_dest; d++) {
		if (!pick[d] || !g->dest[d].is_host)
			continue;
		memcpy(f->flow, f->send + (size_t)group[d] * f->n_sw,
		       g->n_sw * sizeof(*f->flow));
		ta_flow_column(g, port, d, f->flow, &b, chan_load);
	}
	ta_column_buf_free(&b);
	return 0;
}
