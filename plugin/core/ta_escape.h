/* SPDX-License-Identifier: MIT */
/*
 * The escape tree: a BFS spanning tree (a forest if the fabric is in
 * pieces) whose turns are allowed before turn addition starts.  Routing
 * along the tree towards any destination only uses tree turns
 * (up*, then down*), so every destination stays reachable however the
 * other turns are decided; see ta_intree.h for how routes use it.
 */
#ifndef TA_ESCAPE_H
#define TA_ESCAPE_H

#include <stdint.h>

#include "ta_cdg.h"
#include "ta_graph.h"

#define TA_NO_END UINT32_MAX

struct ta_escape {
	uint32_t root;		/* root of the piece holding switch 0 */
	uint32_t n_pieces;	/* connected pieces of the switch graph */
	uint32_t *parent_end;	/* per switch; TA_NO_END at roots */
	uint32_t *piece;	/* per switch: connected piece number */
	uint32_t *level;	/* per switch: hops from its piece's root */
};

/*
 * Builds the tree.  root_guid != 0 forces the root of its piece; else the
 * root is a switch of least eccentricity (among the switches with hosts
 * when some have none: see pick_root), ties to the most turn traffic
 * (turn_weight may be NULL).  Parents are chosen, among the switches of
 * the previous BFS level, by the heaviest turn from the new link into the
 * parent's own parent link; when state is given, parents whose turn is
 * already allowed there come first (a resweep keeps its decisions).
 */
int ta_escape_build(struct ta_escape *e, const struct ta_graph *g,
		    const double *turn_weight, const uint8_t *state,
		    uint64_t root_guid);
void ta_escape_free(struct ta_escape *e);

/*
 * Builds the tree from a previous one (a resweep; see struct ta_prior):
 * prev_parent[s] is the end of switch s whose link was its previous tree
 * parent link, TA_NO_END where none.  Every previous tree link still in
 * g stays a tree link; the pieces of that forest are then joined into
 * one tree per piece of g by further links (Kruskal's order): first
 * links whose turns with the tree links at both ends are all allowed in
 * state (NULL: none), then those with the fewest prohibited such turns,
 * then the heaviest (turn_weight, may be NULL), then the lowest link
 * index.  The turns between tree links do not depend on where the tree
 * is rooted, so the tree links alone decide which turns it needs: an
 * unchanged fabric gets back the same tree and needs the same turns.
 * Each piece is rooted at the switch root_guid if it holds it, else at
 * the automatic choice of ta_escape_build; level is the depth in the
 * tree.  prev_parent may be the parent_end of a tree of g itself: the
 * same tree, rooted anew.
 */
int ta_escape_carry(struct ta_escape *e, const struct ta_graph *g,
		    const uint32_t *prev_parent, const double *turn_weight,
		    const uint8_t *state, uint64_t root_guid);

/*
 * The automatic choice and its runners-up: up to max switches of the
 * piece holding switch 0 that ta_escape_build would consider as root,
 * best first (the first is its automatic choice), into out.  Returns
 * how many (0 on allocation failure).
 */
uint32_t ta_escape_rank_roots(const struct ta_graph *g,
			      const double *turn_weight, uint32_t *out,
			      uint32_t max);

/* 1 if end j of switch s is a tree link */
int ta_escape_is_tree_end(const struct ta_escape *e, const struct ta_graph *g,
			  uint32_t s, uint32_t j);

/*
 * Allows every turn between two tree links.  Alone they never close a
 * cycle; over decisions already in c (a resweep) each is checked, and
 * -1 says one would (c then holds the tree turns allowed so far).
 */
int ta_escape_allow_turns(const struct ta_escape *e, struct ta_cdg *c);

#endif
