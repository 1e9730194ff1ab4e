// SPDX-License-Identifier: MIT
#include "topo_prng.h"

void topo_prng_seed(struct topo_prng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t topo_prng_next(struct topo_prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

unsigned topo_prng_below(struct topo_prng *r, unsigned n)
{
	/* reject the top partial range so every value is equally likely */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do {
		x = topo_prng_next(r);
	} while (x >= limit);
	return (unsigned)(x % n);
}
