// SPDX-License-Identifier: MIT
/*
 * Groups.  R, the number of groups, is the highest switch port number a
 * host is cabled to (1 in a fabric of switches only).  Group r holds
 * the hosts on switch port r + 1 of every switch, ordered by switch node
 * GUID, then the switches whose index in node GUID order (among all
 * switches) is r mod R, by GUID.  These are the routing core's spreads:
 * a host's does not depend on which other hosts are present.  Loose
 * ports come after all groups, by port GUID.
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

static int cmp_sw_guid(const void *x, const void *y)
{
	const uint64_t *g = sort_work->in->sw_guid;

	return cmp3(g[*(const uint32_t *)x], g[*(const uint32_t *)y]);
}

/* by (group, hosts before switches, switch GUID, port GUID) */
static int cmp_member(const void *x, const void *y)
{
	const struct la_input *in = sort_work->in;
	const struct la_port *a = &in->ports[*(const uint32_t *)x];
	const struct la_port *b = &in->ports[*(const uint32_t *)y];
	int c = cmp3(a->group, b->group);

	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind == LA_HOST ? -1 : 1;
	if (a->kind != LA_LOOSE && a->sw != b->sw)
		return cmp3(in->sw_guid[a->sw], in->sw_guid[b->sw]);
	return cmp3(a->guid, b->guid);
}

/* every switch's index in GUID order; -EINVAL on a duplicate GUID */
static int switch_ranks(struct la_work *w, uint32_t *rank)
{
	const struct la_input *in = w->in;
	uint32_t *idx = malloc((in->n_sw + 1) * sizeof(*idx));
	uint32_t i;
	int ret = 0;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < in->n_sw; i++)
		idx[i] = i;
	sort_work = w;
	qsort(idx, in->n_sw, sizeof(*idx), cmp_sw_guid);
	for (i = 0; i < in->n_sw; i++) {
		if (i && in->sw_guid[idx[i]] == in->sw_guid[idx[i - 1]])
			ret = -EINVAL;
		rank[idx[i]] = i;
	}
	free(idx);
	return ret;
}

static void assign_groups(struct la_work *w, const uint32_t *sw_rank)
{
	struct la_input *in = w->in;
	uint32_t i, r = 0;
	bool any_sw = false;

	for (i = 0; i < in->n_ports; i++) {
		if (in->ports[i].kind == LA_HOST && in->ports[i].sw_port > r)
			r = in->ports[i].sw_port;
		if (in->ports[i].kind == LA_SWITCH)
			any_sw = true;
	}
	w->n_groups = r ? r : any_sw ? 1 : 0;
	for (i = 0; i < in->n_ports; i++) {
		struct la_port *p = &in->ports[i];

		p->group = LA_NO_GROUP;
		p->rank = 0;
		if (p->kind == LA_HOST) {
			p->rank = p->sw_port - 1u;
			p->group = p->rank;
		} else if (p->kind == LA_SWITCH) {
			p->rank = sw_rank[p->sw];
			p->group = p->rank % w->n_groups;
		}
	}
}

int la_make_groups(struct la_work *w)
{
	struct la_input *in = w->in;
	uint32_t n = in->n_ports, i, g;
	uint32_t *sw_rank = malloc((in->n_sw + 1) * sizeof(*sw_rank));
	int ret;

	if (!sw_rank)
		return -ENOMEM;
	ret = switch_ranks(w, sw_rank);
	if (!ret)
		assign_groups(w, sw_rank);
	free(sw_rank);
	if (ret)
		return ret;
	w->host_width = (uint8_t)(1u << in->lmc);
	w->sw_width = in->sp0_lmc ? w->host_width : 1;

	w->order = malloc((n + 1) * sizeof(*w->order));
	w->first = calloc(w->n_groups + 2, sizeof(*w->first));
	w->n_hosts = calloc(w->n_groups + 1, sizeof(*w->n_hosts));
	if (!w->order || !w->first || !w->n_hosts)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		w->order[i] = i;
	sort_work = w;
	qsort(w->order, n, sizeof(*w->order), cmp_member);
	w->n_loose = 0;
	for (i = 0; i < n; i++) {
		const struct la_port *p = &in->ports[w->order[i]];

		if (p->group == LA_NO_GROUP) {
			w->n_loose++;
			continue;
		}
		w->first[p->group + 1]++;
		if (p->kind == LA_HOST)
			w->n_hosts[p->group]++;
	}
	for (g = 0; g < w->n_groups; g++)
		w->first[g + 1] += w->first[g];
	return 0;
}
