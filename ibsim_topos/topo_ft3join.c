// SPDX-License-Identifier: MIT
/*
 * Two k-ary 3-level fat trees joined at one level (topo.h), the
 * turn-addition paper's cluster networks, and their traffic file.
 */
#include <string.h>

#include "topo_build.h"

struct ft3j {
	unsigned k, half;	/* k, k / 2 */
	unsigned per_tree;	/* switches per tree: 5 k^2 / 4 */
};

/* Switch indices of tree `tree` (0 = A, 1 = B). */
static unsigned edge_sw(const struct ft3j *g, unsigned tree, unsigned p,
			unsigned e)
{
	return tree * g->per_tree + p * g->half + e;
}

static unsigned agg_sw(const struct ft3j *g, unsigned tree, unsigned p,
		       unsigned a)
{
	return tree * g->per_tree + g->k * g->half + p * g->half + a;
}

static unsigned core_sw(const struct ft3j *g, unsigned tree, unsigned i)
{
	return tree * g->per_tree + 2 * g->k * g->half + i;
}

static int ft3j_names(struct topo *t, const struct ft3j *g)
{
	static const char *const tree_name[2] = { "tA-", "tB-" };
	char prefix[32];
	unsigned tree, p, i;

	for (tree = 0; tree < 2; tree++) {
		const char *x = tree_name[tree];

		for (p = 0; p < g->k; p++) {
			snprintf(prefix, sizeof(prefix), "%sedge%u-", x, p);
			for (i = 0; i < g->half; i++)
				if (topo_build_name_sw(t, edge_sw(g, tree, p, i),
						       prefix, i))
					return -1;
			snprintf(prefix, sizeof(prefix), "%sagg%u-", x, p);
			for (i = 0; i < g->half; i++)
				if (topo_build_name_sw(t, agg_sw(g, tree, p, i),
						       prefix, i))
					return -1;
		}
		snprintf(prefix, sizeof(prefix), "%score", x);
		for (i = 0; i < g->half * g->half; i++)
			if (topo_build_name_sw(t, core_sw(g, tree, i), prefix,
					       i))
				return -1;
	}
	return 0;
}

/* Links of one tree; the loop order gives the port layout of topo.h. */
static void ft3j_tree_links(struct topo *t, const struct ft3j *g,
			    unsigned tree)
{
	unsigned p, e, a, m;

	for (p = 0; p < g->k; p++)
		for (e = 0; e < g->half; e++)
			for (a = 0; a < g->half; a++)
				topo_build_link(t, edge_sw(g, tree, p, e),
						agg_sw(g, tree, p, a));
	for (p = 0; p < g->k; p++)
		for (a = 0; a < g->half; a++)
			for (m = 0; m < g->half; m++)
				topo_build_link(t, agg_sw(g, tree, p, a),
						core_sw(g, tree,
							a * g->half + m));
}

/* ft3join's own wiring (topo.h): the same positions in both trees. */
static struct topo_join_end same_end(unsigned k, unsigned j,
				     enum topo_join_level level,
				     unsigned tree)
{
	(void)tree;
	if (level == TOPO_JOIN_TOP)
		return (struct topo_join_end){ j / (k / 2), j % (k / 2) };
	return (struct topo_join_end){ j % k, j / k };
}

/* The switch of tree `tree` at join end e. */
static unsigned join_sw(const struct ft3j *g, unsigned tree,
			struct topo_join_end e, enum topo_join_level level)
{
	if (level == TOPO_JOIN_TOP)
		return core_sw(g, tree, e.group * g->half + e.slot);
	if (level == TOPO_JOIN_MIDDLE)
		return agg_sw(g, tree, e.group, e.slot);
	return edge_sw(g, tree, e.group, e.slot);
}

static int ft3j_fill(struct topo *t, const struct ft3j *g,
		     enum topo_join_level level, topo_join_end_fn end)
{
	unsigned tree, p, e, j;

	if (ft3j_names(t, g))
		return -1;
	for (tree = 0; tree < 2; tree++)
		for (p = 0; p < g->k; p++)
			for (e = 0; e < g->half; e++)
				if (topo_build_hosts_on(t,
							edge_sw(g, tree, p, e),
							g->half))
					return -1;
	ft3j_tree_links(t, g, 0);
	ft3j_tree_links(t, g, 1);
	for (j = 0; j < g->half * g->half; j++)
		topo_build_link(t, join_sw(g, 0, end(g->k, j, level, 0), level),
				join_sw(g, 1, end(g->k, j, level, 1), level));
	return 0;
}

int topo_ft3join(struct topo *t, unsigned k, enum topo_join_level level)
{
	return topo_ft3join_wired(t, k, level, same_end);
}

int topo_ft3join_wired(struct topo *t, unsigned k,
		       enum topo_join_level level, topo_join_end_fn end)
{
	struct ft3j g = { .k = k, .half = k / 2 };
	unsigned long long hosts, n_sw, n_links;

	if (k < 4 || k % 2 || k + 1 > TOPO_MAX_PORTS ||
	    (level != TOPO_JOIN_TOP && level != TOPO_JOIN_MIDDLE &&
	     level != TOPO_JOIN_BOTTOM))
		return topo_build_reject(t);
	g.per_tree = 5 * k * k / 4;
	n_sw = 2ull * g.per_tree;
	hosts = 2ull * k * k * k / 4;
	n_links = 2ull * k * k * k / 2 + k * k / 4;
	if (n_sw > TOPO_MAX_SWITCHES || hosts + n_sw > TOPO_MAX_UNICAST_LIDS)
		return topo_build_reject(t);
	if (topo_build_start(t, (unsigned)n_sw, "sw", (unsigned)n_links,
			     (unsigned)hosts) ||
	    ft3j_fill(t, &g, level, end))
		return topo_build_fail(t);
	return topo_build_finish_exact(t);
}

int topo_join_level_parse(const char *s, enum topo_join_level *level)
{
	static const char *const names[] = { "top", "middle", "bottom" };
	static const enum topo_join_level levels[] = {
		TOPO_JOIN_TOP, TOPO_JOIN_MIDDLE, TOPO_JOIN_BOTTOM,
	};
	unsigned i;

	for (i = 0; i < 3; i++)
		if (s && !strcmp(s, names[i])) {
			*level = levels[i];
			return 0;
		}
	return -1;
}

int topo_ft3join_traffic(FILE *f)
{
	fputs("# turnadd traffic file for two fat trees joined by "
	      "`topogen ft3join`:\n"
	      "# every host sends 1 to each host of its own tree and 1/100 "
	      "to each host\n"
	      "# of the other tree (the turn-addition paper's estimate).\n"
	      "group treeA prefix tA-\n"
	      "group treeB prefix tB-\n"
	      "weight treeA treeA 1.0\n"
	      "weight treeB treeB 1.0\n"
	      "weight treeA treeB 0.01\n", f);
	return ferror(f) ? -1 : 0;
}
