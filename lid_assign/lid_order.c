// SPDX-License-Identifier: MIT
/* la_assign(): groups, old LIDs, layout, placement, summary. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lid_work.h"

static int check_input(const struct la_input *in)
{
	uint32_t i;

	if (in->lmc > 7 || (in->n_ports && !in->ports) ||
	    (in->n_sw && !in->sw_guid) || (in->n_reserved && !in->reserved))
		return -EINVAL;
	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];

		if (p->kind != LA_LOOSE && p->sw >= in->n_sw)
			return -EINVAL;
		if (p->kind > LA_LOOSE || (p->kind == LA_HOST && !p->sw_port))
			return -EINVAL;
	}
	return 0;
}

static void work_free(struct la_work *w)
{
	free(w->order);
	free(w->first);
	free(w->n_hosts);
	free(w->room);
	free(w->claim);
	free(w->used);
	ta_spine_sets_free(&w->sets);
	la_dfly_free(&w->dfly);
	memset(w, 0, sizeof(*w));
}

static void count_port(const struct la_work *w, const struct la_layout *l,
		       struct la_result *res, const struct la_port *p)
{
	struct la_group *g = p->group == LA_NO_GROUP ? NULL :
			     &res->groups[p->group];
	uint32_t at;

	if (!g)
		res->loose++;
	else if (p->kind == LA_HOST)
		g->hosts++;
	else
		g->switches++;
	if (g && p->fate == LA_KEPT && p->lid < l->end &&
	    (p->lid < l->lo[p->group] || p->lid >= l->next[p->group])) {
		at = la_group_at(w, l, p->lid);
		if (at != LA_NO_GROUP)
			res->groups[at].guests++;
	}
	switch (p->fate) {
	case LA_KEPT:
		res->kept++;
		if (g)
			g->kept++;
		break;
	case LA_PLACED:
		res->placed++;
		if (g)
			g->placed++;
		break;
	case LA_OVERFLOW:
		res->overflow++;
		if (g)
			g->overflow++;
		break;
	case LA_FAILED:
		res->failed++;
		break;
	}
	if (p->old_lid && p->lid != p->old_lid)
		res->moved++;
	if (p->lid && p->lid + p->n_lids - 1u > res->top_lid)
		res->top_lid = (uint16_t)(p->lid + p->n_lids - 1);
}

static int fill_result(const struct la_work *w, const struct la_layout *l,
		       bool inherited, struct la_result *res)
{
	uint32_t g, p;

	res->n_groups = w->n_groups;
	res->inherited = inherited;
	res->group_major = w->dfly.found;
	res->layout_why = w->dfly.why;
	res->dfly_groups = w->dfly.n_groups;
	res->dfly_leaves = w->dfly.leaves;
	res->dfly_empty = w->dfly.empty;
	res->dfly_spines = w->dfly.spines;
	res->dfly_missing = w->dfly.missing;
	res->dfly_extra = w->dfly.extra;
	res->dfly_classic = w->dfly.classic;
	res->dfly_largest = w->dfly.largest;
	res->dfly_pairs_missing = w->dfly.pairs_missing;
	res->sw_anywhere = w->sw_anywhere;
	res->end = (uint16_t)(l->end > w->max_lid ? w->max_lid : l->end);
	res->groups = calloc(w->n_groups + 1, sizeof(*res->groups));
	if (!res->groups)
		return -ENOMEM;
	for (g = 0; g < w->n_groups; g++) {
		res->groups[g].lo = (uint16_t)l->lo[g];
		res->groups[g].hi = (uint16_t)(l->next[g] > l->lo[g] ?
					       l->next[g] - 1 : l->lo[g] - 1);
	}
	for (p = 0; p < w->in->n_ports; p++)
		count_port(w, l, res, &w->in->ports[p]);
	return 0;
}

/*
 * Ports that do not end where the layout wants them.  A move costs 1
 * (the LID changes once); an overflow costs LA_OVERFLOW_COST (the port
 * stays out of port-major order for good).
 */
#define LA_OVERFLOW_COST 8u

static uint64_t layout_cost(const struct la_work *w)
{
	uint64_t cost = 0;
	uint32_t p;

	for (p = 0; p < w->in->n_ports; p++) {
		const struct la_port *port = &w->in->ports[p];

		if (port->fate == LA_FAILED)
			cost += w->in->n_ports + 1u;
		else if (port->fate == LA_OVERFLOW &&
			 port->group != LA_NO_GROUP)
			cost += LA_OVERFLOW_COST;
		else if (port->old_lid && port->lid != port->old_lid)
			cost++;
	}
	return cost;
}

/* places under l from the saved claims; returns the cost */
static uint64_t trial(struct la_work *w, const struct la_layout *l,
		      const uint16_t *claim, const uint8_t *used)
{
	memcpy(w->claim, claim, w->in->n_ports * sizeof(*claim));
	memcpy(w->used, used, w->max_lid + 1u);
	la_place(w, l);
	return layout_cost(w);
}

/* a layout that leaves a group with ports no room at all is no layout */
static bool every_group_has_room(const struct la_work *w,
				 const struct la_layout *l)
{
	uint32_t g;

	for (g = 0; g < w->n_groups; g++)
		if (w->first[g + 1] > w->first[g] && l->next[g] <= l->lo[g])
			return false;
	return true;
}

/*
 * The natural layout, unless the one inherited from the old LIDs costs
 * less (it does when a group outgrew or shrank below its blocks since
 * the old LIDs were given; not when the old LIDs are in another order,
 * e.g. OpenSM's own).
 */
static int place_best(struct la_work *w, struct la_layout *best,
		      bool *inherited)
{
	struct la_layout inh = { 0 };
	uint16_t *claim = malloc((w->in->n_ports + 1) * sizeof(*claim));
	uint8_t *used = malloc(w->max_lid + 1u);
	uint64_t c_nat;
	int ret = -ENOMEM;

	*inherited = false;
	if (!claim || !used || la_layout_natural(w, best))
		goto out;
	if (la_layout_inherited(w, &inh))
		goto out;
	memcpy(claim, w->claim, w->in->n_ports * sizeof(*claim));
	memcpy(used, w->used, w->max_lid + 1u);
	c_nat = trial(w, best, claim, used);
	if (every_group_has_room(w, &inh) &&
	    trial(w, &inh, claim, used) < c_nat) {
		la_layout_free(best);
		*best = inh;
		inh.lo = inh.next = NULL;
		*inherited = true;
	} else {
		trial(w, best, claim, used);
	}
	ret = 0;
out:
	la_layout_free(&inh);
	free(claim);
	free(used);
	return ret;
}

/*
 * Groups, old LIDs, layout and placement into a fresh w; 0 or -errno.
 * rule: 0 the usual choice, 1 the consecutive rule, 2 + k the spine
 * sets for P + k.  keep: P is the largest neighbour count of the
 * switches with hosts (la_period_lost).
 */
static int assign_once(struct la_input *in, struct la_work *w,
		       struct la_layout *layout, bool *inherited,
		       uint32_t rule, bool keep, bool no_dfly)
{
	memset(w, 0, sizeof(*w));
	memset(layout, 0, sizeof(*layout));
	*inherited = false;
	w->in = in;
	w->no_dfly = no_dfly;
	w->no_sets = rule == 1;
	w->force_sets = rule >= 2 ? rule - 1u : 0;
	w->keep_period = keep;
	w->max_lid = in->max_lid && in->max_lid < LA_MAX_UCAST_LID ?
		     in->max_lid : LA_MAX_UCAST_LID;
	w->claim = calloc(in->n_ports + 1, sizeof(*w->claim));
	w->used = calloc(w->max_lid + 1u, 1);
	if (!w->claim || !w->used)
		return -ENOMEM;
	if (la_make_groups(w))
		return -ENOMEM;
	la_check_claims(w);
	return place_best(w, layout, inherited) ? -ENOMEM : 0;
}

/*
 * A Dragonfly+'s group-major layout is taken where every group's
 * block-aligned range fits the unicast LIDs (no port failed and none
 * overflowed for want of room); else port-major.
 */
static bool dfly_fits(const struct la_work *w, const struct la_layout *l)
{
	uint32_t p;

	if (l->end > w->max_lid + 1u)
		return false;
	for (p = 0; p < w->in->n_ports; p++)
		if (w->in->ports[p].fate == LA_FAILED)
			return false;
	return true;
}

/* the spine sets tried beyond today's P while spines are down */
#define LA_SETS_TRIES 9u

/*
 * Which rule grouped the old LIDs is guessed from them (la_lmc_sets);
 * where the guess moves LIDs (an older layout of the consecutive rule
 * may look like the sets, e.g. one group a rank where every set holds
 * one rank; sets whose ranks fill whole blocks look like the
 * consecutive rule), with LMC the other rules are tried as well (the
 * consecutive rule, the sets for P .. P + 8) and the one that moves
 * the fewest ports is kept, the guess on a tie: a change of rule never
 * moves LIDs.
 *
 * A fabric that has no period today only because its leaves differ in
 * neighbour count (some lost uplinks: part of a failed director is
 * back) is grouped as if it had none (one group a rank) by the guess;
 * where that moves LIDs, the rules above (without LMC the usual
 * choice only) are tried with the largest count as P instead
 * (la_period_lost), as the old LIDs were grouped while the fabric had
 * it: losing the period for a while moves no LID.
 */
int la_assign(struct la_input *in, struct la_result *res)
{
	struct la_work w, w2;
	struct la_layout layout, l2;
	bool inherited = false, inh2 = false, keep, tried = false;
	bool flat = false;	/* a Dragonfly+ whose layout did not fit */
	uint64_t cost, c2;
	uint32_t rule, best = 0, rules;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_input(in);
	if (ret)
		return ret;
	ret = assign_once(in, &w, &layout, &inherited, 0, false, false);
	if (!ret && w.dfly.found && !dfly_fits(&w, &layout)) {
		la_layout_free(&layout);
		work_free(&w);
		flat = true;
		ret = assign_once(in, &w, &layout, &inherited, 0, false, true);
	}
	if (ret || w.dfly.found || !(cost = layout_cost(&w)))
		goto done;
	keep = la_period_lost(in);
	if (!keep && !la_sets_may_apply(in))
		goto done;
	/*
	 * keep: rule 0 is a try too (the guess had no period); without
	 * LMC the only one (no spine sets: rule 1 is rule 0)
	 */
	rules = in->lmc ? 2 + LA_SETS_TRIES : 1;
	for (rule = keep ? 0 : 1; rule < rules && cost; rule++) {
		if (!keep && rule == 1 && !w.sets.n_class)
			continue;	/* the guess was this rule */
		tried = true;
		ret = assign_once(in, &w2, &l2, &inh2, rule, keep, flat);
		c2 = ret ? UINT64_MAX : layout_cost(&w2);
		if (!ret && (rule <= 1 || w2.sets.n_class) && c2 < cost) {
			cost = c2;
			best = rule + 1;
		}
		la_layout_free(&l2);
		work_free(&w2);
		if (ret)
			goto done;
	}
	if (best) {	/* the ports hold the last try's LIDs */
		la_layout_free(&layout);
		work_free(&w);
		ret = assign_once(in, &w, &layout, &inherited, best - 1, keep,
				  flat);
	} else if (tried) {
		la_layout_free(&layout);
		work_free(&w);
		ret = assign_once(in, &w, &layout, &inherited, 0, false,
				  flat);
	}
done:
	if (!ret)
		ret = fill_result(&w, &layout, inherited, res);
	if (!ret && flat)
		res->layout_why = "a Dragonfly+, but its group-major layout does not fit the unicast LIDs";
	la_layout_free(&layout);
	work_free(&w);
	return ret;
}

void la_result_free(struct la_result *res)
{
	free(res->groups);
	memset(res, 0, sizeof(*res));
}
