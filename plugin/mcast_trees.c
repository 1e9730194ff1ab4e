// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mcast_trees.h"

#define MC_SLOTS (IB_LID_MCAST_END_HO - IB_LID_MCAST_START_HO + 1)

/* one group's tree: its links by GUIDs and ports, and in the graph */
struct turnadd_mc_saved {
	uint32_t n;
	uint64_t *guid;		/* [2n]: both ends of each link */
	uint8_t *port;		/* [2n] */
	uint32_t *links;	/* [n]: link indices in the graph of epoch */
	uint32_t epoch;
};

void turnadd_mcast_init(struct turnadd_mcast *mc)
{
	memset(mc, 0, sizeof(*mc));
}

static void saved_free(struct turnadd_mc_saved *s)
{
	if (!s)
		return;
	free(s->guid);
	free(s->port);
	free(s->links);
	free(s);
}

static void drop_graph(struct turnadd_mcast *mc)
{
	ta_mcast_free(&mc->m);
	ta_graph_free(mc->g);
	free(mc->turn_state);
	free(mc->escape_parent);
	mc->g = NULL;
	mc->turn_state = NULL;
	mc->escape_parent = NULL;
}

void turnadd_mcast_free(struct turnadd_mcast *mc)
{
	uint32_t k;

	drop_graph(mc);
	if (mc->tree)
		for (k = 0; k < MC_SLOTS; k++)
			saved_free(mc->tree[k]);
	free(mc->tree);
	memset(mc, 0, sizeof(*mc));
}

int turnadd_mcast_adopt(struct turnadd_mcast *mc, struct ta_graph **g,
			struct ta_result *res, const struct ta_log *log)
{
	drop_graph(mc);
	mc->epoch++;
	if (!mc->tree)
		mc->tree = calloc(MC_SLOTS, sizeof(*mc->tree));
	memset(&mc->tally, 0, sizeof(mc->tally));
	mc->g = *g;
	mc->turn_state = res->turn_state;
	mc->escape_parent = res->escape_parent;
	*g = NULL;
	res->turn_state = NULL;
	res->escape_parent = NULL;
	if (!mc->tree || ta_mcast_init(&mc->m, mc->g, mc->turn_state,
				       mc->escape_parent)) {
		ta_logf(log, TA_LOG_ERROR,
			"out of memory for multicast trees: OpenSM's multicast manager gets no tree from turnadd this routing");
		drop_graph(mc);
		return -1;
	}
	return 0;
}

/* graph index of the switch with this GUID, or -1 */
static int64_t sw_index(const struct ta_graph *g, uint64_t guid)
{
	uint32_t lo = 0, hi = g->n_sw;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->sw[mid].guid == guid)
			return mid;
		if (g->sw[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* link index of (switch s, port), or -1 */
static int64_t link_at(const struct ta_graph *g, uint32_t s, uint8_t port)
{
	uint32_t i;

	for (i = 0; i < g->sw[s].n_ends; i++)
		if (g->sw[s].ends[i].port == port)
			return g->sw[s].ends[i].link;
	return -1;
}

/*
 * The prior tree's links in this graph: those whose both ends are
 * still the same switch ports.  Returns the count; *out malloc'ed.
 */
static uint32_t map_prior(const struct turnadd_mcast *mc,
			  const struct turnadd_mc_saved *s, uint32_t **out)
{
	const struct ta_graph *g = mc->g;
	uint32_t k, n = 0;

	*out = NULL;
	if (!s || !s->n)
		return 0;
	*out = malloc(s->n * sizeof(**out));
	if (!*out)
		return 0;
	for (k = 0; k < s->n; k++) {
		int64_t a = sw_index(g, s->guid[2 * k]);
		int64_t b = sw_index(g, s->guid[2 * k + 1]);
		int64_t l;

		if (a < 0 || b < 0)
			continue;
		l = link_at(g, (uint32_t)a, s->port[2 * k]);
		if (l < 0 || link_at(g, (uint32_t)b, s->port[2 * k + 1]) != l)
			continue;
		(*out)[n++] = (uint32_t)l;
	}
	return n;
}

struct members {
	uint32_t n, cap;
	uint32_t *sw;		/* graph switch index */
	uint8_t *port;		/* port on it (0: the switch itself) */
	uint32_t ports;		/* member ports */
	uint32_t uncabled;	/* member ports with no switch to reach */
};

static int members_add(struct members *m, uint32_t sw, uint8_t port)
{
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 64;
		uint32_t *s = realloc(m->sw, cap * sizeof(*s));
		uint8_t *p;

		if (!s)
			return -1;
		m->sw = s;
		p = realloc(m->port, cap);
		if (!p)
			return -1;
		m->port = p;
		m->cap = cap;
	}
	m->sw[m->n] = sw;
	m->port[m->n++] = port;
	return 0;
}

/* every member port of the groups of mbox (a port once) */
static int collect_members(const struct turnadd_mcast *mc, osm_mgrp_box_t *mbox,
			   struct members *m)
{
	cl_list_item_t *li;
	cl_map_item_t *mi;

	for (li = cl_qlist_head(&mbox->mgrp_list);
	     li != cl_qlist_end(&mbox->mgrp_list); li = cl_qlist_next(li)) {
		osm_mgrp_t *grp = cl_item_obj(li, grp, list_item);

		for (mi = cl_qmap_head(&grp->mcm_port_tbl);
		     mi != cl_qmap_end(&grp->mcm_port_tbl);
		     mi = cl_qmap_next(mi)) {
			osm_mcm_port_t *mp = cl_item_obj(mi, mp, map_item);
			osm_port_t *port = mp->port;
			osm_physp_t *rem = NULL;
			osm_node_t *sw_node;
			int64_t s;
			uint8_t pn;
			uint32_t k;

			if (port->p_node->sw) {
				sw_node = port->p_node;
				pn = 0;
			} else {
				if (port->p_physp)
					rem = port->p_physp->p_remote_physp;
				if (!rem || !rem->p_node->sw) {
					m->uncabled++;
					continue;
				}
				sw_node = rem->p_node;
				pn = osm_physp_get_port_num(rem);
			}
			s = sw_index(mc->g,
				     cl_ntoh64(osm_node_get_node_guid(sw_node)));
			if (s < 0) {
				m->uncabled++;
				continue;
			}
			for (k = 0; k < m->n; k++)
				if (m->sw[k] == (uint32_t)s && m->port[k] == pn)
					break;
			if (k < m->n)
				continue;	/* in two groups of the box */
			if (members_add(m, (uint32_t)s, pn))
				return -1;
			m->ports++;
		}
	}
	return 0;
}

static struct turnadd_mc_saved *save_tree(const struct ta_graph *g,
					  const struct ta_mc_tree *t,
					  uint32_t epoch)
{
	struct turnadd_mc_saved *s = calloc(1, sizeof(*s));
	uint32_t k;

	if (!s)
		return NULL;
	s->n = t->n_links;
	s->epoch = epoch;
	s->guid = malloc((2 * (size_t)t->n_links + 1) * sizeof(*s->guid));
	s->port = malloc(2 * (size_t)t->n_links + 1);
	s->links = malloc(((size_t)t->n_links + 1) * sizeof(*s->links));
	if (!s->guid || !s->port || !s->links) {
		saved_free(s);
		return NULL;
	}
	for (k = 0; k < t->n_links; k++) {
		const struct ta_link *l = &g->links[t->links[k]];

		s->links[k] = t->links[k];
		s->guid[2 * k] = g->sw[l->sw[0]].guid;
		s->port[2 * k] = l->port[0];
		s->guid[2 * k + 1] = g->sw[l->sw[1]].guid;
		s->port[2 * k + 1] = l->port[1];
	}
	return s;
}

/* sets the MFT bit of (switch s, port) for mlid; -1 if not possible */
static int set_port(const struct ta_graph *g, osm_subn_t *subn, uint32_t s,
		    uint8_t port, uint16_t mlid)
{
	osm_switch_t *sw = osm_get_switch_by_guid(subn,
						  cl_hton64(g->sw[s].guid));

	if (!sw || port >= osm_node_get_num_physp(sw->p_node) ||
	    !sw->mcast_tbl.p_mask_tbl || mlid > sw->mcast_tbl.max_mlid_ho)
		return -1;
	osm_mcast_tbl_set(&sw->mcast_tbl, mlid, port);
	return 0;
}

static void tally_tree(struct turnadd_mc_tally *y, const struct ta_mc_tree *t,
		       bool had_prior, bool failed)
{
	y->groups++;
	y->links += t->n_links;
	y->failed += failed;
	if (t->via_escape)
		y->escape++;
	else if (!t->kept)
		*(had_prior ? &y->rebuilt : &y->fresh) += 1;
	else
		*(t->kept == t->n_links ? &y->kept : &y->partly) += 1;
}

void turnadd_mcast_report(struct turnadd_mcast *mc, const struct ta_log *log)
{
	const struct turnadd_mc_tally *y = &mc->tally;

	if (!y->groups && !y->removed)
		return;
	ta_logf(log, y->failed ? TA_LOG_ERROR : TA_LOG_INFO,
		"multicast trees this sweep: %u groups (%u kept, %u partly kept, %u rebuilt, %u new, %u via the escape tree), %" PRIu64 " links; %u groups with fewer than 2 member ports (no tree); %u with members unreached or MFT entries unset",
		y->groups, y->kept, y->partly, y->rebuilt, y->fresh, y->escape,
		y->links, y->removed, y->failed);
	memset(&mc->tally, 0, sizeof(mc->tally));
}

static const char *how_built(const struct ta_mc_tree *t, bool had_prior)
{
	if (t->via_escape)
		return "escape tree";
	if (!t->kept)
		return had_prior ? "rebuilt" : "new";
	return t->kept == t->n_links ? "kept" : "partly kept";
}

ib_api_status_t turnadd_mcast_build(struct turnadd_mcast *mc, osm_subn_t *subn,
				    osm_mgrp_box_t *mbox,
				    const struct ta_log *log)
{
	uint16_t mlid = mbox->mlid;
	uint32_t slot = mlid - IB_LID_MCAST_START_HO, n_prior, k, bad = 0;
	struct members mem = { 0 };
	struct ta_mc_tree t;
	uint32_t *prior = NULL;
	struct turnadd_mc_saved *old;
	ib_api_status_t ret = IB_ERROR;

	if (!mc->g || mlid < IB_LID_MCAST_START_HO) {
		ta_logf(log, TA_LOG_ERROR,
			"multicast MLID 0x%04X: no turnadd routing to build a tree on",
			mlid);
		return IB_ERROR;
	}
	old = mc->tree[slot];
	if (collect_members(mc, mbox, &mem)) {
		ta_logf(log, TA_LOG_ERROR,
			"multicast MLID 0x%04X: out of memory", mlid);
		goto out;
	}
	if (old && old->epoch == mc->epoch)
		ta_mcast_unload(&mc->m, old->links, old->n);
	if (mem.ports < 2) {
		/* OpenSM has cleared the MLID: nothing forwards it now */
		ta_logf(log, mem.ports || mem.uncabled ? TA_LOG_INFO :
			TA_LOG_VERBOSE,
			"multicast MLID 0x%04X: %u member port(s)%s, no tree%s",
			mlid, mem.ports, mem.uncabled ?
			" reachable (others not cabled to a routed switch)" :
			"", old && old->n ? " (previous tree removed)" : "");
		saved_free(old);
		mc->tree[slot] = NULL;
		mc->tally.removed++;
		ret = IB_SUCCESS;
		goto out;
	}
	n_prior = map_prior(mc, old, &prior);
	if (ta_mcast_build(&mc->m, mem.sw, mem.n, prior, n_prior, slot, &t)) {
		ta_logf(log, TA_LOG_ERROR,
			"multicast MLID 0x%04X: out of memory", mlid);
		goto out;
	}
	for (k = 0; k < t.n_links; k++) {
		const struct ta_link *l = &mc->g->links[t.links[k]];

		bad += set_port(mc->g, subn, l->sw[0], l->port[0], mlid) < 0;
		bad += set_port(mc->g, subn, l->sw[1], l->port[1], mlid) < 0;
	}
	for (k = 0; k < mem.n; k++)
		bad += set_port(mc->g, subn, mem.sw[k], mem.port[k], mlid) < 0;
	/* an unchanged tree is only worth a verbose line */
	ta_logf(log, bad || t.unreached ? TA_LOG_ERROR :
		t.kept == t.n_links && old && old->n == t.n_links ?
		TA_LOG_VERBOSE : TA_LOG_INFO,
		"multicast MLID 0x%04X: %u member ports on %u switches, tree of %u switches and %u links (%s; from %s)%s%s",
		mlid, mem.ports, t.n_members, t.n_switches, t.n_links,
		how_built(&t, old && old->n), mc->g->sw[t.root].name ?
		mc->g->sw[t.root].name : "?",
		t.unreached ? ": member switches the turns cannot reach" : "",
		bad ? ": some MFT entries could not be set" : "");
	tally_tree(&mc->tally, &t, old && old->n, bad || t.unreached);
	if (mem.uncabled)
		ta_logf(log, TA_LOG_INFO,
			"multicast MLID 0x%04X: %u member port(s) not cabled to a routed switch: left out",
			mlid, mem.uncabled);
	saved_free(old);
	mc->tree[slot] = save_tree(mc->g, &t, mc->epoch);
	if (!mc->tree[slot]) {
		ta_mcast_unload(&mc->m, t.links, t.n_links);
		ta_logf(log, TA_LOG_ERROR,
			"multicast MLID 0x%04X: out of memory saving the tree: the next routing builds it anew",
			mlid);
	}
	ret = bad || t.unreached ? IB_ERROR : IB_SUCCESS;
	ta_mc_tree_free(&t);
out:
	free(prior);
	free(mem.sw);
	free(mem.port);
	return ret;
}
