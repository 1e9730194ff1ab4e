/* SPDX-License-Identifier: MIT */
/*
 * The core's seeded pseudo-random numbers (SplitMix64): the same seed
 * gives the same draws on every machine, so every seeded choice (the
 * switch order of option seed, the permutation patterns) repeats.
 */
#ifndef TA_PRNG_H
#define TA_PRNG_H

#include <stdint.h>

static inline uint64_t ta_splitmix64(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates over a[0 .. n), drawing from *st */
static inline void ta_shuffle_u32(uint32_t *a, uint32_t n, uint64_t *st)
{
	uint32_t i;

	for (i = n; i > 1; i--) {
		uint32_t k = (uint32_t)(ta_splitmix64(st) % i), t = a[i - 1];

		a[i - 1] = a[k];
		a[k] = t;
	}
}

#endif
