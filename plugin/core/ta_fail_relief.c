// SPDX-License-Identifier: MIT
/*
 * Ways of a failure that move destinations off the busiest channels:
 * relief rounds from minimal change or from the next-hop repair, and
 * the hold to the routing to return to (ta_fail.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ta_fail.h"
#include "ta_hot.h"
#include "ta_repair.h"

/*
 * Minimal change still short of the reference (busiest channel ru,
 * permutation bandwidth rp): up to rounds more ways, each also
 * moving (by the load of the whole way) the destinations that carry
 * most of the load above ru on the busiest channels of the way before
 * (ta_hot_release), the moved set growing round by round.  A way
 * within FAIL_SLACK ends the rounds; a way with the better score
 * replaces res.  o: the options res was routed with.
 */
void relieve(const struct ta_graph *g, const struct ta_options *o,
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

void repaired_free(struct repaired *r)
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
int repaired_within(const struct ta_graph *g,
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
int relieve_to_home(const struct ta_graph *g,
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
int held_to_home(const struct ta_graph *g, const struct ta_home *h,
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
int repaired_held(const struct ta_graph *g, const struct ta_home *h,
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
