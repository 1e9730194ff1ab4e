// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "ta_fabric_key.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	/* SplitMix64's finaliser over a running sum */
	h += v + 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

static uint64_t item(enum ta_key_kind kind, uint64_t h)
{
	return (uint64_t)kind << 62 | (h & ((1ull << 62) - 1));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ta_fabric_key_make(struct ta_fabric_key *k, const struct ta_graph *g)
{
	uint32_t s, l, d, n = 0;

	k->n = 0;
	k->item = malloc(((size_t)g->n_sw + g->n_links + g->n_dest + 1) *
			 sizeof(*k->item));
	if (!k->item)
		return -1;
	for (s = 0; s < g->n_sw; s++)
		k->item[n++] = item(TA_KEY_SWITCH, mix(1, g->sw[s].guid));
	for (l = 0; l < g->n_links; l++) {
		const struct ta_link *lk = &g->links[l];
		uint64_t ga = g->sw[lk->sw[0]].guid, gb = g->sw[lk->sw[1]].guid;
		uint64_t a = ga << 8 | lk->port[0], b = gb << 8 | lk->port[1];
		uint64_t lo = a < b ? a : b, hi = a < b ? b : a;

		/* GUIDs keep their low 56 bits here: enough to tell cables */
		k->item[n++] = item(TA_KEY_LINK, mix(mix(2, lo), hi));
	}
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *t = &g->dest[d];
		uint64_t h = mix(mix(3, t->guid), g->sw[t->sw].guid);

		h = mix(h, (uint64_t)t->lid << 16 | (uint64_t)t->port << 8 |
			       t->is_host);
		k->item[n++] = item(TA_KEY_DEST, h);
	}
	qsort(k->item, n, sizeof(*k->item), cmp_u64);
	k->n = n;
	return 0;
}

void ta_fabric_key_free(struct ta_fabric_key *k)
{
	free(k->item);
	k->item = NULL;
	k->n = 0;
}

void ta_fabric_key_move(struct ta_fabric_key *to, struct ta_fabric_key *from)
{
	ta_fabric_key_free(to);
	*to = *from;
	from->item = NULL;
	from->n = 0;
}

void ta_fabric_key_diff(const struct ta_fabric_key *a,
			const struct ta_fabric_key *b, struct ta_key_diff *d)
{
	uint32_t i = 0, j = 0;

	memset(d, 0, sizeof(*d));
	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->item[i] < b->item[j])) {
			d->only_a[a->item[i++] >> 62]++;
		} else if (i >= a->n || b->item[j] < a->item[i]) {
			d->only_b[b->item[j++] >> 62]++;
		} else {
			i++;
			j++;
		}
	}
}

static uint32_t sum(const uint32_t *v)
{
	uint32_t k, n = 0;

	for (k = 0; k < TA_KEY_KINDS; k++)
		n += v[k];
	return n;
}

int ta_key_diff_none(const struct ta_key_diff *d)
{
	return !sum(d->only_a) && !sum(d->only_b);
}

int ta_key_diff_grew(const struct ta_key_diff *d)
{
	return sum(d->only_a) && !sum(d->only_b);
}

int ta_key_diff_lost(const struct ta_key_diff *d)
{
	return sum(d->only_b) != 0;
}
