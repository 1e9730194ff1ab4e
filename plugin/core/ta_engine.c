// SPDX-License-Identifier: MIT
/*
 * ta_route(): the routing job (ta_job.h): traffic estimate and the
 * destinations' keys prepared, the turns decided (ta_job_turns.c), every
 * destination routed.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_engine.h"
#include "ta_escape.h"
#include "ta_flow.h"
#include "ta_intree.h"
#include "ta_job.h"
#include "ta_keep.h"
#include "ta_period.h"
#include "ta_root.h"
#include "ta_siblings.h"
#include "ta_spine_spread.h"
#include "ta_traffic.h"
#include "ta_turn_class.h"

/*
 * spread[d], the destination's place among equal next hops (see
 * ta_intree.h).  With m LIDs a host port (m = 2^LMC, the most LIDs any
 * host port has; 1 without LMC), LID offset o of a host on switch port p
 * has spread (p - 1) * m + o, and LID offset o of a switch's port 0 has
 * i * m + o (i: the switch's index, switches are in GUID order).  It
 * depends on the port position only, not on which other hosts are
 * present, so it stays put when hosts come and go.
 *
 * A leaf with S spines sends spread x through spine x mod S, so a
 * port's m LIDs climb through m consecutive spines (min(m, S) distinct
 * ones: the path diversity LMC is for), and the ranks r with the same
 * r * m mod S, i.e. the same r mod S / gcd(S, m), use the same spines.
 * lid_assign groups exactly those ranks (and the switches of the same
 * index mod S / gcd(S, m)) into one block-aligned LID range, so the
 * LIDs one spine carries lie in the ranges of the few groups that use
 * it (lid_assign/README, "LMC").  Without LMC (m = 1) a rank is its own
 * spine's: hosts on the same port of every leaf climb through the same
 * spine, and port-major LIDs give each spine one contiguous range.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The LID offset of every destination in its port's range; returns m,
 * the most LIDs a host port has (at most 128, OpenSM's LMC 7: a larger
 * count only comes from a malformed graph and must not overflow keys).
 */
static uint32_t lid_offsets(const struct ta_graph *g, const uint64_t *key,
			    uint32_t *off)
{
	uint32_t k, m = 1;

	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = (uint32_t)(key[k] & 0xfffff);

		off[d] = 0;
		if (k && key[k - 1] >> 36 == key[k] >> 36)
			off[d] = off[key[k - 1] & 0xfffff] + 1;
		if (g->dest[d].is_host && off[d] + 1 > m)
			m = off[d] + 1;
	}
	return m < 128 ? m : 128;
}

/* 0, 1 (LIDs in spine sets on a two-level tree), -1 out of memory */
static int make_spread(const struct ta_graph *g, uint32_t *spread)
{
	/* key: switch (20 bits), port, LID, destination index (20 bits) */
	uint64_t *key = malloc((g->n_dest + 1) * sizeof(*key));
	uint32_t d, m;

	if (!key || g->n_sw >= 1u << 20 || g->n_dest >= 1u << 20) {
		free(key);
		return -1;
	}
	for (d = 0; d < g->n_dest; d++)
		key[d] = (uint64_t)g->dest[d].sw << 44 |
			 (uint64_t)g->dest[d].port << 36 |
			 (uint64_t)g->dest[d].lid << 20 | d;
	qsort(key, g->n_dest, sizeof(*key), cmp_u64);
	m = lid_offsets(g, key, spread);
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];

		spread[d] += (x->port ? x->port - 1u : x->sw) * m;
	}
	free(key);
	/* 2^LMC not dividing the spines: their sets (ta_spine_spread.h) */
	return ta_spine_spread(g, m, spread);
}

/*
 * The destination's key for the digit-by-digit choice (ta_intree.h):
 * its rank on its switch plus the switch index times the number of
 * host ranks, so the low digit is the rank (the leaves' choice) and the
 * next ones count switches.  When every switch with hosts has the same
 * number P of neighbour switches (a fat tree's leaves and their
 * spines), the number of ranks is rounded up to P, so a leaf sends
 * rank r through neighbour r mod P whatever the switch.  Oversubscribed
 * leaves (R > P): the key is r mod P + P * (r / P + switch), so ranks
 * r, r + P, ... share a spine, and so do the port-major LIDs of
 * lid_assign, which groups them by the same P; the next digit is the
 * switch plus r / P (not the switch times the ranks rounded up: with a
 * factor in common with the next level's number of hops, that digit
 * reaches only some of them, e.g. 2 of 6 fabric switches of a director
 * with 12 ranks on 11 directors).
 * Where P does not divide R (LMC 0, 2-level), by chunks of (rank, leaf)
 * positions instead (ta_period_chunk_keys(), which also gives the
 * leaves' rotation: *leaf_rot, else left NULL).
 */
static void spread_to_key(const struct ta_graph *g, uint32_t *spread,
			  uint32_t **leaf_rot)
{
	uint32_t d, ranks = 1, period = ta_graph_leaf_period(g);

	if (ta_period_chunk_keys(g, period, spread, leaf_rot))
		return;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].is_host && spread[d] + 1 > ranks)
			ranks = spread[d] + 1;
	if (period && ranks > period) {	/* oversubscribed leaves */
		for (d = 0; d < g->n_dest; d++)
			spread[d] = spread[d] % period +
				    period * (spread[d] / period +
					      g->dest[d].sw);
		return;
	}
	if (period)
		ranks = period;
	for (d = 0; d < g->n_dest; d++)
		spread[d] += ranks * g->dest[d].sw;
}

/* destination indices grouped by switch, so per-switch work is cached */
static uint32_t *order_by_switch(const struct ta_graph *g)
{
	uint32_t *cnt = calloc(g->n_sw + 1, sizeof(*cnt));
	uint32_t *ord = malloc((g->n_dest + 1) * sizeof(*ord));
	uint32_t d, s, sum = 0;

	if (!cnt || !ord) {
		free(cnt);
		free(ord);
		return NULL;
	}
	for (d = 0; d < g->n_dest; d++)
		cnt[g->dest[d].sw]++;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t c = cnt[s];

		cnt[s] = sum;
		sum += c;
	}
	for (d = 0; d < g->n_dest; d++)
		ord[cnt[g->dest[d].sw]++] = d;
	free(cnt);
	return ord;
}

static int prepare(struct route_job *j)
{
	const struct ta_graph *g = j->g;
	uint32_t n_d = g->n_dest + 1, d;
	int r;

	if (j->o->traffic) {
		j->tr = j->o->traffic;	/* loaded by the caller */
		r = ta_traffic_uniform(&j->traffic);	/* unused */
	} else if (j->o->traffic_file) {
		r = ta_traffic_load(&j->traffic, j->o->traffic_file, j->log);
		j->tr = &j->traffic;
	} else {
		r = ta_traffic_uniform(&j->traffic);
		j->tr = &j->traffic;
	}
	if (r)
		return -1;
	j->group = malloc(n_d * sizeof(*j->group));
	j->spread = malloc(n_d * sizeof(*j->spread));
	j->turn_w = calloc(g->n_turn_slots + 1, sizeof(*j->turn_w));
	j->piece_size = calloc(g->n_sw + 1, sizeof(*j->piece_size));
	if (!j->group || !j->spread || !j->turn_w || !j->piece_size ||
	    (r = make_spread(g, j->spread)) < 0 ||
	    ta_cdg_init(&j->cdg, g) ||
	    !(j->by_switch = order_by_switch(g)))
		goto oom;
	j->sets_2level = r == 1;
	spread_to_key(g, j->spread, &j->leaf_rot);
	for (d = 0; d < g->n_dest; d++)
		j->group[d] = ta_traffic_group_of(j->tr, g->dest[d].guid,
						  g->dest[d].name);
	return 0;
oom:
	ta_logf(j->log, TA_LOG_ERROR, "out of memory preparing the routing");
	return -1;
}

int route_all(struct route_job *j, struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	struct ta_intree t;
	struct ta_keep keep = { 0 };
	struct ta_sibs sibs;	/* LMC > 0: port by port (ta_siblings.h) */
	struct columns cols = { .n = 0 };
	int keeping = j->all_carried && j->prior && j->prior->last_port;
	uint8_t *kept = calloc(g->n_dest + 1, 1);
	uint8_t *used = NULL;	/* destinations for minor_second_pass() */
	uint8_t *bused = NULL;	/* ... for bal_second_pass() */
	uint32_t k, same_sw = UINT32_MAX;
	int err = 0;

	if (j->minor_load)
		memset(j->minor_load, 0,
		       2 * (size_t)g->n_links * sizeof(*j->minor_load));
	if (j->bal_load)
		memset(j->bal_load, 0,
		       2 * (size_t)g->n_links * sizeof(*j->bal_load));
	/* the rerouted destinations see the load of the routes kept */
	if (ta_sibs_init(&sibs, g, j->prior) || ta_intree_init(&t, g) ||
	    (keeping && ta_keep_init(&keep, g)) ||
	    !kept || !(cols.buf = malloc((size_t)COLS * g->n_sw + 1)) ||
	    (keeping && find_kept(j, &keep, kept)) ||
	    (j->bal_load && keeping && !j->o->reroute_plain &&
	     ta_flow_add_ports(&j->bal_flow, g, j->prior->last_port, kept,
			       j->group, j->bal_load))) {
		ta_sibs_free(&sibs);
		ta_intree_free(&t);
		ta_keep_free(&keep);
		free(kept);
		free(cols.buf);
		return -1;
	}
	t.leaf_rot = j->leaf_rot;
	/* not with LMC siblings: the pass keeps no sibling order */
	if (j->minor_load && !sibs.order)
		used = calloc(g->n_dest + 1, 1);
	if (j->bal_unit > 0 && !(j->prior && j->prior->home_port))
		bused = calloc(g->n_dest + 1, 1);
	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = sibs.order ? sibs.order[k] : j->by_switch[k];
		uint32_t sw = g->dest[d].sw, got;
		struct ta_choice ch = { .spread = j->spread[d],
					.sets_2level = j->sets_2level };
		uint8_t *col;

		if (kept[d]) {
			res->stats.dests_kept++;
			continue;
		}

		if (j->prior && j->prior->home_port) {
			ch.home = j->prior->home_port + d;
			ch.home_stride = g->n_dest;
			ch.home_fixed = !j->o->reroute_plain;
			if (j->prior->release && j->prior->release[d] &&
			    j->prior->avoid) {
				ch.home_fixed = 1;
				ch.avoid = j->prior->avoid;
			} else if (j->prior->release && j->prior->release[d]) {
				ch.home_fixed = 0;
				ch.home_bias = RELEASE_BIAS;
			}
		}
		if (j->minor_load && j->cls.has_minor[j->group[d]]) {
			ch.main_sw = j->cls.main_sw +
				     (size_t)j->group[d] * g->n_sw;
			ch.load = j->minor_load;
			if (used && !ch.home && g->dest[d].is_host)
				used[d] = 1;
		} else if (j->bal_load) {
			ch.main_sw = j->bal_main;
			ch.load = j->bal_load;
			ch.same = j->bal_same;
			if (sw != same_sw)
				memset(j->bal_same, 0, 2 * (size_t)g->n_links *
				       sizeof(*j->bal_same));
			same_sw = sw;
		}
		ta_sibs_for(&sibs, d, kept, &ch);
		got = 0;
		if (j->bal_unit > 0 && ch.load == j->bal_load && !ch.n_sib)
			got = ta_intree_weighted(&t, j->cdg.state, sw, &ch,
						 j->bal_unit);
		if (got && bused)
			bused[d] = g->dest[d].is_host;
		/* a switch stranded: the shortest paths may reach it */
		if (got && got < j->piece_size[j->esc.piece[sw]])
			got = ta_intree_build(&t, j->cdg.state, NULL, sw, &ch);
		if (!got)
			got = ta_intree_fast(&t, j->cdg.state, sw, &ch);
		if (!got)
			got = ta_intree_build(&t, j->cdg.state, NULL, sw, &ch);
		if (got < j->piece_size[j->esc.piece[sw]] && j->no_escape) {
			j->escape_needed = 1;
			break;
		}
		if (got < j->piece_size[j->esc.piece[sw]]) {
			ta_intree_build(&t, j->cdg.state, &j->esc, sw, &ch);
			res->stats.dests_fallback++;
		}
		col = next_column(g, &cols, d, res);
		write_routes(g, &t, d, col, res);
		ta_sibs_routed(&sibs, d, col);
		if (j->measure && g->dest[d].is_host)
			ta_flow_add(&j->flow, g, &t, j->group[d], NULL,
				    j->load);
		if (j->minor_load && g->dest[d].is_host)
			ta_flow_add(&j->minor_flow, g, &t, j->group[d], NULL,
				    j->minor_load);
		if (j->bal_load && g->dest[d].is_host)
			ta_flow_add(&j->bal_flow, g, &t, j->group[d], NULL,
				    j->bal_load);
		if (ch.same)
			count_same(g, &t, j->bal_same);
	}
	flush_columns(g, &cols, res);
	if (keeping)
		write_kept(j, kept, res);
	if (j->escape_needed) {
		free(bused);
		bused = NULL;
		free(used);
		used = NULL;
	}
	if ((used || bused) && !j->chan_tmp) {
		j->chan_tmp = calloc(2 * (size_t)g->n_links + 1,
				     sizeof(*j->chan_tmp));
		j->col = malloc(g->n_sw + 1);
	}
	if ((used || bused) && (!j->chan_tmp || !j->col))
		err = -1;
	else if (used)
		minor_second_pass(j, &t, used, res);
	for (k = 0; !err && bused && k < BAL_PASSES; k++)
		bal_second_pass(j, &t, bused, res);
	free(bused);
	free(used);
	free(cols.buf);
	free(kept);
	ta_sibs_free(&sibs);
	ta_intree_free(&t);
	ta_keep_free(&keep);
	return err;
}

static void count_turns(const struct route_job *j, struct ta_stats *st)
{
	uint32_t k;

	for (k = 0; k < j->g->n_turn_slots; k++) {
		if (j->cdg.state[k] == TA_TURN_ALLOWED)
			st->turns_allowed++;
		else if (j->cdg.state[k] == TA_TURN_PROHIBITED)
			st->turns_prohibited++;
	}
	st->turns = st->turns_allowed + st->turns_prohibited;
}

static void job_free(struct route_job *j)
{
	ta_traffic_free(&j->traffic);
	free(j->group);
	free(j->spread);
	free(j->leaf_rot);
	free(j->by_switch);
	free(j->turn_w);
	ta_classes_free(&j->cls);
	ta_flow_free(&j->minor_flow);
	free(j->minor_load);
	free(j->minor_save);
	free(j->chan_tmp);
	free(j->col);
	ta_flow_free(&j->bal_flow);
	free(j->bal_load);
	free(j->bal_main);
	free(j->bal_same);
	free(j->piece_size);
	ta_cdg_free(&j->cdg);
	ta_escape_free(&j->esc);
	ta_flow_free(&j->flow);
	free(j->load);
}

int ta_route(const struct ta_graph *g, const struct ta_options *o,
	     const struct ta_log *log, struct ta_result *res)
{
	return ta_route_prior(g, o, NULL, log, res);
}

/*
 * The core fails (-1) only when: it reads traffic_file itself (no
 * o->traffic) and the file is bad; memory runs out; the graph is not
 * finalized; it has 2^20 switches or LIDs or more (make_spread).  An
 * escape_root that is not in g is no failure (ta_root.h).  What the
 * plugin does with each at a resweep: plugin/turnadd_routing.c.
 */
static int route_job(const struct ta_graph *g, const struct ta_options *o,
		     const struct ta_prior *prior, const struct ta_log *log,
		     struct ta_result *res, int no_trial)
{
	struct route_job j = { .g = g, .o = o, .prior = prior, .log = log,
			       .no_trial = no_trial & 1,
			       .keep_try = prior && !(no_trial & 2),
			       .reopen = (no_trial & 4) != 0 };
	const struct ta_stats st0 = { 0 };
	double t0 = now();
	uint32_t d;

	memset(res, 0, sizeof(*res));
	if (!g->finalized) {
		ta_logf(log, TA_LOG_ERROR, "internal error: graph not finalized");
		return -1;
	}
	res->n_sw = g->n_sw;
	res->n_dest = g->n_dest;
	res->port = malloc((size_t)g->n_sw * g->n_dest + 1);
	if (!res->port || prepare(&j) || measure_init(&j) ||
	    decide_turns(&j, &res->stats) || balance_init(&j) ||
	    route_all(&j, res) ||
	    (j.measure && !j.escape_needed &&
	     try_tp_candidate(&j, res, &st0) < 0) ||
	    (o->vls > 1 && !j.escape_needed && route_layers(&j, res))) {
		job_free(&j);
		ta_result_free(res);
		return -1;
	}
	if (j.escape_needed) {
		/* the kept decisions do not reach everything: decide anew */
		job_free(&j);
		ta_result_free(res);
		ta_logf(log, TA_LOG_INFO,
			"over the kept turn decisions a destination cannot reach every switch: the escape tree's turns are allowed first and the others decided again");
		return route_job(g, o, prior, log, res, no_trial | 2);
	}
	/* a configured root that is gone: one line, naming the one used */
	ta_root_log_missing(&j.root, g, j.esc.root, log);
	res->stats.least_cost = j.bal_unit > 0;
	count_turns(&j, &res->stats);
	res->stats.switches = g->n_sw;
	res->stats.links = g->n_links;
	res->stats.dests = g->n_dest;
	for (d = 0; d < g->n_dest; d++)
		res->stats.hosts += g->dest[d].is_host;
	res->stats.escape_root = j.esc.root;
	res->stats.pieces = j.esc.n_pieces;
	if (prior) {
		res->stats.switches_gone = prior->switches_gone;
		res->stats.dests_gone = prior->dests_gone;
		res->stats.switches_new = prior->switches_new;
	}
	res->stats.cycle_check_visits = j.cdg.searched;
	res->turn_state = j.cdg.state;
	j.cdg.state = NULL;
	if (o->mode != TA_MODE_TURN_PROHIBITION) {
		/* its turns are allowed (TP does not allow them) */
		res->escape_parent = j.esc.parent_end;
		j.esc.parent_end = NULL;
	}
	job_free(&j);
	res->stats.seconds = now() - t0;
	return 0;
}

/*
 * A resweep that kept every decision but left destinations to the
 * escape rule (the failed part carried the turns they need) is made
 * again with the prohibited turns that no longer close a cycle allowed
 * first (allow_fitting); the retry is taken where fewer destinations
 * need the escape rule.
 */
static int route_once(const struct ta_graph *g, const struct ta_options *o,
		      const struct ta_prior *prior, const struct ta_log *log,
		      struct ta_result *res, int no_trial)
{
	struct ta_result more;

	if (route_job(g, o, prior, log, res, no_trial))
		return -1;
	if (!prior || !res->stats.dests_fallback ||
	    o->mode != TA_MODE_TURN_ADDITION || res->stats.prior_discarded ||
	    res->stats.turns_kept < res->stats.turns ||
	    route_job(g, o, prior, NULL, &more, no_trial | 4))
		return 0;
	ta_logf(log, TA_LOG_INFO,
		"%u destinations needed the escape rule over the kept turn decisions; with the prohibited turns that no longer close a cycle allowed, %u: %s",
		res->stats.dests_fallback, more.stats.dests_fallback,
		more.stats.dests_fallback < res->stats.dests_fallback ?
			"taken" : "not taken");
	if (more.stats.dests_fallback < res->stats.dests_fallback) {
		ta_result_free(res);
		*res = more;
	} else {
		ta_result_free(&more);
	}
	return 0;
}

/*
 * The LFT blocks r changes against the prior (a 64-LID block of a
 * switch with an entry that differs), what OpenSM's update sends; ~0 on
 * allocation failure.
 */
static uint64_t moved(const struct ta_graph *g, const struct ta_prior *p,
		      const struct ta_result *r)
{
	uint8_t *blk = malloc(1024);	/* LIDs < 65536: 1024 blocks */
	uint64_t cnt = 0;
	uint32_t s, d;

	if (!blk)
		return ~0ull;
	for (s = 0; s < g->n_sw; s++) {
		memset(blk, 0, 1024);
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * g->n_dest + d;
			uint32_t b = g->dest[d].lid / 64u;

			if (r->port[k] != p->last_port[k] && !blk[b]) {
				blk[b] = 1;
				cnt++;
			}
		}
	}
	free(blk);
	return cnt;
}

/*
 * The configured root is back while the previous routing used another
 * (ta_root.h): it is taken again only if that changes no more LFT
 * blocks than keeping the current root, the ordinary restore.  Both are routed
 * without logging, then the cheaper once more with the log (so its lines
 * are those of the routing used), and one line says what was compared.
 */
static int route_root_back(const struct ta_graph *g,
			   const struct ta_options *o,
			   const struct ta_prior *prior,
			   const struct ta_log *log, struct ta_result *res,
			   uint64_t want)
{
	struct ta_result keep, back;
	uint64_t m_keep, m_back, root_keep;
	int take, clash;

	if (route_once(g, o, prior, NULL, &keep, 1))
		return route_once(g, o, prior, log, res, 0);
	if (route_once(g, o, prior, NULL, &back, 0)) {
		ta_result_free(&keep);
		return route_once(g, o, prior, log, res, 0);
	}
	m_keep = moved(g, prior, &keep);
	m_back = moved(g, prior, &back);
	root_keep = g->sw[keep.stats.escape_root].guid;
	clash = g->sw[back.stats.escape_root].guid != want;
	take = !clash && m_back <= m_keep;
	ta_result_free(&keep);
	ta_result_free(&back);
	if (route_once(g, o, prior, log, res, !take))
		return -1;
	if (take)
		ta_logf(log, TA_LOG_INFO,
			"escape_root 0x%016llx is back and taken again: %llu LFT blocks change, as many or more would with the current root 0x%016llx",
			(unsigned long long)want, (unsigned long long)m_back,
			(unsigned long long)root_keep);
	else
		ta_logf(log, TA_LOG_INFO,
			"escape_root 0x%016llx is back but not taken again: the escape tree stays at 0x%016llx (%llu LFT blocks change; %s); it is taken at the next routing from scratch (OpenSM start or takeover)",
			(unsigned long long)want,
			(unsigned long long)root_keep,
			(unsigned long long)m_keep,
			clash ? "its tree clashes with the kept turn decisions" :
			"taking it would move more");
	return 0;
}

int ta_route_prior(const struct ta_graph *g, const struct ta_options *o,
		   const struct ta_prior *prior, const struct ta_log *log,
		   struct ta_result *res)
{
	struct ta_root_choice rc;

	if (!prior || !prior->last_port || !prior->turn_state ||
	    o->mode != TA_MODE_TURN_ADDITION || !g->finalized)
		return route_once(g, o, prior, log, res, 0);
	ta_root_choose(&rc, g, o->escape_root_guid, prior->escape_root_guid,
		       1);
	if (!rc.trial)
		return route_once(g, o, prior, log, res, 0);
	return route_root_back(g, o, prior, log, res, rc.trial);
}

void ta_result_free(struct ta_result *res)
{
	free(res->port);
	free(res->turn_state);
	free(res->escape_parent);
	free(res->layer);
	free(res->turn_layers);
	res->turn_layers = NULL;
	res->escape_parent = NULL;
	res->layer = NULL;
	res->port = NULL;
	res->turn_state = NULL;
}
