// SPDX-License-Identifier: MIT
#include "topo_graph.h"

struct ta_graph *topo_to_graph(const struct topo *t)
{
	struct ta_graph *g = ta_graph_new();
	unsigned i, lid = 1;

	if (!g)
		return NULL;
	for (i = 0; i < t->n_sw; i++)
		if (ta_graph_add_switch(g, 0x1000 + i, t->sw_name[i]) < 0)
			goto fail;
	for (i = 0; i < t->n_links; i++)
		if (ta_graph_add_link(g, t->links[i].a, t->links[i].pa,
				      t->links[i].b, t->links[i].pb) < 0)
			goto fail;
	for (i = 0; i < t->n_sw; i++)
		if (ta_graph_add_dest(g, lid++, i, 0, false, 0x1000 + i,
				      t->sw_name[i]) < 0)
			goto fail;
	for (i = 0; i < t->n_hosts; i++)
		if (ta_graph_add_dest(g, lid++, t->hosts[i].sw,
				      t->hosts[i].port, true, 0x20000 + i,
				      t->host_name[i]) < 0)
			goto fail;
	if (ta_graph_finalize(g))
		goto fail;
	return g;
fail:
	ta_graph_free(g);
	return NULL;
}
