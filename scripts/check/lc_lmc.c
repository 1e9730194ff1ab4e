// SPDX-License-Identifier: MIT
/* Distinct next hops of a port's LIDs from each leaf (lc_lmc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_hosts.h"
#include "lc_lmc.h"

/* distinct switches cabled to switch node n */
static unsigned neighbour_switches(const struct lc_fabric *f, unsigned n,
				   unsigned *mark, unsigned stamp)
{
	const struct lc_node *sw = &f->node[n];
	unsigned p, count = 0;

	for (p = 1; p <= sw->n_ports; p++) {
		int q = sw->port[p].peer;

		if (q >= 0 && f->node[q].is_switch && mark[q] != stamp) {
			mark[q] = stamp;
			count++;
		}
	}
	return count;
}

/* the distinct next-hop switches of LIDs lid .. lid + n - 1 from leaf n */
static unsigned next_hops(const struct lc_fabric *f, unsigned leaf,
			  unsigned lid, unsigned n, unsigned *mark,
			  unsigned stamp)
{
	const struct lc_node *sw = &f->node[leaf];
	unsigned k, count = 0;

	for (k = 0; k < n; k++) {
		unsigned out = lc_fabric_lft(sw, lid + k);
		int q;

		if (out == LC_NO_ENTRY || out == 0 || out > sw->n_ports)
			continue;
		q = sw->port[out].peer;
		if (q >= 0 && f->node[q].is_switch && mark[q] != stamp) {
			mark[q] = stamp;
			count++;
		}
	}
	return count;
}

int lc_lmc_spread(const struct lc_fabric *f, unsigned want,
		  struct lc_lmc_report *r)
{
	struct lc_hosts h;
	unsigned *mark = calloc(f->n_nodes + 1, sizeof(*mark));
	unsigned stamp = 0, i, j;

	memset(r, 0, sizeof(*r));
	r->want = want;
	if (!mark || lc_hosts_collect(&h, f)) {
		free(mark);
		return -1;
	}
	for (j = 0; j < h.n; j++) {
		unsigned lmc = f->node[h.host[j].node].port[h.host[j].port].lmc;
		unsigned n = lmc < 8 ? 1u << lmc : 1;

		if (n > r->max_lids)
			r->max_lids = n;
	}
	for (i = 0; i < h.n_src; i++) {
		unsigned leaf = f->sw_node[h.src[i]];
		unsigned peers = neighbour_switches(f, leaf, mark, ++stamp);

		for (j = 0; j < h.n; j++) {
			const struct lc_host *x = &h.host[j];
			const struct lc_port *dp =
				&f->node[x->node].port[x->port];
			unsigned n = dp->lmc < 8 ? 1u << dp->lmc : 1, got, need;

			if (x->sw == h.src[i])
				continue;	/* delivered down, no spine */
			got = next_hops(f, leaf, dp->lid, n, mark, ++stamp);
			need = want < n ? want : n;
			if (peers < need)
				need = peers;
			if (!r->pairs || got < r->min_spines)
				r->min_spines = got;
			r->pairs++;
			r->spine_sum += got;
			if (want && got < need)
				r->short_pairs++;
		}
	}
	lc_hosts_free(&h);
	free(mark);
	return 0;
}

void lc_lmc_print(const struct lc_lmc_report *r)
{
	printf("lmc_lids=%u lmc_pairs=%llu lmc_spines_min=%u "
	       "lmc_spines_mean=%.3f", r->max_lids, r->pairs, r->min_spines,
	       r->pairs ? (double)r->spine_sum / r->pairs : 0.0);
	if (r->want)
		printf(" lmc_spread_min=%u lmc_spread_short=%llu", r->want,
		       r->short_pairs);
	putchar('\n');
}
