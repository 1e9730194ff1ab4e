// SPDX-License-Identifier: MIT
/* Dragonfly+ recognised from the cabling (lid_dfly.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lid_dfly.h"

struct scan {
	const struct la_input *in;
	bool force;
	uint32_t *off;		/* [n_sw + 1] each switch's first peer */
	uint32_t *uf;		/* union-find parent */
	uint8_t *host;		/* switch has hosts */
	uint8_t *spine;		/* no hosts, cabled to a leaf */
	uint8_t *empty;		/* no hosts, only spines of one group */
	uint8_t *core;		/* forced: the group after the others */
};

uint32_t la_uf_find(uint32_t *uf, uint32_t i)
{
	while (uf[i] != i) {
		uf[i] = uf[uf[i]];
		i = uf[i];
	}
	return i;
}

void la_uf_unite(uint32_t *uf, uint32_t a, uint32_t b)
{
	a = la_uf_find(uf, a);
	b = la_uf_find(uf, b);
	if (a != b)
		uf[a > b ? a : b] = a < b ? a : b;
}

static const uint32_t *peers(const struct scan *s, uint32_t i,
			     uint32_t *n)
{
	*n = s->off[i + 1] - s->off[i];
	return s->in->sw_peer + s->off[i];
}

/* leaf-spine components; NULL, or why it is no Dragonfly+ */
static const char *components(struct scan *s)
{
	const struct la_input *in = s->in;
	uint32_t i, k, n;
	const uint32_t *pr;

	for (i = 0; i < in->n_sw; i++) {
		pr = peers(s, i, &n);
		for (k = 0; k < n; k++) {
			if (!s->host[i] || pr[k] >= in->n_sw)
				continue;
			if (s->host[pr[k]] && !s->force)
				return "not a Dragonfly+: switches with hosts are cabled together (a Dragonfly+'s leaves meet spines only)";
			la_uf_unite(s->uf, i, pr[k]);
			if (!s->host[pr[k]])
				s->spine[pr[k]] = 1;
		}
	}
	return NULL;
}

/*
 * Switches without hosts and without a leaf: an empty leaf if cabled
 * only to spines of one group, else a core switch (no Dragonfly+, or
 * forced: a group of its own after the others).
 */
static const char *unattached(struct scan *s)
{
	const struct la_input *in = s->in;
	uint32_t i, k, n, comp;
	const uint32_t *pr;
	bool one;

	for (i = 0; i < in->n_sw; i++) {
		if (s->host[i] || s->spine[i])
			continue;
		pr = peers(s, i, &n);
		one = n > 0;
		comp = n ? la_uf_find(s->uf, pr[0]) : 0;
		for (k = 0; k < n && one; k++)
			one = s->spine[pr[k]] &&
			      la_uf_find(s->uf, pr[k]) == comp;
		if (one) {
			s->empty[i] = 1;
		} else if (s->force) {
			s->core[i] = 1;
		} else {
			return n ? "not a Dragonfly+: switches without hosts cabled to no leaf and to several groups (a fat tree's core or director switches)" :
				   "not a Dragonfly+: a switch without cables";
		}
	}
	for (i = 0; i < in->n_sw; i++)
		if (s->empty[i])
			la_uf_unite(s->uf, i, peers(s, i, &n)[0]);
	return NULL;
}

int la_group_key_cmp(const void *a, const void *b)
{
	const struct la_group_key *x = a, *y = b;

	if (x->lid != y->lid)
		return x->lid < y->lid ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/*
 * Group numbers: by lowest old host LID, then lowest switch GUID, into
 * d->group (core switches: UINT32_MAX).  Returns the number of groups
 * (core switches excluded), or -ENOMEM.
 */
static int64_t number_groups(struct scan *s, struct la_dfly *d)
{
	const struct la_input *in = s->in;
	uint32_t n_sw = in->n_sw, i, root, n = 0;
	struct la_group_key *key = malloc((n_sw + 1) * sizeof(*key));
	uint32_t *slot = malloc((n_sw + 1) * sizeof(*slot));
	uint32_t *place = malloc((n_sw + 1) * sizeof(*place));

	if (!key || !slot || !place) {
		free(key);
		free(slot);
		free(place);
		return -ENOMEM;
	}
	for (i = 0; i < n_sw; i++)
		slot[i] = UINT32_MAX;
	for (i = 0; i < n_sw; i++) {	/* one slot per group */
		if (s->core[i])
			continue;
		root = la_uf_find(s->uf, i);
		if (slot[root] == UINT32_MAX) {
			key[n] = (struct la_group_key){ UINT64_MAX, UINT64_MAX, n };
			slot[root] = n++;
		}
		if (in->sw_guid[i] < key[slot[root]].guid)
			key[slot[root]].guid = in->sw_guid[i];
	}
	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];
		uint32_t g;

		if (p->kind != LA_HOST || !p->old_lid || s->core[p->sw])
			continue;
		g = slot[la_uf_find(s->uf, p->sw)];
		if (p->old_lid < key[g].lid)
			key[g].lid = p->old_lid;
	}
	qsort(key, n, sizeof(*key), la_group_key_cmp);
	for (i = 0; i < n; i++)
		place[key[i].slot] = i;
	for (i = 0; i < n_sw; i++)
		d->group[i] = s->core[i] ? UINT32_MAX :
			      place[slot[la_uf_find(s->uf, i)]];
	free(key);
	free(slot);
	free(place);
	return n;
}

/* the spine-spine cables join every group: NULL, else why not */
static const char *joined(struct scan *s, const struct la_dfly *d)
{
	const struct la_input *in = s->in;
	uint32_t *uf = malloc((d->n_groups + 1) * sizeof(*uf));
	uint32_t i, k, n, g;
	const uint32_t *pr;
	const char *why = NULL;

	if (!uf)
		return "out of memory";
	for (g = 0; g < d->n_groups; g++)
		uf[g] = g;
	for (i = 0; i < in->n_sw; i++) {
		if (d->group[i] == UINT32_MAX)
			continue;
		pr = peers(s, i, &n);
		for (k = 0; k < n; k++)
			if (d->group[pr[k]] != UINT32_MAX)
				la_uf_unite(uf, d->group[i], d->group[pr[k]]);
	}
	for (g = 1; g < d->n_groups && !why; g++)
		if (la_uf_find(uf, g) != la_uf_find(uf, 0))
			why = "not a Dragonfly+: the groups are not all joined by spine-spine cables (separate fabrics)";
	free(uf);
	return why;
}

/* leaves (empty ones too) per group, spines, missing leaf-spine cables */
static int count(struct scan *s, struct la_dfly *d)
{
	const struct la_input *in = s->in;
	uint32_t *sp = calloc(d->n_groups + 1, sizeof(*sp));
	uint32_t i, k, n, seen;
	const uint32_t *pr;

	d->leaves_in = calloc(d->n_groups + 1, sizeof(*d->leaves_in));
	if (!sp || !d->leaves_in) {
		free(sp);
		return -ENOMEM;
	}
	for (i = 0; i < in->n_sw; i++) {
		if (d->group[i] == UINT32_MAX) {
			d->extra++;
		} else if (s->host[i] || s->empty[i]) {
			d->leaves_in[d->group[i]]++;
			d->leaves += s->host[i];
			d->empty += s->empty[i];
		} else {
			sp[d->group[i]]++;
			d->spines++;
		}
	}
	for (i = 0; i < in->n_sw; i++) {
		if ((!s->host[i] && !s->empty[i]) || d->group[i] == UINT32_MAX)
			continue;
		pr = peers(s, i, &n);
		for (k = 0, seen = 0; k < n; k++)
			seen += s->spine[pr[k]] &&
				d->group[pr[k]] == d->group[i];
		if (seen < sp[d->group[i]])
			d->missing += sp[d->group[i]] - seen;
	}
	free(sp);
	return 0;
}

static void scan_free(struct scan *s)
{
	free(s->off);
	free(s->uf);
	free(s->host);
	free(s->spine);
	free(s->empty);
	free(s->core);
}

static int scan_init(struct scan *s, const struct la_input *in)
{
	uint32_t n = in->n_sw, i;

	s->off = calloc(n + 2, sizeof(*s->off));
	s->uf = malloc((n + 1) * sizeof(*s->uf));
	s->host = calloc(n + 1, 1);
	s->spine = calloc(n + 1, 1);
	s->empty = calloc(n + 1, 1);
	s->core = calloc(n + 1, 1);
	if (!s->off || !s->uf || !s->host || !s->spine || !s->empty ||
	    !s->core)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->off[i + 1] = s->off[i] + in->sw_peers[i];
		s->uf[i] = i;
	}
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST && in->ports[i].sw < n)
			s->host[in->ports[i].sw] = 1;
	return 0;
}

static const char *recognise(struct scan *s, struct la_dfly *d)
{
	const struct la_input *in = s->in;
	const char *why;
	int64_t n;

	why = components(s);
	if (!why)
		why = unattached(s);
	if (why)
		return why;
	d->group = malloc((in->n_sw + 1) * sizeof(*d->group));
	if (!d->group)
		return "out of memory";
	n = number_groups(s, d);
	if (n < 0)
		return "out of memory";
	d->n_groups = (uint32_t)n;
	if (count(s, d))
		return "out of memory";
	if (d->leaves == 0)
		return "not a Dragonfly+: no switch has hosts";
	if (d->n_groups < 2)
		return "not a Dragonfly+: one leaf-spine group (a fat tree)";
	if (!s->force)
		return joined(s, d);
	return NULL;
}

int la_dfly_detect(const struct la_input *in, struct la_dfly *d)
{
	struct scan s = { .in = in };
	const char *why;

	memset(d, 0, sizeof(*d));
	if (in->layout == LA_LAYOUT_PORT_MAJOR) {
		d->why = "asked for (layout port-major)";
		return 0;
	}
	if (!in->sw_peers || !in->sw_peer || !in->n_sw) {
		d->why = "not a Dragonfly+: the switches' neighbours are not known";
		return 0;
	}
	s.force = in->layout == LA_LAYOUT_GROUP_MAJOR;
	why = scan_init(&s, in) ? "out of memory" : recognise(&s, d);
	scan_free(&s);
	if (why) {
		la_dfly_free(d);
		d->why = why;
		if (!strcmp(why, "out of memory"))
			return -ENOMEM;
		return 0;
	}
	d->found = true;
	return 0;
}

int la_layout_mode_parse(const char *s, enum la_layout_mode *m)
{
	if (!strcmp(s, "auto"))
		*m = LA_LAYOUT_AUTO;
	else if (!strcmp(s, "port-major"))
		*m = LA_LAYOUT_PORT_MAJOR;
	else if (!strcmp(s, "group-major"))
		*m = LA_LAYOUT_GROUP_MAJOR;
	else
		return -1;
	return 0;
}

void la_dfly_free(struct la_dfly *d)
{
	free(d->group);
	free(d->leaves_in);
	memset(d, 0, sizeof(*d));
}
