// SPDX-License-Identifier: MIT
/* Allowed-turn set and the cycle check used by turn addition. */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"

int ta_cdg_init(struct ta_cdg *c, const struct ta_graph *g)
{
	uint32_t s, i, n_chan = 2 * g->n_links;

	memset(c, 0, sizeof(*c));
	c->g = g;
	c->state = calloc(g->n_turn_slots ? g->n_turn_slots : 1, 1);
	c->mark = calloc(n_chan ? n_chan : 1, sizeof(*c->mark));
	c->stack = malloc((n_chan ? n_chan : 1) * sizeof(*c->stack));
	if (!c->state || !c->mark || !c->stack) {
		ta_cdg_free(c);
		return -1;
	}
	/* turns back to the neighbour a packet came from are never needed */
	for (s = 0; s < g->n_sw; s++) {
		const struct ta_switch *sw = &g->sw[s];

		for (i = 0; i < sw->n_ends; i++) {
			uint32_t j;

			for (j = 0; j < sw->n_ends; j++)
				if (sw->ends[i].peer == sw->ends[j].peer)
					c->state[ta_turn(g, s, i, j)] =
						TA_TURN_USELESS;
		}
	}
	return 0;
}

void ta_cdg_free(struct ta_cdg *c)
{
	free(c->state);
	free(c->mark);
	free(c->stack);
	c->state = NULL;
	c->mark = NULL;
	c->stack = NULL;
}

/* channel entering the far switch of end j of switch s, as (switch, end) */
static inline uint32_t far_chan(const struct ta_graph *g, uint32_t s,
				uint32_t j)
{
	return ta_graph_out_chan(g, s, j);
}

static int reaches(struct ta_cdg *c, uint32_t from_chan, uint32_t to_chan)
{
	const struct ta_graph *g = c->g;
	uint32_t sp = 0;

	if (++c->epoch == 0) {
		memset(c->mark, 0, 2 * g->n_links * sizeof(*c->mark));
		c->epoch = 1;
	}
	c->mark[from_chan] = c->epoch;
	c->stack[sp++] = from_chan;
	while (sp) {
		uint32_t ch = c->stack[--sp];
		const struct ta_link *l = &g->links[ch >> 1];
		uint32_t side = (ch & 1) ? 0 : 1;	/* end the channel enters */
		uint32_t s = l->sw[side], e = l->end[side];
		const struct ta_switch *sw = &g->sw[s];
		const uint8_t *row = &c->state[ta_turn(g, s, e, 0)];
		uint32_t j;

		c->searched++;
		if (ch == to_chan)
			return 1;
		for (j = 0; j < sw->n_ends; j++) {
			uint32_t nx;

			if (row[j] != TA_TURN_ALLOWED)
				continue;
			nx = far_chan(g, s, j);
			if (c->mark[nx] == c->epoch)
				continue;
			c->mark[nx] = c->epoch;
			c->stack[sp++] = nx;
		}
	}
	return 0;
}

int ta_cdg_closes_cycle(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	/* the new edge is in(s,i) -> out(s,j): a cycle iff out reaches in */
	return reaches(c, ta_graph_out_chan(c->g, s, j),
		       ta_graph_in_chan(c->g, s, i));
}

int ta_cdg_decide_pair(struct ta_cdg *c, uint32_t s, uint32_t i, uint32_t j)
{
	uint32_t fwd = ta_turn(c->g, s, i, j), rev = ta_turn(c->g, s, j, i);
	int ok;

	ok = !ta_cdg_closes_cycle(c, s, i, j);
	if (ok) {
		c->state[fwd] = TA_TURN_ALLOWED;
		ok = !ta_cdg_closes_cycle(c, s, j, i);
	}
	c->state[fwd] = ok ? TA_TURN_ALLOWED : TA_TURN_PROHIBITED;
	c->state[rev] = ok ? TA_TURN_ALLOWED : TA_TURN_PROHIBITED;
	return ok;
}

/* colours for the whole-graph DFS */
enum { WHITE = 0, GREY = 1, BLACK = 2 };

int ta_cdg_has_cycle(struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t n_chan = 2 * g->n_links, root, sp;
	uint8_t *colour = calloc(n_chan ? n_chan : 1, 1);
	uint32_t *next = calloc(n_chan ? n_chan : 1, sizeof(*next));
	int cyc = 0;

	if (!colour || !next) {
		free(colour);
		free(next);
		return -1;
	}
	for (root = 0; root < n_chan && !cyc; root++) {
		if (colour[root] != WHITE)
			continue;
		sp = 0;
		c->stack[sp++] = root;
		colour[root] = GREY;
		while (sp && !cyc) {
			uint32_t ch = c->stack[sp - 1];
			const struct ta_link *l = &g->links[ch >> 1];
			uint32_t side = (ch & 1) ? 0 : 1;
			uint32_t s = l->sw[side], e = l->end[side];
			const struct ta_switch *sw = &g->sw[s];

			if (next[ch] >= sw->n_ends) {
				colour[ch] = BLACK;
				sp--;
				continue;
			}
			{
				uint32_t j = next[ch]++, nx;

				if (c->state[ta_turn(g, s, e, j)] !=
				    TA_TURN_ALLOWED)
					continue;
				nx = far_chan(g, s, j);
				if (colour[nx] == GREY)
					cyc = 1;
				else if (colour[nx] == WHITE) {
					colour[nx] = GREY;
					c->stack[sp++] = nx;
				}
			}
		}
	}
	free(colour);
	free(next);
	return cyc;
}
