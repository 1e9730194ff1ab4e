// SPDX-License-Identifier: MIT
/*
 * The routing job's turn decisions (decide_turns(), ta_job.h): carried
 * from the prior, the escape tree (the previous, a configured or a
 * replacement root), the turns that no longer close a cycle allowed
 * after a loss, and turn addition or the reference modes for the rest.
 */
#include <stdlib.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_job.h"
#include "ta_root.h"
#include "ta_turn_class.h"
#include "ta_turnadd.h"
#include "ta_turnprohib.h"

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

/*
 * A resweep that only lost parts of a fabric that is not a fat tree
 * (ta_graph_layered()), asked by ta_restore.c (option
 * reopen_after_loss, when minimal change without it falls more than 2 %
 * below a routing from scratch): the prohibited turns whose cycles went
 * with the lost channels are allowed, heaviest first under a new
 * traffic estimate (allow_fitting()), so the destinations rerouted
 * around the loss find detours a routing from scratch would; every
 * route kept uses allowed turns only, as before.
 */
static int reopen_after_loss(const struct route_job *j)
{
	return j->all_carried && j->keep_try && j->o->reopen_after_loss &&
	       j->o->mode == TA_MODE_TURN_ADDITION &&
	       ta_graph_layered(j->g) == 0;
}

int decide_turns(struct route_job *j, struct ta_stats *st)
{
	const struct ta_graph *g = j->g;
	uint64_t kept;
	uint32_t s, k;
	int taken = 0, clash;

	if (j->o->experiment)
		ta_logf(j->log, TA_LOG_INFO,
			"experiment:%s%s%s%s%s (analysis only, not for production)",
			j->o->experiment & TA_EXP_NO_TREE_FIRST ?
				" no_tree_first" : "",
			j->o->experiment & TA_EXP_FLAT_WEIGHTS ?
				" flat_weights" : "",
			j->o->experiment & TA_EXP_INDEX_CHOICE ?
				" index_choice" : "",
			j->o->experiment & TA_EXP_HOP_CHOICE ?
				" hop_choice" : "",
			j->o->experiment & TA_EXP_NO_REPAIR ?
				" no_repair" : "");
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
	if ((j->reopen || reopen_after_loss(j)) && kept &&
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
