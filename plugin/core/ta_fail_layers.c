// SPDX-License-Identifier: MIT
/*
 * A routing from scratch taken at a resweep over layers: paths keep
 * their previous layer (SL) where it still allows their route (ta_fail.h).
 */
#include "ta_fail.h"
#include "ta_hot.h"
#include "ta_layers.h"

/* paths whose previous layer (SL) differs from their layer in r */
uint64_t sl_changes(const struct ta_graph *g,
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
void keep_layers(const struct ta_graph *g, const struct ta_options *o,
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
