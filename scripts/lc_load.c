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
	unsigned *base;		/* first load slot of each switch */
	double *load;		/* per (switch, output port) */
	double *fwd;		/* per switch: traffic toward the LID */
	unsigned *order;	/* delivered switches, farthest first */
	unsigned *count;	/* per hop count */
	double lost;
};

static void loads_free(struct loads *l)
{
	lc_hosts_free(&l->hosts);
	lc_walker_free(&l->w);
	free(l->base);
	free(l->load);
	free(l->fwd);
	free(l->order);
	free(l->count);
}

static int loads_init(struct loads *l, const struct lc_fabric *f)
{
	unsigned n = f->n_switches + 1, s, slots = 0;

	memset(l, 0, sizeof(*l));
	l->f = f;
	if (lc_hosts_collect(&l->hosts, f) || lc_walker_init(&l->w, f))
		return -1;
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
	return l->load ? 0 : -1;
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

/* Adds the traffic toward lid: weight from every host but dst. */
static void add_lid(struct loads *l, unsigned lid, unsigned dst_sw,
		    double weight)
{
	const struct lc_fabric *f = l->f;
	unsigned n, i, s;

	lc_walk_lid(&l->w, lid);
	for (s = 0; s < f->n_switches; s++) {
		unsigned senders = l->hosts.per_sw[s] - (s == dst_sw);

		l->fwd[s] = senders * weight;
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

static void find_max(const struct loads *l, struct lc_load_report *r)
{
	const struct lc_fabric *f = l->f;
	unsigned s, p;

	r->max_load = r->hosts > 1 ? 1.0 : 0.0;	/* every host link */
	r->max_sw = -1;
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

int lc_load_compute(const struct lc_fabric *f, struct lc_load_report *r)
{
	struct loads l;
	unsigned i, k;

	memset(r, 0, sizeof(*r));
	if (loads_init(&l, f)) {
		loads_free(&l);
		return -1;
	}
	r->hosts = l.hosts.n;
	for (i = 0; r->hosts > 1 && i < l.hosts.n; i++) {
		const struct lc_host *h = &l.hosts.host[i];
		const struct lc_port *dp = &f->node[h->node].port[h->port];
		unsigned n_lids = 1u << dp->lmc;
		double weight = 1.0 / (r->hosts - 1) / n_lids;

		for (k = 0; k < n_lids; k++)
			add_lid(&l, dp->lid + k, h->sw, weight);
	}
	find_max(&l, r);
	r->lost = l.lost;
	loads_free(&l);
	return 0;
}
