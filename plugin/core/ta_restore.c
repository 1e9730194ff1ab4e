// SPDX-License-Identifier: MIT
/*
 * Routing at a resweep: a restore reinstated or compared, a failure by
 * the ways of ta_fail.h (see ta_restore.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ta_fail.h"
#include "ta_repair.h"
#include "ta_restore.h"

static void log_diff(const struct ta_log *log, const char *what,
		     const struct ta_key_diff *dd)
{
	ta_logf(log, TA_LOG_INFO,
		"restore: %s: the fabric has %u switches, %u links and %u LIDs it lacked and lacks %u, %u and %u of its",
		what, dd->only_a[TA_KEY_SWITCH], dd->only_a[TA_KEY_LINK],
		dd->only_a[TA_KEY_DEST], dd->only_b[TA_KEY_SWITCH],
		dd->only_b[TA_KEY_LINK], dd->only_b[TA_KEY_DEST]);
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

/* does res become the routing to return to (ta_home_after())? */
static int takes_home(const struct ta_home *h, const struct ta_fabric_key *key,
		      const struct ta_result *res)
{
	struct ta_key_diff dh;

	if (!key->n || res->stats.reinstated)
		return 0;
	if (ta_home_empty(h))
		return 1;
	ta_fabric_key_diff(key, &h->key, &dh);
	return !ta_key_diff_lost(&dh);	/* else a part is still missing */
}

static int resweep(const struct ta_home *h, const struct ta_fabric_key *key,
		   const struct ta_fabric_key *last, const struct ta_graph *g,
		   const struct ta_options *o, const struct ta_prior *prior,
		   const struct ta_log *log, struct ta_result *res)
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

int ta_route_resweep(const struct ta_home *h, const struct ta_fabric_key *key,
		     const struct ta_fabric_key *last,
		     const struct ta_graph *g, const struct ta_options *o,
		     const struct ta_prior *prior, const struct ta_log *log,
		     struct ta_result *res)
{
	if (resweep(h, key, last, g, o, prior, log, res))
		return -1;
	res->stats.home_new = takes_home(h, key, res);
	return 0;
}

int ta_home_after(struct ta_home *h, const struct ta_graph *g,
		  const struct ta_result *res, const struct ta_fabric_key *key,
		  unsigned routing)
{
	if (!takes_home(h, key, res))
		return 0;
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
