// SPDX-License-Identifier: MIT
/* Layers' turn decisions (ta_layers.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_layers.h"

struct ranked_turn {
	double w;
	uint32_t k;	/* turn slot */
	uint32_t s;	/* its switch */
	uint8_t later;	/* 1: a lower layer allows it */
	uint8_t kept;	/* 1: the previous routing's layer allowed it */
};

static int by_rank(const void *a, const void *b)
{
	const struct ranked_turn *x = a, *y = b;

	if (x->kept != y->kept)
		return x->kept > y->kept ? -1 : 1;
	if (x->later != y->later)
		return x->later < y->later ? -1 : 1;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* decides layer `layer`'s turns in c (fresh), in the order of list */
static void decide_layer(struct ta_cdg *c, const uint8_t *turn_layers,
			 const double *w, const uint8_t *prev, unsigned layer,
			 struct ranked_turn *list)
{
	const struct ta_graph *g = c->g;
	uint8_t below = (uint8_t)((1u << layer) - 1);
	uint32_t s, k, n = 0;

	for (s = 0; s < g->n_sw; s++) {
		uint32_t ne = g->sw[s].n_ends;

		for (k = 0; k < ne * ne; k++) {
			uint32_t slot = g->sw[s].turn_base + k;

			if (c->state[slot] == TA_TURN_USELESS)
				continue;
			list[n].w = w ? w[slot] : 0;
			list[n].k = slot;
			list[n].s = s;
			list[n].later = (turn_layers[slot] & below) != 0;
			list[n].kept = prev ? prev[slot] >> layer & 1u : 0;
			n++;
		}
	}
	qsort(list, n, sizeof(*list), by_rank);
	for (k = 0; k < n; k++) {
		uint32_t s = list[k].s, ne = g->sw[s].n_ends;
		uint32_t i = (list[k].k - g->sw[s].turn_base) / ne;
		uint32_t o = (list[k].k - g->sw[s].turn_base) % ne;

		if (ta_cdg_closes_cycle(c, s, i, o))
			c->state[list[k].k] = TA_TURN_PROHIBITED;
		else
			ta_cdg_allow(c, s, i, o);
	}
}

/*
 * 1 if layer `layer` + 1 would rank every turn as layer `layer` did
 * (state: layer's, its useless turns marked), so it decides the same:
 * no turn that layer allows is new to the layers below it (the
 * "later" flags stay), and the previous routing's layers `layer` and
 * `layer` + 1 allowed the same turns (the "kept" flags)
 */
static int next_same(const struct ta_graph *g, const uint8_t *state,
		     const uint8_t *turn_layers, const uint8_t *prev,
		     unsigned layer)
{
	uint8_t below = (uint8_t)((1u << layer) - 1);
	uint32_t k;

	for (k = 0; k < g->n_turn_slots; k++) {
		if (state[k] == TA_TURN_USELESS)
			continue;
		if ((turn_layers[k] >> layer & 1u) && !(turn_layers[k] & below))
			return 0;
		if (prev && ((prev[k] >> layer ^ prev[k] >> (layer + 1)) & 1u))
			return 0;
	}
	return 1;
}

int ta_layers_decide(const struct ta_graph *g, const uint8_t *state0,
		     const double *w, const uint8_t *prev, unsigned n_layers,
		     uint8_t *turn_layers, uint64_t *visits)
{
	struct ranked_turn *list;
	unsigned layer;
	uint32_t k;

	for (k = 0; k < g->n_turn_slots; k++)
		turn_layers[k] = state0[k] == TA_TURN_ALLOWED;
	if (n_layers < 2)
		return 0;
	list = malloc(((size_t)g->n_turn_slots + 1) * sizeof(*list));
	if (!list)
		return -1;
	for (layer = 1; layer < n_layers && layer < 8; layer++) {
		struct ta_cdg c;

		if (ta_cdg_init(&c, g)) {
			free(list);
			return -1;
		}
		decide_layer(&c, turn_layers, w, prev, layer, list);
		for (k = 0; k < g->n_turn_slots; k++)
			if (c.state[k] == TA_TURN_ALLOWED)
				turn_layers[k] |= (uint8_t)(1u << layer);
		if (visits)
			*visits += c.searched;
		/* the layers above that would decide the same: copies */
		while (layer + 1 < n_layers && layer + 1 < 8 &&
		       next_same(g, c.state, turn_layers, prev, layer)) {
			for (k = 0; k < g->n_turn_slots; k++)
				if (turn_layers[k] >> layer & 1u)
					turn_layers[k] |= (uint8_t)(2u << layer);
			layer++;
		}
		ta_cdg_free(&c);
	}
	free(list);
	return 0;
}

int ta_layers_cyclic(const struct ta_graph *g, const uint8_t *turn_layers,
		     unsigned layer)
{
	struct ta_cdg c;
	uint32_t k;
	int r;

	if (ta_cdg_init(&c, g))
		return -1;
	for (k = 0; k < g->n_turn_slots; k++)
		if (c.state[k] != TA_TURN_USELESS)
			c.state[k] = turn_layers[k] >> layer & 1u ?
				     TA_TURN_ALLOWED : TA_TURN_PROHIBITED;
	ta_cdg_touch(&c);
	r = ta_cdg_has_cycle(&c);
	ta_cdg_free(&c);
	return r;
}

/* the layers that allow every turn of the route from s to d, 0 if the
 * route breaks off */
static uint8_t route_mask(const struct ta_graph *g, const uint8_t *port,
			  const uint8_t *turn_layers, uint32_t s, uint32_t d)
{
	uint8_t mask = 0xff;
	uint32_t in = UINT32_MAX, hops;

	for (hops = 0; s != g->dest[d].sw; hops++) {
		uint32_t e = ta_graph_end_of_port(g, s,
						  port[(size_t)s * g->n_dest + d]);

		if (e == UINT32_MAX || hops > g->n_sw)
			return 0;
		if (in != UINT32_MAX)
			mask &= turn_layers[ta_turn(g, s, in, e)];
		in = ta_graph_far_end(g, s, e);
		s = g->sw[s].ends[e].peer;
	}
	return mask;
}

uint64_t ta_layers_repick(const struct ta_graph *g, const uint8_t *port,
			  const uint8_t *turn_layers, const uint8_t *prev,
			  uint8_t *layer)
{
	uint64_t moved = 0;
	uint32_t s, d;

	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * g->n_dest + d;
			uint8_t mask;

			if (prev[k] >= 8 || prev[k] == layer[k] ||
			    port[k] == TA_NO_PORT)
				continue;
			mask = route_mask(g, port, turn_layers, s, d);
			if (mask >> prev[k] & 1u) {
				layer[k] = prev[k];
				moved++;
			}
		}
	return moved;
}
