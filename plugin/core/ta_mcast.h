/* SPDX-License-Identifier: MIT */
/*
 * Multicast trees that keep unicast and multicast deadlock-free together
 * on one VL.  A switch forwards a multicast packet to every port of its
 * MFT entry except the one it came in on, so a tree whose inter-switch
 * link ends at switch s are E(s) uses every turn (i -> j) with i, j in
 * E(s), i != j.  A tree is built here only from switches where all those
 * turns are allowed to unicast (both directions): the channel dependency
 * graph of unicast and multicast together is then the allowed turns'
 * graph, which is acyclic.
 *
 * Trees grow from a start (the group's previous tree where it still
 * holds, else one member switch) by breadth-first search over
 * compatible turns, link ends tried least loaded first, so the trees of
 * many groups spread over the links.  A member switch the search cannot
 * attach is reached by the escape tree instead: any subtree of the
 * escape tree only uses its up-then-down turns, which are always
 * allowed.
 */
#ifndef TA_MCAST_H
#define TA_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "ta_graph.h"

struct ta_mcast {
	const struct ta_graph *g;
	const uint8_t *turn_state;	/* per turn slot (ta_cdg.h) */
	const uint32_t *escape_parent;	/* per switch: escape tree parent
					 * end, TA_NO_END at roots; NULL:
					 * none (then no fallback) */
	uint32_t *load;		/* per link: trees using it */
	/* scratch, per switch */
	uint8_t *in_tree;
	uint8_t *member;
	uint32_t *deg;		/* tree link ends */
	uint32_t *from;		/* BFS: end it was reached through */
	uint32_t *seen;		/* BFS epoch */
	uint32_t *queue;
	uint32_t epoch;
	uint8_t *link_in;	/* per link: in the tree being built */
	uint32_t *order;	/* scratch for end ordering */
};

struct ta_mc_tree {
	uint32_t n_links, cap_links;
	uint32_t *links;	/* tree links */
	uint32_t n_members;	/* member switches */
	uint32_t n_switches;	/* switches of the tree (members too) */
	uint32_t root;		/* switch the growth started from */
	uint32_t kept;		/* links taken over from the prior tree */
	uint32_t via_escape;	/* member switches reached by the escape
				 * tree */
	uint32_t unreached;	/* member switches not reached */
};

int ta_mcast_init(struct ta_mcast *m, const struct ta_graph *g,
		  const uint8_t *turn_state, const uint32_t *escape_parent);
void ta_mcast_free(struct ta_mcast *m);

/*
 * Builds the tree of one group.  members: switch indices with member
 * ports (duplicates allowed).  prior: links of the group's previous
 * tree (may be NULL); the part of it that still joins members and
 * whose turns are still allowed is kept.  key spreads the start switch
 * of groups with no prior.  The tree's links are added to m->load.
 * Returns 0 (t filled; free with ta_mc_tree_free), -1 on allocation
 * failure.
 */
int ta_mcast_build(struct ta_mcast *m, const uint32_t *members,
		   uint32_t n_members, const uint32_t *prior,
		   uint32_t n_prior, uint32_t key, struct ta_mc_tree *t);

/* removes a tree's links from m->load (when it is rebuilt) */
void ta_mcast_unload(struct ta_mcast *m, const uint32_t *links,
		     uint32_t n_links);

void ta_mc_tree_free(struct ta_mc_tree *t);

/*
 * Checks a link set against the rules above: no cycle, every member
 * switch joined, all turns between tree ends allowed.  1 if valid.
 */
bool ta_mcast_valid(const struct ta_graph *g, const uint8_t *turn_state,
		    const uint32_t *links, uint32_t n_links,
		    const uint32_t *members, uint32_t n_members);

#endif
