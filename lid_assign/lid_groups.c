// SPDX-License-Identifier: MIT
/*
 * Rank groups: a host's rank is its index among the hosts of its switch
 * by switch port number; group r holds the rank-r hosts of all switches,
 * ordered by switch node GUID.  The switches' port-0 LIDs form the last
 * group, also by switch GUID.  Loose ports come after, by port GUID.
 */
#include <errno.h>
#include <stdlib.h>

#include "lid_work.h"

/* qsort has no context argument: the run being sorted */
static const struct la_work *sort_work;

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* hosts by (switch index, switch port, port GUID) for ranking */
static int cmp_rank(const void *x, const void *y)
{
	const struct la_port *a = &sort_work->in->ports[*(const uint32_t *)x];
	const struct la_port *b = &sort_work->in->ports[*(const uint32_t *)y];

	if (a->sw != b->sw)
		return cmp3(a->sw, b->sw);
	if (a->sw_port != b->sw_port)
		return cmp3(a->sw_port, b->sw_port);
	return cmp3(a->guid, b->guid);
}

/* by (group, switch GUID, switch port, port GUID); loose (no group) last */
static int cmp_member(const void *x, const void *y)
{
	const struct la_input *in = sort_work->in;
	const struct la_port *a = &in->ports[*(const uint32_t *)x];
	const struct la_port *b = &in->ports[*(const uint32_t *)y];
	int c = cmp3(a->group, b->group);

	if (c)
		return c;
	if (a->kind != LA_LOOSE && a->sw != b->sw)
		return cmp3(in->sw_guid[a->sw], in->sw_guid[b->sw]);
	if (a->sw_port != b->sw_port)
		return cmp3(a->sw_port, b->sw_port);
	return cmp3(a->guid, b->guid);
}

static void rank_hosts(struct la_work *w, uint32_t *idx, uint32_t n)
{
	struct la_port *ports = w->in->ports;
	uint32_t i, rank = 0;

	sort_work = w;
	qsort(idx, n, sizeof(*idx), cmp_rank);
	for (i = 0; i < n; i++) {
		struct la_port *p = &ports[idx[i]];

		if (i && ports[idx[i - 1]].sw != p->sw)
			rank = 0;
		p->rank = rank;
		p->group = rank++;
		if (p->group + 1 > w->n_host_groups)
			w->n_host_groups = p->group + 1;
	}
}

int la_make_groups(struct la_work *w)
{
	struct la_input *in = w->in;
	uint32_t n = in->n_ports, n_hosts = 0, n_sw = 0, i, g;

	w->order = malloc((n + 1) * sizeof(*w->order));
	if (!w->order)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		in->ports[i].group = LA_NO_GROUP;
		in->ports[i].rank = 0;
		if (in->ports[i].kind == LA_HOST)
			w->order[n_hosts++] = i;
	}
	w->n_host_groups = 0;
	rank_hosts(w, w->order, n_hosts);
	for (i = 0; i < n; i++)
		if (in->ports[i].kind == LA_SWITCH) {
			in->ports[i].group = w->n_host_groups;
			n_sw++;
		}
	w->n_groups = w->n_host_groups + (n_sw ? 1 : 0);

	w->width = malloc((w->n_groups + 1) * sizeof(*w->width));
	w->first = calloc(w->n_groups + 2, sizeof(*w->first));
	if (!w->width || !w->first)
		return -ENOMEM;
	for (g = 0; g < w->n_groups; g++)
		w->width[g] = (uint8_t)(1u << in->lmc);
	if (n_sw && !in->sp0_lmc)
		w->width[w->n_host_groups] = 1;

	for (i = 0; i < n; i++)
		w->order[i] = i;
	sort_work = w;
	qsort(w->order, n, sizeof(*w->order), cmp_member);
	w->n_loose = 0;
	for (i = 0; i < n; i++) {
		uint32_t grp = in->ports[w->order[i]].group;

		if (grp == LA_NO_GROUP)
			w->n_loose++;
		else
			w->first[grp + 1]++;
	}
	for (g = 0; g < w->n_groups; g++)
		w->first[g + 1] += w->first[g];
	return 0;
}
