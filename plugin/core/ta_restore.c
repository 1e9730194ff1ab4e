// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_escape.h"
#include "ta_perm.h"
#include "ta_restore.h"

/*
 * The lines of a routing that may be discarded: held until the one kept
 * is known, then passed on (replay) or dropped.
 */
struct held_lines {
	struct ta_log log;	/* what the routing writes to */
	const struct ta_log *to;
	char **line;
	enum ta_log_level *level;
	uint32_t n, cap;
	int oom;
};

static void hold_line(void *ctx, enum ta_log_level level, const char *msg)
{
	struct held_lines *h = ctx;
	char *copy;

	if (h->n == h->cap) {
		uint32_t cap = h->cap ? 2 * h->cap : 16;
		char **l = realloc(h->line, cap * sizeof(*l));
		enum ta_log_level *v;

		if (l)
			h->line = l;
		v = l ? realloc(h->level, cap * sizeof(*v)) : NULL;
		if (v)
			h->level = v;
		if (!l || !v) {
			h->oom = 1;
			return;
		}
		h->cap = cap;
	}
	copy = strdup(msg);
	if (!copy) {
		h->oom = 1;
		return;
	}
	h->level[h->n] = level;
	h->line[h->n++] = copy;
}

/* held lines of a routing for to (NULL: nothing is written) */
static const struct ta_log *hold(struct held_lines *h, const struct ta_log *to)
{
	memset(h, 0, sizeof(*h));
	h->to = to;
	h->log.fn = hold_line;
	h->log.ctx = h;
	return to ? &h->log : NULL;
}

/* passes the held lines on (replay) or drops them; frees them */
static void release(struct held_lines *h, int replay)
{
	uint32_t i;

	for (i = 0; i < h->n; i++) {
		if (replay)
			ta_logf(h->to, h->level[i], "%s", h->line[i]);
		free(h->line[i]);
	}
	if (replay && h->oom)
		ta_logf(h->to, TA_LOG_INFO,
			"(some lines of this routing were lost: out of memory)");
	free(h->line);
	free(h->level);
	memset(h, 0, sizeof(*h));
}

/* the permutations ta_engine.c's candidates are judged on */
#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u

double ta_uniform_peak(const struct ta_graph *g, const uint8_t *port)
{
	uint32_t n = g->n_sw, s, d, *next = malloc((n + 1) * sizeof(*next));
	uint32_t *pend = malloc((n + 1) * sizeof(*pend));
	uint32_t *queue = malloc((n + 1) * sizeof(*queue));
	uint32_t *hosts = calloc(n + 1, sizeof(*hosts));
	double *flow = malloc((n + 1) * sizeof(*flow));
	double *load = calloc(2 * (size_t)g->n_links + 1, sizeof(*load));
	double peak = -1;

	if (!next || !pend || !queue || !hosts || !flow || !load)
		goto out;
	for (d = 0; d < g->n_dest; d++)
		hosts[g->dest[d].sw] += g->dest[d].is_host;
	peak = 0;
	for (d = 0; d < g->n_dest; d++) {
		uint32_t head = 0, tail = 0, dsw = g->dest[d].sw;

		if (!g->dest[d].is_host)
			continue;
		memset(pend, 0, n * sizeof(*pend));
		for (s = 0; s < n; s++) {
			next[s] = TA_NO_END;
			flow[s] = hosts[s] - (s == dsw);
			if (s != dsw)
				next[s] = ta_graph_end_of_port(g, s,
					port[(size_t)s * g->n_dest + d]);
			if (next[s] != TA_NO_END)
				pend[g->sw[s].ends[next[s]].peer]++;
		}
		for (s = 0; s < n; s++)
			if (!pend[s])
				queue[tail++] = s;
		while (head < tail) {
			uint32_t u = queue[head++], e = next[u], v, c;

			if (e == TA_NO_END)
				continue;
			c = g->sw[u].ends[e].out_chan;
			load[c] += flow[u];
			if (load[c] > peak)
				peak = load[c];
			v = g->sw[u].ends[e].peer;
			flow[v] += flow[u];
			if (!--pend[v])
				queue[tail++] = v;
		}
	}
out:
	free(next);
	free(pend);
	free(queue);
	free(hosts);
	free(flow);
	free(load);
	return peak;
}

static void log_diff(const struct ta_log *log, const char *what,
		     const struct ta_key_diff *dd)
{
	ta_logf(log, TA_LOG_INFO,
		"restore: %s: the fabric has %u switches, %u links and %u LIDs it lacked and lacks %u, %u and %u of its",
		what, dd->only_a[TA_KEY_SWITCH], dd->only_a[TA_KEY_LINK],
		dd->only_a[TA_KEY_DEST], dd->only_b[TA_KEY_SWITCH],
		dd->only_b[TA_KEY_LINK], dd->only_b[TA_KEY_DEST]);
}

/* the 64-LID blocks whose entries r changes against the prior's */
static uint64_t blocks_moved(const struct ta_graph *g,
			     const struct ta_prior *p, const uint8_t *port)
{
	uint8_t *blk = malloc(1024);	/* LIDs < 65536 */
	uint64_t n = 0;
	uint32_t s, d;

	if (!blk)
		return 0;
	for (s = 0; s < g->n_sw; s++) {
		memset(blk, 0, 1024);
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * g->n_dest + d;
			uint32_t b = g->dest[d].lid / 64u;

			if (port[k] != p->last_port[k] && !blk[b]) {
				blk[b] = 1;
				n++;
			}
		}
	}
	free(blk);
	return n;
}

/*
 * A failure: minimal change is kept where it is within FAIL_SLACK of
 * the routing from scratch of the same fabric on both metrics (a
 * failure may cost the balance it forces, no more); else the routing
 * from scratch is taken.
 */
#define FAIL_SLACK 0.02

/* 1 if busiest channel u and permutation bandwidth p are within
 * FAIL_SLACK of u_ref, p_ref or better */
static int within(double u, double p, double u_ref, double p_ref)
{
	return u <= u_ref * (1 + FAIL_SLACK) && p >= p_ref * (1 - FAIL_SLACK);
}

/* minimal change (res, its lines held in hk) beside a routing from scratch */
struct compared {
	struct ta_result fresh;
	struct held_lines hk, hf;
	double u_keep, u_new, p_keep, p_new;
};

/*
 * Routes g from scratch beside res and measures both.  0: measured (the
 * lines of both still held); 1: not (res stands, its lines passed on).
 */
static int route_fresh(const struct ta_graph *g, const struct ta_options *o,
		       const struct ta_log *log, const struct ta_result *res,
		       struct compared *c)
{
	if (ta_route(g, o, hold(&c->hf, log), &c->fresh)) {
		release(&c->hf, 0);
		release(&c->hk, 1);
		return 1;
	}
	c->u_keep = ta_uniform_peak(g, res->port);
	c->u_new = ta_uniform_peak(g, c->fresh.port);
	c->p_keep = ta_perm_bandwidth(g, res->port, PERM_RANDOM, PERM_SHIFTS,
				      1);
	c->p_new = ta_perm_bandwidth(g, c->fresh.port, PERM_RANDOM,
				     PERM_SHIFTS, 1);
	if (c->u_keep < 0 || c->u_new < 0 || c->p_keep < 0 || c->p_new < 0) {
		release(&c->hf, 0);
		release(&c->hk, 1);
		ta_result_free(&c->fresh);
		return 1;
	}
	return 0;
}

/* passes on the lines of the routing kept (the other's dropped) */
static void pass_lines(struct compared *c, int take)
{
	release(&c->hk, !take);
	release(&c->hf, take);
}

/* res becomes the routing from scratch (take) or stays */
static void keep(struct compared *c, struct ta_result *res, int take)
{
	if (take) {
		c->fresh.stats.restore_fresh = 1;
		c->fresh.stats.switches_gone = res->stats.switches_gone;
		c->fresh.stats.dests_gone = res->stats.dests_gone;
		c->fresh.stats.switches_new = res->stats.switches_new;
		ta_result_free(res);
		*res = c->fresh;
	} else {
		ta_result_free(&c->fresh);
	}
}

static int route_failure(const struct ta_graph *g, const struct ta_options *o,
			 const struct ta_prior *prior, const struct ta_log *log,
			 struct ta_result *res)
{
	struct compared c;
	int take;

	if (ta_route_prior(g, o, prior, hold(&c.hk, log), res)) {
		release(&c.hk, 1);
		return -1;
	}
	/*
	 * fat trees keep their rules unless the escape tree clashed or
	 * destinations still need the escape rule
	 */
	if (ta_graph_layered(g) == 1 && !res->stats.tree_unfit &&
	    !res->stats.prior_discarded && !res->stats.dests_fallback) {
		release(&c.hk, 1);
		return 0;
	}
	if (route_fresh(g, o, log, res, &c))
		return 0;
	take = c.fresh.stats.unreachable < res->stats.unreachable ||
	       (c.fresh.stats.unreachable == res->stats.unreachable &&
		!within(c.u_keep, c.p_keep, c.u_new, c.p_new));
	pass_lines(&c, take);
	ta_logf(log, TA_LOG_INFO,
		"failure: minimal change against routing from scratch: %llu / %llu LFT blocks change, busiest channel %.1f / %.1f, permutation bandwidth %.4f / %.4f: %s",
		(unsigned long long)blocks_moved(g, prior, res->port),
		(unsigned long long)blocks_moved(g, prior, c.fresh.port),
		c.u_keep, c.u_new, c.p_keep, c.p_new,
		take ? "the routing from scratch taken (minimal change more than 2 % below it)" :
		       "minimal change kept");
	keep(&c, res, take);
	return 0;
}

/* minimal change, then from scratch; the better kept (see the header) */
static int route_compared(const struct ta_graph *g,
			  const struct ta_options *o,
			  const struct ta_prior *prior,
			  const struct ta_log *log, struct ta_result *res)
{
	struct compared c;
	int take;

	if (ta_route_prior(g, o, prior, hold(&c.hk, log), res)) {
		release(&c.hk, 1);
		return -1;
	}
	if (route_fresh(g, o, log, res, &c))
		return 0;	/* minimal change stands */
	take = res->stats.unreachable > c.fresh.stats.unreachable ||
	       (res->stats.unreachable == c.fresh.stats.unreachable &&
		(c.u_keep > c.u_new * (1 + 1e-9) ||
		 c.p_keep < c.p_new * (1 - 1e-9)));
	pass_lines(&c, take);
	ta_logf(log, TA_LOG_INFO,
		"restore: no earlier routing of this fabric is kept; minimal change against routing from scratch: busiest channel %.1f / %.1f, permutation bandwidth %.4f / %.4f: %s",
		c.u_keep, c.u_new, c.p_keep, c.p_new,
		take ? "the routing from scratch taken" :
		       "minimal change kept (as good on both)");
	keep(&c, res, take);
	return 0;
}

int ta_route_resweep(const struct ta_home *h, const struct ta_fabric_key *key,
		     const struct ta_fabric_key *last,
		     const struct ta_graph *g, const struct ta_options *o,
		     const struct ta_prior *prior, const struct ta_log *log,
		     struct ta_result *res)
{
	struct ta_key_diff dl, dh;
	int r;

	if (!prior || !key->n || !last->n || o->mode != TA_MODE_TURN_ADDITION)
		return ta_route_prior(g, o, prior, log, res);
	ta_fabric_key_diff(key, last, &dl);
	if (!dl.only_a[TA_KEY_SWITCH] && !dl.only_a[TA_KEY_LINK] &&
	    !dl.only_a[TA_KEY_DEST])
		return ta_key_diff_lost(&dl) && o->failure_compare ?
			       route_failure(g, o, prior, log, res) :
			       ta_route_prior(g, o, prior, log, res);
	if (!ta_home_empty(h)) {
		ta_fabric_key_diff(key, &h->key, &dh);
		if (ta_key_diff_none(&dh)) {
			r = ta_home_reinstate(h, g, res);
			if (r < 0)
				return -1;
			if (!r) {
				ta_logf(log, TA_LOG_INFO,
					"restore: the fabric is again the one of routing %u (%u switches, %u links, %u LIDs): its routes, turn decisions and escape tree reinstated",
					h->routing, g->n_sw, g->n_links,
					g->n_dest);
				return 0;
			}
			ta_logf(log, TA_LOG_INFO,
				"restore: the fabric is again the one of routing %u, but its routes do not check out on it (a route leaves by a missing port or turn): not reinstated",
				h->routing);
		} else {
			char what[64];

			snprintf(what, sizeof(what),
				 "not the fabric of routing %u", h->routing);
			log_diff(log, what, &dh);
		}
	}
	return route_compared(g, o, prior, log, res);
}

int ta_home_after(struct ta_home *h, const struct ta_graph *g,
		  const struct ta_result *res, const struct ta_fabric_key *key,
		  unsigned routing)
{
	struct ta_key_diff dh;

	if (!key->n || res->stats.reinstated)
		return 0;
	if (!ta_home_empty(h)) {
		ta_fabric_key_diff(key, &h->key, &dh);
		if (ta_key_diff_lost(&dh))
			return 0;	/* a part is still missing */
	}
	return ta_home_take(h, g, res, key, routing);
}
