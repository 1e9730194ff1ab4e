// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_graph.h"

/* one LID to route to, before it becomes a graph destination */
struct lid_dest {
	uint16_t lid;
	uint8_t sw_port;	/* switch port towards it, 0: the switch */
	bool is_host;
	uint32_t sw;		/* graph switch index */
	const osm_port_t *port;
};

static uint64_t switch_guid(const osm_switch_t *sw)
{
	return cl_ntoh64(osm_node_get_node_guid(sw->p_node));
}

static int cmp_switch_guid(const void *a, const void *b)
{
	uint64_t ga = switch_guid(*(osm_switch_t *const *)a);
	uint64_t gb = switch_guid(*(osm_switch_t *const *)b);

	return ga < gb ? -1 : ga > gb;
}

static int cmp_lid(const void *a, const void *b)
{
	const struct lid_dest *x = a, *y = b;

	return (int)x->lid - (int)y->lid;
}

int64_t turnadd_graph_switch_index(const struct turnadd_graph *og,
				   const osm_switch_t *sw)
{
	uint32_t lo = 0, hi = og->g->n_sw;
	uint64_t guid = switch_guid(sw);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t g = switch_guid(og->sw[mid]);

		if (g == guid)
			return og->sw[mid] == sw ? (int64_t)mid : -1;
		if (g < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static const char *port_desc(const osm_port_t *port)
{
	return port->p_node->print_desc ? port->p_node->print_desc : "?";
}

static int add_switches(struct turnadd_graph *og, osm_subn_t *subn,
			const struct ta_log *log)
{
	cl_qmap_t *tbl = &subn->sw_guid_tbl;
	cl_map_item_t *item;
	uint32_t n = 0, i;

	og->sw = calloc(cl_qmap_count(tbl) + 1, sizeof(*og->sw));
	if (!og->sw)
		goto nomem;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item))
		og->sw[n++] = (osm_switch_t *)item;
	qsort(og->sw, n, sizeof(*og->sw), cmp_switch_guid);

	for (i = 0; i < n; i++)
		if (ta_graph_add_switch(og->g, switch_guid(og->sw[i]),
					og->sw[i]->p_node->print_desc) < 0)
			goto nomem;
	return 0;
nomem:
	ta_logf(log, TA_LOG_ERROR, "out of memory adding switches");
	return -1;
}

/* every cable between two switches, once, from its lower-index end */
static int add_links(struct turnadd_graph *og, const struct ta_log *log)
{
	uint32_t i;

	for (i = 0; i < og->g->n_sw; i++) {
		osm_node_t *node = og->sw[i]->p_node;
		uint8_t n_ports = osm_node_get_num_physp(node);
		uint8_t p;

		for (p = 1; p < n_ports; p++) {
			osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
			osm_physp_t *rem;
			int64_t j;

			if (!physp || !(rem = physp->p_remote_physp) ||
			    !rem->p_node || !rem->p_node->sw)
				continue;
			if (rem->p_node == node) {
				ta_logf(log, TA_LOG_VERBOSE,
					"switch 0x%016" PRIx64 " port %u is cabled to its own port %u: ignored",
					switch_guid(og->sw[i]), p,
					osm_physp_get_port_num(rem));
				continue;
			}
			j = turnadd_graph_switch_index(og, rem->p_node->sw);
			if (j < 0) {
				ta_logf(log, TA_LOG_ERROR,
					"switch 0x%016" PRIx64 " port %u leads to a switch missing from OpenSM's switch table",
					switch_guid(og->sw[i]), p);
				return -1;
			}
			if ((uint32_t)j < i)
				continue;	/* added from the other end */
			if (ta_graph_add_link(og->g, i, p, (uint32_t)j,
					      osm_physp_get_port_num(rem)) < 0) {
				ta_logf(log, TA_LOG_ERROR,
					"cannot add link 0x%016" PRIx64 "[%u] - 0x%016" PRIx64 "[%u]",
					switch_guid(og->sw[i]), p,
					switch_guid(og->sw[j]),
					osm_physp_get_port_num(rem));
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Where the LIDs of port lead: its switch (port 0) or the switch port a
 * CA/router port is cabled to.  0 if found, 1 if the port has no switch.
 */
static int locate_port(const struct turnadd_graph *og, const osm_port_t *port,
		       struct lid_dest *d)
{
	const osm_physp_t *rem;
	int64_t idx;

	if (port->p_node->sw) {
		d->is_host = false;
		d->sw_port = 0;
		idx = turnadd_graph_switch_index(og, port->p_node->sw);
	} else {
		rem = port->p_physp ? port->p_physp->p_remote_physp : NULL;
		if (!rem || !rem->p_node || !rem->p_node->sw)
			return 1;
		d->is_host = true;
		d->sw_port = osm_physp_get_port_num(rem);
		idx = turnadd_graph_switch_index(og, rem->p_node->sw);
	}
	if (idx < 0)
		return 1;
	d->sw = (uint32_t)idx;
	d->port = port;
	return 0;
}

static int collect_lids(struct turnadd_graph *og, osm_subn_t *subn,
			const struct ta_log *log, struct lid_dest **out,
			size_t *n_out)
{
	cl_qmap_t *tbl = &subn->port_guid_tbl;
	cl_map_item_t *item;
	struct lid_dest *lids = NULL, d;
	size_t n = 0, cap = 0;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		const osm_port_t *port = (const osm_port_t *)item;
		uint16_t min_lid, max_lid;
		uint32_t lid;

		osm_port_get_lid_range_ho(port, &min_lid, &max_lid);
		if (!min_lid || max_lid < min_lid ||
		    max_lid > IB_LID_UCAST_END_HO) {
			ta_logf(log, TA_LOG_VERBOSE,
				"port 0x%016" PRIx64 " (%s) has no valid LID (%u-%u): not routed",
				cl_ntoh64(osm_port_get_guid(port)),
				port_desc(port), min_lid, max_lid);
			og->skipped_ports++;
			continue;
		}
		memset(&d, 0, sizeof(d));
		if (locate_port(og, port, &d)) {
			ta_logf(log, TA_LOG_VERBOSE,
				"port 0x%016" PRIx64 " (%s) LID %u is not cabled to a switch: not routed",
				cl_ntoh64(osm_port_get_guid(port)),
				port_desc(port), min_lid);
			og->unattached_ports++;
			continue;
		}
		if (d.is_host)
			og->host_ports++;
		if ((uint32_t)(max_lid - min_lid + 1) > og->max_lids_per_port)
			og->max_lids_per_port = max_lid - min_lid + 1;
		for (lid = min_lid; lid <= max_lid; lid++) {
			if (n == cap) {
				size_t ncap = cap ? 2 * cap : 256;
				struct lid_dest *p;

				p = realloc(lids, ncap * sizeof(*lids));
				if (!p) {
					ta_logf(log, TA_LOG_ERROR,
						"out of memory collecting LIDs");
					free(lids);
					return -1;
				}
				lids = p;
				cap = ncap;
			}
			d.lid = (uint16_t)lid;
			lids[n++] = d;
		}
	}
	qsort(lids, n, sizeof(*lids), cmp_lid);
	*out = lids;
	*n_out = n;
	return 0;
}

static int add_dests(struct turnadd_graph *og, osm_subn_t *subn,
		     const struct ta_log *log)
{
	struct lid_dest *lids;
	size_t n, i;
	int ret = 0;

	if (collect_lids(og, subn, log, &lids, &n))
		return -1;
	for (i = 0; i < n && !ret; i++) {
		const struct lid_dest *d = &lids[i];

		if (i && d->lid == lids[i - 1].lid) {
			ta_logf(log, TA_LOG_ERROR,
				"LID %u is claimed by ports 0x%016" PRIx64 " and 0x%016" PRIx64,
				d->lid,
				cl_ntoh64(osm_port_get_guid(lids[i - 1].port)),
				cl_ntoh64(osm_port_get_guid(d->port)));
			ret = -1;
		} else if (ta_graph_add_dest(og->g, d->lid, d->sw, d->sw_port,
					     d->is_host,
					     cl_ntoh64(osm_port_get_guid(d->port)),
					     d->port->p_node->print_desc) < 0) {
			ta_logf(log, TA_LOG_ERROR,
				"cannot add destination LID %u", d->lid);
			ret = -1;
		}
	}
	free(lids);
	return ret;
}

int turnadd_graph_build(struct turnadd_graph *og, osm_subn_t *subn,
			const struct ta_log *log)
{
	memset(og, 0, sizeof(*og));
	og->max_lids_per_port = 1;
	og->g = ta_graph_new();
	if (!og->g) {
		ta_logf(log, TA_LOG_ERROR, "out of memory creating the graph");
		return -1;
	}
	if (add_switches(og, subn, log) || add_links(og, log) ||
	    add_dests(og, subn, log))
		goto fail;
	if (ta_graph_finalize(og->g)) {
		ta_logf(log, TA_LOG_ERROR,
			"the routing core rejected the graph (two links on one switch port?)");
		goto fail;
	}
	return 0;
fail:
	turnadd_graph_clear(og);
	return -1;
}

void turnadd_graph_clear(struct turnadd_graph *og)
{
	ta_graph_free(og->g);
	free(og->sw);
	memset(og, 0, sizeof(*og));
}
