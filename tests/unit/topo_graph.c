// SPDX-License-Identifier: MIT
#include <stdlib.h>

#include "topo_graph.h"

/* the switches left out (TOPO_KEEP_ALL: none) */
struct gone {
	unsigned a, b;
};

static int is_gone(struct gone x, unsigned i)
{
	return i == x.a || i == x.b;
}

static int add_switches_links(struct ta_graph *g, const struct topo *t,
			      struct gone gone, int *idx)
{
	unsigned i;

	for (i = 0; i < t->n_sw; i++) {
		idx[i] = -1;
		if (!is_gone(gone, i) &&
		    (idx[i] = ta_graph_add_switch(g, 0x1000 + i,
						  t->sw_name[i])) < 0)
			return -1;
	}
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		if (is_gone(gone, l->a) || is_gone(gone, l->b))
			continue;
		if (ta_graph_add_link(g, idx[l->a], l->pa, idx[l->b], l->pb) <
		    0)
			return -1;
	}
	return 0;
}

/*
 * The graph without the switches gone.  LIDs: port-major as
 * topo_graph.h says when ranks != 0, else switches 1..n_sw then hosts
 * in host order.
 */
static struct ta_graph *build(const struct topo *t, struct gone gone,
			      unsigned ranks)
{
	struct ta_graph *g = ta_graph_new();
	int *idx = calloc(t->n_sw + 1, sizeof(*idx));
	unsigned i;

	if (!g || !idx || add_switches_links(g, t, gone, idx))
		goto fail;
	for (i = 0; i < t->n_sw; i++) {
		unsigned lid = ranks ? 1 + 64 * (i % ranks) + 32 + i / ranks :
				       1 + i;

		if (!is_gone(gone, i) &&
		    ta_graph_add_dest(g, lid, idx[i], 0, false, 0x1000 + i,
				      t->sw_name[i]) < 0)
			goto fail;
	}
	for (i = 0; i < t->n_hosts; i++) {
		unsigned s = t->hosts[i].sw;
		unsigned lid = ranks ? 1 + 64 * (t->hosts[i].port - 1) + s :
				       1 + t->n_sw + i;

		if (!is_gone(gone, s) &&
		    ta_graph_add_dest(g, lid, idx[s], t->hosts[i].port, true,
				      0x20000 + i, t->host_name[i]) < 0)
			goto fail;
	}
	if (ta_graph_finalize(g))
		goto fail;
	free(idx);
	return g;
fail:
	free(idx);
	ta_graph_free(g);
	return NULL;
}

struct ta_graph *topo_to_graph(const struct topo *t)
{
	return build(t, (struct gone){ TOPO_KEEP_ALL, TOPO_KEEP_ALL }, 0);
}

struct ta_graph *topo_to_graph_port_major(const struct topo *t,
					  unsigned gone)
{
	unsigned i, ranks = 1;

	if (t->n_sw > 32)
		return NULL;
	for (i = 0; i < t->n_hosts; i++)
		if (t->hosts[i].port > ranks)
			ranks = t->hosts[i].port;
	return build(t, (struct gone){ gone, TOPO_KEEP_ALL }, ranks);
}

struct ta_graph *topo_to_graph_without(const struct topo *t, unsigned gone)
{
	return build(t, (struct gone){ gone, TOPO_KEEP_ALL }, 0);
}

struct ta_graph *topo_to_graph_without2(const struct topo *t, unsigned a,
					unsigned b)
{
	return build(t, (struct gone){ a, b }, 0);
}
