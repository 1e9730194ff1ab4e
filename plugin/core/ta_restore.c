// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_escape.h"
#include "ta_hot.h"
#include "ta_layers.h"
#include "ta_perm.h"
#include "ta_repair.h"
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

/*
 * The permutations ta_engine.c's candidates are judged on (and
 * lftcheck --perm=100 measures), their random part estimated from
 * enough draws for about PERM_FLOWS flows: a routing compared with
 * another is judged on the metric, not on one sample of it.
 */
#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u
#define PERM_FLOWS 100000u
#define PERM_DRAWS_MAX 2000u

static uint32_t hosts_of(const struct ta_graph *g)
{
	uint32_t d, hosts = 0;

	for (d = 0; d < g->n_dest; d++)
		hosts += g->dest[d].is_host;
	return hosts;
}

static unsigned perm_draws(const struct ta_graph *g)
{
	uint32_t hosts = hosts_of(g);
	unsigned draws;

	draws = hosts ? PERM_FLOWS / hosts : PERM_RANDOM;
	if (draws < PERM_RANDOM)
		draws = PERM_RANDOM;
	return draws < PERM_DRAWS_MAX ? draws : PERM_DRAWS_MAX;
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
 * from scratch is taken.  The busiest channel is exact; permutation
 * bandwidth is held closer by PERM_ERRORS times the error with which a
 * check on a sample of 100 permutations of its own (lftcheck
 * --perm=100) may find the two apart (se, from ta_perm_against()), to no
 * less than PERM_SLACK_MIN.
 */
#define FAIL_SLACK 0.02
#define PERM_SLACK_MIN 0.005
#define PERM_ERRORS 1.0

/* 1 if busiest channel u and permutation bandwidth p (its error se)
 * are within the slack of u_ref, p_ref or better */
static int within(double u, double p, double se, double u_ref, double p_ref)
{
	double slack = FAIL_SLACK - (p_ref > 0 ? PERM_ERRORS * se / p_ref : 0);

	if (slack < PERM_SLACK_MIN)
		slack = PERM_SLACK_MIN;
	return u <= u_ref * (1 + FAIL_SLACK) && p >= p_ref * (1 - slack);
}

/* minimal change (res, its lines held in hk) beside a routing from scratch */
struct compared {
	struct ta_result fresh;
	struct held_lines hk, hf;
	double u_keep, u_new, p_keep, p_new;
	double se_keep;		/* ta_perm_against() fresh */
	struct ta_perm_ref pref;	/* fresh's permutations */
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
	c->p_keep = -1;
	if (!ta_perm_ref_init(&c->pref, g, c->fresh.port, PERM_RANDOM,
			      PERM_SHIFTS, 1, perm_draws(g)) &&
	    ta_perm_against(g, res->port, &c->pref, &c->p_keep, &c->se_keep))
		c->p_keep = -1;
	c->p_new = c->pref.p;
	if (c->u_keep < 0 || c->u_new < 0 || c->p_keep < 0) {
		release(&c->hf, 0);
		release(&c->hk, 1);
		ta_result_free(&c->fresh);
		ta_perm_ref_free(&c->pref);
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

/* res becomes fresh, a routing from scratch, with res's counts of
 * what the fabric lost and gained */
static void take_fresh(struct ta_result *res, struct ta_result *fresh)
{
	fresh->stats.restore_fresh = 1;
	fresh->stats.switches_gone = res->stats.switches_gone;
	fresh->stats.dests_gone = res->stats.dests_gone;
	fresh->stats.switches_new = res->stats.switches_new;
	ta_result_free(res);
	*res = *fresh;
}

/* paths whose previous layer (SL) differs from their layer in r */
static uint64_t sl_changes(const struct ta_graph *g,
			   const struct ta_prior *prior,
			   const struct ta_result *r)
{
	uint64_t moved = 0;
	size_t k;

	for (k = 0; k < (size_t)g->n_sw * g->n_dest; k++)
		moved += prior->layer[k] != TA_NO_LAYER &&
			 r->port[k] != TA_NO_PORT &&
			 prior->layer[k] != r->layer[k];
	return moved;
}

/*
 * The routing from scratch once more with the previous routing's turn
 * layers and path layers as its prior (struct ta_prior turn_layers,
 * layer; nothing else of it): each layer allows its previous turns
 * first, each path takes its previous layer where its route allows it.
 * It replaces res where it reaches as much, is within FAIL_SLACK of
 * res on both metrics and changes fewer paths' layers.  Returns 1 if
 * taken, 0 if not, -1 if it could not be made or measured.
 */
static int with_prior_layers(const struct ta_graph *g,
			     const struct ta_options *o,
			     const struct ta_prior *prior,
			     const struct ta_log *log, struct ta_result *res,
			     uint64_t moved)
{
	struct ta_prior pl = { .layer = prior->layer,
			       .turn_layers = prior->turn_layers };
	struct ta_result alt = { 0 };
	struct ta_perm_ref ref;
	double u_res, u_alt, p_alt = -1, se = 0;
	uint64_t moved_alt;
	int take;

	if (ta_route_prior(g, o, &pl, NULL, &alt))
		return -1;
	if (!alt.layer || !alt.turn_layers) {	/* no layered routes */
		ta_result_free(&alt);
		return 0;
	}
	ta_layers_repick(g, alt.port, alt.turn_layers, prior->layer,
			 alt.layer);
	u_res = ta_uniform_peak(g, res->port);
	u_alt = ta_uniform_peak(g, alt.port);
	if (!ta_perm_ref_init(&ref, g, res->port, PERM_RANDOM, PERM_SHIFTS, 1,
			      perm_draws(g))) {
		if (ta_perm_against(g, alt.port, &ref, &p_alt, &se))
			p_alt = -1;
		moved_alt = sl_changes(g, prior, &alt);
		take = p_alt >= 0 && u_res >= 0 && u_alt >= 0 &&
		       alt.stats.unreachable <= res->stats.unreachable &&
		       moved_alt < moved &&
		       within(u_alt, p_alt, se, u_res, ref.p);
		ta_logf(log, TA_LOG_INFO,
			"layers: the routing from scratch again with the previous layers' turns first: %llu / %llu paths change layer (SL), %llu / %llu LFT blocks change, busiest channel %.1f / %.1f, permutation bandwidth %.4f / %.4f: %s",
			(unsigned long long)moved_alt,
			(unsigned long long)moved,
			(unsigned long long)blocks_moved(g, prior, alt.port),
			(unsigned long long)blocks_moved(g, prior, res->port),
			u_alt, u_res, p_alt, ref.p,
			take ? "taken" :
			       "not taken (more than 2 % worse, or no fewer layer changes)");
		ta_perm_ref_free(&ref);
	} else {
		take = -1;
	}
	if (take == 1)
		take_fresh(res, &alt);
	else
		ta_result_free(&alt);
	return take;
}

/*
 * The routing from scratch chose its paths' layers afresh: every path
 * whose previous layer still allows its route takes it again, so its
 * SL (what connections already hold) stays; at a failure (again),
 * where paths still change layer, the routing from scratch is made
 * again with the previous layers first (with_prior_layers) and taken
 * where within the failure's slack (a restore keeps the routing from
 * scratch: it must be as good as a bring-up's)
 */
static void keep_layers(const struct ta_graph *g, const struct ta_options *o,
			const struct ta_prior *prior,
			const struct ta_log *log, struct ta_result *res,
			int again)
{
	uint64_t n, moved;

	if (!res->layer || !res->turn_layers || !prior->layer)
		return;
	n = ta_layers_repick(g, res->port, res->turn_layers, prior->layer,
			     res->layer);
	moved = sl_changes(g, prior, res);
	res->stats.layer_changes_fresh = moved;
	res->stats.layer_changes = moved;
	ta_logf(log, TA_LOG_INFO,
		"layers: %llu paths of the routing from scratch take their previous layer (SL) again; %llu change layer (their previous one does not allow their route)",
		(unsigned long long)n, (unsigned long long)moved);
	if (moved && again && prior->turn_layers &&
	    with_prior_layers(g, o, prior, log, res, moved) == 1) {
		res->stats.layer_changes_fresh = moved;
		res->stats.layer_changes = sl_changes(g, prior, res);
	}
}

/* res becomes the routing from scratch (take) or stays */
static void keep(struct compared *c, struct ta_result *res, int take)
{
	if (take)
		take_fresh(res, &c->fresh);
	else
		ta_result_free(&c->fresh);
	ta_perm_ref_free(&c->pref);
}

/* 1 if minimal change (res) falls more than FAIL_SLACK below c->fresh */
static int worse(const struct compared *c, const struct ta_result *res)
{
	return c->fresh.stats.unreachable < res->stats.unreachable ||
	       (c->fresh.stats.unreachable == res->stats.unreachable &&
		!within(c->u_keep, c->p_keep, c->se_keep, c->u_new, c->p_new));
}

/* a way of minimal change beside the one in res (ta_restore.c below) */
struct variant {
	struct ta_result r;
	struct held_lines h;
	double u, p, se;
	uint64_t blocks;
};

/* routes v by minimal change with options o2 and measures it beside the
 * routing from scratch (its permutations pref); 0 or -1 */
static int run_variant(const struct ta_graph *g, const struct ta_options *o2,
		       const struct ta_prior *prior, const struct ta_log *log,
		       const struct ta_perm_ref *pref, struct variant *v)
{
	if (ta_route_prior(g, o2, prior, hold(&v->h, log), &v->r)) {
		release(&v->h, 0);
		return -1;
	}
	v->u = ta_uniform_peak(g, v->r.port);
	if (ta_perm_against(g, v->r.port, pref, &v->p, &v->se))
		v->p = -1;
	v->blocks = blocks_moved(g, prior, v->r.port);
	if (v->u < 0 || v->p < 0) {
		release(&v->h, 0);
		ta_result_free(&v->r);
		return -1;
	}
	return 0;
}

/* one number for both metrics: busiest channel times the share of
 * permutation traffic lost (lower is better) */
static double score(double u, double p)
{
	return u * (1 - p);
}

/* res (its lines and metrics in c) becomes v; v's old content freed */
static void take_variant(struct ta_result *res, struct compared *c,
			 struct variant *v)
{
	release(&c->hk, 0);
	c->hk = v->h;
	c->u_keep = v->u;
	c->p_keep = v->p;
	c->se_keep = v->se;
	ta_result_free(res);
	*res = v->r;
}

static void drop_variant(struct variant *v)
{
	release(&v->h, 0);
	ta_result_free(&v->r);
}

/* 1 if v may stand for the failure beside res: reaches as much */
static int reaches(const struct variant *v, const struct ta_result *res,
		   const struct compared *c)
{
	return v->r.stats.unreachable <= res->stats.unreachable &&
	       v->r.stats.unreachable <= c->fresh.stats.unreachable;
}

/*
 * Minimal change still short of the reference (busiest channel ru,
 * permutation bandwidth rp): up to rounds more ways, each also
 * moving (by the load of the whole way) the destinations that carry
 * most of the load above ru on the busiest channels of the way before
 * (ta_hot_release), the moved set growing round by round.  A way
 * within FAIL_SLACK ends the rounds; a way with the better score
 * replaces res.  o: the options res was routed with.
 */
#define RELIEVE_ROUNDS 3
#define RELIEVE_HOME_ROUNDS 8

static void relieve(const struct ta_graph *g, const struct ta_options *o,
		    const struct ta_prior *prior, const struct ta_log *log,
		    struct ta_result *res, struct compared *c, double ru,
		    double rp, int rounds)
{
	uint8_t *rel = calloc(g->n_dest + 1, 1);
	struct ta_prior pr = *prior;
	struct variant v, last;
	int have_last = 0, round, ok = 0;
	int64_t moved = 0, m;

	if (!rel)
		return;
	pr.release = rel;
	for (round = 0; round < rounds && !ok; round++) {
		m = ta_hot_release(g, have_last ? last.r.port : res->port, ru,
				   rel, NULL);
		if (have_last)
			drop_variant(&last);
		have_last = 0;
		if (m <= 0 || run_variant(g, o, &pr, log, &c->pref, &v))
			break;
		moved += m;
		if (!reaches(&v, res, c)) {
			drop_variant(&v);
			break;
		}
		ok = within(v.u, v.p, v.se, ru, rp);
		if (ok || score(v.u, v.p) < score(c->u_keep, c->p_keep)) {
			take_variant(res, c, &v);
			ta_logf(log, TA_LOG_INFO,
				"failure: minimal change also moves %lld destinations off the busiest channels: busiest channel %.1f, permutation bandwidth %.4f, %llu LFT blocks change",
				(long long)moved, v.u, v.p,
				(unsigned long long)v.blocks);
		} else {
			last = v;
			have_last = 1;
		}
	}
	if (have_last)
		drop_variant(&last);
	free(rel);
}

/* destinations every entry of which port keeps from the prior */
static uint32_t dests_whole(const struct ta_graph *g,
			    const struct ta_prior *prior, const uint8_t *port)
{
	uint32_t s, d, n = 0;

	for (d = 0; d < g->n_dest; d++) {
		for (s = 0; s < g->n_sw; s++) {
			size_t k = (size_t)s * g->n_dest + d;

			if (port[k] != prior->last_port[k])
				break;
		}
		n += s == g->n_sw;
	}
	return n;
}

/*
 * The next-hop repair of the latest routes (ta_repair.h; res: minimal
 * change, whose turn decisions it keeps), made once per failure: its
 * ports, the LFT blocks they change, their busiest channel and the
 * permutations drawn on them (what the ways from it are measured on).
 */
struct repaired {
	uint8_t *port;		/* NULL: not made (yet) */
	uint64_t blocks;
	double u;
	struct ta_perm_ref pref;
	int failed;		/* could not be made (out of memory) */
};

/* r made from res where it is not yet; 0, or -1 */
static int repaired_make(const struct ta_graph *g,
			 const struct ta_prior *prior,
			 const struct ta_result *res, struct repaired *r)
{
	if (r->port || r->failed)
		return r->failed ? -1 : 0;
	r->port = malloc((size_t)g->n_sw * g->n_dest + 1);
	if (!r->port || ta_repair(g, prior, res, r->port) < 0 ||
	    (r->u = ta_uniform_peak(g, r->port)) < 0 ||
	    ta_perm_ref_init(&r->pref, g, r->port, PERM_RANDOM, PERM_SHIFTS,
			     1, perm_draws(g))) {
		free(r->port);
		r->port = NULL;
		r->failed = 1;
		return -1;
	}
	r->blocks = blocks_moved(g, prior, r->port);
	return 0;
}

static void repaired_free(struct repaired *r)
{
	if (r->port)
		ta_perm_ref_free(&r->pref);
	free(r->port);
	memset(r, 0, sizeof(*r));
}

/*
 * The rounds of repaired_way() from the repair r, the first numbered
 * first (0: the repair itself, routed with every destination kept);
 * with by_blocks each round marks the destinations by their share of
 * the excess against the LFT blocks moving them would newly rewrite
 * (ta_hot_release_blocks()).  1: a way within, in v; 0: none; -1: out
 * of memory.
 */
static int relief_rounds(const struct ta_graph *g, const struct ta_options *o,
			 const struct ta_prior *prior,
			 const struct ta_log *log, const struct repaired *r,
			 const struct ta_perm_ref *pref, double ru, double rp,
			 int first, uint64_t most, int by_blocks,
			 struct variant *v)
{
	uint8_t *rel = calloc(g->n_dest + 1, 1);
	uint8_t *hot = calloc(2 * (size_t)g->n_links + 1, 1);
	struct ta_prior pr = *prior;
	struct variant w;
	const uint8_t *at = r->port;
	int round, found = 0, have = 0;
	int64_t m;

	if (!rel || !hot) {
		free(rel);
		free(hot);
		return -1;
	}
	pr.home_port = r->port;
	pr.last_port = r->port;
	pr.release = rel;
	pr.avoid = hot;
	for (round = first; round <= RELIEVE_HOME_ROUNDS && !found; round++) {
		if (round) {
			m = by_blocks ? ta_hot_release_blocks(g, at,
							      prior->last_port,
							      ru, rel, hot) :
					ta_hot_release(g, at, ru, rel, hot);
			if (m <= 0)
				break;
		}
		if (ta_route_prior(g, o, &pr, hold(&w.h, log), &w.r)) {
			release(&w.h, 0);
			break;
		}
		if (have)
			drop_variant(v);
		*v = w;
		have = 1;
		at = v->r.port;
		v->blocks = blocks_moved(g, prior, v->r.port);
		if (v->blocks >= most)
			break;	/* more move in every further round */
		v->u = ta_uniform_peak(g, v->r.port);
		if (v->u < 0 ||
		    ta_perm_against(g, v->r.port, pref, &v->p, &v->se))
			break;
		if (pref == &r->pref)
			v->se = 0;
		found = !v->r.stats.unreachable &&
			within(v->u, v->p, v->se, ru, rp);
	}
	if (have && !found)
		drop_variant(v);
	free(rel);
	free(hot);
	return found;
}

/*
 * The repair (r, made from res) as the routes a failure keeps where it
 * is within FAIL_SLACK of (ru, rp) (permutations: pref's, the error of
 * the difference shrinking the slack as for the other ways; NULL: its
 * own, as the routing to return to is measured); else up to
 * RELIEVE_HOME_ROUNDS rounds that move the destinations loading the
 * channels above ru (ta_hot_release) off those channels: of each, only
 * the switches whose route crosses one of them (struct ta_prior's
 * avoid; the channels of every round so far) take new ports, by the
 * load of the whole way, their repaired port kept where it is within
 * 20 % of the least loaded way.  The first way within goes into v (1)
 * if it changes fewer LFT blocks than most.  Where rounds found it, the
 * rounds are made once more, each marking the destinations by their
 * share against the LFT blocks moving them would newly rewrite
 * (relief_rounds() by_blocks), and their way within replaces v where it
 * changes fewer blocks still: marking by share alone may move a
 * destination whose blocks are all clean where another's are already
 * rewritten.  Not where the rounds by share found none: marking by
 * blocks then takes the ways that just reach the slack, which a
 * check on other permutations than pref's may find short of it.
 * 0: none; -1: out of memory.
 */
static int repaired_way(const struct ta_graph *g, const struct ta_options *o,
			const struct ta_prior *prior, const struct ta_log *log,
			const struct ta_result *res, struct repaired *r,
			const struct ta_perm_ref *pref, double ru, double rp,
			uint64_t most, struct variant *v)
{
	struct variant w;
	int first, found, again;
	double p0, se0 = 0;

	if (repaired_make(g, prior, res, r))
		return -1;
	if (r->blocks >= most)
		return 0;
	p0 = r->pref.p;
	if (pref && ta_perm_against(g, r->port, pref, &p0, &se0))
		return -1;
	if (!pref)
		pref = &r->pref;
	/* the repair itself within: routed so, every destination kept */
	first = within(r->u, p0, se0, ru, rp) ? 0 : 1;
	found = relief_rounds(g, o, prior, log, r, pref, ru, rp, first, most,
			      0, v);
	if (found != 1 || !first)
		return found;
	again = relief_rounds(g, o, prior, log, r, pref, ru, rp, 1, v->blocks,
			      1, &w);
	if (again == 1) {
		drop_variant(v);
		*v = w;
		return 1;
	}
	if (again < 0)
		drop_variant(v);
	return again < 0 ? -1 : 1;
}

/*
 * The reference of choose_minimal() (ru, rp: the best of the ways of
 * minimal change and the routing from scratch): where the repaired
 * way (repaired_way()) is within FAIL_SLACK of it and changes fewer LFT
 * blocks than res does where res is within, and than the routing from
 * scratch, it replaces res (1); else 0.
 */
static int repaired_within(const struct ta_graph *g,
			   const struct ta_options *o,
			   const struct ta_prior *prior,
			   const struct ta_log *log, struct ta_result *res,
			   struct compared *c, struct repaired *r, double ru,
			   double rp)
{
	uint64_t most = blocks_moved(g, prior, c->fresh.port);
	struct variant v;

	if (res->stats.unreachable <= c->fresh.stats.unreachable &&
	    within(c->u_keep, c->p_keep, c->se_keep, ru, rp)) {
		uint64_t b = blocks_moved(g, prior, res->port);

		if (b < most)
			most = b;
	}
	if (res->layer || (o->experiment & TA_EXP_NO_REPAIR) ||
	    repaired_way(g, o, prior, log, res, r, &c->pref, ru, rp, most,
			 &v) != 1)
		return 0;
	if (!reaches(&v, res, c)) {
		drop_variant(&v);
		return 0;
	}
	take_variant(res, c, &v);
	res->stats.dests_kept = dests_whole(g, prior, res->port);
	ta_logf(log, TA_LOG_INFO,
		"failure: next-hop repair (%llu LFT blocks), its routes over the busiest channels moved by load: busiest channel %.1f, permutation bandwidth %.4f, %llu LFT blocks change: taken as minimal change",
		(unsigned long long)r->blocks, c->u_keep, c->p_keep,
		(unsigned long long)v.blocks);
	return 1;
}

/*
 * Off fat trees, routing the displaced destinations by load is greedy,
 * so a second way of minimal change is made: the displaced destinations
 * routed under their own load only, home paths at next to no cost
 * (option reroute_plain).  The reference is the best of the two and the
 * routing from scratch on each metric; of the two ways within
 * FAIL_SLACK of it, the one that moves the fewest LFT blocks is kept
 * (the better score on a tie).  Neither within: a third way, with a new
 * traffic estimate (paid only here), the prohibited turns whose cycles
 * went with the loss allowed first (option reopen_after_loss), kept if
 * its score is better; still short: relieve() from the best of them.
 * The best way within is kept unless the routing from scratch is
 * within too and moves fewer LFT blocks (returns 2).  None within (a
 * way beat the routing from scratch on one metric by more than the
 * slack): the best score of them is kept if it is within the slack of
 * the routing from scratch and moves fewer blocks, else the routing
 * from scratch is taken (1; 2 where it moves fewer blocks).  res and c
 * hold the best minimal change.
 */
static int choose_minimal(const struct ta_graph *g, const struct ta_options *o,
			  const struct ta_prior *prior,
			  const struct ta_log *log, struct ta_result *res,
			  struct compared *c, struct repaired *r)
{
	struct ta_options o2 = *o, used = *o;	/* borrowed: not cleared */
	double ru = c->u_new, rp = c->p_new;
	uint64_t blocks = blocks_moved(g, prior, res->port);
	int ok, v_ok, fewer;
	struct variant v;

	if (o->mode != TA_MODE_TURN_ADDITION)
		return worse(c, res);
	o2.reroute_plain = true;
	if (!run_variant(g, &o2, prior, log, &c->pref, &v)) {
		if (reaches(&v, res, c)) {
			ru = fmin(ru, fmin(c->u_keep, v.u));
			rp = fmax(rp, fmax(c->p_keep, v.p));
		}
		ok = res->stats.unreachable <= c->fresh.stats.unreachable &&
		     within(c->u_keep, c->p_keep, c->se_keep, ru, rp);
		v_ok = reaches(&v, res, c) && within(v.u, v.p, v.se, ru, rp);
		if ((v_ok && !ok) ||
		    (v_ok && ok &&
		     (v.blocks < blocks ||
		      (v.blocks == blocks &&
		       score(v.u, v.p) < score(c->u_keep, c->p_keep)))) ||
		    (!v_ok && !ok && reaches(&v, res, c) &&
		     score(v.u, v.p) < score(c->u_keep, c->p_keep))) {
			take_variant(res, c, &v);
			used = o2;
		} else {
			drop_variant(&v);
		}
	}
	ru = fmin(ru, c->u_keep);
	rp = fmax(rp, c->p_keep);
	if (res->stats.unreachable > c->fresh.stats.unreachable ||
	    !within(c->u_keep, c->p_keep, c->se_keep, ru, rp)) {
		o2.reroute_plain = false;
		o2.reopen_after_loss = true;
		if (!run_variant(g, &o2, prior, log, &c->pref, &v)) {
			if (reaches(&v, res, c) &&
			    score(v.u, v.p) < score(c->u_keep, c->p_keep)) {
				take_variant(res, c, &v);
				used = o2;
			} else {
				drop_variant(&v);
			}
		}
		ru = fmin(ru, c->u_keep);
		rp = fmax(rp, c->p_keep);
		if (res->stats.unreachable <= c->fresh.stats.unreachable &&
		    !within(c->u_keep, c->p_keep, c->se_keep, ru, rp))
			relieve(g, &used, prior, log, res, c, ru, rp,
				RELIEVE_ROUNDS);
	}
	ru = fmin(ru, c->u_keep);
	rp = fmax(rp, c->p_keep);
	repaired_within(g, o, prior, log, res, c, r, ru, rp);
	if (res->stats.unreachable > c->fresh.stats.unreachable)
		return 1;
	ru = fmin(ru, c->u_keep);
	rp = fmax(rp, c->p_keep);
	fewer = blocks_moved(g, prior, c->fresh.port) <
		blocks_moved(g, prior, res->port);
	if (within(c->u_keep, c->p_keep, c->se_keep, ru, rp))
		return within(c->u_new, c->p_new, 0, ru, rp) && fewer ? 2 : 0;
	/* none within the best: the routing from scratch is the yardstick */
	if (!within(c->u_keep, c->p_keep, c->se_keep, c->u_new, c->p_new))
		return 1;
	return fewer ? 2 : 0;
}

/*
 * busiest channel under uniform traffic (*u) and permutation bandwidth
 * (*p) of the routes port on g; 0, or -1
 */
static int measure(const struct ta_graph *g, const uint8_t *port, double *u,
		   double *p)
{
	struct ta_perm_ref ref;

	*u = ta_uniform_peak(g, port);
	if (*u < 0 || ta_perm_ref_init(&ref, g, port, PERM_RANDOM, PERM_SHIFTS,
				       1, perm_draws(g)))
		return -1;
	*p = ref.p;
	ta_perm_ref_free(&ref);
	return 0;
}

/*
 * A routing to return to that was measured (off fat trees; over
 * layers where res and the prior both have them, on one VL where
 * neither has): its busiest channel scaled to the hosts left into
 * *u_ref (uniform traffic from fewer hosts loads a channel less); 1,
 * or 0 where minimal change is not held to it.  On one VL not after
 * a takeover (struct ta_home's after_takeover): the tables the standby
 * adopted, and the routings of the fabrics it saw since, may be of a
 * fabric missing parts, so within 2 % of them is no bound and a
 * failure is compared with a routing from scratch.
 */
static int home_ref(const struct ta_graph *g, const struct ta_home *h,
		    const struct ta_prior *prior, const struct ta_result *res,
		    double *u_ref)
{
	uint32_t hosts = hosts_of(g);

	if (!h || !h->measured || res->stats.unreachable || hosts < 2 ||
	    h->hosts < 2 || !prior->layer != !res->layer ||
	    (h->after_takeover && !res->layer))
		return 0;
	*u_ref = h->peak * (hosts - 1) / (h->hosts - 1);
	return 1;
}

/*
 * Paths over layers: minimal change (res, its lines held in c->hk)
 * short of the routing to return to moves the destinations that load
 * the channels above that routing's busiest (relieve(), the
 * permutations drawn on res's routes), so that it may be held to it.
 * 1: c->u_keep and c->p_keep hold the metrics of res as it stands.
 */
static int relieve_to_home(const struct ta_graph *g,
			    const struct ta_home *h,
			    const struct ta_options *o,
			    const struct ta_prior *prior,
			    const struct ta_log *log, struct ta_result *res,
			    struct compared *c)
{
	double u_ref;

	if (!home_ref(g, h, prior, res, &u_ref))
		return 0;
	c->u_keep = ta_uniform_peak(g, res->port);
	if (c->u_keep < 0 ||
	    ta_perm_ref_init(&c->pref, g, res->port, PERM_RANDOM,
			     PERM_SHIFTS, 1, perm_draws(g)))
		return 0;
	c->p_keep = c->pref.p;
	c->se_keep = 0;
	if (!within(c->u_keep, c->p_keep, 0, u_ref, h->perm))
		relieve(g, o, prior, log, res, c, u_ref, h->perm,
			RELIEVE_HOME_ROUNDS);
	ta_perm_ref_free(&c->pref);
	return 1;
}

/*
 * 1 if minimal change (res) reaches every destination and is within
 * FAIL_SLACK of the routing to return to on both metrics (home_ref()),
 * its busiest channel scaled to the hosts left (uniform traffic from
 * fewer hosts loads a channel less): the failure then leaves the
 * fabric no worse than before it, and minimal change is kept without
 * a routing from scratch (which would move nearly every LFT block and,
 * over layers, decide its layers afresh).  known: res's busiest
 * channel and permutation bandwidth, or NULL.
 */
static int held_to_home(const struct ta_graph *g, const struct ta_home *h,
			const struct ta_prior *prior, const struct ta_log *log,
			const struct ta_result *res, int quiet,
			const struct compared *known)
{
	uint32_t hosts = hosts_of(g);
	double u, p, u_ref;

	if (!home_ref(g, h, prior, res, &u_ref))
		return 0;
	if (known) {
		u = known->u_keep;
		p = known->p_keep;
	} else if (measure(g, res->port, &u, &p)) {
		return 0;
	}
	if (!within(u, p, 0, u_ref, h->perm)) {
		if (!quiet)
			ta_logf(log, TA_LOG_INFO,
				"failure: minimal change more than 2 %% below the routing to return to (routing %u): busiest channel %.1f / %.1f (scaled to %u hosts), permutation bandwidth %.4f / %.4f",
				h->routing, u, u_ref, hosts, p, h->perm);
		return 0;
	}
	if (quiet)
		return 1;
	if (!res->layer) {
		ta_logf(log, TA_LOG_INFO,
			"failure: minimal change within 2 %% of the routing to return to (routing %u): busiest channel %.1f / %.1f (scaled to %u hosts), permutation bandwidth %.4f / %.4f, %llu LFT blocks change: kept, no routing from scratch",
			h->routing, u, u_ref, hosts, p, h->perm,
			(unsigned long long)blocks_moved(g, prior, res->port));
		return 1;
	}
	ta_logf(log, TA_LOG_INFO,
		"failure: minimal change within 2 %% of the routing to return to (routing %u): busiest channel %.1f / %.1f (scaled to %u hosts), permutation bandwidth %.4f / %.4f, %llu LFT blocks change, %llu paths change layer (SL): kept, no routing from scratch (it would decide its layers afresh)",
		h->routing, u, u_ref, hosts, p, h->perm,
		(unsigned long long)blocks_moved(g, prior, res->port),
		(unsigned long long)sl_changes(g, prior, res));
	return 1;
}

/*
 * One VL, off fat trees: where the next-hop repair, relieved
 * (repaired_way()), is within FAIL_SLACK of the routing to return to
 * (home_ref()) and moves fewer LFT blocks than minimal change (res,
 * its lines held in c->hk), it replaces res and is kept without a
 * routing from scratch: 1.  0: res stands.
 */
static int repaired_held(const struct ta_graph *g, const struct ta_home *h,
			 const struct ta_options *o,
			 const struct ta_prior *prior,
			 const struct ta_log *log, struct ta_result *res,
			 struct compared *c, struct repaired *r)
{
	uint64_t blocks = blocks_moved(g, prior, res->port);
	struct variant v;
	double u_ref;

	if (res->layer || o->mode != TA_MODE_TURN_ADDITION ||
	    (o->experiment & TA_EXP_NO_REPAIR) ||
	    !home_ref(g, h, prior, res, &u_ref) ||
	    repaired_way(g, o, prior, log, res, r, NULL, u_ref, h->perm,
			 blocks, &v) != 1)
		return 0;
	release(&c->hk, 0);
	release(&v.h, 1);
	ta_result_free(res);
	*res = v.r;
	res->stats.dests_kept = dests_whole(g, prior, res->port);
	ta_logf(log, TA_LOG_INFO,
		"failure: next-hop repair (%llu LFT blocks), its routes over the busiest channels moved by load: busiest channel %.1f / %.1f (scaled to %u hosts), permutation bandwidth %.4f / %.4f of the routing to return to (routing %u), %llu LFT blocks change (minimal change: %llu): kept, no routing from scratch",
		(unsigned long long)r->blocks, v.u, u_ref, hosts_of(g), v.p,
		h->perm, h->routing, (unsigned long long)v.blocks,
		(unsigned long long)blocks);
	return 1;
}

/*
 * Option failure_routes nexthop: minimal change (res) replaced by the
 * next-hop repair of the latest routes (ta_repair.h); 0, or -1
 */
static int repair(const struct ta_graph *g, const struct ta_prior *prior,
		  const struct ta_log *log, struct ta_result *res)
{
	uint8_t *port = malloc((size_t)g->n_sw * g->n_dest + 1);
	uint64_t blocks;
	int64_t n;

	if (!port)
		return -1;
	n = ta_repair(g, prior, res, port);
	if (n < 0) {
		free(port);
		return -1;
	}
	blocks = blocks_moved(g, prior, res->port);
	free(res->port);
	res->port = port;
	ta_logf(log, TA_LOG_INFO,
		"failure: next-hop repair (failure_routes nexthop): %lld of %u destinations keep every entry the failure leaves, %llu LFT blocks change (minimal change: %llu)",
		(long long)n, g->n_dest,
		(unsigned long long)blocks_moved(g, prior, port),
		(unsigned long long)blocks);
	return 0;
}

static int failure_routes(const struct ta_graph *g, const struct ta_home *h,
			  const struct ta_options *o,
			  const struct ta_prior *prior,
			  const struct ta_log *log, int degraded,
			  struct ta_result *res, struct repaired *r)
{
	struct compared c;
	int take, held, relieved;

	if (ta_route_prior(g, o, prior, hold(&c.hk, log), res)) {
		release(&c.hk, 1);
		return -1;
	}
	/*
	 * fat trees keep their rules where the failure came to the fabric
	 * of the routing to return to, unless the escape tree clashed or
	 * destinations still need the escape rule
	 */
	if (ta_graph_layered(g) == 1 && !degraded &&
	    !res->stats.tree_unfit && !res->stats.prior_discarded &&
	    !res->stats.dests_fallback) {
		release(&c.hk, 1);
		return 0;
	}
	if (o->failure_nexthop && !res->layer &&
	    o->mode == TA_MODE_TURN_ADDITION) {
		release(&c.hk, 1);
		return repair(g, prior, log, res);
	}
	if (repaired_held(g, h, o, prior, log, res, &c, r))
		return 0;
	/* over layers, rounds towards the routing to return to first */
	relieved = res->layer &&
		   relieve_to_home(g, h, o, prior, log, res, &c);
	if (held_to_home(g, h, prior, log, res, 0, relieved ? &c : NULL)) {
		release(&c.hk, 1);
		return 0;
	}
	if (route_fresh(g, o, log, res, &c))
		return 0;
	take = ta_graph_layered(g) == 0 ?
		       choose_minimal(g, o, prior, log, res, &c, r) :
		       worse(&c, res);
	/* on one VL only where the routing from scratch moves more blocks */
	held = (res->layer ? take : take == 1) &&
	       held_to_home(g, h, prior, log, res, 1, NULL);
	if (held)
		take = 0;
	pass_lines(&c, take);
	ta_logf(log, TA_LOG_INFO,
		"failure: minimal change against routing from scratch: %llu / %llu LFT blocks change, busiest channel %.1f / %.1f, permutation bandwidth %.4f / %.4f (error of the difference %.4f): %s",
		(unsigned long long)blocks_moved(g, prior, res->port),
		(unsigned long long)blocks_moved(g, prior, c.fresh.port),
		c.u_keep, c.u_new, c.p_keep, c.p_new, c.se_keep,
		take == 2 ? "the routing from scratch taken (as good, fewer LFT blocks)" :
		take ? "the routing from scratch taken (minimal change more than 2 % below it)" :
		held && res->layer ? "minimal change kept (within 2 % of the routing to return to, so paths keep their layers, SLs)" :
		held ? "minimal change kept (within 2 % of the routing to return to)" :
		       "minimal change kept");
	keep(&c, res, take);
	if (take)
		keep_layers(g, o, prior, log, res, 1);
	else if (prior->layer && res->layer)
		ta_logf(log, TA_LOG_INFO,
			"layers: %llu paths of minimal change change layer (SL) (their previous one does not allow their new route)",
			(unsigned long long)sl_changes(g, prior, res));
	return 0;
}

/* a failure off fat trees (see ta_restore.h) */
static int route_failure(const struct ta_graph *g, const struct ta_home *h,
			 const struct ta_options *o,
			 const struct ta_prior *prior, const struct ta_log *log,
			 int degraded, struct ta_result *res)
{
	struct repaired r = { 0 };
	int err = failure_routes(g, h, o, prior, log, degraded, res, &r);

	repaired_free(&r);
	return err;
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
	/* as good on permutations by more than a 100-permutation check
	 * may err (PERM_ERRORS times se), or the same routes */
	take = res->stats.unreachable > c.fresh.stats.unreachable ||
	       (res->stats.unreachable == c.fresh.stats.unreachable &&
		(c.u_keep > c.u_new * (1 + 1e-9) ||
		 c.p_keep < c.p_new * (1 - 1e-9) + PERM_ERRORS * c.se_keep));
	pass_lines(&c, take);
	ta_logf(log, TA_LOG_INFO,
		"restore: no earlier routing of this fabric is kept; minimal change against routing from scratch: busiest channel %.1f / %.1f, permutation bandwidth %.4f / %.4f: %s",
		c.u_keep, c.u_new, c.p_keep, c.p_new,
		take ? "the routing from scratch taken" :
		       "minimal change kept (as good on both)");
	keep(&c, res, take);
	if (take)
		keep_layers(g, o, prior, log, res, 0);
	return 0;
}

/*
 * A restore to a part of the fabric of the routing to return to (off
 * fat trees): routed as a failure, from that routing, of the parts
 * still missing (ta_home_prior()), so it gets the routes such a failure
 * alone gets, whatever failed and came back in between.  0: routed;
 * -1: failed; 1: not such a restore, or no memory for the prior.
 */
static int restore_part(const struct ta_home *h, const struct ta_key_diff *dh,
			const struct ta_graph *g, const struct ta_options *o,
			const struct ta_log *log, struct ta_result *res)
{
	struct ta_prior_buf pb;
	int k, r;

	for (k = 0; k < TA_KEY_KINDS; k++)
		if (dh->only_a[k])
			return 1;
	if (!o->failure_compare || ta_graph_layered(g) != 0 ||
	    ta_home_prior(h, g, &pb))
		return 1;
	ta_logf(log, TA_LOG_INFO,
		"restore: the fabric is the one of routing %u still missing %u switches, %u links and %u LIDs: routed as a failure of those from routing %u (LFT blocks counted against it)",
		h->routing, dh->only_b[TA_KEY_SWITCH], dh->only_b[TA_KEY_LINK],
		dh->only_b[TA_KEY_DEST], h->routing);
	r = route_failure(g, h, o, &pb.prior, log, h->adopted, res);
	ta_prior_buf_free(&pb);
	return r;
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
	    !dl.only_a[TA_KEY_DEST]) {
		int degraded = 0;

		if (!ta_home_empty(h)) {
			ta_fabric_key_diff(last, &h->key, &dh);
			degraded = !ta_key_diff_none(&dh) || h->adopted;
		}
		return ta_key_diff_lost(&dl) && o->failure_compare ?
			       route_failure(g, h, o, prior, log, degraded,
					       res) :
			       ta_route_prior(g, o, prior, log, res);
	}
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

			r = restore_part(h, &dh, g, o, log, res);
			if (r <= 0)
				return r;
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
	if (ta_home_take(h, g, res, key, routing))
		return -1;
	if (((res->layer && res->stats.layers_used) ||
	     (!res->layer && ta_graph_layered(g) == 0)) &&
	    !measure(g, res->port, &h->peak, &h->perm)) {
		h->hosts = hosts_of(g);
		h->measured = 1;
	}
	return 0;
}
