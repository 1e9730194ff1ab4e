// SPDX-License-Identifier: MIT
/* Min-hop tables by breadth-first search (see hop_tables.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "hop_tables.h"

#define NO_DIST UINT8_MAX

/* switch-to-switch cables of every switch, as (port, neighbour index) */
struct hop_adj {
	uint32_t *start;	/* [n_sw + 1] into port/peer */
	uint8_t *port;
	uint32_t *peer;
	uint8_t *healthy;
};

static void adj_free(struct hop_adj *a)
{
	free(a->start);
	free(a->port);
	free(a->peer);
	free(a->healthy);
}

static int adj_build(const struct osm_graph *og, struct hop_adj *a)
{
	uint32_t n = og->g->n_sw, s, k = 0, cap = 0;

	for (s = 0; s < n; s++)
		cap += osm_node_get_num_physp(og->sw[s]->p_node);
	a->start = malloc((n + 1) * sizeof(*a->start));
	a->port = malloc(cap + 1);
	a->peer = malloc((cap + 1) * sizeof(*a->peer));
	a->healthy = malloc(cap + 1);
	if (!a->start || !a->port || !a->peer || !a->healthy)
		return -1;
	for (s = 0; s < n; s++) {
		osm_node_t *node = og->sw[s]->p_node;
		uint8_t n_ports = osm_node_get_num_physp(node), p;

		a->start[s] = k;
		for (p = 1; p < n_ports; p++) {
			osm_physp_t *ph = osm_node_get_physp_ptr(node, p);
			osm_node_t *rem;
			int64_t j;

			if (!ph || !ph->p_remote_physp ||
			    !(rem = ph->p_remote_physp->p_node) || !rem->sw ||
			    rem == node ||
			    (j = osm_graph_switch_index(og, rem->sw)) < 0)
				continue;
			a->port[k] = p;
			a->peer[k] = (uint32_t)j;
			a->healthy[k] = osm_link_is_healthy(ph) ? 1 : 0;
			k++;
		}
	}
	a->start[n] = k;
	return 0;
}

/* hops from every switch to switch d over healthy cables */
static void bfs(const struct hop_adj *a, uint32_t n, uint32_t d,
		uint8_t *dist, uint32_t *queue)
{
	uint32_t head = 0, tail = 0, s;

	for (s = 0; s < n; s++)
		dist[s] = NO_DIST;
	dist[d] = 0;
	queue[tail++] = d;
	while (head < tail) {
		uint32_t u = queue[head++], k;

		if (dist[u] + 1 >= NO_DIST)
			continue;
		/* cables are symmetric: u's neighbours reach d via u */
		for (k = a->start[u]; k < a->start[u + 1]; k++) {
			uint32_t v = a->peer[k];

			if (a->healthy[k] && dist[v] == NO_DIST) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}

static int set_row(const struct osm_graph *og, const struct hop_adj *a,
		   uint32_t d, const uint8_t *dist)
{
	uint16_t lid = cl_ntoh16(osm_node_get_base_lid(og->sw[d]->p_node, 0));
	uint32_t s, k;

	if (!lid)
		return 0;	/* a switch without a LID: nothing to reach */
	if (osm_switch_set_hops(og->sw[d], lid, 0, 0))
		return -1;
	/* d itself too: 2 hops out and back on each healthy cable */
	for (s = 0; s < og->g->n_sw; s++) {
		for (k = a->start[s]; k < a->start[s + 1]; k++) {
			uint8_t h;

			if (a->peer[k] == d)
				h = 1;	/* a direct cable, healthy or not */
			else if (a->healthy[k] && dist[a->peer[k]] != NO_DIST)
				h = dist[a->peer[k]] + 1;
			else
				continue;
			if (osm_switch_set_hops(og->sw[s], lid, a->port[k], h))
				return -1;
		}
	}
	return 0;
}

int osm_hops_fill(const struct osm_graph *og, const struct ta_log *log)
{
	uint32_t n = og->g->n_sw, d;
	struct hop_adj a = { 0 };
	uint8_t *dist = malloc(n + 1);
	uint32_t *queue = malloc((n + 1) * sizeof(*queue));
	int ret = -1;

	if (!dist || !queue || adj_build(og, &a)) {
		ta_logf(log, TA_LOG_ERROR, "out of memory filling the min-hop tables");
		goto out;
	}
	for (d = 0; d < n; d++) {
		bfs(&a, n, d, dist, queue);
		if (set_row(og, &a, d, dist)) {
			ta_logf(log, TA_LOG_ERROR,
				"cannot set a min-hop table entry of switch 0x%016" PRIx64,
				og->g->sw[d].guid);
			goto out;
		}
	}
	ret = 0;
out:
	adj_free(&a);
	free(dist);
	free(queue);
	return ret;
}
