/* SPDX-License-Identifier: MIT */
/*
 * The SL of every route, for a channel dependency graph per SL
 * (lftcheck --sl): a file of lines "0x<switch GUID> <dlid> <sl>", the
 * SL of the route from that switch (and the hosts on it) to dlid, as a
 * subnet manager's routing engine writes it (turnadd's
 * opensm-turnadd-sl.dump).  A packet keeps its SL from its source
 * switch to its destination, so each SL's routes form their own CDG
 * (on their own VL when SL i is mapped to VL i).  '#' lines and blank
 * lines are skipped.
 */
#ifndef LC_SL_H
#define LC_SL_H

#include <stdint.h>

#include "lc_fabric.h"

#define LC_SL_MAX 16u
#define LC_SL_UNSET 255u

struct lc_sl {
	unsigned n_sw, n_lids;	/* table [switch index * n_lids + lid] */
	uint8_t *sl;		/* LC_SL_UNSET where the file has no line */
	unsigned n_sls;		/* highest SL in the file + 1, at least 1 */
	unsigned long lines;	/* lines read */
	unsigned long unknown;	/* lines of a GUID that is no switch of
				 * the topology, or a LID beyond its LIDs */
};

/* Reads path for fabric f; -1 on bad input or memory (printed). */
int lc_sl_read(struct lc_sl *t, const struct lc_fabric *f, const char *path);
void lc_sl_free(struct lc_sl *t);

/* the SL of the route from switch sw to lid, LC_SL_UNSET if none read */
static inline unsigned lc_sl_get(const struct lc_sl *t, unsigned sw,
				 unsigned lid)
{
	if (sw >= t->n_sw || lid >= t->n_lids)
		return LC_SL_UNSET;
	return t->sl[(size_t)sw * t->n_lids + lid];
}

#endif /* LC_SL_H */
