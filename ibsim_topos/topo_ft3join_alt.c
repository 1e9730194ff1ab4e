// SPDX-License-Identifier: MIT
/*
 * Two k-ary 3-level fat trees joined by links that leave from other
 * positions than topo_ft3join's (topo.h, topo_ft3join_alt).
 */
#include "topo.h"

static struct topo_join_end alt_end(unsigned k, unsigned j,
				    enum topo_join_level level, unsigned tree)
{
	unsigned half = k / 2, group = j / half, slot = j % half;

	if (level == TOPO_JOIN_TOP)
		return tree ? (struct topo_join_end){ slot, group } :
			      (struct topo_join_end){ group, slot };
	/* k*k/4 links: pods 0 .. k/2 - 1 of A, k - 1 .. k/2 of B */
	if (!tree)
		return (struct topo_join_end){ group, slot };
	return (struct topo_join_end){ k - 1 - group, (slot + group) % half };
}

int topo_ft3join_alt(struct topo *t, unsigned k, enum topo_join_level level)
{
	return topo_ft3join_wired(t, k, level, alt_end);
}
