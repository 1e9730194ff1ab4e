// SPDX-License-Identifier: MIT
/*
 * Dragonfly+ (Shpiner, Haramaty, Eliad, Zdornov, Gafni, Zahavi 2017):
 * every group a two-level fat tree of leaves and spines, the spines
 * carrying the global links between the groups (see topo.h).
 */
#include <stdio.h>

#include "topo_build.h"

struct dfp {
	unsigned g, leaves, spines, hosts, per_pair;
	unsigned per_group;	/* global links of a group */
};

static unsigned dfp_leaf(const struct dfp *f, unsigned grp, unsigned i)
{
	return grp * (f->leaves + f->spines) + i;
}

static unsigned dfp_spine(const struct dfp *f, unsigned grp, unsigned j)
{
	return dfp_leaf(f, grp, f->leaves) + j;
}

/* Global links of spine j: k = j, j + S, j + 2S, ... below per_group. */
static unsigned dfp_spine_globals(const struct dfp *f, unsigned j)
{
	return f->per_group / f->spines + (j < f->per_group % f->spines);
}

/* Group global link k is the (k / S)-th on spine k mod S. */
static void dfp_global(struct topo *t, const struct dfp *f, unsigned g1,
		       unsigned k1, unsigned g2, unsigned k2)
{
	topo_build_link_at(t, dfp_spine(f, g1, k1 % f->spines),
			   f->leaves + k1 / f->spines + 1,
			   dfp_spine(f, g2, k2 % f->spines),
			   f->leaves + k2 / f->spines + 1);
}

/*
 * Round r (0 .. per_pair - 1): group g's global link r * (G - 1) + d - 1
 * goes to group g + d (mod G), d = 1 .. G - 1, where it is link
 * r * (G - 1) + G - d - 1 (the way back, offset G - d).
 */
static void dfp_globals(struct topo *t, const struct dfp *f)
{
	unsigned r, grp, d, base;

	for (r = 0; r < f->per_pair; r++) {
		base = r * (f->g - 1);
		for (grp = 0; grp < f->g; grp++)
			for (d = 1; d < f->g; d++) {
				if (d > f->g - d ||
				    (d == f->g - d && grp >= f->g / 2))
					continue;
				dfp_global(t, f, grp, base + d - 1,
					   (grp + d) % f->g,
					   base + f->g - d - 1);
			}
	}
}

static int dfp_names(struct topo *t, const struct dfp *f)
{
	char prefix[32];
	unsigned grp, i;

	for (grp = 0; grp < f->g; grp++) {
		snprintf(prefix, sizeof(prefix), "dfp%u-leaf", grp);
		for (i = 0; i < f->leaves; i++)
			if (topo_build_name_sw(t, dfp_leaf(f, grp, i), prefix,
					       i))
				return -1;
		snprintf(prefix, sizeof(prefix), "dfp%u-spine", grp);
		for (i = 0; i < f->spines; i++)
			if (topo_build_name_sw(t, dfp_spine(f, grp, i), prefix,
					       i))
				return -1;
	}
	return 0;
}

/* Hosts on the leaves; leaf i to spine j: leaf port H + j + 1, spine i + 1. */
static int dfp_groups(struct topo *t, const struct dfp *f)
{
	unsigned grp, i, j;

	for (grp = 0; grp < f->g; grp++)
		for (i = 0; i < f->leaves; i++)
			if (topo_build_hosts_on(t, dfp_leaf(f, grp, i),
						f->hosts))
				return -1;
	for (grp = 0; grp < f->g; grp++)
		for (i = 0; i < f->leaves; i++)
			for (j = 0; j < f->spines; j++)
				topo_build_link_at(t, dfp_leaf(f, grp, i),
						   f->hosts + j + 1,
						   dfp_spine(f, grp, j), i + 1);
	return 0;
}

int topo_dfplus(struct topo *t, unsigned groups, unsigned leaves,
		unsigned spines, unsigned hosts_per_leaf, unsigned per_pair)
{
	unsigned long long per_group, n_sw, n_links;
	struct dfp f = { groups, leaves, spines, hosts_per_leaf, per_pair, 0 };
	unsigned grp, j;

	per_group = (unsigned long long)(groups ? groups - 1 : 0) * per_pair;
	n_sw = (unsigned long long)groups * ((unsigned long long)leaves +
					     spines);
	if (groups < 2 || !leaves || !spines || !per_pair ||
	    n_sw > TOPO_MAX_SWITCHES ||
	    (unsigned long long)hosts_per_leaf + spines > TOPO_MAX_PORTS ||
	    leaves + (per_group + spines - 1) / spines > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	f.per_group = (unsigned)per_group;
	n_links = (unsigned long long)groups * leaves * spines +
		  groups * per_group / 2;
	if (topo_build_start(t, (unsigned)n_sw, "dfp-s", (unsigned)n_links,
			     groups * leaves * hosts_per_leaf) ||
	    dfp_names(t, &f) || dfp_groups(t, &f))
		return topo_build_fail(t);
	dfp_globals(t, &f);
	for (grp = 0; grp < groups; grp++)
		for (j = 0; j < spines; j++)
			t->sw_ports[dfp_spine(&f, grp, j)] =
				leaves + dfp_spine_globals(&f, j);
	return topo_build_finish(t);
}
