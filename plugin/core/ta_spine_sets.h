/* SPDX-License-Identifier: MIT */
/*
 * Spine sets with LMC where m = 2^LMC does not divide the number S of
 * spines (lid_assign/README, "LMC"): which spines a port's m LIDs climb
 * through, by host rank, and which LID group each rank and each leaf
 * switch LID belongs to.  Pure arithmetic, shared by the routing core's
 * spread (ta_spine_spread.c) and lid_assign's groups, so the LID layout
 * and the routes agree.
 *
 * The consecutive rule (LID offset o of rank r on spine (r m + o) mod
 * S, ranks of the same class r mod S / gcd(S, m) together) is kept
 * wherever it is as good: m = 1, m >= S, m dividing S, and wherever the
 * sets below do not save a block.  Otherwise, with S = q m + t:
 *
 *   - k disjoint sets of m spines (k < q), {0 .. m-1}, {m .. 2m-1}, ...;
 *   - the other T = S - k m spines (T > m) covered evenly by the
 *     consecutive sets of m among them: set c = spines k m + (c m + i)
 *     mod T, i < m, c < T / gcd(T, m), each spine in m / gcd(T, m);
 *   - the ranks in order, a block of consecutive ranks a set: the
 *     covering sets first (n or n + 1 ranks each), then a ranks each
 *     disjoint set; a set with its ranks is one LID group (on a fat
 *     tree its ranks' hosts on every leaf, block-aligned);
 *   - the leaf switches' LIDs in the groups' free LIDs (each through a
 *     spine of its group), the rest in 64-LID blocks of leaf LIDs only,
 *     each block through one spine, the one touching the fewest blocks
 *     (with switch LMC, lmc_esp0, in more blocks of the groups instead);
 *     these blocks come first in the LID space where that saves a block
 *     (the first loses LID 0, not a run of a set's group);
 *   - k and a chosen to give the worst spine the fewest blocks per leaf.
 */
#ifndef TA_SPINE_SETS_H
#define TA_SPINE_SETS_H

#include <stdint.h>

#define TA_SS_BLOCK 64u

struct ta_spine_sets {
	uint32_t s, m, r, leaves, w;	/* spines, LIDs a host port, ranks,
					 * leaves, LIDs a leaf switch */
	uint32_t k;			/* disjoint sets */
	uint32_t n_class;		/* 0: the consecutive rule applies */
	uint32_t n_groups;		/* n_class + leaf-only blocks */
	uint32_t lead;			/* leaf-only blocks before the sets'
					 * groups (the others after them) */
	uint32_t *set;			/* [n_class * m] spines of each set */
	uint32_t *class_ranks;		/* [n_class] ranks of each set */
	uint32_t *rank_class;		/* [r] */
	uint32_t *rank_pos;		/* [r] place among its set's ranks */
	uint32_t *leaf_group;		/* [leaves] group of leaf j's LID:
					 * set c's is lead + c */
	uint32_t *leaf_pos;		/* [leaves] place in its group */
	uint32_t *block_spine;		/* [n_groups - n_class] */
	uint32_t *digit;		/* [r * m] place among its spine's
					 * host LIDs (ta_ss_host_spread) */
	uint64_t cost;			/* worst spine's blocks per leaf */
	uint64_t consecutive_cost;	/* the same with the consecutive rule */
};

/*
 * Blocks per leaf the worst spine's failure rewrites with the
 * consecutive rule and G groups (rank r in group r mod G, leaf j in
 * group j mod G, every leaf full); UINT64_MAX on ENOMEM.
 */
uint64_t ta_ss_consecutive_cost(uint32_t s, uint32_t m, uint32_t r,
				uint32_t leaves, uint32_t w, uint32_t n_g);
/* the G of the consecutive rule: R or a divisor of S / gcd(S, m) */
uint32_t ta_ss_consecutive_groups(uint32_t s, uint32_t m, uint32_t r,
				  uint32_t leaves, uint32_t w, uint64_t *cost);

/*
 * Fills ss for S spines, m LIDs a port, r ranks, `leaves` leaves of w
 * LIDs.  1: the sets apply (they save blocks), 0: the consecutive rule
 * (ss->n_class 0, nothing allocated), -1: out of memory.
 */
int ta_spine_sets_make(struct ta_spine_sets *ss, uint32_t s, uint32_t m,
		       uint32_t r, uint32_t leaves, uint32_t w);
void ta_spine_sets_free(struct ta_spine_sets *ss);

/* spine of LID offset o of a host on rank r / of leaf j (sets apply) */
uint32_t ta_ss_host_spine(const struct ta_spine_sets *ss, uint32_t r,
			  uint32_t o);
uint32_t ta_ss_leaf_spine(const struct ta_spine_sets *ss, uint32_t j,
			  uint32_t o);

/*
 * The core's spread of LID offset o of rank r: its spine plus S times
 * its place among the host LIDs of a leaf that spine carries (the
 * higher digits spread them over the switches above, as the
 * consecutive rule's r m + o does).
 */
uint32_t ta_ss_host_spread(const struct ta_spine_sets *ss, uint32_t r,
			   uint32_t o);

/* the LID group of rank r; the ranks of group g (0: leaf LIDs only) */
uint32_t ta_ss_rank_group(const struct ta_spine_sets *ss, uint32_t r);
uint32_t ta_ss_group_ranks(const struct ta_spine_sets *ss, uint32_t g);

/*
 * Whether host LIDs show this layout: (lid, rank) pairs sorted by LID,
 * the sets' groups in order, ranks in order inside each, no 64-LID
 * block holding two groups, and where a set has several ranks some
 * block holding two of them.  1 yes, 0 no (also for no pair).
 */
int ta_ss_shown(const struct ta_spine_sets *ss, const uint32_t *pair,
		uint32_t n);

#endif
