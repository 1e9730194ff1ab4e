// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lc_hosts.h"
#include "lc_load.h"
#include "lc_routes.h"

struct loads {
	const struct lc_fabric *f;
	struct lc_hosts hosts;
	struct lc_walker w;
	unsigned group_hosts[LC_MAX_GROUPS];
	unsigned *on_sw[LC_MAX_GROUPS];	/* hosts of each group per switch */
	double pair[LC_MAX_GROUPS][LC_MAX_GROUPS]; /* one source to one dst */
	unsigned *base;		/* first load slot of each switch */
	double *load;		/* per (switch, output port) */
	double *fwd;		/* per switch: traffic toward the LID */
	unsigned *order;	/* delivered switches, farthest first */
	unsigned *count;	/* per hop count */
	double lost;
};

void lc_traffic_uniform(struct lc_traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->send[0][0] = 1.0;
}

static void loads_free(struct loads *l)
{
	unsigned g;

	lc_hosts_free(&l->hosts);
	lc_walker_free(&l->w);
	for (g = 0; g < LC_MAX_GROUPS; g++)
		free(l->on_sw[g]);
	free(l->base);
	free(l->load);
	free(l->fwd);
	free(l->order);
	free(l->count);
}

static unsigned host_group(const struct lc_traffic *t, const struct lc_host *h)
{
	return t->node_group ? t->node_group[h->node] : 0;
}

/* Hosts per group and switch, and the weight of one source-dest pair. */
static void count_groups(struct loads *l, const struct lc_traffic *t)
{
	unsigned i, g, h;

	for (i = 0; i < l->hosts.n; i++) {
		const struct lc_host *hh = &l->hosts.host[i];

		g = host_group(t, hh);
		if (g >= LC_MAX_GROUPS)
			continue;
		l->group_hosts[g]++;
		l->on_sw[g][hh->sw]++;
	}
	for (g = 0; g < LC_MAX_GROUPS; g++) {
		for (h = 0; h < LC_MAX_GROUPS; h++) {
			unsigned dsts = l->group_hosts[h] - (g == h);

			if (l->group_hosts[g] && l->group_hosts[h] &&
			    dsts && t->send[g][h] > 0)
				l->pair[g][h] = t->send[g][h] / dsts;
		}
	}
}

static int loads_init(struct loads *l, const struct lc_fabric *f,
		      const struct lc_traffic *t)
{
	unsigned n = f->n_switches + 1, s, g, slots = 0;

	memset(l, 0, sizeof(*l));
	l->f = f;
	if (lc_hosts_collect(&l->hosts, f) || lc_walker_init(&l->w, f))
		return -1;
	for (g = 0; g < LC_MAX_GROUPS; g++) {
		l->on_sw[g] = calloc(n, sizeof(*l->on_sw[g]));
		if (!l->on_sw[g])
			return -1;
	}
	l->base = malloc(n * sizeof(*l->base));
	l->fwd = calloc(n, sizeof(*l->fwd));
	l->order = malloc(n * sizeof(*l->order));
	l->count = calloc(n + 1, sizeof(*l->count));
	if (!l->base || !l->fwd || !l->order || !l->count)
		return -1;
	for (s = 0; s < f->n_switches; s++) {
		l->base[s] = slots;
		slots += f->node[f->sw_node[s]].n_ports + 1;
	}
	l->load = calloc(slots + 1, sizeof(*l->load));
	if (!l->load)
		return -1;
	count_groups(l, t);
	return 0;
}

/* Delivered switches sorted by hop count, farthest first (counting sort). */
static unsigned sort_by_hops(struct loads *l)
{
	unsigned n = l->f->n_switches, max = 0, s, h, k = 0, pos;

	for (s = 0; s < n; s++)
		if (l->w.out[s].fail == LC_DELIVERED && l->w.out[s].hops > max)
			max = l->w.out[s].hops;
	memset(l->count, 0, (max + 1) * sizeof(*l->count));
	for (s = 0; s < n; s++) {
		if (l->w.out[s].fail == LC_DELIVERED) {
			l->count[l->w.out[s].hops]++;
			k++;
		}
	}
	/* count[h] becomes the first position of hop count h */
	for (pos = 0, h = max + 1; h-- > 0;) {
		unsigned c = l->count[h];

		l->count[h] = pos;
		pos += c;
	}
	for (s = 0; s < n; s++)
		if (l->w.out[s].fail == LC_DELIVERED)
			l->order[l->count[l->w.out[s].hops]++] = s;
	return k;
}

/*
 * Adds the traffic toward lid, a LID of a host of group dg on switch
 * dst_sw: each host of group g but the destination itself sends
 * pair[g][dg] * share (share: 1 / 2^LMC).
 */
static void add_lid(struct loads *l, unsigned lid, unsigned dst_sw,
		    unsigned dg, double share)
{
	const struct lc_fabric *f = l->f;
	unsigned n, i, s, g;
	double any = 0;

	for (g = 0; g < LC_MAX_GROUPS; g++)
		any += l->pair[g][dg];
	if (any == 0)
		return;
	lc_walk_lid(&l->w, lid);
	for (s = 0; s < f->n_switches; s++) {
		double sent = 0;

		for (g = 0; g < LC_MAX_GROUPS; g++) {
			unsigned senders = l->on_sw[g][s] -
					   (g == dg && s == dst_sw);

			sent += senders * l->pair[g][dg];
		}
		l->fwd[s] = sent * share;
		if (l->w.out[s].fail != LC_DELIVERED)
			l->lost += l->fwd[s];
	}
	n = sort_by_hops(l);
	for (i = 0; i < n; i++) {
		struct lc_step st;

		s = l->order[i];
		if (l->fwd[s] == 0)
			continue;
		st = lc_step(f, s, lid);
		l->load[l->base[s] + st.port] += l->fwd[s];
		if (st.next_sw >= 0)
			l->fwd[st.next_sw] += l->fwd[s];
	}
}

/* What one host of group g sends in all: the load of its own link. */
static double host_sends(const struct loads *l, unsigned g)
{
	unsigned h;
	double sum = 0;

	for (h = 0; h < LC_MAX_GROUPS; h++)
		if (l->pair[g][h] > 0)
			sum += l->pair[g][h] * (l->group_hosts[h] - (g == h));
	return sum;
}

static void find_max(const struct loads *l, struct lc_load_report *r)
{
	const struct lc_fabric *f = l->f;
	unsigned s, p, g;

	r->max_load = 0;
	r->max_sw = -1;
	for (g = 0; g < LC_MAX_GROUPS; g++) {
		double out = host_sends(l, g);

		r->sent += l->group_hosts[g] * out;
		if (l->group_hosts[g] && out > r->max_load)
			r->max_load = out;	/* the hosts' links */
	}
	for (s = 0; s < f->n_switches; s++) {
		for (p = 1; p <= f->node[f->sw_node[s]].n_ports; p++) {
			double load = l->load[l->base[s] + p];

			if (load > r->max_load * (1 + 1e-9)) {
				r->max_load = load;
				r->max_sw = (int)s;
				r->max_port = p;
			}
		}
	}
	for (s = 0; s < f->n_switches; s++)
		for (p = 1; p <= f->node[f->sw_node[s]].n_ports; p++)
			if (l->load[l->base[s] + p] >=
			    r->max_load * (1 - 1e-9) && r->max_load > 0)
				r->links_at_max++;
	r->throughput = r->max_load > 0 ? 1.0 / r->max_load : 1.0;
}

int lc_load_compute(const struct lc_fabric *f, const struct lc_traffic *t,
		    struct lc_load_report *r)
{
	struct loads l;
	unsigned i, k;

	memset(r, 0, sizeof(*r));
	if (loads_init(&l, f, t)) {
		loads_free(&l);
		return -1;
	}
	r->hosts = l.hosts.n;
	for (i = 0; i < l.hosts.n; i++) {
		const struct lc_host *h = &l.hosts.host[i];
		const struct lc_port *dp = &f->node[h->node].port[h->port];
		unsigned dg = host_group(t, h), n_lids = 1u << dp->lmc;

		if (dg >= LC_MAX_GROUPS)
			continue;
		for (k = 0; k < n_lids; k++)
			add_lid(&l, dp->lid + k, h->sw, dg, 1.0 / n_lids);
	}
	find_max(&l, r);
	r->lost = l.lost;
	loads_free(&l);
	return 0;
}
