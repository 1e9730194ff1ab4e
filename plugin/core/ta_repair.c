// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "ta_escape.h"
#include "ta_repair.h"

#define FAR UINT32_MAX		/* does not reach the destination */
#define OPEN (UINT32_MAX - 1)	/* not walked yet */
#define ON (UINT32_MAX - 2)	/* on the walk */

struct repair {
	const struct ta_graph *g;
	const uint8_t *turn;	/* turn decisions (res's) */
	uint32_t *e;		/* per switch: its end towards d, TA_NO_END */
	uint32_t *hops;		/* per switch: hops to d, FAR */
	uint32_t *stack;	/* walk()'s */
	uint32_t *save;		/* fix_behind()'s copy of e[] */
	uint32_t *save_hops;	/* and of hops[] */
	uint32_t *uses;		/* per channel: destinations sent over it */
	uint32_t dsw;		/* d's switch */
};

static uint32_t chan(const struct ta_graph *g, uint32_t s, uint32_t j)
{
	uint32_t l = g->sw[s].ends[j].link;

	return 2 * l + (g->links[l].sw[0] == s ? 0 : 1);
}

/* 1 if a route that enters n from s over s's end j may leave by e[n] */
static int turn_ok(const struct repair *r, uint32_t s, uint32_t j,
		   uint32_t n)
{
	if (n == r->dsw)
		return 1;
	return r->turn[ta_turn(r->g, n, ta_graph_far_end(r->g, s, j),
			       r->e[n])] == TA_TURN_ALLOWED;
}

/* hops[] of every OPEN switch along e[] (FAR: a gone port, a loop, a
 * turn not allowed on the way); the others' hops stand */
static void walk_open(struct repair *r)
{
	const struct ta_graph *g = r->g;
	uint32_t s, t, n, top, base;

	for (s = 0; s < g->n_sw; s++) {
		top = 0;
		for (t = s; r->hops[t] == OPEN;) {
			r->hops[t] = ON;
			r->stack[top++] = t;
			if (r->e[t] == TA_NO_END)
				break;
			t = g->sw[t].ends[r->e[t]].peer;
		}
		base = r->hops[t] == ON ? FAR : r->hops[t];
		while (top--) {
			t = r->stack[top];
			if (r->e[t] == TA_NO_END || base == FAR) {
				r->hops[t] = FAR;
			} else {
				n = g->sw[t].ends[r->e[t]].peer;
				r->hops[t] = turn_ok(r, t, r->e[t], n) ?
						     base + 1 : FAR;
			}
			base = r->hops[t];
		}
	}
}

/* hops[] of every switch along e[] */
static void walk(struct repair *r)
{
	uint32_t s;

	for (s = 0; s < r->g->n_sw; s++)
		r->hops[s] = OPEN;
	r->hops[r->dsw] = 0;
	walk_open(r);
}

/*
 * hops[] again after e[] changed at switches that were FAR only: a
 * switch that reaches d does not cross them, so only the FAR ones can
 * change (the same hops[] as walk())
 */
static void walk_far(struct repair *r)
{
	uint32_t s;

	for (s = 0; s < r->g->n_sw; s++)
		if (r->hops[s] == FAR)
			r->hops[s] = OPEN;
	walk_open(r);
}

/*
 * Switch b's end to the neighbour nearest d (then the least used) over
 * a turn allowed there; TA_NO_END if none.  A route that enters b and
 * may not turn to it no longer reaches d (walk()), so its switch moves
 * in turn.
 */
static uint32_t best_end(const struct repair *r, uint32_t b)
{
	const struct ta_graph *g = r->g;
	const struct ta_switch *sw = &g->sw[b];
	uint32_t j, n, best = TA_NO_END;

	for (j = 0; j < sw->n_ends; j++) {
		n = sw->ends[j].peer;
		if (r->hops[n] >= ON || !turn_ok(r, b, j, n))
			continue;
		if (best == TA_NO_END ||
		    r->hops[n] < r->hops[sw->ends[best].peer] ||
		    (r->hops[n] == r->hops[sw->ends[best].peer] &&
		     r->uses[chan(g, b, j)] < r->uses[chan(g, b, best)]))
			best = j;
	}
	return best;
}

/* every switch that does not reach d and whose end is gone takes a new
 * end where it can; how many did */
static uint32_t fix_gone(struct repair *r)
{
	uint32_t s, j, n = 0;

	for (s = 0; s < r->g->n_sw; s++) {
		if (r->hops[s] != FAR || r->e[s] != TA_NO_END)
			continue;
		j = best_end(r, s);
		if (j == TA_NO_END)
			continue;
		r->e[s] = j;
		walk_far(r);
		n++;
	}
	return n;
}

static uint32_t far_count(const struct repair *r)
{
	uint32_t s, n = 0;

	for (s = 0; s < r->g->n_sw; s++)
		n += r->hops[s] == FAR;
	return n;
}

/* what the channels of the ends that differ from save[] carry */
static uint64_t new_load(const struct repair *r)
{
	uint64_t n = 0;
	uint32_t s;

	for (s = 0; s < r->g->n_sw; s++)
		if (r->e[s] != r->save[s] && r->e[s] != TA_NO_END)
			n += r->uses[chan(r->g, s, r->e[s])];
	return n;
}

/*
 * Where no switch whose end is gone can take a new one: of the switches
 * whose route fails behind them, the one whose new end (with fix_gone()
 * after it) leaves the fewest switches without a route takes it, of
 * those the one whose new ends carry the fewest destinations so far.
 * 1 if one did.
 */
static int fix_behind(struct repair *r)
{
	const struct ta_graph *g = r->g;
	uint32_t s, j, left, best_s = UINT32_MAX, best_j = 0;
	uint32_t best_left = far_count(r);
	uint64_t cost, best_cost = 0;

	memcpy(r->save, r->e, g->n_sw * sizeof(*r->e));
	memcpy(r->save_hops, r->hops, g->n_sw * sizeof(*r->hops));
	for (s = 0; s < g->n_sw; s++) {
		if (r->save_hops[s] != FAR || r->save[s] == TA_NO_END)
			continue;
		j = best_end(r, s);
		if (j == TA_NO_END)
			continue;
		r->e[s] = j;
		walk_far(r);
		while (fix_gone(r))
			;
		left = far_count(r);
		cost = new_load(r);
		if (left < best_left ||
		    (left == best_left && best_s != UINT32_MAX &&
		     cost < best_cost)) {
			best_left = left;
			best_cost = cost;
			best_s = s;
			best_j = j;
		}
		memcpy(r->e, r->save, g->n_sw * sizeof(*r->e));
		memcpy(r->hops, r->save_hops, g->n_sw * sizeof(*r->hops));
	}
	if (best_s == UINT32_MAX)
		return 0;
	r->e[best_s] = best_j;
	walk_far(r);
	return 1;
}

/*
 * d's latest routes (last[s], by switch) repaired in e[]: first the
 * switches whose end is gone, then, where none of those can be, one
 * whose route fails behind it (its route crosses a switch that has no
 * way on over the turns allowed), and again; 1, or 0 where some switch
 * is left without
 */
static int repair_dest(struct repair *r, const uint8_t *last, uint32_t d)
{
	const struct ta_graph *g = r->g;
	uint32_t s;

	r->dsw = g->dest[d].sw;
	if (last[r->dsw] != g->dest[d].port)
		return 0;
	for (s = 0; s < g->n_sw; s++)
		r->e[s] = s == r->dsw ? TA_NO_END :
			  ta_graph_end_of_port(g, s, last[s]);
	walk(r);
	while (fix_gone(r) || fix_behind(r))
		;
	for (s = 0; s < g->n_sw; s++)
		if (r->hops[s] == FAR)
			return 0;
	return 1;
}

/* COLS destinations at a time, their columns copied by switch */
#define COLS 64u

/* columns d0.. (n of them) of table t into buf, column by column */
static void columns_in(const struct ta_graph *g, const uint8_t *t,
		       uint32_t d0, uint32_t n, uint8_t *buf)
{
	uint32_t s, k;

	for (s = 0; s < g->n_sw; s++) {
		const uint8_t *row = t + (size_t)s * g->n_dest + d0;

		for (k = 0; k < n; k++)
			buf[(size_t)k * g->n_sw + s] = row[k];
	}
}

static void columns_out(const struct ta_graph *g, const uint8_t *buf,
			uint32_t d0, uint32_t n, uint8_t *t)
{
	uint32_t s, k;

	for (s = 0; s < g->n_sw; s++) {
		uint8_t *row = t + (size_t)s * g->n_dest + d0;

		for (k = 0; k < n; k++)
			row[k] = buf[(size_t)k * g->n_sw + s];
	}
}

/*
 * Destination d (its latest column last, minimal change's res) into
 * out; 1 if repaired.  A column minimal change kept as it was (res
 * complete) reaches d over allowed turns: the repair keeps it whole.
 */
static int repair_column(struct repair *r, const struct ta_result *res,
			 const uint8_t *last, const uint8_t *kept, uint32_t d,
			 uint8_t *out)
{
	const struct ta_graph *g = r->g;
	uint32_t s;
	int ok;

	if (!res->stats.unreachable && !memcmp(last, kept, g->n_sw)) {
		memcpy(out, last, g->n_sw);
		return last[g->dest[d].sw] == g->dest[d].port;
	}
	ok = repair_dest(r, last, d);
	for (s = 0; s < g->n_sw; s++) {
		if (!ok) {
			out[s] = kept[s];
		} else if (s == g->dest[d].sw) {
			out[s] = g->dest[d].port;
		} else {
			out[s] = g->sw[s].ends[r->e[s]].port;
			if (out[s] != last[s])
				r->uses[chan(g, s, r->e[s])]++;
		}
	}
	return ok;
}

int64_t ta_repair(const struct ta_graph *g, const struct ta_prior *prior,
		  const struct ta_result *res, uint8_t *out)
{
	struct repair r = { .g = g, .turn = res->turn_state };
	size_t col = (size_t)COLS * g->n_sw;
	uint8_t *bl = malloc(3 * col + 1), *br = bl + col, *bo = br + col;
	int64_t done = 0;
	uint32_t s, d, j, d0, n, k;

	r.e = malloc((g->n_sw + 1) * sizeof(*r.e));
	r.hops = malloc((g->n_sw + 1) * sizeof(*r.hops));
	r.stack = malloc((g->n_sw + 1) * sizeof(*r.stack));
	r.save = malloc((g->n_sw + 1) * sizeof(*r.save));
	r.save_hops = malloc((g->n_sw + 1) * sizeof(*r.save_hops));
	r.uses = calloc(2 * (size_t)g->n_links + 1, sizeof(*r.uses));
	if (!bl || !r.e || !r.hops || !r.stack || !r.save || !r.save_hops ||
	    !r.uses || !prior->last_port) {
		done = -1;
		goto out;
	}
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++) {
			j = ta_graph_end_of_port(
				g, s, prior->last_port[(size_t)s * g->n_dest + d]);
			if (s != g->dest[d].sw && j != TA_NO_END)
				r.uses[chan(g, s, j)]++;
		}
	for (d0 = 0; d0 < g->n_dest; d0 += COLS) {
		n = g->n_dest - d0 < COLS ? g->n_dest - d0 : COLS;
		columns_in(g, prior->last_port, d0, n, bl);
		columns_in(g, res->port, d0, n, br);
		for (k = 0; k < n; k++) {
			size_t o = (size_t)k * g->n_sw;

			done += repair_column(&r, res, bl + o, br + o, d0 + k,
					      bo + o);
		}
		columns_out(g, bo, d0, n, out);
	}
out:
	free(bl);
	free(r.e);
	free(r.hops);
	free(r.stack);
	free(r.save);
	free(r.save_hops);
	free(r.uses);
	return done;
}
