// SPDX-License-Identifier: MIT
/*
 * Group ranges.  Each group starts on a 64-LID block boundary (group 0
 * at LID 1) and owns whole blocks; a group without members owns none.
 *
 * natural:   every group gets the fewest blocks that hold all its ports
 *            (its hosts, then its switches), in group order;
 * inherited: the ranges the old LIDs show: a group reaches at least to
 *            the end of the block of its highest old LID, and grows to
 *            its natural size only up to the block where a later group's
 *            old host LIDs begin (so growth never pushes later groups
 *            away).  Only host LIDs mark where a group begins: a switch's
 *            group changes with R and with the switches present, so its
 *            old LID may lie in any group's range.
 *
 * Group-major (w->pack, a Dragonfly+): groups are packed instead, each
 * in the fewest blocks it can span (natural_packed()); inherited ranges
 * then reach to their highest old LID, not to its block's end.
 *
 * lid_order.c places the ports under both and keeps the one that moves
 * and overflows fewer ports (on a tie, and on a fresh fabric where both
 * are the same, the natural one).
 */
#include <errno.h>
#include <stdlib.h>

#include "lid_work.h"

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* aligned runs of w LIDs fully inside [lo, next), LID 0 excluded */
static uint32_t capacity(uint32_t lo, uint32_t next, uint32_t w)
{
	uint32_t first = (max_u32(lo, 1) + w - 1) / w * w;

	return first + w > next ? 0 : (next - first) / w;
}

static uint32_t members(const struct la_work *w, uint32_t g)
{
	return w->first[g + 1] - w->first[g];
}

/* [lo, next) holds g's hosts, then its switches, each run aligned */
static bool fits(const struct la_work *w, uint32_t g, uint32_t lo,
		 uint32_t next)
{
	uint32_t hw = w->host_width, sw = w->sw_width;
	uint32_t nh = w->room[g], ns = members(w, g) - w->n_hosts[g];
	uint32_t end;

	if (nh && capacity(lo, next, hw) < nh)
		return false;
	if (!ns)
		return true;
	/* sw divides hw: the switches follow the hosts without a gap */
	end = nh ? (max_u32(lo, 1) + hw - 1) / hw * hw + nh * hw :
		   max_u32(lo, 1);
	return capacity(end, next, sw) >= ns;
}

/* end (exclusive) of the fewest whole blocks from start holding g */
static uint32_t natural_next(const struct la_work *w, uint32_t start,
			     uint32_t g)
{
	uint32_t next = start + LA_BLOCK;

	if (!members(w, g))
		return start;
	while (!fits(w, g, start, next) && next <= w->max_lid)
		next += LA_BLOCK;
	return min_u32(next, w->max_lid + 1u);
}

static uint32_t block_next(uint32_t lid)
{
	return (lid / LA_BLOCK + 1) * LA_BLOCK;
}

static int layout_alloc(const struct la_work *w, struct la_layout *l)
{
	l->lo = calloc(w->n_groups + 1, sizeof(*l->lo));
	l->next = calloc(w->n_groups + 1, sizeof(*l->next));
	l->end = 1;
	if (!l->lo || !l->next) {
		la_layout_free(l);
		return -ENOMEM;
	}
	return 0;
}

void la_layout_free(struct la_layout *l)
{
	free(l->lo);
	free(l->next);
	l->lo = l->next = NULL;
}

/* group g takes [cursor, next); the cursor moves on */
static void set_range(struct la_layout *l, uint32_t g, uint32_t *cursor,
		      uint32_t next)
{
	l->lo[g] = max_u32(*cursor, 1);
	l->next[g] = next;
	*cursor = max_u32(*cursor, next);
	l->end = max_u32(*cursor, 1);
}

/* packed: the end of the fewest LIDs from start holding g */
static uint32_t exact_next(const struct la_work *w, uint32_t start,
			   uint32_t g)
{
	uint32_t next = start + 1;

	if (!members(w, g))
		return start;
	while (!fits(w, g, start, next) && next <= w->max_lid)
		next++;
	return min_u32(next, w->max_lid + 1u);
}

static uint32_t blocks_of(uint32_t lo, uint32_t next)
{
	return next > lo ? (next - 1) / LA_BLOCK - lo / LA_BLOCK + 1 : 0;
}

/*
 * Packed (w->pack, group-major): a group starts right after the
 * previous one if it spans no more 64-LID blocks there than from the
 * next block boundary, else at that boundary; it ends at its last LID,
 * so small groups share blocks without one straddling more blocks
 * than it must.
 */
static void natural_packed(const struct la_work *w, struct la_layout *l)
{
	uint32_t cursor = 0, g, n1, b0, n0;

	for (g = 0; g < w->n_groups; g++) {
		n1 = exact_next(w, cursor, g);
		b0 = (cursor + LA_BLOCK - 1) / LA_BLOCK * LA_BLOCK;
		n0 = exact_next(w, b0, g);
		if (members(w, g) && !w->dfly.classic &&
		    blocks_of(cursor, n1) > blocks_of(b0, n0)) {
			cursor = b0;
			n1 = n0;
		}
		set_range(l, g, &cursor, n1);
	}
}

static void natural(const struct la_work *w, struct la_layout *l)
{
	uint32_t cursor = 0, g;

	if (w->pack) {
		natural_packed(w, l);
		return;
	}
	for (g = 0; g < w->n_groups; g++)
		set_range(l, g, &cursor, natural_next(w, cursor, g));
}

/* start of the block of the lowest host claim >= start of a later group */
static uint32_t later_limit(const struct la_work *w, uint32_t g,
			    uint32_t start)
{
	uint32_t i, low = UINT32_MAX;

	for (i = w->first[g + 1]; i < w->first[w->n_groups]; i++) {
		uint16_t c = w->claim[w->order[i]];

		if (w->in->ports[w->order[i]].kind != LA_HOST)
			continue;
		if (c && c >= max_u32(start, 1) && c < low)
			low = c;
	}
	if (low == UINT32_MAX)
		return w->max_lid + 1u;
	if (w->pack)	/* groups share blocks: up to that LID */
		return max_u32(low, start);
	return max_u32(low / LA_BLOCK * LA_BLOCK, start);
}

static void inherited(const struct la_work *w, struct la_layout *l)
{
	uint32_t cursor = 0, g, i;

	for (g = 0; g < w->n_groups; g++) {
		uint32_t lim = later_limit(w, g, cursor), next = cursor;

		for (i = w->first[g]; i < w->first[g + 1]; i++) {
			uint32_t p = w->order[i], c = w->claim[p];

			if (c && c >= cursor && c + la_port_width(w, p) <= lim)
				next = max_u32(next,
					       min_u32(w->pack ?
						       c + la_port_width(w, p) :
						       block_next(c), lim));
		}
		next = max_u32(next, min_u32(w->pack ?
					     exact_next(w, cursor, g) :
					     natural_next(w, cursor, g), lim));
		set_range(l, g, &cursor, next);
	}
}

bool la_claim_at_home(const struct la_work *w, const struct la_layout *l,
		      uint32_t p)
{
	const struct la_port *port = &w->in->ports[p];
	uint32_t c = w->claim[p], width = la_port_width(w, p);

	if (!c)
		return false;
	if (c >= l->end)
		return true;	/* after all groups: the overflow area */
	if (port->group == LA_NO_GROUP)
		return false;
	return c >= l->lo[port->group] &&
	       c + width <= l->next[port->group];
}

uint32_t la_group_at(const struct la_work *w, const struct la_layout *l,
		     uint32_t lid)
{
	uint32_t g;

	for (g = 0; g < w->n_groups; g++)
		if (lid >= l->lo[g] && lid < l->next[g])
			return g;
	return LA_NO_GROUP;
}

int la_layout_natural(const struct la_work *w, struct la_layout *l)
{
	if (layout_alloc(w, l))
		return -ENOMEM;
	natural(w, l);
	return 0;
}

int la_layout_inherited(const struct la_work *w, struct la_layout *l)
{
	if (layout_alloc(w, l))
		return -ENOMEM;
	inherited(w, l);
	return 0;
}
