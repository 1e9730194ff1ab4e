// SPDX-License-Identifier: MIT
/* ta_route(): traffic estimate, escape tree, turn addition, routes. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ta_cdg.h"
#include "ta_cut_tree.h"
#include "ta_engine.h"
#include "ta_escape.h"
#include "ta_flow.h"
#include "ta_intree.h"
#include "ta_keep.h"
#include "ta_minor_pass.h"
#include "ta_minor_roots.h"
#include "ta_perm.h"
#include "ta_period.h"
#include "ta_root.h"
#include "ta_siblings.h"
#include "ta_spine_spread.h"
#include "ta_traffic.h"
#include "ta_turn_class.h"
#include "ta_turnadd.h"
#include "ta_turnprohib.h"

struct route_job {
	const struct ta_graph *g;
	const struct ta_options *o;
	const struct ta_prior *prior;	/* NULL: route from scratch */
	const struct ta_log *log;
	struct ta_traffic traffic;	/* owned when read here */
	const struct ta_traffic *tr;	/* traffic or the options' groups */
	struct ta_root_choice root;
	int no_trial;		/* keep the previous root even if the
				 * configured one is back */
	uint32_t *group;	/* per destination */
	uint32_t *spread;	/* per destination */
	uint32_t *leaf_rot;	/* chunk keys: struct ta_intree's, or NULL
				 * (ta_period_chunk_keys()) */
	uint8_t sets_2level;	/* LIDs in spine sets on a two-level tree
				 * (ta_spine_spread()) */
	uint32_t *by_switch;	/* destination indices grouped by switch */
	double *turn_w;		/* per turn slot */
	struct ta_classes cls;	/* minor traffic (ta_turn_class.h) */
	struct ta_flow minor_flow;	/* of cls.minor, when cls has it */
	double *minor_load;	/* per channel, as destinations are routed */
	double minor_unit;	/* ta_intree_reweigh_minor()'s unit, or 0 */
	uint32_t *minor_save;	/* its room */
	/* the second passes' room, allocated at the first that runs */
	double *chan_tmp;	/* per channel, all zero between uses */
	uint8_t *col;		/* one destination's column */
	/*
	 * Fabrics that are not tree-like (not_tree_like(): random
	 * nets, tori): equal next hops chosen by the load of the routes so far
	 * (bal_load, of tr scaled so the largest sender sends 1), not by
	 * index; bal_main all zero (struct ta_choice's main_sw: no switch
	 * keeps the index rule).  Destinations with minor traffic keep
	 * the minor rule.
	 */
	struct ta_flow bal_flow;
	double *bal_load;
	uint8_t *bal_main;
	uint32_t *bal_same;	/* struct ta_choice's same */
	double bal_unit;	/* ta_intree_weighted()'s unit, 0: not used */
	struct ta_cdg cdg;
	struct ta_escape esc;
	uint32_t *piece_size;
	int all_carried;	/* every turn decided by the prior */
	/*
	 * A resweep whose escape tree does not fit the kept decisions (a
	 * part of it failed): every decision is kept and routes use the
	 * allowed turns only, without the escape tree (no_escape).  If a
	 * destination cannot reach every switch that way (escape_needed),
	 * the routing is made again the other way (redecide_around_tree).
	 */
	int keep_try;		/* this routing may try it */
	int reopen;		/* allow_fitting() before routing */
	int no_escape;
	int escape_needed;
	/* bring-up (try_tp_candidate()): channel loads of the routes */
	int measure;
	struct ta_flow flow;
	double *load;		/* per channel */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

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
 * reached only some of them, e.g. 2 of 6 fabric switches of a director
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

/* takes over the prior's decisions on the turns that still exist */
static uint64_t carry_turns(struct route_job *j)
{
	const uint8_t *prev = j->prior ? j->prior->turn_state : NULL;
	uint64_t kept = 0;
	uint32_t k;

	j->all_carried = prev != NULL;
	for (k = 0; prev && k < j->g->n_turn_slots; k++) {
		if (j->cdg.state[k] == TA_TURN_USELESS)
			continue;
		if (prev[k] == TA_TURN_ALLOWED ||
		    prev[k] == TA_TURN_PROHIBITED) {
			j->cdg.state[k] = prev[k];
			kept++;
		} else {
			j->all_carried = 0;
		}
	}
	ta_cdg_touch(&j->cdg);
	return kept;
}

/*
 * state, if given: parents whose turns it allows come first.  The root
 * is j->root.guid (ta_root.h).
 */
static int build_escape(struct route_job *j, const uint8_t *state)
{
	ta_escape_free(&j->esc);
	return ta_escape_build(&j->esc, j->g, j->turn_w, state, j->root.guid);
}

/*
 * The configured root is back (ta_root.h): build its tree over the kept
 * decisions; if every tree turn fits, it is the root.  Else the
 * decisions are carried afresh and the previous root stays.  Returns 1
 * taken, 0 not taken, -1 out of memory.
 */
static uint64_t carry_turns(struct route_job *j);

static int try_configured_root(struct route_job *j, uint64_t *kept)
{
	uint64_t prev_root = j->root.guid;
	int fits;

	j->root.guid = j->root.trial;
	if (build_escape(j, j->cdg.state))
		return -1;
	fits = !ta_escape_allow_turns(&j->esc, &j->cdg);
	if (fits)
		return 1;
	j->root.guid = prev_root;
	ta_cdg_free(&j->cdg);
	if (ta_cdg_init(&j->cdg, j->g))
		return -1;
	*kept = carry_turns(j);
	return 0;
}

/*
 * The carried decisions clash with this sweep's escape tree (e.g. its
 * root died): start from the tree's turns, keep every previous
 * prohibition, and let turn addition decide the previously allowed and
 * the new turns by weight.  Most previous decisions come back; only
 * those that would close a cycle with the tree flip.
 */
static int redecide_around_tree(struct route_job *j)
{
	const struct ta_graph *g = j->g;
	const uint8_t *prev = j->prior->turn_state;
	uint32_t k;

	ta_cdg_free(&j->cdg);
	if (ta_cdg_init(&j->cdg, g) || build_escape(j, prev))
		return -1;
	if (ta_escape_allow_turns(&j->esc, &j->cdg))
		return -1;	/* cannot happen: tree turns alone are acyclic */
	for (k = 0; k < g->n_turn_slots; k++)
		if (j->cdg.state[k] == TA_TURN_UNDECIDED &&
		    prev[k] == TA_TURN_PROHIBITED)
			j->cdg.state[k] = TA_TURN_PROHIBITED;
	ta_cdg_touch(&j->cdg);
	return 0;
}

/*
 * The prior's escape tree is not turn addition's own (struct ta_prior,
 * escape_carry): it is rebuilt from its links that are still there
 * (ta_escape_carry), rooted at the configured root coming back if any,
 * else at the root choice.  If every tree turn fits the kept decisions
 * the tree is taken (1); else the decisions are carried afresh and the
 * ordinary tree follows (0).  -1: out of memory.
 */
static int try_carried_tree(struct route_job *j, uint64_t *kept,
			    struct ta_stats *st)
{
	uint64_t root = j->root.trial ? j->root.trial : j->root.guid;

	ta_escape_free(&j->esc);
	if (ta_escape_carry(&j->esc, j->g, j->prior->escape_parent,
			    j->turn_w, j->cdg.state, root))
		return -1;
	if (!ta_escape_allow_turns(&j->esc, &j->cdg)) {
		if (j->root.trial)
			j->root.guid = j->root.trial;
		st->tree_carried = 1;
		return 1;
	}
	ta_cdg_free(&j->cdg);
	if (ta_cdg_init(&j->cdg, j->g))
		return -1;
	*kept = carry_turns(j);
	return 0;
}

static double shortest_mean_load(const struct route_job *j,
				 const struct ta_flow *f);

/* j->cls: minor traffic and its turns (ta_turn_class.h), if any */
static int find_light(struct route_job *j)
{
	int64_t n = ta_classes_find(&j->cls, j->g, j->tr, j->group, j->spread,
				    j->by_switch, j->turn_w);

	if (n < 0)
		return -1;
	if (!n)		/* no turn only minor: one class, as without */
		ta_classes_free(&j->cls);
	if (!j->cls.main_sw)
		return 0;
	ta_logf(j->log, TA_LOG_INFO,
		"traffic classes: %lld turns carry only minor traffic (weights below 1/%g of the largest): decided after the others, nearest the escape root first; equal next hops for minor traffic chosen by its load, then each destination's minor routes made again under the others' load (longer paths too, where they load less)",
		(long long)n, TA_MINOR_RATIO);
	j->minor_load = calloc(2 * (size_t)j->g->n_links + 1,
			       sizeof(*j->minor_load));
	j->minor_save = malloc((3 * (size_t)j->g->n_sw + 1) *
			       sizeof(*j->minor_save));
	if (!j->minor_load || !j->minor_save ||
	    ta_flow_init(&j->minor_flow, j->g, &j->cls.minor, j->group))
		return -1;
	if (!(j->o->experiment & TA_EXP_HOP_CHOICE))
		j->minor_unit = shortest_mean_load(j, &j->minor_flow);
	if (j->minor_unit < 0)
		return -1;
	/* try_tp_candidate() compares the main traffic's loads first */
	if (j->measure) {
		ta_flow_free(&j->flow);
		if (ta_flow_init(&j->flow, j->g, &j->cls.main, j->group))
			return -1;
	}
	return 0;
}

/*
 * The turn weights from routes that ignore turn restrictions.  Skipped
 * when the prior decided every turn: the weights would then only order
 * the escape tree's ties (all zero instead).
 */
static int estimate_traffic(struct route_job *j, struct ta_stats *st)
{
	uint32_t k;

	if (st->traffic_estimated)
		return 0;
	st->traffic_estimated = 1;
	if (ta_turn_traffic(j->g, j->tr, j->group, j->spread,
			    j->by_switch, j->turn_w))
		return -1;
	if (j->o->experiment & TA_EXP_FLAT_WEIGHTS) {
		for (k = 0; k < j->g->n_turn_slots; k++)
			j->turn_w[k] = 1.0;
		return 0;
	}
	/* the reference modes keep the paper's decisions and choice */
	return j->o->mode == TA_MODE_TURN_ADDITION ? find_light(j) : 0;
}

/* mode turn_prohibition: the paper's TP instead of tree + addition */
static int decide_turns_tp(struct route_job *j, struct ta_stats *st)
{
	uint32_t s;

	if (estimate_traffic(j, st) ||
	    ta_turnprohib_decide(&j->cdg, j->turn_w, NULL, &j->esc, j->log))
		return -1;
	for (s = 0; s < j->g->n_sw; s++)
		j->piece_size[j->esc.piece[s]]++;
	return 0;
}

/*
 * The previous root is gone (ta_root.h): the first switches of the
 * automatic ranking are tried in turn; the first whose tree fits the
 * kept decisions is the root (1).  0: none fits, the automatic choice
 * follows; -1: out of memory.
 */
#define MAX_ROOT_TRIALS 8u

static int try_replacement_roots(struct route_job *j, uint64_t *kept)
{
	uint32_t cand[MAX_ROOT_TRIALS], n, i;

	n = ta_escape_rank_roots(j->g, j->turn_w, cand, MAX_ROOT_TRIALS);
	for (i = 0; i < n; i++) {
		j->root.guid = j->g->sw[cand[i]].guid;
		if (build_escape(j, j->cdg.state))
			return -1;
		if (!ta_escape_allow_turns(&j->esc, &j->cdg)) {
			j->root.fitted = 1;
			return 1;
		}
		ta_cdg_free(&j->cdg);
		if (ta_cdg_init(&j->cdg, j->g))
			return -1;
		*kept = carry_turns(j);
	}
	j->root.guid = 0;
	return 0;
}

static const double *sort_w;

static int by_weight_desc(const void *a, const void *b)
{
	double x = sort_w[*(const uint32_t *)a], y = sort_w[*(const uint32_t *)b];

	if (x != y)
		return x < y ? 1 : -1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/*
 * The prohibited turns that close no cycle with the allowed ones (a
 * failure removed the channels of the cycles they closed) are allowed,
 * heaviest first.  Returns how many, -1 out of memory.
 */
static int64_t allow_fitting(struct route_job *j)
{
	const struct ta_graph *g = j->g;
	uint32_t *list = malloc(((size_t)g->n_turn_slots + 1) * sizeof(*list));
	uint32_t s, i, k, n = 0;
	int64_t more = 0;

	if (!list)
		return -1;
	for (k = 0; k < g->n_turn_slots; k++)
		if (j->cdg.state[k] == TA_TURN_PROHIBITED)
			list[n++] = k;
	sort_w = j->turn_w;
	qsort(list, n, sizeof(*list), by_weight_desc);
	sort_w = NULL;
	for (k = 0; k < n; k++) {
		uint32_t t = list[k], lo = 0, hi = g->n_sw, ne, o;

		while (hi - lo > 1) {	/* the switch of turn slot t */
			uint32_t mid = lo + (hi - lo) / 2;

			if (g->sw[mid].turn_base <= t)
				lo = mid;
			else
				hi = mid;
		}
		s = lo;
		ne = g->sw[s].n_ends;
		i = (t - g->sw[s].turn_base) / ne;
		o = (t - g->sw[s].turn_base) % ne;
		j->cdg.state[t] = TA_TURN_UNDECIDED;
		if (ta_cdg_closes_cycle(&j->cdg, s, i, o)) {
			j->cdg.state[t] = TA_TURN_PROHIBITED;
		} else {
			ta_cdg_allow(&j->cdg, s, i, o);
			more++;
		}
	}
	free(list);
	return more;
}

static int decide_turns(struct route_job *j, struct ta_stats *st)
{
	const struct ta_graph *g = j->g;
	uint64_t kept;
	uint32_t s, k;
	int taken = 0, clash;

	if (j->o->experiment)
		ta_logf(j->log, TA_LOG_INFO,
			"experiment:%s%s%s%s (analysis only, not for production)",
			j->o->experiment & TA_EXP_NO_TREE_FIRST ?
				" no_tree_first" : "",
			j->o->experiment & TA_EXP_FLAT_WEIGHTS ?
				" flat_weights" : "",
			j->o->experiment & TA_EXP_INDEX_CHOICE ?
				" index_choice" : "",
			j->o->experiment & TA_EXP_HOP_CHOICE ?
				" hop_choice" : "");
	if (j->o->mode == TA_MODE_TURN_PROHIBITION)
		return decide_turns_tp(j, st);
	kept = j->o->mode == TA_MODE_TURN_ADDITION ? carry_turns(j) : 0;
	ta_root_choose(&j->root, g, j->o->escape_root_guid,
		       j->prior ? j->prior->escape_root_guid : 0, kept > 0);
	if (j->o->mode == TA_MODE_TURN_ADDITION && !j->all_carried &&
	    estimate_traffic(j, st))
		return -1;
	if (j->no_trial)
		j->root.trial = 0;
	if (j->reopen && kept &&
	    (estimate_traffic(j, st) || allow_fitting(j) < 0))
		return -1;
	if (j->o->mode == TA_MODE_TURN_ADDITION && kept &&
	    j->prior->escape_carry && j->prior->escape_parent &&
	    (taken = try_carried_tree(j, &kept, st)) < 0)
		return -1;
	if (!taken && j->root.trial &&
	    (taken = try_configured_root(j, &kept)) < 0)
		return -1;
	if (!taken && j->root.replace && kept &&
	    (taken = try_replacement_roots(j, &kept)) < 0)
		return -1;
	if (!taken && build_escape(j, kept ? j->cdg.state : NULL))
		return -1;
	clash = !taken && !(j->o->experiment & TA_EXP_NO_TREE_FIRST) &&
		ta_escape_allow_turns(&j->esc, &j->cdg);
	if (clash && j->keep_try && kept) {
		int64_t more = estimate_traffic(j, st) ? -1 :
			       allow_fitting(j);

		if (more < 0)
			return -1;
		j->no_escape = 1;
		st->tree_unfit = 1;
		ta_logf(j->log, TA_LOG_INFO,
			"the escape tree does not fit the kept turn decisions (a part of it is gone): every decision kept, %lld prohibited turns that no longer close a cycle allowed, routes over the allowed turns only",
			(long long)more);
	} else if (clash) {
		j->all_carried = 0;
		if (estimate_traffic(j, st) || redecide_around_tree(j))
			return -1;
		st->prior_discarded = 1;
		kept = 0;
		for (k = 0; k < g->n_turn_slots; k++)
			kept += j->prior->turn_state[k] == j->cdg.state[k] &&
				j->cdg.state[k] != TA_TURN_UNDECIDED;
		ta_logf(j->log, TA_LOG_INFO,
			"the previous turn decisions clash with the escape tree: tree turns first, then the previously allowed turns again by weight (%llu decisions kept)",
			(unsigned long long)kept);
	}
	st->turns_kept = kept;
	j->cdg.level = j->esc.level;
	j->cdg.hint_w = j->turn_w;
	ta_cdg_touch(&j->cdg);
	for (s = 0; s < g->n_sw; s++)
		j->piece_size[j->esc.piece[s]]++;
	if (j->o->mode == TA_MODE_TURN_ADDITION)
		return ta_turnadd_decide_classed(&j->cdg, j->turn_w,
						 j->cls.light, j->esc.level,
						 j->o->seed);
	for (k = 0; k < g->n_turn_slots; k++)
		if (j->cdg.state[k] == TA_TURN_UNDECIDED)
			j->cdg.state[k] = TA_TURN_ALLOWED;
	ta_cdg_touch(&j->cdg);
	return 0;
}

/*
 * Routes are made one destination (a column of res->port) at a time,
 * in switch order, which is not LID order: a column written straight
 * into the table touches one cache line per switch.  They go to a
 * buffer of COLS columns (each contiguous), copied into the table
 * switch by switch when it is full.
 */
#define COLS 1024u

struct columns {
	uint8_t *buf;		/* COLS x n_sw */
	uint32_t d[COLS];
	uint32_t n;
};

static void flush_columns(const struct ta_graph *g, struct columns *c,
			  struct ta_result *res)
{
	uint32_t s, k;

	for (s = 0; s < g->n_sw; s++) {
		uint8_t *row = res->port + (size_t)s * res->n_dest;

		for (k = 0; k < c->n; k++)
			row[c->d[k]] = c->buf[(size_t)k * g->n_sw + s];
	}
	c->n = 0;
}

/* the column for destination d, flushed first if the buffer is full */
static uint8_t *next_column(const struct ta_graph *g, struct columns *c,
			    uint32_t d, struct ta_result *res)
{
	if (c->n == COLS)
		flush_columns(g, c, res);
	c->d[c->n] = d;
	return c->buf + (size_t)c->n++ * g->n_sw;
}

static void write_routes(const struct ta_graph *g, const struct ta_intree *t,
			 uint32_t d, uint8_t *col, struct ta_result *res)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++) {
		uint32_t e = t->out_end[s];
		uint8_t port = TA_NO_PORT;

		if (t->dist[s] == TA_UNREACHED)
			port = TA_NO_PORT;
		else if (e == TA_OUT_DELIVER)
			port = g->dest[d].port;
		else
			port = g->sw[s].ends[e].port;
		col[s] = port;
		if (port == TA_NO_PORT)
			res->stats.unreachable++;
	}
}

/*
 * Which destinations keep their previous routes whole (see ta_keep.h):
 * kept[d] = 1.  The previous table is read 64 columns at a time (one
 * cache line of each row), each column then checked from a copy.
 */
static int find_kept(const struct route_job *j, struct ta_keep *keep,
		     uint8_t *kept)
{
	const struct ta_graph *g = j->g;
	const uint8_t *last = j->prior->last_port;
	uint8_t *buf = malloc((size_t)64 * g->n_sw + 1);
	uint32_t d0, s, k;

	if (!buf)
		return -1;
	for (d0 = 0; d0 < g->n_dest; d0 += 64) {
		uint32_t n = g->n_dest - d0 < 64 ? g->n_dest - d0 : 64;

		for (s = 0; s < g->n_sw; s++) {
			const uint8_t *row = last + (size_t)s * g->n_dest + d0;

			for (k = 0; k < n; k++)
				buf[(size_t)k * g->n_sw + s] = row[k];
		}
		for (k = 0; k < n; k++) {
			uint32_t d = d0 + k;

			kept[d] = (uint8_t)ta_keep_check(
				keep, j->cdg.state, buf + (size_t)k * g->n_sw,
				1, g->dest[d].sw, g->dest[d].port,
				j->esc.piece);
		}
	}
	free(buf);
	return 0;
}

/* the previous routes of the kept destinations, row by row */
static void write_kept(const struct route_job *j, const uint8_t *kept,
		       struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	uint32_t s, d;

	for (s = 0; s < g->n_sw; s++) {
		const uint8_t *last = j->prior->last_port +
				      (size_t)s * g->n_dest;
		uint8_t *row = res->port + (size_t)s * g->n_dest;

		for (d = 0; d < g->n_dest; d++) {
			if (!kept[d])
				continue;
			row[d] = j->esc.piece[s] == j->esc.piece[g->dest[d].sw] ?
				 last[d] : TA_NO_PORT;
			if (row[d] == TA_NO_PORT)
				res->stats.unreachable++;
		}
	}
}

/*
 * What t's flow adds to the sum over channels of (minor load / unit)^6:
 * a potential that the busiest channels dominate
 */
static double minor_peak(struct route_job *j, const struct ta_intree *t,
			 uint32_t group)
{
	const struct ta_graph *g = j->g;
	double sum = 0;
	uint32_t k;

	ta_flow_add(&j->minor_flow, g, t, group, NULL, j->chan_tmp);
	for (k = 1; k < t->n_order; k++) {
		uint32_t s = t->order[k];
		uint32_t c = g->sw[s].ends[t->out_end[s]].out_chan;
		double a = j->minor_load[c] / j->minor_unit;
		double b = (j->minor_load[c] + j->chan_tmp[c]) / j->minor_unit;

		a = a * a * a;
		b = b * b * b;
		sum += b * b - a * a;
		j->chan_tmp[c] = 0;
	}
	return sum;
}

/*
 * minor_second_pass(): t, a complete tree of ta_intree_build() for a
 * destination of group with minor traffic, is routed again by
 * ta_intree_reweigh_minor(), kept only where it adds less to
 * minor_peak()'s potential.  Not in the first pass: there the loads are
 * those of the destinations routed before only, and the shortest paths'
 * tie rule (ta_intree.c, least_loaded) does better on joins that the
 * destination's side reaches evenly (measured: ft3join middle K = 4, 1.00
 * between the trees against 0.84 with it in both passes).
 */
static void reweigh_minor(struct route_job *j, struct ta_intree *t,
			  uint32_t sw, const struct ta_choice *ch,
			  uint32_t group)
{
	double before;

	if (!(j->minor_unit > 0))
		return;
	before = minor_peak(j, t, group);
	if (ta_intree_reweigh_minor(t, j->cdg.state, sw, ch, j->minor_unit,
				    j->minor_save) &&
	    !(minor_peak(j, t, group) < before * (1 - 1e-9)))
		ta_intree_restore(t, j->minor_save);
}

/* t: destination d's tree as res routes it (col: room for its column) */
static void tree_from_result(const struct ta_graph *g, struct ta_intree *t,
			     const struct ta_result *res, uint32_t d,
			     uint8_t *col)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		col[s] = ta_result_port(res, s, d);
	ta_minor_tree_of(t, g, g->dest[d].sw, col);
}

/* d's routes in res (and its unreachable count) from the tree t */
static void result_from_tree(const struct ta_graph *g,
			     const struct ta_intree *t, uint32_t d,
			     uint8_t *col, struct ta_result *res)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		res->stats.unreachable -= col[s] == TA_NO_PORT;
	write_routes(g, t, d, col, res);
	for (s = 0; s < g->n_sw; s++)
		res->port[(size_t)s * res->n_dest + d] = col[s];
}

/*
 * ta_minor_pass.h: every host destination d with used[d] routed again
 * under the minor loads of all the others (room: j->chan_tmp, j->col).
 */
static void minor_second_pass(struct route_job *j, struct ta_intree *t,
			      const uint8_t *used, struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	double *tmp = j->chan_tmp;
	uint8_t *col = j->col;
	uint32_t k;

	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k], sw = g->dest[d].sw;
		struct ta_choice ch = { .spread = j->spread[d],
					.sets_2level = j->sets_2level };

		if (!used[d])
			continue;
		tree_from_result(g, t, res, d, col);
		ta_minor_take_out(&j->minor_flow, g, t, j->group[d], tmp,
				  j->minor_load);
		ch.main_sw = j->cls.main_sw + (size_t)j->group[d] * g->n_sw;
		ch.load = j->minor_load;
		if (ta_intree_build(t, j->cdg.state, NULL, sw, &ch) >=
		    j->piece_size[j->esc.piece[sw]])
			reweigh_minor(j, t, sw, &ch, j->group[d]);
		else if (j->no_escape)	/* the first pass's routes stay */
			tree_from_result(g, t, res, d, col);
		else
			ta_intree_build(t, j->cdg.state, &j->esc, sw, &ch);
		result_from_tree(g, t, d, col, res);
		ta_flow_add(&j->minor_flow, g, t, j->group[d], NULL,
			    j->minor_load);
	}
}

/* adds the tree's output channels to same[] (struct ta_choice) */
static void count_same(const struct ta_graph *g, const struct ta_intree *t,
		       uint32_t *same)
{
	uint32_t k;

	for (k = 1; k < t->n_order; k++) {
		uint32_t s = t->order[k], e = t->out_end[s];

		if (e < g->sw[s].n_ends)
			same[g->sw[s].ends[e].out_chan]++;
	}
}


/* subtracts the tree's output channels from same[] */
static void uncount_same(const struct ta_graph *g, const struct ta_intree *t,
			 uint32_t *same)
{
	uint32_t k;

	for (k = 1; k < t->n_order; k++) {
		uint32_t s = t->order[k], e = t->out_end[s];

		if (e < g->sw[s].n_ends && same[g->sw[s].ends[e].out_chan])
			same[g->sw[s].ends[e].out_chan]--;
	}
}

/*
 * The balanced choice's rip-up and reroute (BAL_PASSES times, at a
 * routing from scratch): the first routes only knew the destinations
 * routed before them, so every host destination that
 * ta_intree_weighted() routed is taken out of the loads (its flow along
 * its routes, read back from its column), routed again under the loads
 * of all the others, and put back, as minor_second_pass() does for minor
 * traffic.  Measured on random nets (README, "Routing quality"): the
 * first pass lifts the busiest channel's throughput by a fifth, the
 * second by a little more.
 */
#define BAL_PASSES 2u

static void bal_second_pass(struct route_job *j, struct ta_intree *t,
			    const uint8_t *used, struct ta_result *res)
{
	const struct ta_graph *g = j->g;
	double *tmp = j->chan_tmp;
	uint8_t *col = j->col;
	uint32_t k, i, same_sw = UINT32_MAX;

	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k], sw = g->dest[d].sw;
		struct ta_choice ch = { .spread = j->spread[d],
					.sets_2level = j->sets_2level,
					.main_sw = j->bal_main,
					.load = j->bal_load,
					.same = j->bal_same };

		if (!used[d])
			continue;
		if (sw != same_sw) {
			memset(j->bal_same, 0, 2 * (size_t)g->n_links *
			       sizeof(*j->bal_same));
			for (i = k; i < g->n_dest &&
				    g->dest[j->by_switch[i]].sw == sw; i++) {
				if (!used[j->by_switch[i]])
					continue;
				tree_from_result(g, t, res, j->by_switch[i],
						 col);
				count_same(g, t, j->bal_same);
			}
			same_sw = sw;
		}
		tree_from_result(g, t, res, d, col);
		uncount_same(g, t, j->bal_same);
		ta_minor_take_out(&j->bal_flow, g, t, j->group[d], tmp,
				  j->bal_load);
		if (j->measure)
			ta_minor_take_out(&j->flow, g, t, j->group[d], tmp,
					  j->load);
		if (ta_intree_weighted(t, j->cdg.state, sw, &ch, j->bal_unit) <
		    j->piece_size[j->esc.piece[sw]] &&
		    ta_intree_build(t, j->cdg.state, NULL, sw, &ch) <
		    j->piece_size[j->esc.piece[sw]]) {
			if (j->no_escape)	/* the first pass's routes stay */
				tree_from_result(g, t, res, d, col);
			else
				ta_intree_build(t, j->cdg.state, &j->esc, sw,
						&ch);
		}
		result_from_tree(g, t, d, col, res);
		ta_flow_add(&j->bal_flow, g, t, j->group[d], NULL, j->bal_load);
		if (j->measure)
			ta_flow_add(&j->flow, g, t, j->group[d], NULL, j->load);
		count_same(g, t, j->bal_same);
	}
}

static int route_all(struct route_job *j, struct ta_result *res)
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

	if (ta_sibs_init(&sibs, g, j->prior) || ta_intree_init(&t, g) ||
	    (keeping && ta_keep_init(&keep, g)) ||
	    !kept || !(cols.buf = malloc((size_t)COLS * g->n_sw + 1)) ||
	    (keeping && find_kept(j, &keep, kept))) {
		ta_sibs_free(&sibs);
		ta_intree_free(&t);
		ta_keep_free(&keep);
		free(kept);
		free(cols.buf);
		return -1;
	}
	t.leaf_rot = j->leaf_rot;
	if (j->minor_load)
		memset(j->minor_load, 0,
		       2 * (size_t)g->n_links * sizeof(*j->minor_load));
	if (j->bal_load)
		memset(j->bal_load, 0,
		       2 * (size_t)g->n_links * sizeof(*j->bal_load));
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
 * A second candidate at bring-up (option tp_candidate): turn addition's
 * greedy heaviest-first order ends in a maximal acyclic turn set that,
 * on large irregular fabrics, prohibits more turns than Turn-Prohibition
 * (scripts/README.md, "What limits turnadd on random nets").  Where the
 * first routes load some channel beyond what the traffic forces (the
 * bound below), TP's turn set and escape tree are taken as a start,
 * turn addition adds every further turn it can, and the routes are made
 * again; the candidate whose busiest channel carries less traffic (the
 * estimate's, i.e. the traffic file's) is kept, the first on ties.  Only
 * when no turn decision is carried over (a bring-up, or a restart that
 * only knows the switches' tables), not in the reference modes nor with
 * an experiment.  A resweep keeps the decisions and, when TP's were
 * kept, rebuilds TP's escape tree from the saved one (try_carried_tree)
 * so its turns fit them: minimal change.  A configured escape_root roots
 * TP's tree (the same links, so the same turns).
 */
struct candidate {
	struct ta_cdg cdg;
	struct ta_escape esc;
	uint8_t *port;
	struct ta_stats st;
	double load;
	double minor;		/* busiest channel under the minor traffic */
	double perm;		/* ta_perm_bandwidth(), where compared */
};

static double max_of(const struct route_job *j, const double *load)
{
	double m = 0;
	uint32_t c;

	for (c = 0; load && c < 2 * j->g->n_links; c++)
		if (load[c] > m)
			m = load[c];
	return m;
}

static double max_load(const struct route_job *j)
{
	return max_of(j, j->load);
}

/* does the prior decide any turn (else the routing is from scratch) */
static int prior_decides(const struct ta_prior *p, const struct ta_graph *g)
{
	uint32_t k;

	for (k = 0; p && p->turn_state && k < g->n_turn_slots; k++)
		if (p->turn_state[k] == TA_TURN_ALLOWED ||
		    p->turn_state[k] == TA_TURN_PROHIBITED)
			return 1;
	return 0;
}

/*
 * 1 if the fabric is not tree-like: more than half of the link ends at
 * switches with hosts lead to switches with hosts (random nets, tori,
 * meshes, also with some hosts or whole switches' hosts absent).  A fat
 * tree has none (its hosts are on the leaves only), two fat trees
 * joined at their leaves one per joined leaf out of its up-links.
 */
static int not_tree_like(const struct ta_graph *g)
{
	uint8_t *host = calloc(g->n_sw + 1, 1);
	uint64_t at = 0, to = 0;
	uint32_t d, s, e;

	if (!host)
		return 0;
	for (d = 0; d < g->n_dest; d++)
		host[g->dest[d].sw] |= g->dest[d].is_host;
	for (s = 0; s < g->n_sw; s++)
		for (e = 0; host[s] && e < g->sw[s].n_ends; e++) {
			at++;
			to += host[g->sw[s].ends[e].peer];
		}
	free(host);
	return at && 2 * to > at;
}

/*
 * ta_intree_weighted()'s unit: the mean channel load if every host's
 * traffic (bal_flow) took a shortest path, 0 if none is sent; -1: out of
 * memory
 */
static double shortest_mean_load(const struct route_job *j,
				 const struct ta_flow *f)
{
	const struct ta_graph *g = j->g;
	uint32_t *hop = malloc((g->n_sw + 1) * sizeof(*hop));
	uint32_t *queue = malloc((g->n_sw + 1) * sizeof(*queue));
	uint32_t k, s, sw = UINT32_MAX;
	double tot = 0;

	if (!hop || !queue) {
		free(hop);
		free(queue);
		return -1;
	}
	for (k = 0; k < g->n_dest; k++) {
		uint32_t d = j->by_switch[k];
		const double *send = f->send + (size_t)j->group[d] * g->n_sw;

		if (!g->dest[d].is_host)
			continue;
		if (g->dest[d].sw != sw) {
			sw = g->dest[d].sw;
			ta_graph_bfs(g, sw, hop, queue);
		}
		for (s = 0; s < g->n_sw; s++)
			if (hop[s] != UINT32_MAX)
				tot += hop[s] * send[s];
	}
	free(hop);
	free(queue);
	return g->n_links ? tot / (2.0 * g->n_links) : 0;
}

/*
 * bal_*: fabrics that are not tree-like (not_tree_like(); a fat tree,
 * also with a cable or hosts missing, keeps the index rule that its
 * port-major LIDs follow); destinations with minor traffic keep the
 * minor rule (ta_turn_class.h).  Routes take the least-cost allowed
 * paths (ta_intree_weighted(), cost unit bal_unit), then, when routing
 * from scratch, bal_second_pass(); experiment hop_choice: the shortest
 * allowed paths with equal next hops chosen by load (ta_intree.c).
 */
static int balance_init(struct route_job *j)
{
	const struct ta_graph *g = j->g;
	double top = 0;
	size_t k, n;

	if (!not_tree_like(g) ||
	    (j->o->experiment & TA_EXP_INDEX_CHOICE))
		return 0;
	j->bal_load = calloc(2 * (size_t)g->n_links + 1, sizeof(*j->bal_load));
	j->bal_main = calloc(g->n_sw + 1, 1);
	j->bal_same = calloc(2 * (size_t)g->n_links + 1, sizeof(*j->bal_same));
	if (!j->bal_load || !j->bal_main || !j->bal_same ||
	    ta_flow_init(&j->bal_flow, g, j->tr, j->group))
		goto oom;
	/* only ratios count: the largest sender sends 1 */
	n = (size_t)j->bal_flow.n_g * g->n_sw;
	for (k = 0; k < n; k++)
		if (j->bal_flow.send[k] > top)
			top = j->bal_flow.send[k];
	for (k = 0; top > 0 && k < n; k++)
		j->bal_flow.send[k] /= top;
	if (!(j->o->experiment & TA_EXP_HOP_CHOICE))
		j->bal_unit = shortest_mean_load(j, &j->bal_flow);
	if (j->bal_unit < 0)
		goto oom;
	if (j->bal_unit > 0)
		ta_logf(j->log, TA_LOG_INFO,
			"not tree-like (most links at switches with hosts lead to switches with hosts): routes take the least loaded allowed paths (a link's cost grows with the traffic of the routes made before)%s",
			j->prior && j->prior->home_port ?
				", switches keep their previous port where its path is still allowed" :
				", then every destination is routed again under the others' load, twice");
	return 0;
oom:
	ta_logf(j->log, TA_LOG_ERROR, "out of memory preparing the routing");
	return -1;
}

static int measure_init(struct route_job *j)
{
	const struct ta_graph *g = j->g;

	j->measure = j->o->mode == TA_MODE_TURN_ADDITION &&
		     j->o->tp_candidate &&
		     !(j->o->experiment &
		       ~(TA_EXP_INDEX_CHOICE | TA_EXP_HOP_CHOICE)) &&
		     !prior_decides(j->prior, g);
	if (!j->measure)
		return 0;
	j->load = calloc(2 * (size_t)g->n_links + 1, sizeof(*j->load));
	if (!j->load || ta_flow_init(&j->flow, g, j->tr, j->group)) {
		ta_logf(j->log, TA_LOG_ERROR,
			"out of memory preparing the routing");
		return -1;
	}
	return 0;
}

/* moves the job's decisions and res's routes into c */
static void cand_take(struct candidate *c, struct route_job *j,
		      struct ta_result *res)
{
	c->cdg = j->cdg;
	c->esc = j->esc;
	c->port = res->port;
	c->st = res->stats;
	c->load = max_load(j);
	c->minor = max_of(j, j->minor_load);
	memset(&j->cdg, 0, sizeof(j->cdg));
	memset(&j->esc, 0, sizeof(j->esc));
	res->port = NULL;
}

static void cand_give(struct candidate *c, struct route_job *j,
		      struct ta_result *res)
{
	ta_cdg_free(&j->cdg);
	ta_escape_free(&j->esc);
	free(res->port);
	j->cdg = c->cdg;
	j->esc = c->esc;
	res->port = c->port;
	res->stats = c->st;
}

static void cand_free(struct candidate *c)
{
	ta_cdg_free(&c->cdg);
	ta_escape_free(&c->esc);
	free(c->port);
}

/* TP's turns and tree, then every turn turn addition can add; routes */
static int run_tp_seeded(struct route_job *j, struct ta_result *res,
			 const struct ta_stats *st0)
{
	const struct ta_graph *g = j->g;
	uint32_t k, s;

	res->stats = *st0;
	memset(j->piece_size, 0, (g->n_sw + 1) * sizeof(*j->piece_size));
	memset(j->load, 0, 2 * (size_t)g->n_links * sizeof(*j->load));
	res->port = malloc((size_t)g->n_sw * g->n_dest + 1);
	/* no log: its summary line would read as if mode were TP */
	if (!res->port || ta_cdg_init(&j->cdg, g) ||
	    ta_turnprohib_decide(&j->cdg, j->turn_w, NULL, &j->esc, NULL))
		return -1;
	/* a configured root roots the same tree (same turns, ta_escape.h) */
	if (j->root.guid && g->sw[j->esc.root].guid != j->root.guid) {
		struct ta_escape e;

		if (ta_escape_carry(&e, g, j->esc.parent_end, j->turn_w, NULL,
				    j->root.guid))
			return -1;
		ta_escape_free(&j->esc);
		j->esc = e;
	}
	for (k = 0; k < g->n_turn_slots; k++)
		if (j->cdg.state[k] == TA_TURN_PROHIBITED)
			j->cdg.state[k] = TA_TURN_UNDECIDED;
	j->cdg.level = j->esc.level;
	j->cdg.hint_w = j->turn_w;
	ta_cdg_touch(&j->cdg);
	for (s = 0; s < g->n_sw; s++)
		j->piece_size[j->esc.piece[s]]++;
	if (ta_turnadd_decide_classed(&j->cdg, j->turn_w, j->cls.light,
				      j->esc.level, j->o->seed))
		return -1;
	return route_all(j, res);
}

/*
 * A load as the papers' throughput: what the busiest host link carries
 * over what this link carries, at most 1 (uniform traffic: 1 = every
 * host sends at full rate).
 */
static double as_throughput(const struct route_job *j, double load)
{
	double h = j->flow.host_bound;

	return h <= 0 ? 0 : load > h ? h / load : 1;
}

/* is candidate a's busiest channel less loaded than b's (minor: ties) */
static int less_loaded(const struct candidate *a, const struct candidate *b)
{
	return a->load < b->load * (1 - 1e-9) ||
	       (a->load <= b->load * (1 + 1e-9) &&
		a->minor < b->minor * (1 - 1e-9));
}

/*
 * The escape tree rooted at switch root (cut: ta_escape_build_cut's,
 * else ta_escape_build's), then turn addition; routes.  Returns 1 where
 * the cut tree does not apply, -1 on failure (bent: ta_cut_tree.h).
 */
static int run_rooted(struct route_job *j, struct ta_result *res,
		      const struct ta_stats *st0, uint32_t root, int cut,
		      uint32_t *bent)
{
	const struct ta_graph *g = j->g;
	uint32_t s;
	int r;

	res->stats = *st0;
	memset(j->piece_size, 0, (g->n_sw + 1) * sizeof(*j->piece_size));
	memset(j->load, 0, 2 * (size_t)g->n_links * sizeof(*j->load));
	res->port = malloc((size_t)g->n_sw * g->n_dest + 1);
	if (!res->port || ta_cdg_init(&j->cdg, g))
		return -1;
	r = cut ? ta_escape_build_cut(&j->esc, g, j->turn_w, j->group, root,
				      bent) :
		  ta_escape_build(&j->esc, g, j->turn_w, NULL,
				  g->sw[root].guid);
	if (r)
		return r;
	if (ta_escape_allow_turns(&j->esc, &j->cdg))
		return -1;
	j->cdg.level = j->esc.level;
	j->cdg.hint_w = j->turn_w;
	ta_cdg_touch(&j->cdg);
	for (s = 0; s < g->n_sw; s++)
		j->piece_size[j->esc.piece[s]]++;
	if (ta_turnadd_decide_classed(&j->cdg, j->turn_w, j->cls.light,
				      j->esc.level, j->o->seed))
		return -1;
	return route_all(j, res);
}

/* what a candidate that failed half-way left (run_rooted) */
static void drop_candidate(struct route_job *j, struct ta_result *res)
{
	ta_cdg_free(&j->cdg);
	ta_escape_free(&j->esc);
	free(res->port);
	res->port = NULL;
}

/* c replaces best if less loaded (less_loaded), else is freed */
static void keep_less_loaded(struct candidate *best, struct candidate *c,
			     int *moved)
{
	if (less_loaded(c, best)) {
		cand_free(best);
		*best = *c;
		*moved = 1;
	} else {
		cand_free(c);
	}
}

/*
 * With minor traffic and no configured escape_root: the escape tree
 * rooted where the minor traffic turns (ta_minor_roots.h), at up to
 * MINOR_ROOTS switches; best holds the routes kept so far and takes a
 * candidate whose busiest channel carries less (the main traffic's
 * first, then the minor traffic's).  Returns how many were tried.
 */
#define MINOR_ROOTS 2u

static uint32_t try_minor_roots(struct route_job *j, struct ta_result *res,
				const struct ta_stats *st0,
				struct candidate *best, int *moved)
{
	const struct ta_graph *g = j->g;
	uint32_t root[MINOR_ROOTS], n, i;
	struct ta_stats st = *st0;

	if (!(best->minor > 0) || j->o->escape_root_guid)
		return 0;
	n = ta_minor_roots(g, j->cls.light, j->turn_w, best->esc.root, root,
			   MINOR_ROOTS);
	st.traffic_estimated = 1;
	for (i = 0; i < n; i++) {
		struct candidate c;

		if (run_rooted(j, res, &st, root[i], 0, NULL)) {
			ta_logf(j->log, TA_LOG_ERROR,
				"escape root candidates: out of memory routing with the escape tree rooted at a switch where minor traffic turns: the routes found so far are kept");
			drop_candidate(j, res);
			return i;
		}
		cand_take(&c, j, res);
		ta_logf(j->log, TA_LOG_INFO,
			"escape root candidates: rooted at %s (0x%016llx, where minor traffic turns): throughput %.4f, busiest channel under the minor traffic %.4g (kept so far: %.4f, %.4g)",
			g->sw[root[i]].name ? g->sw[root[i]].name : "switch",
			(unsigned long long)g->sw[root[i]].guid,
			as_throughput(j, c.load), c.minor,
			as_throughput(j, best->load), best->minor);
		keep_less_loaded(best, &c, moved);
	}
	return n;
}

/*
 * With minor traffic: the escape tree of ta_cut_tree.h, rooted at the
 * root of the routes kept so far (best), which it replaces if less
 * loaded (the main traffic's busiest channel first, then the minor
 * traffic's).  Two fat trees joined by links from other positions
 * (topogen ft3join-alt, ft3join-rand): a tree that crosses only at some
 * joins and joins the upper switches of each slot at one middle switch
 * on the other side lets at most one link per such group of upper
 * switches turn up at both ends (K = 32: 31 of 256), and the traffic
 * between pods without a join crowds onto them; with every join in the
 * tree and no down-and-up turn on the far side, each join may turn up
 * at both ends towards the upper switch it holds.  Joined at the bottom
 * level, one join per slot does (ta_cut_tree.h: classes).  Returns 1 if
 * kept.
 */
static int try_cut_tree(struct route_job *j, struct ta_result *res,
			const struct ta_stats *st0, struct candidate *best)
{
	const struct ta_graph *g = j->g;
	uint32_t root = best->esc.root, bent = 0;
	struct ta_stats st = *st0;
	struct candidate c;
	int r, kept = 0;

	if (!(best->minor > 0))
		return 0;
	st.traffic_estimated = 1;
	r = run_rooted(j, res, &st, root, 1, &bent);
	if (r) {
		ta_logf(j->log, r < 0 ? TA_LOG_ERROR : TA_LOG_INFO,
			r < 0 ? "cut tree: out of memory building the escape tree through every link between the traffic groups: the routes found so far are kept" :
				"cut tree: not tried: the escape root's traffic group (by the nearest switch with hosts) holds every switch, or the others are not reached from it");
		drop_candidate(j, res);
		return 0;
	}
	cand_take(&c, j, res);
	ta_logf(j->log, TA_LOG_INFO,
		"cut tree: the escape tree through every link between the traffic groups (%u switches joined against its up-and-down rule), rooted at %s: throughput %.4f, busiest channel under the minor traffic %.4g (kept so far: %.4f, %.4g): %s",
		bent, g->sw[root].name ? g->sw[root].name : "switch",
		as_throughput(j, c.load), c.minor,
		as_throughput(j, best->load), best->minor,
		less_loaded(&c, best) ? "kept" : "not kept");
	keep_less_loaded(best, &c, &kept);
	return kept;
}

/*
 * Fabrics that are not tree-like: turn addition's own turns, less
 * loaded under the traffic estimate, are kept only if their routes also
 * do at least as well under permutation traffic (ta_perm.h: 100 random
 * permutations and 256 shifts, as many as scripts/lftcheck --perm; with
 * 32 and 32 the estimate was off by up to 2 %, more than the differences
 * it decides).  They prohibit more turns than TP's, so
 * their routes are longer on average; where that costs the permutations
 * more than the busiest channel gains, the two metrics disagree and the
 * candidate that is not worse on either is TP's.  1: first is worse.
 */
#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u

static int perm_worse(const struct route_job *j, struct candidate *first,
		      struct candidate *tp)
{
	first->perm = ta_perm_bandwidth(j->g, first->port, PERM_RANDOM,
					PERM_SHIFTS, 1);
	tp->perm = ta_perm_bandwidth(j->g, tp->port, PERM_RANDOM,
				     PERM_SHIFTS, 1);
	return first->perm >= 0 && tp->perm >= 0 &&
	       first->perm < tp->perm * (1 - 1e-9);
}

static int try_tp_candidate(struct route_job *j, struct ta_result *res,
			    const struct ta_stats *st0)
{
	struct candidate first, tp;
	struct ta_stats st = *st0;
	double bound = ta_flow_bound(&j->flow, j->g), t0 = now();
	int take, moved = 0, cut;

	/* minor traffic that host pairs send: judged on its load too */
	if (max_load(j) <= bound * (1 + 1e-9) &&
	    !(max_of(j, j->minor_load) > 0)) {
		ta_logf(j->log, TA_LOG_INFO,
			"tp_candidate: not tried: turn addition's routes load no link beyond what every routing must (throughput %.4f under the traffic estimate, no routing can do better)",
			as_throughput(j, max_load(j)));
		return 0;
	}
	cand_take(&first, j, res);
	st.traffic_estimated = 1;	/* the weights stay */
	if (run_tp_seeded(j, res, &st)) {
		ta_logf(j->log, TA_LOG_ERROR,
			"tp_candidate: out of memory routing over Turn-Prohibition's turns: turn addition's routes are kept");
		cand_give(&first, j, res);
		return 0;
	}
	cand_take(&tp, j, res);
	/* with minor traffic: its load decides where the main one ties */
	take = less_loaded(&tp, &first);
	if (j->bal_unit > 0 && !take && perm_worse(j, &first, &tp)) {
		take = 1;
		ta_logf(j->log, TA_LOG_INFO,
			"tp_candidate: permutation bandwidth %.4f with turn addition's turns, %.4f with Turn-Prohibition's turns plus additions: the less loaded routes do worse under permutations",
			first.perm, tp.perm);
	}
	ta_logf(j->log, TA_LOG_INFO,
		"tp_candidate: throughput %.4f with turn addition's turns, %.4f with Turn-Prohibition's turns plus additions (under the traffic estimate; no routing can exceed %.4f): %s routes kept, trying took %.3f s",
		as_throughput(j, first.load), as_throughput(j, tp.load),
		as_throughput(j, bound),
		take ? "Turn-Prohibition's" : "turn addition's", now() - t0);
	if (take) {
		cand_free(&first);
		first = tp;
	} else {
		cand_free(&tp);
	}
	if (try_minor_roots(j, res, st0, &first, &moved))
		ta_logf(j->log, TA_LOG_INFO,
			"escape root candidates: %s kept",
			moved ? "the tree rooted where minor traffic turns" :
			take ? "Turn-Prohibition's turns" :
			"turn addition's own tree");
	cut = try_cut_tree(j, res, st0, &first);
	cand_give(&first, j, res);
	res->stats.tp_kept = take && !moved && !cut;
	res->stats.root_moved = moved && !cut;
	res->stats.cut_tree = cut;
	res->stats.tp_tried = 1;
	return 0;
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
	     try_tp_candidate(&j, res, &st0) < 0)) {
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
	res->escape_parent = NULL;
	res->port = NULL;
	res->turn_state = NULL;
}
