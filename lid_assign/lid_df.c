// SPDX-License-Identifier: MIT
/* A dragonfly recognised from the cabling (lid_df.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lid_df.h"

struct dscan {
	const struct la_input *in;
	uint32_t *off;		/* [n_sw + 1] each switch's first peer */
	uint32_t *common;	/* [cables] neighbours both ends share */
	uint32_t *uf;		/* union-find parent */
	uint32_t *size;		/* [n_sw] switches in the group of a root */
	uint32_t *slot;		/* [n_sw] group of a root (numbered) */
	uint8_t *host;		/* switch has hosts */
	uint32_t cmax;		/* most neighbours a cable's ends share */
	uint32_t n_groups, largest, missing, pairs_missing;
};

/* common neighbours of the two ends of every cable, and their maximum */
static int count_common(struct dscan *s)
{
	const struct la_input *in = s->in;
	uint32_t n = in->n_sw, u, k, j, v;
	uint32_t *mark = calloc(n + 1, sizeof(*mark));

	if (!mark)
		return -ENOMEM;
	for (u = 0; u < n; u++) {
		for (k = s->off[u]; k < s->off[u + 1]; k++)
			if (in->sw_peer[k] < n)
				mark[in->sw_peer[k]] = u + 1;
		for (k = s->off[u]; k < s->off[u + 1]; k++) {
			v = in->sw_peer[k];
			s->common[k] = 0;
			if (v >= n)
				continue;
			for (j = s->off[v]; j < s->off[v + 1]; j++)
				if (in->sw_peer[j] < n &&
				    mark[in->sw_peer[j]] == u + 1)
					s->common[k]++;
			if (s->common[k] > s->cmax)
				s->cmax = s->common[k];
		}
	}
	free(mark);
	return 0;
}

/* groups: components of the cables whose ends share t neighbours */
static void components(struct dscan *s, uint32_t t)
{
	const struct la_input *in = s->in;
	uint32_t n = in->n_sw, u, k;

	for (u = 0; u < n; u++)
		s->uf[u] = u;
	for (u = 0; u < n; u++)
		for (k = s->off[u]; k < s->off[u + 1]; k++)
			if (in->sw_peer[k] < n && s->common[k] >= t)
				la_uf_unite(s->uf, u, in->sw_peer[k]);
	memset(s->size, 0, n * sizeof(*s->size));
	s->n_groups = 0;
	s->largest = 0;
	for (u = 0; u < n; u++) {
		uint32_t r = la_uf_find(s->uf, u);

		if (!s->size[r])
			s->slot[r] = s->n_groups++;
		s->size[r]++;
	}
	for (u = 0; u < n; u++)
		if (s->size[u] > s->largest)
			s->largest = s->size[u];
}

/*
 * Every group of 3 switches or more, at least half the largest, each
 * switch cabled to three quarters of the others (or all but one)
 */
static const char *cliques(struct dscan *s)
{
	const struct la_input *in = s->in;
	uint32_t n = in->n_sw, u, k, inner;
	uint64_t missing = 0;

	for (u = 0; u < n; u++) {
		uint32_t r = la_uf_find(s->uf, u), sz = s->size[r];

		if (sz < 3 || 2 * sz < s->largest)
			return "not a dragonfly: not every switch lies in a group of 3 or more (at least half the largest) cabled all to all";
		for (k = s->off[u], inner = 0; k < s->off[u + 1]; k++)
			inner += in->sw_peer[k] < n &&
				 la_uf_find(s->uf, in->sw_peer[k]) == r;
		if (4 * inner < 3 * (sz - 1) && inner + 1 < sz - 1)
			return "not a dragonfly: the groups of switches sharing neighbours are not cabled all to all (as on a HyperX, a torus or a random net)";
		missing += sz - 1 - inner;
	}
	s->missing = (uint32_t)(missing / 2);
	return NULL;
}

/*
 * Group pairs joined by a global cable: at least three quarters; and
 * at most a quarter of the global cables with ends sharing a neighbour
 * (a HyperX's other dimensions are cliques too)
 */
static const char *joined(struct dscan *s)
{
	const struct la_input *in = s->in;
	uint64_t g = s->n_groups, pairs = g * (g - 1) / 2, got = 0;
	uint64_t global = 0, in_triangle = 0;
	uint8_t *pair = calloc(g * g + 1, 1);
	uint32_t u, k, a, b;

	if (!pair)
		return "out of memory";
	for (u = 0; u < in->n_sw; u++)
		for (k = s->off[u]; k < s->off[u + 1]; k++) {
			if (in->sw_peer[k] >= in->n_sw)
				continue;
			a = s->slot[la_uf_find(s->uf, u)];
			b = s->slot[la_uf_find(s->uf, in->sw_peer[k])];
			if (a == b)
				continue;
			global++;
			in_triangle += s->common[k] > 0;
			if (a < b && !pair[(uint64_t)a * g + b]) {
				pair[(uint64_t)a * g + b] = 1;
				got++;
			}
		}
	free(pair);
	s->pairs_missing = (uint32_t)(pairs - got);
	if (4 * got < 3 * pairs)
		return "not a dragonfly: fewer than three quarters of the group pairs are joined by a global cable (groups in a ring or grid: a torus or HyperX)";
	if (4 * in_triangle > global)
		return "not a dragonfly: the cables between the groups form cliques too (a HyperX)";
	return NULL;
}

static const char *check(struct dscan *s, bool force)
{
	const char *why;

	if (force)
		return s->n_groups < 2 ? "not a dragonfly: one group" : NULL;
	why = cliques(s);
	if (!why && s->n_groups < 2)
		why = "not a dragonfly: one group of switches cabled all to all (a full mesh)";
	if (!why)
		why = joined(s);
	return why;
}

/* d->group and the counts, groups by lowest old host LID, then GUID */
static int fill(struct dscan *s, struct la_dfly *d)
{
	const struct la_input *in = s->in;
	uint32_t n = in->n_sw, g = s->n_groups, i;
	struct la_group_key *key = malloc((g + 1) * sizeof(*key));
	uint32_t *place = malloc((g + 1) * sizeof(*place));

	d->group = malloc((n + 1) * sizeof(*d->group));
	d->leaves_in = calloc(g + 1, sizeof(*d->leaves_in));
	if (!key || !place || !d->group || !d->leaves_in) {
		free(key);
		free(place);
		return -ENOMEM;
	}
	for (i = 0; i < g; i++)
		key[i] = (struct la_group_key){ UINT64_MAX, UINT64_MAX, i };
	for (i = 0; i < n; i++) {
		struct la_group_key *k = &key[s->slot[la_uf_find(s->uf, i)]];

		if (in->sw_guid[i] < k->guid)
			k->guid = in->sw_guid[i];
	}
	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];
		struct la_group_key *k;

		if (p->kind != LA_HOST || !p->old_lid || p->sw >= n)
			continue;
		k = &key[s->slot[la_uf_find(s->uf, p->sw)]];
		if (p->old_lid < k->lid)
			k->lid = p->old_lid;
	}
	qsort(key, g, sizeof(*key), la_group_key_cmp);
	for (i = 0; i < g; i++)
		place[key[i].slot] = i;
	for (i = 0; i < n; i++) {
		d->group[i] = place[s->slot[la_uf_find(s->uf, i)]];
		d->leaves_in[d->group[i]]++;
		d->leaves += s->host[i];
		d->empty += !s->host[i];
	}
	d->n_groups = g;
	d->missing = s->missing;
	d->largest = s->largest;
	d->pairs_missing = s->pairs_missing;
	d->classic = true;
	d->found = true;
	free(key);
	free(place);
	return 0;
}

static int scan_init(struct dscan *s, const struct la_input *in)
{
	uint32_t n = in->n_sw, i;

	s->in = in;
	s->off = calloc(n + 2, sizeof(*s->off));
	s->uf = malloc((n + 1) * sizeof(*s->uf));
	s->size = calloc(n + 1, sizeof(*s->size));
	s->slot = calloc(n + 1, sizeof(*s->slot));
	s->host = calloc(n + 1, 1);
	if (!s->off || !s->uf || !s->size || !s->slot || !s->host)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		s->off[i + 1] = s->off[i] + in->sw_peers[i];
	s->common = malloc((s->off[n] + 1) * sizeof(*s->common));
	if (!s->common)
		return -ENOMEM;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST && in->ports[i].sw < n)
			s->host[in->ports[i].sw] = 1;
	return count_common(s);
}

static void scan_free(struct dscan *s)
{
	free(s->off);
	free(s->common);
	free(s->uf);
	free(s->size);
	free(s->slot);
	free(s->host);
}

/* the lowest t that passes; NULL, else why (the first t's reason) */
static const char *search(struct dscan *s, bool force)
{
	const char *why = NULL, *w;
	uint32_t i, t;

	for (i = 0; i < s->in->n_sw && !s->host[i]; i++)
		;
	if (i == s->in->n_sw)
		return "not a dragonfly: no switch has hosts";
	if (!s->cmax)
		return "not a dragonfly: no cable's ends share a neighbour (no groups of switches cabled all to all)";
	for (t = 1; t <= s->cmax; t++) {
		components(s, t);
		w = check(s, force);
		if (!w)
			return NULL;
		if (!strcmp(w, "out of memory"))
			return w;
		if (!why)
			why = w;
	}
	return why;
}

int la_df_detect(const struct la_input *in, struct la_dfly *d)
{
	struct dscan s = { 0 };
	const char *why;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	if (in->layout == LA_LAYOUT_PORT_MAJOR) {
		d->why = "asked for (layout port-major)";
		return 0;
	}
	if (!in->sw_peers || !in->sw_peer || !in->n_sw) {
		d->why = "not a dragonfly: the switches' neighbours are not known";
		return 0;
	}
	why = scan_init(&s, in) ? "out of memory" :
	      search(&s, in->layout == LA_LAYOUT_GROUP_MAJOR);
	if (!why && fill(&s, d))
		why = "out of memory";
	scan_free(&s);
	if (why) {
		la_dfly_free(d);
		d->why = why;
		ret = strcmp(why, "out of memory") ? 0 : -ENOMEM;
	}
	return ret;
}
