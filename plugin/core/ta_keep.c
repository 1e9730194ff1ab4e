// SPDX-License-Identifier: MIT
/* Is a destination's previous in-tree still whole? (see ta_keep.h) */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_keep.h"

#define NO_END8 0xffu

enum { UNSEEN = 0, ON_PATH = 1, REACHES = 2 };

int ta_keep_init(struct ta_keep *k, const struct ta_graph *g)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, s, e;

	memset(k, 0, sizeof(*k));
	k->g = g;
	k->end_of_port = malloc((size_t)n * 256);
	k->mark = malloc(n);
	k->stack = malloc(n * sizeof(*k->stack));
	if (!k->end_of_port || !k->mark || !k->stack) {
		ta_keep_free(k);
		return -1;
	}
	memset(k->end_of_port, NO_END8, (size_t)n * 256);
	for (s = 0; s < g->n_sw; s++)
		for (e = 0; e < g->sw[s].n_ends && e < NO_END8; e++)
			k->end_of_port[(size_t)s * 256 + g->sw[s].ends[e].port] =
				(uint8_t)e;
	return 0;
}

void ta_keep_free(struct ta_keep *k)
{
	free(k->end_of_port);
	free(k->mark);
	free(k->stack);
	memset(k, 0, sizeof(*k));
}

/* end of s behind its previous output, or NO_END8 */
static inline uint32_t out_end(const struct ta_keep *k, const uint8_t *last,
			       size_t stride, uint32_t s)
{
	return k->end_of_port[(size_t)s * 256 + last[s * stride]];
}

/* one step from s: 0 if broken, else the next switch in *next */
static int step(const struct ta_keep *k, const uint8_t *state,
		const uint8_t *last, size_t stride, uint32_t dest_sw,
		uint32_t s, uint32_t *next)
{
	const struct ta_graph *g = k->g;
	uint32_t e = out_end(k, last, stride, s), n, en;

	if (e == NO_END8)
		return 0;
	n = g->sw[s].ends[e].peer;
	*next = n;
	if (n == dest_sw)
		return 1;
	en = out_end(k, last, stride, n);
	if (en == NO_END8)
		return 0;
	return state[ta_turn(g, n, ta_graph_far_end(g, s, e), en)] ==
	       TA_TURN_ALLOWED;
}

int ta_keep_check(struct ta_keep *k, const uint8_t *state,
		  const uint8_t *last, size_t stride, uint32_t dest_sw,
		  uint8_t deliver, const uint32_t *piece)
{
	const struct ta_graph *g = k->g;
	uint32_t s;

	if (last[dest_sw * stride] != deliver)
		return 0;
	memset(k->mark, UNSEEN, g->n_sw);
	k->mark[dest_sw] = REACHES;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t v = s, sp = 0;

		if (piece[s] != piece[dest_sw])
			continue;
		while (k->mark[v] == UNSEEN) {
			k->mark[v] = ON_PATH;
			k->stack[sp++] = v;
			if (!step(k, state, last, stride, dest_sw, v, &v))
				return 0;
		}
		if (k->mark[v] == ON_PATH)
			return 0;	/* a loop */
		while (sp)
			k->mark[k->stack[--sp]] = REACHES;
	}
	return 1;
}
