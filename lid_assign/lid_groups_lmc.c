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
#include <string.h>

#include "lid_groups_lmc.h"
#include "ta_spine_sets.h"

uint64_t la_lmc_cost(const struct la_input *in, uint32_t n_g, uint32_t r,
		     uint32_t p, uint32_t leaves)
{
	uint32_t hw = 1u << in->lmc;

	return ta_ss_consecutive_cost(p, hw, r, leaves, in->sp0_lmc ? hw : 1,
				      n_g);
}

uint32_t la_lmc_groups(const struct la_input *in, uint32_t r, uint32_t p,
		       uint32_t leaves)
{
	uint32_t hw = 1u << in->lmc;

	return ta_ss_consecutive_groups(p, hw, r, leaves,
					in->sp0_lmc ? hw : 1, NULL);
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

/*
 * The spine sets (ta_spine_sets.h) where 2^LMC does not divide p and
 * they save blocks.  A fabric with no old host
 * LIDs gets the sets only if every leaf holds all r ranks (no host
 * absent: with absent hosts the sets can cost blocks after a spine
 * failure).  A fabric with old host LIDs keeps the sets only if the old
 * LIDs show them, for today's p or, while spines are down, a larger one
 * (up to 8 more); else the consecutive rule's groups, so no LID moves
 * for a change of rule (where that guess moves LIDs, la_assign tries
 * the other rules: force).  1: ss filled, 0: not, -1: ENOMEM.
 */
int la_lmc_sets(const struct la_input *in, uint32_t r, uint32_t p,
		uint32_t leaves, struct ta_spine_sets *ss, uint32_t force)
{
	uint32_t hw = 1u << in->lmc, w = in->sp0_lmc ? hw : 1, i, n = 0, p2;
	uint32_t *pair, hosts = 0;
	int ret = 0;

	memset(ss, 0, sizeof(*ss));
	pair = malloc((2 * (size_t)in->n_ports + 2) * sizeof(*pair));
	if (!pair)
		return -1;
	for (i = 0; i < in->n_ports; i++) {
		hosts += in->ports[i].kind == LA_HOST;
		if (in->ports[i].kind == LA_HOST && in->ports[i].old_lid) {
			pair[2 * n] = in->ports[i].old_lid;
			pair[2 * n++ + 1] = in->ports[i].sw_port - 1u;
		}
	}
	if (force) {
		free(pair);
		return p + force - 1u <= 255 ?
		       ta_spine_sets_make(ss, p + force - 1u, hw, r, leaves,
					  w) : 0;
	}
	if (!n && (uint64_t)hosts != (uint64_t)r * leaves) {
		free(pair);
		return 0;	/* hosts absent: the consecutive rule */
	}
	qsort(pair, n, 2 * sizeof(*pair), cmp_pair);
	for (p2 = p; p2 <= p + (n ? 8 : 0) && p2 <= 255 && ret == 0; p2++) {
		ret = ta_spine_sets_make(ss, p2, hw, r, leaves, w);
		if (ret == 1 && n && !ta_ss_shown(ss, pair, n)) {
			ta_spine_sets_free(ss);
			ret = 0;
		}
	}
	free(pair);
	return ret;
}
