/* SPDX-License-Identifier: MIT */
/*
 * Two groups of nodes for the two-group traffic of the turn-addition
 * paper (two fat trees joined by a few links): a node is in group A if
 * its node description starts with prefix A, in group B if with prefix B.
 */
#ifndef LC_GROUPS_H
#define LC_GROUPS_H

#include "lc_fabric.h"
#include "lc_load.h"

struct lc_groups {
	char *prefix[2];
	unsigned char *node_group;	/* per node: 0 A, 1 B, LC_NO_GROUP */
	unsigned hosts[2];		/* host ports with a LID per group */
	unsigned join_links;		/* switch-switch links from A to B */
};

/*
 * Parses "PREFIX_A,PREFIX_B" (two different non-empty prefixes, neither
 * a prefix of the other).  Prints "lftcheck: --groups: ..." and returns
 * -1 if bad.
 */
int lc_groups_parse(struct lc_groups *g, const char *arg);

/*
 * Puts every node of f in its group and counts hosts and joining links
 * (parallel links each).  Every host port (CA port on a switch, with a
 * LID) must be in a group and both groups must have hosts and be joined
 * by at least one link, else it prints "lftcheck: TOPO_PATH:LINE: ..."
 * and returns -1.
 */
int lc_groups_assign(struct lc_groups *g, const struct lc_fabric *f,
		     const char *topo_path);

void lc_groups_free(struct lc_groups *g);

/*
 * The paper's two evaluations: intra, every host sends 1.0 spread evenly
 * over the other hosts of its own group; inter, every host sends p/n
 * spread evenly over the hosts of the other group (p: join_links, n: the
 * hosts of the sender's group).
 */
void lc_groups_intra(const struct lc_groups *g, struct lc_traffic *t);
void lc_groups_inter(const struct lc_groups *g, struct lc_traffic *t);

#endif /* LC_GROUPS_H */
