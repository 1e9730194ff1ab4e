// SPDX-License-Identifier: MIT
/* The layers the fabric's VLs and SL-to-VL maps allow (vl_caps.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "vl_caps.h"

#define MAX_DATA_VLS 15u

/* data VLs of an OperVLs / VLCap code: 1: VL0, 2: VL0-1, 3: VL0-3, ... */
static unsigned vls_of_code(unsigned code)
{
	if (!code)
		return 1;	/* OpenSM takes 0 as 1 (VL0) */
	return code >= 5 ? MAX_DATA_VLS : 1u << (code - 1);
}

/* SLs 0..k-1 that a qos_*sl2vl string maps to VL 0..k-1 (NULL: default) */
static unsigned identity_sls(const char *s)
{
	unsigned sl = 0;
	char *end;

	if (!s)
		return MAX_DATA_VLS;	/* OpenSM's default 0,1,...,14,7 */
	while (sl < 16) {
		unsigned long vl = strtoul(s, &end, 0);

		if (end == s || vl != sl)
			break;
		sl++;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return sl;
}

/* a port class's map, or the general qos_sl2vl where it sets none */
static unsigned class_sls(const osm_subn_opt_t *o, const osm_qos_options_t *c)
{
	return identity_sls(c->sl2vl ? c->sl2vl : o->qos_options.sl2vl);
}

/* the fewest data VLs of a switch's links; *at: that port */
static unsigned switch_vls(osm_switch_t *sw, uint8_t max_code, unsigned *at)
{
	osm_node_t *node = sw->p_node;
	unsigned p, best = MAX_DATA_VLS;

	for (p = 1; p < osm_node_get_num_physp(node); p++) {
		osm_physp_t *ph = osm_node_get_physp_ptr(node, p);
		osm_physp_t *rem;
		unsigned code, rcode, v;

		if (!ph || !osm_physp_is_valid(ph))
			continue;
		rem = osm_physp_get_remote(ph);
		if (!rem)
			continue;
		code = ib_port_info_get_vl_cap(&ph->port_info);
		rcode = ib_port_info_get_vl_cap(&rem->port_info);
		if (rcode < code)
			code = rcode;
		if (code > max_code)
			code = max_code;
		v = vls_of_code(code);
		if (v < best) {
			best = v;
			*at = p;
		}
	}
	return best;
}

unsigned turnadd_layers_possible(osm_subn_t *subn, char *why, size_t n)
{
	const osm_subn_opt_t *o = &subn->opt;
	cl_qmap_t *tbl = &subn->sw_guid_tbl;
	cl_map_item_t *it;
	unsigned vls = MAX_DATA_VLS, sls, at = 0, a;
	osm_switch_t *low = NULL;

	*why = '\0';
	if (!o->qos) {
		snprintf(why, n, "qos is FALSE in opensm.conf, so OpenSM does not program the SL-to-VL maps");
		return 1;
	}
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		unsigned v = switch_vls(sw, o->max_op_vls, &a);

		if (v < vls) {
			vls = v;
			low = sw;
			at = a;
		}
	}
	sls = class_sls(o, &o->qos_ca_options);
	a = class_sls(o, &o->qos_sw0_options);
	sls = a < sls ? a : sls;
	a = class_sls(o, &o->qos_swe_options);
	sls = a < sls ? a : sls;
	a = class_sls(o, &o->qos_rtr_options);
	sls = a < sls ? a : sls;
	if (!sls)
		sls = 1;
	if (sls < vls)
		snprintf(why, n, "the SL-to-VL maps of opensm.conf (qos_*sl2vl) send SL i to VL i for SL 0 to %u only",
			 sls - 1);
	else if (low)
		snprintf(why, n, "switch 0x%016" PRIx64 " (%s) port %u operates %u data VLs (VLCap of both ends, max_op_vls %u)",
			 cl_ntoh64(osm_node_get_node_guid(low->p_node)),
			 low->p_node->print_desc, at, vls, o->max_op_vls);
	return sls < vls ? sls : vls;
}
