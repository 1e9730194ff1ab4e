// SPDX-License-Identifier: MIT
/* The LIDs of one port, for a displaced LID's choice (ta_siblings.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_siblings.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ta_sibs_free(struct ta_sibs *sb)
{
	free(sb->order);
	free(sb->pos);
	free(sb->first);
	free(sb->count);
	free(sb->buf);
	free(sb->sib);
	memset(sb, 0, sizeof(*sb));
}

/* first[] and count[] of every destination along order; the most LIDs */
static uint32_t mark_ports(struct ta_sibs *sb, const uint64_t *key)
{
	const struct ta_graph *g = sb->g;
	uint32_t k, f = 0, max = 1;

	for (k = 0; k <= g->n_dest; k++) {
		uint32_t i;

		if (k < g->n_dest && k && key[k - 1] >> 36 == key[k] >> 36)
			continue;
		/* places f .. k - 1 are one port */
		for (i = f; i < k; i++) {
			uint32_t d = sb->order[i];

			sb->first[d] = f;
			sb->count[d] = k - f;
		}
		if (k > f && k - f > max)
			max = k - f;
		f = k;
	}
	return max;
}

int ta_sibs_init(struct ta_sibs *sb, const struct ta_graph *g,
		 const struct ta_prior *prior)
{
	/* key: switch (20 bits), port, LID, destination index (20 bits) */
	uint64_t *key;
	uint32_t d, max;

	memset(sb, 0, sizeof(*sb));
	sb->g = g;
	sb->prior = prior;
	if (!prior || !prior->home_port || g->n_dest < 2)
		return 0;
	if (g->n_sw >= 1u << 20 || g->n_dest >= 1u << 20)
		return -1;
	key = malloc(g->n_dest * sizeof(*key));
	sb->order = malloc(g->n_dest * sizeof(*sb->order));
	sb->pos = malloc(g->n_dest * sizeof(*sb->pos));
	sb->first = malloc(g->n_dest * sizeof(*sb->first));
	sb->count = malloc(g->n_dest * sizeof(*sb->count));
	if (!key || !sb->order || !sb->pos || !sb->first || !sb->count)
		goto oom;
	for (d = 0; d < g->n_dest; d++)
		key[d] = (uint64_t)g->dest[d].sw << 44 |
			 (uint64_t)g->dest[d].port << 36 |
			 (uint64_t)g->dest[d].lid << 20 | d;
	qsort(key, g->n_dest, sizeof(*key), cmp_u64);
	for (d = 0; d < g->n_dest; d++) {
		sb->order[d] = (uint32_t)(key[d] & 0xfffff);
		sb->pos[sb->order[d]] = d;
	}
	max = mark_ports(sb, key);
	free(key);
	key = NULL;
	if (max < 2) {		/* no port with siblings: inactive */
		ta_sibs_free(sb);
		sb->g = g;
		sb->prior = prior;
		return 0;
	}
	sb->buf = malloc((size_t)max * g->n_sw + 1);
	sb->sib = malloc(max * sizeof(*sb->sib));
	if (!sb->buf || !sb->sib)
		goto oom;
	return 0;
oom:
	free(key);
	ta_sibs_free(sb);
	return -1;
}

void ta_sibs_for(struct ta_sibs *sb, uint32_t d, const uint8_t *kept,
		 struct ta_choice *ch)
{
	const struct ta_graph *g = sb->g;
	uint32_t f, i, n = 0;

	ch->sib = NULL;
	ch->n_sib = 0;
	if (!sb->order || sb->count[d] < 2)
		return;
	f = sb->first[d];
	for (i = f; i < f + sb->count[d]; i++) {
		uint32_t e = sb->order[i];
		struct ta_sibling *x = &sb->sib[n];

		if (e == d)
			continue;
		if (kept && kept[e] && sb->prior->last_port) {
			x->col = sb->prior->last_port + e;
			x->stride = g->n_dest;
		} else if (i < sb->pos[d]) {
			x->col = sb->buf + (size_t)(i - f) * g->n_sw;
			x->stride = 1;
		} else {
			x->col = sb->prior->home_port + e;
			x->stride = g->n_dest;
		}
		n++;
	}
	ch->sib = sb->sib;
	ch->n_sib = n;
}

void ta_sibs_routed(struct ta_sibs *sb, uint32_t d, const uint8_t *col)
{
	if (!sb->order || sb->count[d] < 2)
		return;
	memcpy(sb->buf + (size_t)(sb->pos[d] - sb->first[d]) * sb->g->n_sw,
	       col, sb->g->n_sw);
}
