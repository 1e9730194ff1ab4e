// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_home.h"

void ta_home_init(struct ta_home *h)
{
	memset(h, 0, sizeof(*h));
}

static void free_switches(struct ta_home_switch *sw, uint32_t n)
{
	uint32_t i;

	for (i = 0; sw && i < n; i++) {
		free(sw[i].turn);
		free(sw[i].port);
		free(sw[i].layer);
		free(sw[i].turn_layers);
	}
	free(sw);
}

void ta_home_free(struct ta_home *h)
{
	free_switches(h->sw, h->n_sw);
	ta_fabric_key_free(&h->key);
	memset(h, 0, sizeof(*h));
}

static int cmp_guid(const void *a, const void *b)
{
	const struct ta_home_switch *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static const struct ta_home_switch *find(const struct ta_home *h,
					 uint64_t guid)
{
	struct ta_home_switch k = { .guid = guid };

	return bsearch(&k, h->sw, h->n_sw, sizeof(k), cmp_guid);
}

/* the layers of switch s's paths and turns, where the routing has them */
static int take_layers(struct ta_home_switch *hs, const struct ta_graph *g,
		       const struct ta_result *res, uint32_t s)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t np = hs->n_ports, i, j, d;

	if (res->layer) {
		hs->layer = calloc(hs->n_lids, 1);
		if (!hs->layer)
			return -1;
		for (d = 0; d < g->n_dest; d++)
			hs->layer[g->dest[d].lid] =
				res->layer[(size_t)s * g->n_dest + d];
	}
	if (res->turn_layers) {
		hs->turn_layers = calloc((size_t)np * np, 1);
		if (!hs->turn_layers)
			return -1;
		for (i = 0; i < sw->n_ends; i++)
			for (j = 0; j < sw->n_ends; j++)
				hs->turn_layers[sw->ends[i].port * np +
						sw->ends[j].port] =
					res->turn_layers[ta_turn(g, s, i, j)];
	}
	return 0;
}

static int take_switch(struct ta_home_switch *hs, const struct ta_graph *g,
		       const struct ta_result *res, uint32_t s,
		       uint32_t n_lids)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t i, j, d, np = 1;

	for (i = 0; i < sw->n_ends; i++)
		if (sw->ends[i].port + 1u > np)
			np = sw->ends[i].port + 1u;
	hs->guid = sw->guid;
	hs->n_ports = np;
	hs->n_lids = n_lids;
	hs->parent_port = TA_NO_PORT;
	if (res->escape_parent && res->escape_parent[s] != TA_NO_END) {
		const struct ta_port_ref *r = &sw->ends[res->escape_parent[s]];

		hs->parent_port = r->port;
		hs->parent_guid = g->sw[r->peer].guid;
	}
	hs->turn = malloc((size_t)np * np);
	hs->port = malloc(n_lids);
	if (!hs->turn || !hs->port)
		return -1;
	memset(hs->turn, TA_TURN_UNDECIDED, (size_t)np * np);
	for (i = 0; i < sw->n_ends; i++)
		for (j = 0; j < sw->n_ends; j++)
			hs->turn[sw->ends[i].port * np + sw->ends[j].port] =
				res->turn_state[ta_turn(g, s, i, j)];
	memset(hs->port, TA_NO_PORT, n_lids);
	for (d = 0; d < g->n_dest; d++)
		hs->port[g->dest[d].lid] = ta_result_port(res, s, d);
	return take_layers(hs, g, res, s);
}

int ta_home_take(struct ta_home *h, const struct ta_graph *g,
		 const struct ta_result *res, const struct ta_fabric_key *key,
		 unsigned routing)
{
	struct ta_home_switch *sw = calloc(g->n_sw + 1, sizeof(*sw));
	uint64_t *item = malloc(((size_t)key->n + 1) * sizeof(*item));
	uint32_t s, d, n_lids = 1;
	int adopted = res->stats.adopted ||
		      (h->adopted && !res->stats.restore_fresh);
	int after_takeover = res->stats.adopted || h->after_takeover;

	ta_home_free(h);
	if (!sw || !item || !res->turn_state)
		goto fail;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid + 1u > n_lids)
			n_lids = g->dest[d].lid + 1u;
	for (s = 0; s < g->n_sw; s++)
		if (take_switch(&sw[s], g, res, s, n_lids))
			goto fail;
	qsort(sw, g->n_sw, sizeof(*sw), cmp_guid);
	h->sw = sw;
	h->n_sw = g->n_sw;
	memcpy(item, key->item, (size_t)key->n * sizeof(*item));
	h->key.item = item;
	h->key.n = key->n;
	h->root_guid = res->stats.escape_root < g->n_sw ?
			       g->sw[res->stats.escape_root].guid : 0;
	h->carry = res->escape_parent &&
		   (res->stats.tp_kept || res->stats.root_moved ||
		    res->stats.cut_tree || res->stats.tree_carried ||
		    res->stats.home_carry);
	h->routing = routing;
	h->adopted = adopted;
	h->after_takeover = after_takeover;
	return 0;
fail:
	free(item);
	free_switches(sw, g->n_sw);
	return -1;
}

static uint8_t home_turn(const struct ta_home_switch *hs, uint8_t in,
			 uint8_t out)
{
	if (in >= hs->n_ports || out >= hs->n_ports)
		return TA_TURN_UNDECIDED;
	return hs->turn[in * hs->n_ports + out];
}

static uint8_t home_turn_layers(const struct ta_home_switch *hs, uint8_t in,
				uint8_t out)
{
	if (!hs->turn_layers || in >= hs->n_ports || out >= hs->n_ports)
		return 0;
	return hs->turn_layers[in * hs->n_ports + out];
}

int ta_dest_walk(const struct ta_graph *g, const uint8_t *port, uint32_t d,
		 uint32_t *out, uint8_t *mark)
{
	uint32_t s, t, dsw = g->dest[d].sw;

	if (port[(size_t)dsw * g->n_dest + d] != g->dest[d].port)
		return 0;
	for (s = 0; s < g->n_sw; s++) {
		if (s == dsw)
			continue;
		out[s] = ta_graph_end_of_port(g, s,
					      port[(size_t)s * g->n_dest + d]);
		if (out[s] == TA_NO_END)
			return 0;
	}
	memset(mark, 0, g->n_sw);
	mark[dsw] = 2;
	for (s = 0; s < g->n_sw; s++) {
		for (t = s; !mark[t]; t = g->sw[t].ends[out[t]].peer)
			mark[t] = 1;
		if (mark[t] == 1)
			return 0;	/* a loop */
		for (t = s; mark[t] == 1; t = g->sw[t].ends[out[t]].peer)
			mark[t] = 2;
	}
	return 1;
}

uint32_t ta_walk_turn(const struct ta_graph *g, const uint32_t *out,
		      uint32_t d, uint32_t s)
{
	const struct ta_port_ref *e;

	if (s == g->dest[d].sw)
		return UINT32_MAX;
	e = &g->sw[s].ends[out[s]];
	if (e->peer == g->dest[d].sw)
		return UINT32_MAX;
	return ta_turn(g, e->peer, ta_graph_link_end(g, e->link, e->peer),
		       out[e->peer]);
}

/* 1 if every turn of the path from s to d is allowed in layer l */
static int path_in_layer(const struct ta_graph *g, const struct ta_result *r,
			 const uint32_t *out, uint32_t d, uint32_t s,
			 uint8_t l)
{
	uint32_t k;

	for (; s != g->dest[d].sw; s = g->sw[s].ends[out[s]].peer) {
		k = ta_walk_turn(g, out, d, s);
		if (k != UINT32_MAX && !((r->turn_layers[k] >> l) & 1))
			return 0;
	}
	return 1;
}

/*
 * 1 if r routes d completely over turns it allows (ta_dest_walk); with
 * layered routes (turn_layers), every switch's path over turns its
 * layer allows; with layers but none taken (every path on layer 0, no
 * turn_layers: a tree-like fabric, or the one-layer routes kept), every
 * path on layer 0 over the allowed turns
 */
static int dest_routed(const struct ta_graph *g, const struct ta_result *r,
		       uint32_t d, uint32_t *out, uint8_t *mark)
{
	int layered = r->layer && r->turn_layers;
	uint32_t s, k;

	if (!ta_dest_walk(g, r->port, d, out, mark))
		return 0;
	for (s = 0; layered && s < g->n_sw; s++)
		if (!path_in_layer(g, r, out, d, s,
				   r->layer[(size_t)s * g->n_dest + d]))
			return 0;
	for (s = 0; !layered && s < g->n_sw; s++) {
		k = ta_walk_turn(g, out, d, s);
		if (k != UINT32_MAX && r->turn_state[k] != TA_TURN_ALLOWED)
			return 0;
		if (r->layer && r->layer[(size_t)s * g->n_dest + d] != 0)
			return 0;
	}
	return 1;
}

/* the end of s that leads to hs's escape tree parent, TA_NO_END if none */
static uint32_t home_parent(const struct ta_home_switch *hs,
			    const struct ta_graph *g, uint32_t s)
{
	if (!hs || hs->parent_port == TA_NO_PORT)
		return TA_NO_END;
	return ta_graph_end_to(g, s, hs->parent_port, hs->parent_guid);
}

static size_t bytes_of(const struct ta_graph *g)
{
	return (size_t)g->n_sw * g->n_dest + 1;
}

int ta_home_reinstate(const struct ta_home *h, const struct ta_graph *g,
		      struct ta_result *res)
{
	struct ta_result r = { .n_sw = g->n_sw, .n_dest = g->n_dest };
	uint8_t *mark = malloc(g->n_sw + 1);
	uint32_t *out = malloc((g->n_sw + 1) * sizeof(*out));
	int with_layer = h->n_sw && h->sw[0].layer;
	int with_turn_layers = h->n_sw && h->sw[0].turn_layers;
	uint32_t s, i, j, d, k;
	int ok = 1;

	r.port = malloc(bytes_of(g));
	r.turn_state = malloc(g->n_turn_slots + 1);
	r.escape_parent = malloc((g->n_sw + 1) * sizeof(*r.escape_parent));
	if (with_layer)
		r.layer = malloc(bytes_of(g));
	if (with_turn_layers)
		r.turn_layers = malloc(g->n_turn_slots + 1);
	if (!mark || !out || !r.port || !r.turn_state || !r.escape_parent ||
	    (with_layer && !r.layer) || (with_turn_layers && !r.turn_layers)) {
		ok = -1;
		goto out;
	}
	r.stats.escape_root = g->n_sw;
	for (s = 0; s < g->n_sw && ok == 1; s++) {
		const struct ta_switch *sw = &g->sw[s];
		const struct ta_home_switch *hs = find(h, sw->guid);

		if (!hs) {
			ok = 0;
			break;
		}
		if (sw->guid == h->root_guid)
			r.stats.escape_root = s;
		r.escape_parent[s] = home_parent(hs, g, s);
		for (i = 0; i < sw->n_ends; i++) {
			for (j = 0; j < sw->n_ends; j++) {
				k = ta_turn(g, s, i, j);
				r.turn_state[k] = home_turn(hs,
							    sw->ends[i].port,
							    sw->ends[j].port);
				if (r.turn_layers)
					r.turn_layers[k] = home_turn_layers(
						hs, sw->ends[i].port,
						sw->ends[j].port);
			}
		}
		for (d = 0; d < g->n_dest; d++) {
			uint16_t lid = g->dest[d].lid;
			size_t at = (size_t)s * g->n_dest + d;

			r.port[at] = lid < hs->n_lids ? hs->port[lid] :
							TA_NO_PORT;
			if (r.layer)
				r.layer[at] = lid < hs->n_lids && hs->layer ?
						      hs->layer[lid] : 0;
		}
	}
	for (k = 0; ok == 1 && k < g->n_turn_slots; k++)
		if (r.turn_state[k] == TA_TURN_UNDECIDED)
			ok = 0;
	for (d = 0; ok == 1 && d < g->n_dest; d++)
		ok = dest_routed(g, &r, d, out, mark);
	if (ok == 1) {
		for (k = 0; k < g->n_turn_slots; k++) {
			r.stats.turns_allowed += r.turn_state[k] == TA_TURN_ALLOWED;
			r.stats.turns_prohibited +=
				r.turn_state[k] == TA_TURN_PROHIBITED;
		}
		r.stats.turns = r.stats.turns_allowed + r.stats.turns_prohibited;
		r.stats.turns_kept = r.stats.turns;
		r.stats.switches = g->n_sw;
		r.stats.links = g->n_links;
		r.stats.dests = g->n_dest;
		for (d = 0; d < g->n_dest; d++)
			r.stats.hosts += g->dest[d].is_host;
		r.stats.dests_kept = g->n_dest;
		r.stats.pieces = 1;
		r.stats.reinstated = h->routing;
		r.stats.home_carry = h->carry;
		r.stats.layers_used = r.turn_layers != NULL;
		*res = r;
		memset(&r, 0, sizeof(r));
		ok = 0;
	} else if (ok == 0) {
		ok = 1;
	}
out:
	free(mark);
	free(out);
	ta_result_free(&r);
	return ok;
}

/* 1 if a path of h's routing is off layer 0 (as ta_saved keeps layers) */
static int home_off_layer0(const struct ta_home *h)
{
	uint32_t i, lid;

	for (i = 0; i < h->n_sw; i++)
		for (lid = 0; h->sw[i].layer && lid < h->sw[i].n_lids; lid++)
			if (h->sw[i].layer[lid] &&
			    h->sw[i].layer[lid] != TA_NO_LAYER)
				return 1;
	return 0;
}

/* switch s's turns, ports and layers of h's routing in pb */
static void prior_switch(const struct ta_home_switch *hs,
			 const struct ta_graph *g, uint32_t s,
			 struct ta_prior_buf *pb)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t i, j, d, k;

	pb->escape_parent[s] = home_parent(hs, g, s);
	for (i = 0; i < sw->n_ends; i++) {
		for (j = 0; j < sw->n_ends; j++) {
			k = ta_turn(g, s, i, j);
			pb->turn_state[k] =
				hs ? home_turn(hs, sw->ends[i].port,
					       sw->ends[j].port) :
				     TA_TURN_UNDECIDED;
			if (pb->turn_layers)
				pb->turn_layers[k] =
					hs ? home_turn_layers(
						     hs, sw->ends[i].port,
						     sw->ends[j].port) :
					     0;
		}
	}
	for (d = 0; d < g->n_dest; d++) {
		uint16_t lid = g->dest[d].lid;
		size_t at = (size_t)s * g->n_dest + d;
		int in = hs && lid < hs->n_lids;

		pb->last_port[at] = in ? hs->port[lid] : TA_NO_PORT;
		if (pb->layer)
			pb->layer[at] = !in ? TA_NO_LAYER :
					hs->layer ? hs->layer[lid] : 0;
	}
}

int ta_home_prior(const struct ta_home *h, const struct ta_graph *g,
		  struct ta_prior_buf *pb)
{
	int layers = home_off_layer0(h);
	int turn_layers = h->n_sw && h->sw[0].turn_layers;
	uint32_t s;

	memset(pb, 0, sizeof(*pb));
	pb->turn_state = malloc(g->n_turn_slots + 1);
	pb->last_port = malloc(bytes_of(g));
	pb->escape_parent = malloc((g->n_sw + 1) * sizeof(*pb->escape_parent));
	if (layers)
		pb->layer = malloc(bytes_of(g));
	if (turn_layers)
		pb->turn_layers = malloc(g->n_turn_slots + 1);
	if (!pb->turn_state || !pb->last_port || !pb->escape_parent ||
	    (layers && !pb->layer) || (turn_layers && !pb->turn_layers)) {
		ta_prior_buf_free(pb);
		return -1;
	}
	for (s = 0; s < g->n_sw; s++)
		prior_switch(find(h, g->sw[s].guid), g, s, pb);
	ta_prior_buf_link(pb, h->root_guid, h->carry);
	return 0;
}

size_t ta_home_bytes(const struct ta_home *h)
{
	size_t n = (size_t)h->n_sw * sizeof(*h->sw) +
		   (size_t)h->key.n * sizeof(*h->key.item);
	uint32_t i;

	for (i = 0; i < h->n_sw; i++)
		n += ((size_t)h->sw[i].n_ports * h->sw[i].n_ports +
		      h->sw[i].n_lids) *
		     (h->sw[i].layer ? 2 : 1);
	return n;
}
