/* SPDX-License-Identifier: MIT */
/*
 * What a fabric is made of, as a sorted set of 64-bit items: one per
 * switch (GUID), per link (both ends' GUIDs and ports) and per
 * destination (port GUID, LID, the switch and port it sits behind).
 * Two graphs with equal keys are the same fabric for routing: same
 * switches, cables and LIDs.  The top two bits of an item say what it
 * is, so a difference can be told as switches, links and destinations.
 */
#ifndef TA_FABRIC_KEY_H
#define TA_FABRIC_KEY_H

#include <stdint.h>

#include "ta_graph.h"

enum ta_key_kind {
	TA_KEY_SWITCH,
	TA_KEY_LINK,
	TA_KEY_DEST,
	TA_KEY_KINDS,
};

struct ta_fabric_key {
	uint64_t *item;		/* ascending */
	uint32_t n;
};

/* what one key has that another lacks, by kind */
struct ta_key_diff {
	uint32_t only_a[TA_KEY_KINDS], only_b[TA_KEY_KINDS];
};

/* 0, or -1 on allocation failure (k is then empty) */
int ta_fabric_key_make(struct ta_fabric_key *k, const struct ta_graph *g);
void ta_fabric_key_free(struct ta_fabric_key *k);
void ta_fabric_key_move(struct ta_fabric_key *to, struct ta_fabric_key *from);
void ta_fabric_key_diff(const struct ta_fabric_key *a,
			const struct ta_fabric_key *b, struct ta_key_diff *d);
/* 1 if d counts no difference (a == b) */
int ta_key_diff_none(const struct ta_key_diff *d);
/* 1 if a has every item of b and more (b's fabric grew into a's) */
int ta_key_diff_grew(const struct ta_key_diff *d);
/* 1 if a lacks an item of b */
int ta_key_diff_lost(const struct ta_key_diff *d);

#endif
