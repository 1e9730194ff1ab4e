// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <string.h>

#include "lft_write.h"

#define LFT_BLOCK IB_SMP_DATA_SIZE	/* LIDs in one LFT MAD */

/* NULL if switch s may forward dest d through out_port, else why not */
static const char *bad_port(const struct turnadd_graph *og, uint32_t s,
			    uint32_t d, uint8_t out_port)
{
	const struct ta_dest *dest = &og->g->dest[d];
	osm_node_t *node = og->sw[s]->p_node;
	osm_physp_t *physp;

	if (out_port == TA_NO_PORT)
		return dest->sw == s ? "no route to a LID on this switch" :
				       NULL;
	if (dest->sw == s)
		return out_port == dest->port ? NULL :
		       "not the port of a LID on this switch";
	if (out_port == 0)
		return "port 0 for a LID of another switch";
	if (out_port >= osm_node_get_num_physp(node))
		return "no such port";
	physp = osm_node_get_physp_ptr(node, out_port);
	if (!physp || !physp->p_remote_physp)
		return "port not cabled";
	return NULL;
}

static int write_switch(const struct turnadd_graph *og,
			const struct ta_result *res, uint32_t s,
			const struct ta_log *log, struct turnadd_lft_stats *st)
{
	osm_switch_t *sw = og->sw[s];
	uint32_t d, b, n_blocks;

	if (!sw->new_lft || sw->lft_size <= sw->max_lid_ho) {
		ta_logf(log, TA_LOG_ERROR,
			"switch 0x%016" PRIx64 " has no LFT prepared by OpenSM",
			og->g->sw[s].guid);
		return -1;
	}
	/*
	 * LIDs no port holds any more keep the entry the switch has: a
	 * stale entry is harmless and rewriting it would cost a block.
	 */
	if (sw->lft)
		memcpy(sw->new_lft, sw->lft, sw->lft_size);
	else
		memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
	for (d = 0; d < og->g->n_dest; d++) {
		uint16_t lid = og->g->dest[d].lid;
		uint8_t port = ta_result_port(res, s, d);
		const char *why = bad_port(og, s, d, port);

		if (why || lid > sw->max_lid_ho) {
			ta_logf(log, TA_LOG_ERROR,
				"bad route on switch 0x%016" PRIx64 " to LID %u: port %u: %s",
				og->g->sw[s].guid, lid, port,
				why ? why : "LID above the switch's LFT top");
			return -1;
		}
		sw->new_lft[lid] = port;
	}

	n_blocks = sw->max_lid_ho / LFT_BLOCK + 1;
	st->blocks += n_blocks;
	for (b = 0; sw->lft && b < n_blocks; b++)
		if (memcmp(sw->new_lft + b * LFT_BLOCK, sw->lft + b * LFT_BLOCK,
			   LFT_BLOCK))
			st->blocks_changed++;
	if (sw->max_lid_ho > st->max_lid)
		st->max_lid = sw->max_lid_ho;
	st->switches++;
	return 0;
}

int turnadd_lft_write(const struct turnadd_graph *og,
		      const struct ta_result *res, const struct ta_log *log,
		      struct turnadd_lft_stats *st)
{
	uint32_t s;

	memset(st, 0, sizeof(*st));
	if (res->n_sw != og->g->n_sw || res->n_dest != og->g->n_dest) {
		ta_logf(log, TA_LOG_ERROR,
			"result size %ux%u does not match the graph %ux%u",
			res->n_sw, res->n_dest, og->g->n_sw, og->g->n_dest);
		return -1;
	}
	for (s = 0; s < og->g->n_sw; s++) {
		if (write_switch(og, res, s, log, st)) {
			/* leave no half-written tables to the next engine */
			for (s = 0; s < og->g->n_sw; s++)
				if (og->sw[s]->new_lft)
					memset(og->sw[s]->new_lft, OSM_NO_PATH,
					       og->sw[s]->lft_size);
			return -1;
		}
	}
	return 0;
}

void turnadd_lft_trust_tables(const struct turnadd_graph *og, osm_subn_t *subn,
			      struct turnadd_lft_stats *st)
{
	uint32_t s;

	if (subn->need_update)
		return;
	for (s = 0; s < og->g->n_sw; s++) {
		osm_switch_t *sw = og->sw[s];

		if (sw->need_update == 1 && sw->lft &&
		    sw->switch_info.lin_top != 0) {
			sw->need_update = 0;
			st->tables_trusted++;
		}
	}
}
