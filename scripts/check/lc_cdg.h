/* SPDX-License-Identifier: MIT */
/*
 * Channel dependency graph of the routes in the LFTs.  A channel is a
 * directed inter-switch link, named by (switch, output port).  There is
 * an edge c1 -> c2 when some route from a host to some LID uses c2 right
 * after c1.  Routes are deadlock-free (without virtual lanes) iff the
 * graph is acyclic.
 */
#ifndef LC_CDG_H
#define LC_CDG_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "lc_fabric.h"

struct lc_cdg {
	const struct lc_fabric *f;
	unsigned n_slots;	/* one slot per (switch index, port 0..n) */
	unsigned *slot_base;	/* first slot of each switch index */
	unsigned *slot_sw;	/* switch index of each slot */
	int *slot_peer;		/* peer switch index, -1: not a channel */
	size_t *bit_off;	/* edge bits of slot: one per peer port */
	uint64_t *bits;
	size_t n_words;		/* of bits */
	bool *used;		/* channel used by some route */
	unsigned *stamp;	/* per switch: last LID that marked it */
	unsigned *list;		/* switches marked for the current LID */
};

int lc_cdg_init(struct lc_cdg *g, const struct lc_fabric *f);
void lc_cdg_free(struct lc_cdg *g);

/* Adds the dependencies of the routes to lid from the switches in src. */
void lc_cdg_add_lid(struct lc_cdg *g, unsigned lid, const unsigned *src,
		    unsigned n_src);

/*
 * Adds the dependency of a packet that left by channel slot and leaves
 * the peer switch by its port next_port (a switch link), and marks both
 * channels used (multicast trees, lc_mcast.h).
 */
void lc_cdg_add_turn(struct lc_cdg *g, unsigned slot, unsigned next_port);

unsigned lc_cdg_channels(const struct lc_cdg *g);

/*
 * 1 if some route leaves by channel slot and then leaves the peer switch
 * by its port next_port.
 */
bool lc_cdg_has_edge(const struct lc_cdg *g, unsigned slot,
		     unsigned next_port);

unsigned long lc_cdg_edges(const struct lc_cdg *g);

/*
 * Looks for a cycle (iterative DFS).  Returns 1 and a malloc'ed array of
 * the cycle's slots in order (*len of them), 0 if acyclic, -1 if out of
 * memory.
 */
int lc_cdg_find_cycle(const struct lc_cdg *g, unsigned **cycle,
		      unsigned *len);

/* Switch index and port of a slot. */
unsigned lc_cdg_slot_sw(const struct lc_cdg *g, unsigned slot);
unsigned lc_cdg_slot_port(const struct lc_cdg *g, unsigned slot);

#endif /* LC_CDG_H */
