// SPDX-License-Identifier: MIT
/*
 * Random nets: a random spanning tree first (so the net is connected),
 * then the remaining switch-port stubs paired at random (configuration
 * model, self loops rejected).  Stubs left on a single switch at the end
 * are placed by splitting an existing link u-v into X-u and X-v, which
 * keeps every degree and the connectivity.
 */
#include <stdlib.h>

#include "topo_build.h"
#include "topo_prng.h"

struct stubs {
	unsigned *sw;		/* one entry per free switch-to-switch port */
	unsigned n;
};

static void stub_remove(struct stubs *st, unsigned i)
{
	st->sw[i] = st->sw[--st->n];
}

/* Attaches every switch, in random order, to a random earlier one. */
static int random_tree(struct topo *t, unsigned *free_ports,
		       struct topo_prng *rng)
{
	unsigned n = t->n_sw, i, n_open = 0;
	unsigned *order = malloc(n * sizeof(*order));
	unsigned *open = malloc(n * sizeof(*open));

	if (!order || !open) {
		free(order);
		free(open);
		return -1;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		unsigned j = topo_prng_below(rng, i + 1), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	open[n_open++] = order[0];
	for (i = 1; i < n; i++) {
		unsigned k = topo_prng_below(rng, n_open);
		unsigned a = open[k], b = order[i];

		topo_build_link(t, a, b);
		if (!--free_ports[a])
			open[k] = open[--n_open];
		if (--free_ports[b])
			open[n_open++] = b;
	}
	free(order);
	free(open);
	return 0;
}

/* Picks a stub on another switch than sw; returns its index or -1. */
static int pick_partner(const struct stubs *st, unsigned sw,
			struct topo_prng *rng)
{
	unsigned tries, i;

	for (tries = 0; tries < 16; tries++) {
		i = topo_prng_below(rng, st->n);
		if (st->sw[i] != sw)
			return (int)i;
	}
	for (i = 0; i < st->n; i++)
		if (st->sw[i] != sw)
			return (int)i;
	return -1;
}

/* Splits a random link not touching x into x-u and x-v. */
static int split_link(struct topo *t, unsigned x, struct topo_prng *rng)
{
	unsigned start = topo_prng_below(rng, t->n_links), k;

	for (k = 0; k < t->n_links; k++) {
		struct topo_link *l = &t->links[(start + k) % t->n_links];
		unsigned v = l->b, pv = l->pb;

		if (l->a == x || l->b == x)
			continue;
		l->b = x;
		l->pb = ++t->sw_ports[x];
		t->links[t->n_links++] = (struct topo_link){
			.a = x, .pa = ++t->sw_ports[x], .b = v, .pb = pv,
		};
		return 0;
	}
	return -1;
}

static void pair_stubs(struct topo *t, struct stubs *st,
		       struct topo_prng *rng)
{
	while (st->n >= 2) {
		unsigned a = st->sw[st->n - 1];
		int j;

		stub_remove(st, st->n - 1);
		j = pick_partner(st, a, rng);
		if (j < 0) {
			/* all left on switch a: give it back, split links */
			st->n++;
			break;
		}
		topo_build_link(t, a, st->sw[j]);
		stub_remove(st, (unsigned)j);
	}
	while (st->n >= 2 && !split_link(t, st->sw[0], rng))
		st->n -= 2;
}

static int random_fill(struct topo *t, unsigned sw_ports,
		       unsigned hosts_per_sw, struct topo_prng *rng)
{
	unsigned n = t->n_sw, i, k;
	unsigned *free_ports = malloc(n * sizeof(*free_ports));
	struct stubs st = { .sw = malloc((size_t)n * sw_ports *
					 sizeof(*st.sw)) };
	int ret = -1;

	if (!free_ports || !st.sw)
		goto out;
	if (topo_build_hosts(t, n, hosts_per_sw))
		goto out;
	for (i = 0; i < n; i++)
		free_ports[i] = sw_ports;
	if (random_tree(t, free_ports, rng))
		goto out;
	for (i = 0; i < n; i++)
		for (k = 0; k < free_ports[i]; k++)
			st.sw[st.n++] = i;
	pair_stubs(t, &st, rng);
	ret = 0;
out:
	free(free_ports);
	free(st.sw);
	return ret;
}

int topo_random(struct topo *t, unsigned n_sw, unsigned sw_ports,
		unsigned hosts_per_sw, unsigned seed)
{
	struct topo_prng rng;
	unsigned max_links;

	if (n_sw < 2 || n_sw > TOPO_MAX_SWITCHES || !sw_ports ||
	    (n_sw > 2 && sw_ports < 2) || sw_ports > TOPO_MAX_PORTS ||
	    hosts_per_sw > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	max_links = n_sw * sw_ports / 2;
	if (topo_build_start(t, n_sw, "rnd-sw", max_links,
			     n_sw * hosts_per_sw))
		return topo_build_fail(t);
	topo_prng_seed(&rng, seed);
	if (random_fill(t, sw_ports, hosts_per_sw, &rng))
		return topo_build_fail(t);
	return topo_build_finish(t);
}
