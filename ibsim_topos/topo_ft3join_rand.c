// SPDX-License-Identifier: MIT
/*
 * Two k-ary 3-level fat trees joined at positions drawn by a seeded
 * shuffle (topo.h, topo_ft3join_rand): a wiring no rule of the engine
 * was written for.  The draw is kept in file-scope state between the
 * shuffle and topo_ft3join_wired()'s calls of rand_end (not reentrant).
 */
#include <stdint.h>

#include "topo.h"

#define MAX_JOINS 1024u

static unsigned rand_pos[2][MAX_JOINS], rand_slots;

static struct topo_join_end rand_end(unsigned k, unsigned j,
				     enum topo_join_level level,
				     unsigned tree)
{
	unsigned x = rand_pos[tree][j];

	(void)k;
	(void)level;
	return (struct topo_join_end){ x / rand_slots, x % rand_slots };
}

int topo_ft3join_rand(struct topo *t, unsigned k, enum topo_join_level level,
		      unsigned seed)
{
	unsigned pos[2 * MAX_JOINS], n, tree, i;
	uint64_t st = seed * 0x9e3779b97f4a7c15ull + 1;

	rand_slots = k / 2;	/* top: cores (group, slot); else (pod, slot) */
	n = level == TOPO_JOIN_TOP ? k * k / 4 : k * k / 2;
	if (k < 4 || k % 2 || n > 2 * MAX_JOINS)
		return -1;
	for (tree = 0; tree < 2; tree++) {
		for (i = 0; i < n; i++)
			pos[i] = i;
		for (i = n; i > 1; i--) {	/* xorshift64, Fisher-Yates */
			unsigned r, tmp;

			st ^= st << 13;
			st ^= st >> 7;
			st ^= st << 17;
			r = (unsigned)(st % i);
			tmp = pos[i - 1];
			pos[i - 1] = pos[r];
			pos[r] = tmp;
		}
		for (i = 0; i < k * k / 4; i++)
			rand_pos[tree][i] = pos[i];
	}
	return topo_ft3join_wired(t, k, level, rand_end);
}
