// SPDX-License-Identifier: MIT
/*
 * The load-aware choices (ta_job.h): the least-loaded paths on fabrics
 * that are not tree-like, and the second passes that route destinations
 * again under the loads of all the others (minor traffic, balanced).
 */
#include <stdlib.h>
#include <string.h>

#include "ta_job.h"
#include "ta_minor_pass.h"

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
void minor_second_pass(struct route_job *j, struct ta_intree *t,
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
void count_same(const struct ta_graph *g, const struct ta_intree *t,
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
void uncount_same(const struct ta_graph *g, const struct ta_intree *t,
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
 * traffic.  Measured on random nets (results/quality.md): the
 * first pass lifts the busiest channel's throughput by a fifth, the
 * second by a little more.
 */
void bal_second_pass(struct route_job *j, struct ta_intree *t,
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
double shortest_mean_load(const struct route_job *j,
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
 * A resweep by minimal change (every turn decision carried, the previous
 * tables known) on a tree-like fabric that is not a fat tree (a cable
 * within a level: Dragonfly+, joined trees; ta_graph_layered()): the
 * index rule routed the bring-up, but the destinations rerouted around
 * a failure take the least loaded paths under the routes kept.
 */
static int minimal_off_tree(const struct route_job *j)
{
	return j->all_carried && j->prior && j->prior->home_port &&
	       j->prior->last_port && ta_graph_layered(j->g) == 0;
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
int balance_init(struct route_job *j)
{
	const struct ta_graph *g = j->g;
	double top = 0;
	size_t k, n;
	int spread_by_load = not_tree_like(g);

	if (!spread_by_load && minimal_off_tree(j)) {
		spread_by_load = 1;
		j->bal_rerouted_only = 1;
	}
	if (!spread_by_load || (j->o->experiment & TA_EXP_INDEX_CHOICE))
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
	if (j->bal_unit > 0 && j->bal_rerouted_only)
		ta_logf(j->log, TA_LOG_INFO,
			"minimal change on a fabric that is not a fat tree: the destinations rerouted take the least loaded allowed paths under the load of the routes kept, switches keep their previous port where its path is still allowed");
	else if (j->bal_unit > 0)
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
