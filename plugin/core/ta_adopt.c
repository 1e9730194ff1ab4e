// SPDX-License-Identifier: MIT
/* ta_route_adopt (ta_restore.h): the switches' tables kept at a takeover */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_home.h"
#include "ta_hot.h"
#include "ta_perm.h"
#include "ta_restore.h"

#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u

/*
 * Marks in used[] the turns of the tables' routes; 0 if every switch
 * reaches every destination without a loop, else 1; -1 out of memory.
 */
static int tables_route(const struct ta_graph *g, const uint8_t *port,
			uint8_t *used)
{
	uint32_t n = g->n_sw, s, d, k, *out = malloc((n + 1) * sizeof(*out));
	uint8_t *mark = malloc(n + 1);
	int r = 0;

	if (!out || !mark)
		r = -1;
	for (d = 0; d < g->n_dest && !r; d++) {
		if (!ta_dest_walk(g, port, d, out, mark)) {
			r = 1;
			break;
		}
		for (s = 0; s < n; s++)
			if ((k = ta_walk_turn(g, out, d, s)) != UINT32_MAX)
				used[k] = 1;
	}
	free(out);
	free(mark);
	return r;
}

/*
 * The turn decisions for the tables: their own turns, then every turn
 * res allowed that closes no cycle with them; the rest prohibited.
 * *all: every turn of res fitted.  0, 1 (the tables' own turns close a
 * cycle), -1 out of memory.
 */
static int merge_turns(const struct ta_graph *g, const uint8_t *used,
		       const struct ta_result *res, uint8_t **state, int *all)
{
	struct ta_cdg c;
	uint32_t s, i, j;
	size_t k;

	if (ta_cdg_init(&c, g))
		return -1;
	for (k = 0; k < g->n_turn_slots; k++)
		if (used[k])
			c.state[k] = TA_TURN_ALLOWED;
	ta_cdg_touch(&c);
	if (ta_cdg_has_cycle(&c)) {
		ta_cdg_free(&c);
		return 1;
	}
	*all = 1;
	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++)
			for (j = 0; j < g->sw[s].n_ends; j++) {
				k = ta_turn(g, s, i, j);
				if (c.state[k] != TA_TURN_UNDECIDED)
					continue;
				if (res->turn_state[k] != TA_TURN_ALLOWED) {
					c.state[k] = TA_TURN_PROHIBITED;
				} else if (ta_cdg_closes_cycle(&c, s, i, j)) {
					c.state[k] = TA_TURN_PROHIBITED;
					*all = 0;
				} else {
					ta_cdg_allow(&c, s, i, j);
				}
			}
	*state = c.state;
	c.state = NULL;
	ta_cdg_free(&c);
	return 0;
}

struct quality {
	double peak, perm;
};

static int measure(const struct ta_graph *g, const uint8_t *port,
		   struct quality *q)
{
	q->peak = ta_uniform_peak(g, port);
	q->perm = ta_perm_bandwidth(g, port, PERM_RANDOM, PERM_SHIFTS, 1);
	return q->peak < 0 || q->perm < 0 ? -1 : 0;
}

/* the tables against a routing from scratch, for the log */
static void compare(const struct ta_graph *g, const struct ta_options *o,
		    const uint8_t *tables, struct quality *qt,
		    struct quality *qf)
{
	struct ta_result fresh;

	if (ta_route(g, o, NULL, &fresh))
		return;
	if (measure(g, tables, qt) || measure(g, fresh.port, qf))
		qt->peak = qf->peak = qt->perm = qf->perm = 0;
	ta_result_free(&fresh);
}

/*
 * Routes over layers whose tables were not kept whole: the routing from
 * scratch is taken where res falls more than 2 % below it on a metric
 * (the standby does not know the layers the old master kept through
 * its failures, so its minimal change from the tables can be poor).
 */
static int against_fresh(const struct ta_graph *g, const struct ta_options *o,
			 const struct ta_log *log, struct ta_result *res)
{
	struct quality qr, qf;
	struct ta_result fresh;

	if (ta_route(g, o, NULL, &fresh))
		return 0;
	if (measure(g, res->port, &qr) || measure(g, fresh.port, &qf) ||
	    (qr.peak <= qf.peak * 1.02 && qr.perm >= qf.perm * 0.98)) {
		ta_result_free(&fresh);
		return 0;
	}
	ta_logf(log, TA_LOG_INFO,
		"takeover: minimal change from the tables over layers is more than 2 %% below a routing from scratch (busiest channel %.1f against %.1f, permutation bandwidth %.4f against %.4f): the routing from scratch taken",
		qr.peak, qf.peak, qr.perm, qf.perm);
	ta_result_free(res);
	*res = fresh;
	res->stats.takeover = 1;
	return 1;
}

int ta_route_adopt(const struct ta_graph *g, const struct ta_options *o,
		   const struct ta_prior *prior, const struct ta_log *log,
		   struct ta_result *res)
{
	size_t n = (size_t)g->n_sw * g->n_dest;
	struct quality qt = { 0, 0 }, qf = { 0, 0 };
	uint8_t *used, *state = NULL;
	const char *why = NULL;
	int r, all = 0, tables_cut, fresh = 0;

	if (ta_route_prior(g, o, prior, log, res))
		return -1;
	res->stats.adopted = prior && prior->last_port;
	res->stats.takeover = 1;
	if (!prior || !prior->last_port || o->mode != TA_MODE_TURN_ADDITION)
		return 0;
	used = calloc(g->n_turn_slots + 1, 1);
	if (!used)
		return 0;	/* the routing stands */
	r = tables_route(g, prior->last_port, used);
	tables_cut = r != 0;
	if (r)
		why = "they do not reach every destination on this fabric";
	else if ((r = merge_turns(g, used, res, &state, &all)))
		why = "their turns close a cycle (deadlock possible on one VL)";
	free(used);
	if (why && !tables_cut && o->vls > 1 && res->layer && res->turn_state)
		fresh = against_fresh(g, o, log, res);
	if (why) {
		free(state);
		if (r >= 0)
			ta_logf(log, TA_LOG_INFO,
				"takeover: the switches' tables are not kept whole: %s; %s",
				why, fresh ? "routed from scratch" :
					     "routed with minimal change from them");
		return 0;
	}
	compare(g, o, prior->last_port, &qt, &qf);
	memcpy(res->port, prior->last_port, n);
	free(res->turn_state);
	res->turn_state = state;
	if (!all) {
		free(res->escape_parent);
		res->escape_parent = NULL;
	}
	res->stats.unreachable = 0;
	res->stats.dests_kept = g->n_dest;
	res->stats.turns_allowed = res->stats.turns_prohibited = 0;
	for (n = 0; n < g->n_turn_slots; n++) {
		res->stats.turns_allowed += state[n] == TA_TURN_ALLOWED;
		res->stats.turns_prohibited += state[n] == TA_TURN_PROHIBITED;
	}
	res->stats.turns = res->stats.turns_allowed +
			   res->stats.turns_prohibited;
	ta_logf(log, TA_LOG_INFO,
		"takeover: the switches' tables kept whole: they reach every destination over turns acyclic on one VL (%s), busiest channel %.1f against %.1f from scratch, permutation bandwidth %.4f against %.4f",
		all ? "with every turn this routing allows" :
		      "some turns this routing allows prohibited to fit them",
		qt.peak, qf.peak, qt.perm, qf.perm);
	return 0;
}
