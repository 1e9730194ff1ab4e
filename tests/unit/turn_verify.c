// SPDX-License-Identifier: MIT
/*
 * Kahn's algorithm on the channel dependency graph of the allowed turns
 * (see turn_verify.h).  A channel is a link in one direction; the turn
 * (in end i, out end j) at switch s makes the channel arriving at s
 * through end i depend on the channel leaving s through end j.
 */
#include <stdlib.h>

#include "ta_cdg.h"
#include "turn_verify.h"

/* the channel arriving at s through its end i (the reverse of leaving) */
static uint32_t in_chan(const struct ta_graph *g, uint32_t s, uint32_t i)
{
	const struct ta_link *l = &g->links[g->sw[s].ends[i].link];
	uint32_t from = l->sw[0] == s && l->port[0] == g->sw[s].ends[i].port;

	/* the far end sends: from_end is the index of the other side */
	return ta_chan(g->sw[s].ends[i].link, from);
}

static uint32_t out_chan(const struct ta_graph *g, uint32_t s, uint32_t i)
{
	const struct ta_link *l = &g->links[g->sw[s].ends[i].link];
	uint32_t from = !(l->sw[0] == s && l->port[0] == g->sw[s].ends[i].port);

	return ta_chan(g->sw[s].ends[i].link, from);
}

int turns_cyclic(const struct ta_graph *g, const uint8_t *state)
{
	uint32_t n_ch = 2 * g->n_links, s, i, j, head = 0, tail = 0, done = 0;
	uint32_t *indeg = calloc(n_ch + 1, sizeof(*indeg));
	uint32_t *start = calloc(n_ch + 2, sizeof(*start));
	uint32_t *succ = malloc((g->n_turn_slots + 1) * sizeof(*succ));
	uint32_t *queue = malloc((n_ch + 1) * sizeof(*queue));
	uint32_t *fill = NULL;
	int ret = -1;

	if (!indeg || !start || !succ || !queue)
		goto out;
	/* count, then place, the dependencies of every channel */
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++)
				if (state[ta_turn(g, s, i, j)] ==
				    TA_TURN_ALLOWED)
					start[in_chan(g, s, i) + 1]++;
	for (i = 0; i < n_ch; i++)
		start[i + 1] += start[i];
	fill = malloc((n_ch + 1) * sizeof(*fill));
	if (!fill)
		goto out;
	for (i = 0; i < n_ch; i++)
		fill[i] = start[i];
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++)
				if (state[ta_turn(g, s, i, j)] ==
				    TA_TURN_ALLOWED) {
					uint32_t b = out_chan(g, s, j);

					succ[fill[in_chan(g, s, i)]++] = b;
					indeg[b]++;
				}
	for (i = 0; i < n_ch; i++)
		if (!indeg[i])
			queue[tail++] = i;
	while (head < tail) {
		uint32_t c = queue[head++], k;

		done++;
		for (k = start[c]; k < start[c + 1]; k++)
			if (!--indeg[succ[k]])
				queue[tail++] = succ[k];
	}
	ret = done != n_ch;
out:
	free(indeg);
	free(start);
	free(succ);
	free(queue);
	free(fill);
	return ret;
}

uint32_t turns_count(const struct ta_graph *g, const uint8_t *state,
		     uint8_t which)
{
	uint32_t k, n = 0;

	for (k = 0; k < g->n_turn_slots; k++)
		n += state[k] == which;
	return n;
}
