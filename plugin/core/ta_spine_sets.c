// SPDX-License-Identifier: MIT
/* Spine sets with LMC where 2^LMC does not divide S (ta_spine_sets.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_spine_sets.h"

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint64_t n_blocks(uint64_t lids)
{
	return (lids + TA_SS_BLOCK - 1) / TA_SS_BLOCK;
}

/* marks in row the spines that spreads base .. base + width - 1 use */
static void mark(uint8_t *row, uint32_t s, uint64_t base, uint32_t width)
{
	uint32_t o;

	for (o = 0; o < width && o < s; o++)
		row[(base + o) % s] = 1;
}

uint64_t ta_ss_consecutive_cost(uint32_t s, uint32_t m, uint32_t r,
				uint32_t leaves, uint32_t w, uint32_t n_g)
{
	uint64_t *lids = calloc(n_g + 1, sizeof(*lids)), worst = 0;
	uint8_t *uses = calloc((size_t)n_g * s + 1, 1);
	uint32_t k, sp, g;

	if (!lids || !uses || !n_g || !s) {
		free(lids);
		free(uses);
		return UINT64_MAX;
	}
	for (k = 0; k < r; k++) {
		lids[k % n_g] += (uint64_t)leaves * m;
		mark(uses + (size_t)(k % n_g) * s, s, (uint64_t)k * m, m);
	}
	for (k = 0; k < leaves; k++) {
		lids[k % n_g] += w;
		mark(uses + (size_t)(k % n_g) * s, s, (uint64_t)k * m, w);
	}
	for (sp = 0; sp < s; sp++) {
		uint64_t sum = 0;

		for (g = 0; g < n_g; g++)
			if (uses[(size_t)g * s + sp])
				sum += n_blocks(lids[g]);
		if (sum > worst)
			worst = sum;
	}
	free(lids);
	free(uses);
	return worst;
}

uint32_t ta_ss_consecutive_groups(uint32_t s, uint32_t m, uint32_t r,
				  uint32_t leaves, uint32_t w, uint64_t *cost)
{
	uint32_t classes = s / gcd32(s, m), best = r, d;
	uint64_t best_cost = ta_ss_consecutive_cost(s, m, r, leaves, w, r);

	for (d = classes < r ? classes : r; d >= 1; d--) {
		uint64_t c;

		if (classes % d)
			continue;
		c = ta_ss_consecutive_cost(s, m, r, leaves, w, d);
		if (c < best_cost) {
			best = d;
			best_cost = c;
		}
	}
	if (cost)
		*cost = best_cost;
	return best;
}

void ta_spine_sets_free(struct ta_spine_sets *ss)
{
	free(ss->set);
	free(ss->class_ranks);
	free(ss->rank_class);
	free(ss->rank_pos);
	free(ss->leaf_group);
	free(ss->leaf_pos);
	free(ss->block_spine);
	free(ss->digit);
	ss->digit = NULL;
	ss->set = ss->class_ranks = ss->rank_class = ss->rank_pos = NULL;
	ss->leaf_group = ss->leaf_pos = ss->block_spine = NULL;
	ss->n_class = ss->n_groups = 0;
}

/* scratch of one evaluation */
struct ss_eval {
	uint64_t *cost;		/* [s] blocks per spine */
	uint64_t *free_lids;	/* [n_class] */
};

/* the spines of set c (k disjoint sets after the covering ones) */
static void fill_sets(struct ta_spine_sets *ss, uint32_t k)
{
	uint32_t t = ss->s - k * ss->m, cover = t / gcd32(t, ss->m), c, i;

	for (c = 0; c < ss->n_class; c++)
		for (i = 0; i < ss->m; i++)
			ss->set[c * ss->m + i] = c < cover ?
				k * ss->m + (c * ss->m + i) % t :
				(c - cover) * ss->m + i;
}

/* ranks of each set: the covering sets share r - k a, a each other */
static void fill_counts(struct ta_spine_sets *ss, uint32_t k, uint32_t a)
{
	uint32_t cover = ss->n_class - k, rest = ss->r - k * a, c;

	for (c = 0; c < ss->n_class; c++)
		ss->class_ranks[c] = c < cover ?
			rest / cover + (c < rest % cover) : a;
}

/* the spine (ties: lowest) whose worst-case count is lowest */
static uint32_t least_spine(const struct ta_spine_sets *ss,
			    const uint64_t *cost)
{
	uint32_t sp, best = 0;

	for (sp = 1; sp < ss->s; sp++)
		if (cost[sp] < cost[best])
			best = sp;
	return best;
}

/* the set whose spines' highest count is lowest (ties: lowest set) */
static uint32_t least_set(const struct ta_spine_sets *ss,
			  const uint64_t *cost)
{
	uint32_t c, i, best = 0;
	uint64_t best_max = UINT64_MAX;

	for (c = 0; c < ss->n_class; c++) {
		uint64_t mx = 0;

		for (i = 0; i < ss->m; i++)
			if (cost[ss->set[c * ss->m + i]] > mx)
				mx = cost[ss->set[c * ss->m + i]];
		if (mx < best_max) {
			best_max = mx;
			best = c;
		}
	}
	return best;
}

/*
 * Blocks per spine with the sets and counts in ss; the worst in
 * *worst (UINT64_MAX: this variant does not apply), the sum in *total.
 * lead: the blocks of leaf LIDs only come first in the LID space (the
 * first one loses LID 0 instead of a set's group losing its first run).
 * With place, leaf_group (as set c, or n_class + block b), leaf_pos,
 * block_spine and n_groups are filled (arrays allocated by the caller,
 * block_spine for up to `leaves` blocks).
 */
static void evaluate(struct ta_spine_sets *ss, struct ss_eval *ev,
		     int place, int lead, uint64_t *worst, uint64_t *total)
{
	uint32_t c, i, sp, j = 0, first = !lead, n_blocks_only = 0;
	uint32_t *pos_in = NULL;
	uint64_t left = ss->leaves;

	*worst = UINT64_MAX;
	*total = 0;
	if (lead && ss->w != 1)
		return;
	memset(ev->cost, 0, ss->s * sizeof(*ev->cost));
	for (c = 0; c < ss->n_class; c++) {
		uint64_t lids = (uint64_t)ss->class_ranks[c] * ss->leaves *
				ss->m, b;

		if (ss->class_ranks[c] && first) {
			lids += ss->m;	/* LID 0: no run at the start */
			first = 0;
		}
		b = ss->class_ranks[c] ? n_blocks(lids) : 0;
		ev->free_lids[c] = b * TA_SS_BLOCK - (b ? lids : 0);
		for (i = 0; i < ss->m; i++)
			ev->cost[ss->set[c * ss->m + i]] += b;
	}
	if (place)
		pos_in = calloc(ss->n_class + 1, sizeof(*pos_in));
	/* the groups' free LIDs first */
	for (c = 0; c < ss->n_class && left; c++) {
		uint64_t take = ev->free_lids[c] / ss->w;

		if (take > left)
			take = left;
		left -= take;
		for (i = 0; place && pos_in && i < take; i++, j++) {
			ss->leaf_group[j] = c;
			ss->leaf_pos[j] = pos_in[c]++;
		}
	}
	if (lead && !left) {
		free(pos_in);
		return;		/* no block of leaf LIDs to lead with */
	}
	while (left) {
		uint64_t per = TA_SS_BLOCK / ss->w, take;

		if (lead && !n_blocks_only)
			per--;		/* LID 0 */
		take = left < per ? left : per;
		if (ss->w == 1) {	/* a block of leaf LIDs, one spine */
			sp = least_spine(ss, ev->cost);
			ev->cost[sp]++;
			for (i = 0; place && i < take; i++, j++) {
				ss->leaf_group[j] = ss->n_class + n_blocks_only;
				ss->leaf_pos[j] = i;
			}
			if (place)
				ss->block_spine[n_blocks_only] = sp;
			n_blocks_only++;
		} else {		/* a block more in a set's group */
			c = least_set(ss, ev->cost);
			for (i = 0; i < ss->m; i++)
				ev->cost[ss->set[c * ss->m + i]]++;
			for (i = 0; place && pos_in && i < take; i++, j++) {
				ss->leaf_group[j] = c;
				ss->leaf_pos[j] = pos_in[c]++;
			}
		}
		left -= take;
	}
	free(pos_in);
	if (place) {
		ss->n_groups = ss->n_class + n_blocks_only;
		ss->lead = lead ? n_blocks_only : 0;
		for (j = 0; lead && j < ss->leaves; j++)
			ss->leaf_group[j] = ss->leaf_group[j] < ss->n_class ?
				ss->leaf_group[j] + n_blocks_only :
				ss->leaf_group[j] - ss->n_class;
	}
	*worst = 0;
	for (sp = 0; sp < ss->s; sp++) {
		*total += ev->cost[sp];
		if (ev->cost[sp] > *worst)
			*worst = ev->cost[sp];
	}
}

static int alloc_sets(struct ta_spine_sets *ss, uint32_t n_class)
{
	ss->n_class = n_class;
	ss->set = calloc((size_t)n_class * ss->m, sizeof(*ss->set));
	ss->class_ranks = calloc(n_class, sizeof(*ss->class_ranks));
	return ss->set && ss->class_ranks ? 0 : -1;
}

/* the best (k, a, lead): *k, *a, *lead, *worst; -1 on ENOMEM */
static int search(struct ta_spine_sets *ss, struct ss_eval *ev, uint32_t *bk,
		  uint32_t *ba, int *bl, uint64_t *bw)
{
	int lead;
	uint32_t q = ss->s / ss->m, k, a;
	uint64_t best_total = UINT64_MAX;

	*bw = UINT64_MAX;
	for (k = q; k-- > 0;) {
		uint32_t t = ss->s - k * ss->m;

		free(ss->set);
		free(ss->class_ranks);
		if (alloc_sets(ss, t / gcd32(t, ss->m) + k))
			return -1;
		fill_sets(ss, k);
		for (a = k ? ss->r / k : 0;; a--) {
			uint64_t worst, total;

			fill_counts(ss, k, a);
			for (lead = 0; lead < 2; lead++) {
				evaluate(ss, ev, 0, lead, &worst, &total);
				if (worst < *bw ||
				    (worst == *bw && total < best_total)) {
					*bw = worst;
					best_total = total;
					*bk = k;
					*ba = a;
					*bl = lead;
				}
			}
			if (!a)
				break;
		}
	}
	return 0;
}

/*
 * digit[r m + o]: the place of LID offset o of rank r among the host
 * LIDs (of one leaf) its spine carries, in rank order: the spread's
 * higher digits, so the switches above a spine (a director's fabric)
 * spread what it carries as with the consecutive rule.
 */
static int number_lids(struct ta_spine_sets *ss)
{
	uint32_t *cnt = calloc(ss->s, sizeof(*cnt)), r, o;

	ss->digit = malloc(((size_t)ss->r * ss->m + 1) * sizeof(*ss->digit));
	if (!cnt || !ss->digit) {
		free(cnt);
		return -1;
	}
	for (r = 0; r < ss->r; r++)
		for (o = 0; o < ss->m; o++)
			ss->digit[r * ss->m + o] =
				cnt[ta_ss_host_spine(ss, r, o)]++;
	free(cnt);
	return 0;
}

static int materialize(struct ta_spine_sets *ss, struct ss_eval *ev,
		       uint32_t k, uint32_t a, int lead)
{
	uint32_t t = ss->s - k * ss->m, c, i, rank = 0;
	uint64_t worst, total;

	free(ss->set);
	free(ss->class_ranks);
	if (alloc_sets(ss, t / gcd32(t, ss->m) + k))
		return -1;
	ss->k = k;
	fill_sets(ss, k);
	fill_counts(ss, k, a);
	ss->rank_class = calloc(ss->r + 1, sizeof(*ss->rank_class));
	ss->rank_pos = calloc(ss->r + 1, sizeof(*ss->rank_pos));
	ss->leaf_group = calloc(ss->leaves + 1, sizeof(*ss->leaf_group));
	ss->leaf_pos = calloc(ss->leaves + 1, sizeof(*ss->leaf_pos));
	ss->block_spine = calloc(ss->leaves + 1, sizeof(*ss->block_spine));
	if (!ss->rank_class || !ss->rank_pos || !ss->leaf_group ||
	    !ss->leaf_pos || !ss->block_spine)
		return -1;
	for (c = 0; c < ss->n_class; c++)
		for (i = 0; i < ss->class_ranks[c]; i++, rank++) {
			ss->rank_class[rank] = c;
			ss->rank_pos[rank] = i;
		}
	evaluate(ss, ev, 1, lead, &worst, &total);
	ss->cost = worst;
	return number_lids(ss);
}

int ta_spine_sets_make(struct ta_spine_sets *ss, uint32_t s, uint32_t m,
		       uint32_t r, uint32_t leaves, uint32_t w)
{
	struct ss_eval ev = { 0 };
	uint32_t k = 0, a = 0;
	uint64_t worst;
	int lead = 0;
	int ret = -1;

	memset(ss, 0, sizeof(*ss));
	*ss = (struct ta_spine_sets){ .s = s, .m = m, .r = r,
				      .leaves = leaves, .w = w ? w : 1 };
	if (m <= 1 || m >= s || s % m == 0 || r <= 1 || !leaves ||
	    ss->w > m || m > TA_SS_BLOCK)
		return 0;
	ta_ss_consecutive_groups(s, m, r, leaves, ss->w,
				 &ss->consecutive_cost);
	ev.cost = calloc(s, sizeof(*ev.cost));
	ev.free_lids = calloc(s + 1, sizeof(*ev.free_lids));
	if (!ev.cost || !ev.free_lids || ss->consecutive_cost == UINT64_MAX)
		goto out;
	if (search(ss, &ev, &k, &a, &lead, &worst))
		goto out;
	if (worst >= ss->consecutive_cost) {
		ret = 0;
		goto out;
	}
	if (materialize(ss, &ev, k, a, lead))
		goto out;
	ret = 1;
out:
	free(ev.cost);
	free(ev.free_lids);
	if (ret != 1)
		ta_spine_sets_free(ss);
	return ret;
}

uint32_t ta_ss_host_spine(const struct ta_spine_sets *ss, uint32_t r,
			  uint32_t o)
{
	uint32_t c = ss->rank_class[r];

	return ss->set[c * ss->m + (ss->rank_pos[r] + o) % ss->m];
}

uint32_t ta_ss_host_spread(const struct ta_spine_sets *ss, uint32_t r,
			   uint32_t o)
{
	return ta_ss_host_spine(ss, r, o) + ss->s * ss->digit[r * ss->m + o];
}

uint32_t ta_ss_rank_group(const struct ta_spine_sets *ss, uint32_t r)
{
	return ss->lead + ss->rank_class[r];
}

uint32_t ta_ss_group_ranks(const struct ta_spine_sets *ss, uint32_t g)
{
	return g >= ss->lead && g - ss->lead < ss->n_class ?
	       ss->class_ranks[g - ss->lead] : 0;
}

uint32_t ta_ss_leaf_spine(const struct ta_spine_sets *ss, uint32_t j,
			  uint32_t o)
{
	uint32_t g = ss->leaf_group[j];

	if (g < ss->lead)
		return ss->block_spine[g];
	if (g - ss->lead >= ss->n_class)
		return ss->block_spine[g - ss->n_class];
	g -= ss->lead;
	return ss->set[g * ss->m + (ss->leaf_pos[j] + o) % ss->m];
}

int ta_ss_shown(const struct ta_spine_sets *ss, const uint32_t *pair,
		uint32_t n)
{
	uint32_t i, c;
	int shared = 1;	/* seen two ranks of one set in one block */

	if (!n || !ss->n_class)
		return 0;
	for (i = 0; i < n; i++)
		if (pair[2 * i + 1] >= ss->r)
			return 0;
	/*
	 * Where a set holds several ranks, its LIDs must show it: two of
	 * its ranks in one block.  An old layout of one group per rank
	 * also has its ranks in order with no block shared, and taking it
	 * for the sets would regroup (move) LIDs, e.g. when a spine
	 * failure makes 2^LMC no longer divide the spines.
	 */
	for (c = 0; c < ss->n_class; c++)
		if (ss->class_ranks[c] > 1)
			shared = 0;
	for (i = 1; i < n; i++) {
		uint32_t r0 = pair[2 * i - 1], r1 = pair[2 * i + 1];
		uint32_t c0 = ss->rank_class[r0], c1 = ss->rank_class[r1];
		int same_block = pair[2 * i - 2] / TA_SS_BLOCK ==
				 pair[2 * i] / TA_SS_BLOCK;

		if (c0 == c1 ? r0 > r1 : c0 > c1 || same_block)
			return 0;
		if (c0 == c1 && r0 != r1 && same_block)
			shared = 1;
	}
	return shared;
}
