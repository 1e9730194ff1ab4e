// SPDX-License-Identifier: MIT
/* Two-level fat trees (leaves and spines). */
#include "topo_build.h"

static int fattree2_fill(struct topo *t, unsigned leaves, unsigned spines,
			 unsigned hosts_per_leaf, unsigned links_per_pair)
{
	unsigned i, j, r;

	for (j = 0; j < spines; j++)
		if (topo_build_name_sw(t, leaves + j, "ft-spine", j))
			return -1;
	/* hosts on leaves only, on ports 1..hosts_per_leaf */
	if (topo_build_hosts(t, leaves, hosts_per_leaf))
		return -1;
	for (i = 0; i < leaves; i++)
		for (j = 0; j < spines; j++)
			for (r = 0; r < links_per_pair; r++)
				topo_build_link(t, i, leaves + j);
	return 0;
}

int topo_fattree2(struct topo *t, unsigned leaves, unsigned spines,
		  unsigned hosts_per_leaf, unsigned links_per_pair)
{
	unsigned long long n_links;

	n_links = (unsigned long long)leaves * spines * links_per_pair;
	if (!leaves || !spines || !links_per_pair ||
	    leaves + (unsigned long long)spines > TOPO_MAX_SWITCHES ||
	    hosts_per_leaf > TOPO_MAX_PORTS ||
	    (unsigned long long)spines * links_per_pair > TOPO_MAX_PORTS ||
	    (unsigned long long)leaves * links_per_pair > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	if (topo_build_start(t, leaves + spines, "ft-leaf", (unsigned)n_links,
			     leaves * hosts_per_leaf) ||
	    fattree2_fill(t, leaves, spines, hosts_per_leaf, links_per_pair))
		return topo_build_fail(t);
	return topo_build_finish(t);
}
