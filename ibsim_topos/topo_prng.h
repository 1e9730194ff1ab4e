/* SPDX-License-Identifier: MIT */
/*
 * Small seeded PRNG (SplitMix64) so that generated nets are the same on
 * every machine and libc, whatever rand() does.
 */
#ifndef TOPO_PRNG_H
#define TOPO_PRNG_H

#include <stdint.h>

struct topo_prng {
	uint64_t state;
};

void topo_prng_seed(struct topo_prng *r, uint64_t seed);
uint64_t topo_prng_next(struct topo_prng *r);

/* Uniform in [0, n); n must be > 0. */
unsigned topo_prng_below(struct topo_prng *r, unsigned n);

#endif /* TOPO_PRNG_H */
