// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lid_osm_fabric.h"

struct sw_ref {
	uint64_t guid;
	const osm_switch_t *sw;
};

static int cmp_sw(const void *a, const void *b)
{
	const struct sw_ref *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t sw_index(const struct sw_ref *refs, uint32_t n,
			const osm_switch_t *sw)
{
	struct sw_ref key = {
		.guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node)),
	};
	const struct sw_ref *r = bsearch(&key, refs, n, sizeof(*refs), cmp_sw);

	return r && r->sw == sw ? r - refs : -1;
}

static struct sw_ref *collect_switches(struct lid_osm_fabric *f,
				       osm_subn_t *subn)
{
	cl_qmap_t *tbl = &subn->sw_guid_tbl;
	uint32_t n = 0, i;
	cl_map_item_t *it;
	struct sw_ref *refs = calloc(cl_qmap_count(tbl) + 1, sizeof(*refs));

	f->sw_guid = calloc(cl_qmap_count(tbl) + 1, sizeof(*f->sw_guid));
	if (!refs || !f->sw_guid) {
		free(refs);
		return NULL;
	}
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_switch_t *sw = (const osm_switch_t *)it;

		if (!sw->p_node->discovery_count)
			continue;	/* not seen this sweep: dropped next */
		refs[n].guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
		refs[n++].sw = sw;
	}
	qsort(refs, n, sizeof(*refs), cmp_sw);
	for (i = 0; i < n; i++)
		f->sw_guid[i] = refs[i].guid;
	f->in.n_sw = n;
	f->in.sw_guid = f->sw_guid;
	return refs;
}

/*
 * distinct neighbour switches (found by this sweep) of every switch,
 * counted into sw_peers[] and, if sw_peer is there, listed into it
 */
static void walk_peers(struct lid_osm_fabric *f, const struct sw_ref *refs)
{
	uint32_t n = f->in.n_sw, i, at = 0;

	for (i = 0; i < n; i++) {
		osm_node_t *node = refs[i].sw->p_node;
		uint8_t n_ports = osm_node_get_num_physp(node), p, q;

		for (p = 1; p < n_ports; p++) {
			osm_physp_t *ph = osm_node_get_physp_ptr(node, p);
			osm_physp_t *rem = ph ? ph->p_remote_physp : NULL;

			if (!rem || !rem->p_node || !rem->p_node->sw ||
			    rem->p_node == node ||
			    sw_index(refs, n, rem->p_node->sw) < 0)
				continue;
			for (q = 1; q < p; q++) {
				osm_physp_t *o = osm_node_get_physp_ptr(node,
									q);

				if (o && o->p_remote_physp &&
				    o->p_remote_physp->p_node == rem->p_node)
					break;
			}
			if (q == p && f->sw_peer)
				f->sw_peer[at++] = (uint32_t)sw_index(refs, n,
							    rem->p_node->sw);
			f->sw_peers[i] += q == p;
		}
	}
}

/* distinct neighbour switches, then which they are (la_input.sw_peer) */
static int count_peers(struct lid_osm_fabric *f, const struct sw_ref *refs)
{
	uint32_t n = f->in.n_sw, i, sum = 0;

	f->sw_peers = calloc(n + 1, sizeof(*f->sw_peers));
	if (!f->sw_peers)
		return -1;
	f->sw_peer = NULL;
	walk_peers(f, refs);
	for (i = 0; i < n; i++)
		sum += f->sw_peers[i];
	f->sw_peer = calloc((size_t)sum + 1, sizeof(*f->sw_peer));
	if (!f->sw_peer)
		return -1;
	memset(f->sw_peers, 0, (n + 1) * sizeof(*f->sw_peers));
	walk_peers(f, refs);
	f->in.sw_peers = f->sw_peers;
	f->in.sw_peer = f->sw_peer;
	return 0;
}

/* where port hangs: its own switch, a switch port, or nowhere (loose) */
static void locate(struct la_port *lp, const osm_port_t *port,
		   const struct sw_ref *refs, uint32_t n_sw)
{
	const osm_physp_t *rem = port->p_physp ?
				 port->p_physp->p_remote_physp : NULL;
	int64_t idx;

	lp->kind = LA_LOOSE;
	if (port->p_node->sw) {
		idx = sw_index(refs, n_sw, port->p_node->sw);
		if (idx >= 0) {
			lp->kind = LA_SWITCH;
			lp->sw = (uint32_t)idx;
		}
		return;
	}
	if (!rem || !rem->p_node || !rem->p_node->sw)
		return;
	idx = sw_index(refs, n_sw, rem->p_node->sw);
	if (idx < 0)
		return;
	lp->kind = LA_HOST;
	lp->sw = (uint32_t)idx;
	lp->sw_port = osm_physp_get_port_num(rem);
}

static void old_lid(struct lid_osm_fabric *f, struct la_port *lp,
		    const osm_port_t *port, osm_db_domain_t *g2l)
{
	uint16_t lo, hi;

	if (!osm_db_guid2lid_get(g2l, lp->guid, &lo, &hi)) {
		lp->old_lid = lo;
		f->from_db++;
		return;
	}
	lp->old_lid = cl_ntoh16(osm_port_get_base_lid(port));
	lp->old_weak = true;
	if (lp->old_lid)
		f->from_wire++;
}

static int collect_ports(struct lid_osm_fabric *f, osm_subn_t *subn,
			 osm_db_domain_t *g2l, const struct sw_ref *refs)
{
	cl_qmap_t *tbl = &subn->port_guid_tbl;
	cl_map_item_t *it;

	f->in.ports = calloc(cl_qmap_count(tbl) + 1, sizeof(*f->in.ports));
	if (!f->in.ports)
		return -1;
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_port_t *port = (const osm_port_t *)it;
		struct la_port *lp = &f->in.ports[f->in.n_ports];

		if (!port->discovery_count)
			continue;	/* not seen this sweep: dropped next */
		lp->guid = cl_ntoh64(osm_port_get_guid(port));
		locate(lp, port, refs, f->in.n_sw);
		old_lid(f, lp, port, g2l);
		f->in.n_ports++;
	}
	return 0;
}

/* guid2lid entries of ports not in this sweep keep their LIDs */
static int collect_reserved(struct lid_osm_fabric *f, osm_db_domain_t *g2l)
{
	uint64_t *present = calloc(f->in.n_ports + 1, sizeof(*present));
	osm_db_guid_elem_t *e;
	cl_qlist_t guids;
	uint32_t i, n = 0, cap = 0;
	int ret = present ? 0 : -1;

	cl_qlist_init(&guids);
	if (!ret && osm_db_guid2lid_guids(g2l, &guids))
		ret = -1;
	for (i = 0; present && i < f->in.n_ports; i++)
		present[i] = f->in.ports[i].guid;
	if (present)
		qsort(present, f->in.n_ports, sizeof(*present), cmp_u64);
	while ((e = (osm_db_guid_elem_t *)cl_qlist_remove_head(&guids)) !=
	       (osm_db_guid_elem_t *)cl_qlist_end(&guids)) {
		uint16_t lo, hi;

		if (!ret && !bsearch(&e->guid, present, f->in.n_ports,
				     sizeof(*present), cmp_u64) &&
		    !osm_db_guid2lid_get(g2l, e->guid, &lo, &hi)) {
			if (n == cap) {
				struct la_range *r;

				cap = cap ? 2 * cap : 64;
				r = realloc(f->reserved, cap * sizeof(*r));
				if (!r)
					ret = -1;
				else
					f->reserved = r;
			}
			if (!ret) {
				f->reserved[n].lo = lo;
				f->reserved[n++].hi = hi;
			}
		}
		free(e);
	}
	free(present);
	f->in.reserved = f->reserved;
	f->in.n_reserved = n;
	return ret;
}

/* an enhanced SP0 with lmc_esp0 takes 2^lmc LIDs: then all switches do */
static bool any_sp0_lmc(osm_subn_t *subn)
{
	cl_qmap_t *tbl = &subn->sw_guid_tbl;
	cl_map_item_t *it;

	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it))
		if (osm_switch_sp0_is_lmc_capable((osm_switch_t *)it, subn))
			return true;
	return false;
}

int lid_osm_fabric_build(struct lid_osm_fabric *f, osm_subn_t *subn,
			 osm_db_domain_t *g2l)
{
	struct sw_ref *refs;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	f->in.lmc = subn->opt.lmc;
	f->in.sp0_lmc = any_sp0_lmc(subn);
	f->in.max_lid = subn->max_ucast_lid_ho;
	refs = collect_switches(f, subn);
	if (refs && !count_peers(f, refs) &&
	    !collect_ports(f, subn, g2l, refs) && !collect_reserved(f, g2l))
		ret = 0;
	free(refs);
	if (ret)
		lid_osm_fabric_free(f);
	return ret;
}

void lid_osm_fabric_free(struct lid_osm_fabric *f)
{
	free(f->sw_guid);
	free(f->sw_peers);
	free(f->sw_peer);
	free(f->in.ports);
	free(f->reserved);
	memset(f, 0, sizeof(*f));
}
