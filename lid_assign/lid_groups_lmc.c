// SPDX-License-Identifier: MIT
/*
 * The number of groups G with LMC > 0 (lid_assign/README, "LMC").
 *
 * The routing core gives LID offset o of a host on rank r the spread
 * r * m + o and LID offset o of switch i (GUID order) i * m + o, m =
 * 2^LMC; a leaf with P spines sends spread x through spine x mod P.  So
 * a port's m LIDs climb through m consecutive spines, and the ranks r
 * with the same r mod P / gcd(P, m) (a "class") use the same ones.
 * Group g holds the ranks r with r mod G = g (and the switches i with
 * i mod G = g).  A spine's failure rewrites, on every leaf, the blocks
 * of every group holding a LID that climbs through it.  The candidates
 * for G are R (one group per rank) and the divisors of P / gcd(P, m) up
 * to R (whole classes together: where one class fills little of a
 * block, several share it); the one whose worst spine touches the
 * fewest blocks per leaf wins, ties to the larger G.  The blocks are
 * counted as the layout sizes ranges: every leaf fully populated; the
 * switches without hosts are in a group of their own (lid_groups.c).
 */
#include <stdlib.h>

#include "lid_gcd.h"
#include "lid_groups_lmc.h"

static uint64_t n_blocks(uint64_t lids)
{
	return (lids + LA_BLOCK - 1) / LA_BLOCK;
}

/* marks in uses[g * p + s] the spines s that spreads base + o climb by */
static void mark(uint8_t *row, uint32_t p, uint64_t base, uint32_t width)
{
	uint32_t o;

	for (o = 0; o < width && o < p; o++)
		row[(base + o) % p] = 1;
}

uint64_t la_lmc_cost(const struct la_input *in, uint32_t n_g, uint32_t r,
		     uint32_t p, uint32_t leaves)
{
	uint32_t hw = 1u << in->lmc, sw = in->sp0_lmc ? hw : 1, k, s, g;
	uint64_t *lids = calloc(n_g + 1, sizeof(*lids)), worst = 0;
	uint8_t *uses = calloc((size_t)n_g * p + 1, 1);

	if (!lids || !uses || !n_g || !p) {
		free(lids);
		free(uses);
		return UINT64_MAX;
	}
	for (k = 0; k < r; k++) {
		lids[k % n_g] += (uint64_t)leaves * hw;
		mark(uses + (size_t)(k % n_g) * p, p, (uint64_t)k * hw, hw);
	}
	for (k = 0; k < leaves; k++) {	/* leaf switches (the others have
					 * a group of their own) */
		lids[k % n_g] += sw;
		mark(uses + (size_t)(k % n_g) * p, p, (uint64_t)k * hw, sw);
	}
	for (s = 0; s < p; s++) {
		uint64_t sum = 0;

		for (g = 0; g < n_g; g++)
			if (uses[(size_t)g * p + s])
				sum += n_blocks(lids[g]);
		if (sum > worst)
			worst = sum;
	}
	free(lids);
	free(uses);
	return worst;
}

uint32_t la_lmc_groups(const struct la_input *in, uint32_t r, uint32_t p,
		       uint32_t leaves)
{
	uint32_t classes = p / (uint32_t)la_gcd(p, 1u << in->lmc), best = r, d;
	uint64_t best_cost = la_lmc_cost(in, r, r, p, leaves);

	for (d = classes < r ? classes : r; d >= 1; d--) {
		uint64_t c;

		if (classes % d)
			continue;
		c = la_lmc_cost(in, d, r, p, leaves);
		if (c < best_cost) {
			best = d;
			best_cost = c;
		}
	}
	return best;
}

static int cmp_pair(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) :
			      (a[1] < b[1] ? -1 : a[1] > b[1]);
}

/*
 * When no block of the old LIDs holds two ranks, the order of the ranks
 * in the LID space still tells G: group g holds ranks g, g + G, ...
 * in turn, so along the old LIDs (r mod G, r / G) never decreases.  The
 * largest such G, or 0 if none (not port-major, or out of memory).
 */
static uint32_t order_period(const struct la_input *in, uint32_t r)
{
	uint32_t *pair = malloc((2 * (size_t)in->n_ports + 2) * sizeof(*pair));
	uint32_t i, n = 0, g, found = 0;

	if (!pair)
		return 0;
	for (i = 0; i < in->n_ports; i++)
		if (in->ports[i].kind == LA_HOST && in->ports[i].old_lid) {
			pair[2 * n] = in->ports[i].old_lid;
			pair[2 * n++ + 1] = in->ports[i].sw_port - 1u;
		}
	qsort(pair, n, 2 * sizeof(*pair), cmp_pair);
	for (g = r; g >= 1 && !found; g--) {
		for (i = 1; i < n; i++) {
			uint32_t a = pair[2 * i - 1], b = pair[2 * i + 1];

			if (a % g > b % g || (a % g == b % g && a / g > b / g))
				break;
		}
		if (i >= n)
			found = g;
	}
	free(pair);
	return found;
}

uint32_t la_lmc_keep_old(const struct la_input *in, uint32_t r, uint32_t p,
			 uint32_t leaves, uint32_t old)
{
	uint32_t fresh = la_lmc_groups(in, r, p, leaves);

	if (!old && (old = order_period(in, r)) == r)
		return r;

	/*
	 * A spine failure lowers p; old LIDs grouped for P' >= p show a
	 * period of at least P' / 2^lmc.  Else today's choice.
	 */
	if (old && old < r && ((uint64_t)old << in->lmc >= p || old == fresh))
		return old;
	return fresh;
}
