// SPDX-License-Identifier: MIT
/*
 * Three-level fat trees built from "directors" (see topo.h): leaves at
 * the bottom, and every top-level spine replaced by a director, itself a
 * two-level folded Clos of line switches and fabric switches.
 */
#include "topo_build.h"

struct ft3 {
	unsigned dirs, lines, fabs, per_line, hosts, links;
	unsigned leaves;
};

/* Switch index of line switch i / fabric switch j of director d. */
static unsigned ft3_line(const struct ft3 *g, unsigned d, unsigned i)
{
	return g->leaves + d * (g->lines + g->fabs) + i;
}

static unsigned ft3_fab(const struct ft3 *g, unsigned d, unsigned j)
{
	return ft3_line(g, d, g->lines) + j;
}

static int ft3_names(struct topo *t, const struct ft3 *g)
{
	char prefix[32];
	unsigned d, i;

	for (d = 0; d < g->dirs; d++) {
		snprintf(prefix, sizeof(prefix), "dir%u-line", d);
		for (i = 0; i < g->lines; i++)
			if (topo_build_name_sw(t, ft3_line(g, d, i), prefix, i))
				return -1;
		snprintf(prefix, sizeof(prefix), "dir%u-fab", d);
		for (i = 0; i < g->fabs; i++)
			if (topo_build_name_sw(t, ft3_fab(g, d, i), prefix, i))
				return -1;
	}
	return 0;
}

static void ft3_links(struct topo *t, const struct ft3 *g)
{
	unsigned l, d, i, j, r;

	/* leaf l: one uplink to line switch l / per_line of every director */
	for (l = 0; l < g->leaves; l++)
		for (d = 0; d < g->dirs; d++)
			topo_build_link(t, l, ft3_line(g, d, l / g->per_line));
	/* inside a director: every line switch to every fabric switch */
	for (d = 0; d < g->dirs; d++)
		for (i = 0; i < g->lines; i++)
			for (j = 0; j < g->fabs; j++)
				for (r = 0; r < g->links; r++)
					topo_build_link(t, ft3_line(g, d, i),
							ft3_fab(g, d, j));
}

int topo_fattree3(struct topo *t, unsigned dirs, unsigned lines,
		  unsigned fabs, unsigned per_line, unsigned hosts_per_leaf)
{
	struct ft3 g = { .dirs = dirs, .lines = lines, .fabs = fabs,
			 .per_line = per_line, .hosts = hosts_per_leaf };
	unsigned long long n_sw, n_links;

	if (!dirs || !lines || !fabs || !per_line || per_line % fabs ||
	    hosts_per_leaf + (unsigned long long)dirs > TOPO_MAX_PORTS ||
	    2ull * per_line > TOPO_MAX_PORTS ||
	    (unsigned long long)lines * (per_line / fabs) > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	g.links = per_line / fabs;
	g.leaves = lines * per_line;
	n_sw = g.leaves + (unsigned long long)dirs * (lines + fabs);
	n_links = (unsigned long long)g.leaves * dirs * 2;
	if (n_sw > TOPO_MAX_SWITCHES || n_links > 0xffffffffull)
		return topo_build_reject(t);
	if (topo_build_start(t, (unsigned)n_sw, "ft-leaf", (unsigned)n_links,
			     g.leaves * hosts_per_leaf) ||
	    ft3_names(t, &g) ||
	    topo_build_hosts(t, g.leaves, hosts_per_leaf))
		return topo_build_fail(t);
	ft3_links(t, &g);
	return topo_build_finish(t);
}
