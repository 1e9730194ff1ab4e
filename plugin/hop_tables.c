// SPDX-License-Identifier: MIT
/* Min-hop tables by breadth-first search (see hop_tables.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

static int adj_build(const struct turnadd_graph *og, struct hop_adj *a)
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
			    (j = turnadd_graph_switch_index(og, rem->sw)) < 0)
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

/*
 * Switch sw's row of hops towards LID lid, allocated as
 * osm_switch_set_hops() does (every port OSM_NO_PATH); NULL if the LID
 * is beyond the switch's table or memory ran out.  The rows are written
 * here directly: calling osm_switch_set_hops() for each of the
 * n_sw * (link ends) entries cost more than the routing on 16,000
 * hosts.
 */
static uint8_t *hop_row(osm_switch_t *sw, uint16_t lid)
{
	if (!lid || lid > sw->max_lid_ho || lid >= sw->num_hops)
		return NULL;
	if (!sw->hops[lid]) {
		sw->hops[lid] = malloc(sw->num_ports);
		if (!sw->hops[lid])
			return NULL;
		memset(sw->hops[lid], OSM_NO_PATH, sw->num_ports);
	}
	return sw->hops[lid];
}

/*
 * Switch s's entries towards every switch LID: port k gets 1 towards
 * its neighbour (a direct cable, healthy or not) and 1 + the neighbour's
 * hops towards every switch LID the neighbour reaches, over a healthy
 * cable; port 0 the least.  dist_to[p * n + d]: hops from switch p to
 * switch d.  Switch by switch, so each switch's rows stay in the cache.
 */
static int set_switch(const struct turnadd_graph *og, const struct hop_adj *a,
		      uint32_t s, const uint16_t *lid, const uint8_t *dist_to,
		      uint32_t *bad_d)
{
	osm_switch_t *sw = og->sw[s];
	uint32_t n = og->g->n_sw, k, d;

	for (d = 0; d < n; d++) {
		uint8_t *row;

		if (!lid[d])
			continue;	/* no LID: nothing to reach */
		row = NULL;
		for (k = a->start[s]; k < a->start[s + 1]; k++) {
			uint8_t h, dk = dist_to[(size_t)a->peer[k] * n + d];

			if (a->peer[k] == d)
				h = 1;
			else if (a->healthy[k] && dk != NO_DIST)
				h = dk + 1;
			else
				continue;
			if ((!row && !(row = hop_row(sw, lid[d]))) ||
			    a->port[k] >= sw->num_ports) {
				*bad_d = d;
				return -1;
			}
			row[a->port[k]] = h;
			if (row[0] > h)
				row[0] = h;
		}
	}
	return 0;
}

int turnadd_hops_fill(const struct turnadd_graph *og, const struct ta_log *log)
{
	uint32_t n = og->g->n_sw, d, s, bad = 0;
	struct hop_adj a = { 0 };
	uint8_t *dist = malloc(n + 1);
	uint8_t *dist_to = malloc((size_t)n * n + 1);
	uint16_t *lid = malloc((n + 1) * sizeof(*lid));
	uint32_t *queue = malloc((n + 1) * sizeof(*queue));
	int ret = -1;

	if (!dist || !dist_to || !lid || !queue || adj_build(og, &a)) {
		ta_logf(log, TA_LOG_ERROR, "out of memory filling the min-hop tables");
		goto out;
	}
	/* hops from every switch to switch d, kept by switch */
	for (d = 0; d < n; d++) {
		bfs(&a, n, d, dist, queue);
		for (s = 0; s < n; s++)
			dist_to[(size_t)s * n + d] = dist[s];
		lid[d] = cl_ntoh16(osm_node_get_base_lid(og->sw[d]->p_node,
							 0));
		if (lid[d] && osm_switch_set_hops(og->sw[d], lid[d], 0, 0)) {
			bad = d;
			goto fail;
		}
	}
	/* d itself too: 2 hops out and back on each healthy cable */
	for (s = 0; s < n; s++)
		if (set_switch(og, &a, s, lid, dist_to, &bad))
			goto fail;
	ret = 0;
	goto out;
fail:
	ta_logf(log, TA_LOG_ERROR,
		"cannot set a min-hop table entry of switch 0x%016" PRIx64,
		og->g->sw[bad].guid);
out:
	adj_free(&a);
	free(dist);
	free(dist_to);
	free(lid);
	free(queue);
	return ret;
}
