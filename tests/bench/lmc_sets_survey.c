// SPDX-License-Identifier: MIT
/*
 * lmc_sets_survey: blocks a leaf the worst spine's failure rewrites,
 * from the spine sets' own count (plugin/core/ta_spine_sets.h) and the
 * consecutive rule's, against the stated bound ceil((R L m min(m, S) +
 * L) / S / 64), on fully populated fat trees: S spines 3 .. 36, m =
 * 2 .. 32 below S and not dividing it, R = S, 1.5 S, 2 S host ports a
 * leaf, L = 2 S, S^2 / 2, 324 leaves.  One line a shape with -v; the
 * totals always (lid_assign/README, "LMC").
 *
 *   lmc_sets_survey [-v]
 */
#include <stdio.h>
#include <string.h>

#include "ta_spine_sets.h"

int main(int argc, char **argv)
{
	static const unsigned spines[] = { 3, 5, 6, 7, 9, 10, 11, 12, 13, 14,
					   15, 18, 20, 22, 24, 27, 30, 36 };
	unsigned i, m, at = 0, over = 0, over1 = 0, sets = 0;
	int verbose = argc > 1 && !strcmp(argv[1], "-v");

	for (i = 0; i < sizeof(spines) / sizeof(spines[0]); i++) {
		unsigned s = spines[i], rr[3] = { s, s + s / 2, 2 * s };
		unsigned ll[3] = { 2 * s, s * s / 2, 324 }, a, b;

		for (m = 2; m < s && m <= 32; m *= 2) {
			if (s % m == 0)
				continue;
			for (a = 0; a < 3; a++)
				for (b = 0; b < 3; b++) {
					struct ta_spine_sets ss;
					unsigned long long r = rr[a], l = ll[b];
					unsigned long long bound =
						(r * l * m * m + l + s * 64ull - 1) /
						(s * 64ull), best;
					int ret = ta_spine_sets_make(&ss, s, m,
							rr[a], ll[b], 1);

					if (ret < 0) {
						fprintf(stderr, "lmc_sets_survey: out of memory\n");
						return 1;
					}
					if (!ret)	/* the consecutive count */
						ta_ss_consecutive_groups(s, m,
							rr[a], ll[b], 1,
							&ss.consecutive_cost);
					best = ret ? ss.cost : ss.consecutive_cost;
					sets += ret;
					at += best <= bound;
					over += best > bound;
					over1 += best == bound + 1;
					if (verbose)
						printf("S %u m %u R %llu L %llu: %s %llu (consecutive %llu) bound %llu%s\n",
						       s, m, r, l,
						       ret ? "sets" : "consecutive",
						       best, (unsigned long long)
						       ss.consecutive_cost, bound,
						       best > bound ? " over" : "");
					ta_spine_sets_free(&ss);
				}
		}
	}
	printf("%u shapes: %u at the bound, %u over (%u by one block); spine sets used on %u\n",
	       at + over, at, over, over1, sets);
	return 0;
}
