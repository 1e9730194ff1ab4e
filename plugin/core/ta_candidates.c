// SPDX-License-Identifier: MIT
/*
 * The candidate search at bring-up (option tp_candidate): which
 * candidate routings exist, when each is tried, how the less loaded is
 * kept (the contract: ta_job.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ta_cut_tree.h"
#include "ta_job.h"
#include "ta_minor_roots.h"
#include "ta_perm.h"
#include "ta_turnadd.h"
#include "ta_turnprohib.h"

/*
 * A second candidate at bring-up (option tp_candidate): turn addition's
 * greedy heaviest-first order ends in a maximal acyclic turn set that,
 * on large irregular fabrics, prohibits more turns than Turn-Prohibition
 * (scripts/analysis_random.sh --help).  Where the
 * first routes load some channel beyond what the traffic forces (the
 * bound below), TP's turn set and escape tree are taken as a start,
 * turn addition adds every further turn it can, and the routes are made
 * again; the candidate whose busiest channel carries less traffic (the
 * estimate's, i.e. the traffic file's) is kept, the first on ties.  TP
 * runs in option tp_orders removal orders (ta_turnprohib.h), each new
 * turn set routed, and the least loaded stands for TP.  Only
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

int measure_init(struct route_job *j)
{
	const struct ta_graph *g = j->g;

	j->measure = j->o->mode == TA_MODE_TURN_ADDITION &&
		     j->o->tp_candidate &&
		     !(j->o->experiment &
		       ~(TA_EXP_INDEX_CHOICE | TA_EXP_HOP_CHOICE |
			 TA_EXP_NO_REPAIR)) &&
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

/* what a candidate that failed half-way left (run_rooted, run_tp_seeded) */
static void drop_candidate(struct route_job *j, struct ta_result *res)
{
	ta_cdg_free(&j->cdg);
	ta_escape_free(&j->esc);
	free(res->port);
	res->port = NULL;
}

/* TP's turn sets already routed (their orders' turn decisions) */
struct tp_seen {
	uint8_t *state[TA_TP_ORDERS_MAX];
	unsigned n;
};

/* 1 if TP's decisions in c equal an earlier order's; else noted, 0 */
static int seen_before(struct tp_seen *seen, const struct ta_cdg *c,
		       uint32_t slots)
{
	unsigned i;

	for (i = 0; i < seen->n; i++)
		if (!memcmp(seen->state[i], c->state, slots))
			return 1;
	if (seen->n < TA_TP_ORDERS_MAX) {
		seen->state[seen->n] = malloc(slots + 1);
		if (seen->state[seen->n])
			memcpy(seen->state[seen->n++], c->state, slots);
	}
	return 0;
}

static void seen_free(struct tp_seen *seen)
{
	while (seen->n)
		free(seen->state[--seen->n]);
}

/*
 * TP's turns (removal order vary) and tree, then every turn turn
 * addition can add; routes.  0; 1 where TP's turns equal an earlier
 * order's in seen (nothing routed, j and res as they were); -1.
 */
static int run_tp_seeded(struct route_job *j, struct ta_result *res,
			 const struct ta_stats *st0, uint32_t vary,
			 struct tp_seen *seen)
{
	const struct ta_graph *g = j->g;
	uint32_t k, s;

	res->stats = *st0;
	memset(j->piece_size, 0, (g->n_sw + 1) * sizeof(*j->piece_size));
	memset(j->load, 0, 2 * (size_t)g->n_links * sizeof(*j->load));
	res->port = malloc((size_t)g->n_sw * g->n_dest + 1);
	/* no log: its summary line would read as if mode were TP */
	if (!res->port || ta_cdg_init(&j->cdg, g) ||
	    ta_turnprohib_decide_varied(&j->cdg, j->turn_w, vary, NULL,
					&j->esc, NULL))
		return -1;
	if (seen_before(seen, &j->cdg, g->n_turn_slots)) {
		drop_candidate(j, res);
		return 1;
	}
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
 * loaded under the traffic estimate, are kept only if their routes lose
 * no more than PERM_LOSS_MAX of TP's permutation bandwidth and lose less
 * of it than they gain on the busiest channel (the product of uniform
 * throughput and permutation bandwidth is no lower; ta_perm.h: 100
 * random permutations and 256 shifts, as many as scripts/lftcheck
 * --perm; 32 and 32 put the estimate off by up to 2 %, more than the
 * differences it decides).  They prohibit more turns than TP's, so
 * their routes are longer on average; where that costs the permutations
 * more than the busiest channel gains, TP's win; a loss of a few tenths
 * of a percent does not outweigh a busiest channel several percent
 * lower (random 60 10 10 3 under OpenSM: uniform throughput 0.3503
 * against 0.3328 over TP's turns, permutation bandwidth 0.2371 against
 * 0.2375; results/quality.md).  With option vls above 1 this decides
 * layer 0's turns, from which the layers grow.  1: first is worse.
 */
#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u
#define PERM_LOSS_MAX 0.01

static int perm_worse(const struct route_job *j, struct candidate *first,
		      struct candidate *tp)
{
	first->perm = ta_perm_bandwidth(j->g, first->port, PERM_RANDOM,
					PERM_SHIFTS, 1);
	tp->perm = ta_perm_bandwidth(j->g, tp->port, PERM_RANDOM,
				     PERM_SHIFTS, 1);
	if (first->perm < 0 || tp->perm < 0)
		return 0;
	return first->perm < tp->perm * (1 - PERM_LOSS_MAX) ||
	       first->perm * tp->load < tp->perm * first->load * (1 - 1e-9);
}

/*
 * Option tp_orders: TP's removal orders 1 to tp_orders - 1 beside order
 * 0 (best: its candidate), each routed where its turn set is new; best
 * becomes the least loaded (less_loaded, the first on ties).  Not with
 * minor traffic (a traffic file's host pairs): there the escape root
 * candidates and the cut tree below decide, judged on the minor
 * traffic's load too, and an order less loaded under the main traffic
 * alone would keep them out (two fat trees joined: 0.84 instead of 0.90
 * between the trees).  Nor with option vls above 1: the layers are
 * decided over layer 0's turns, and a less loaded one-layer turn set
 * does not make better layers (dragonfly 10 5 5 51, vls 3: busiest
 * channel 4,505 against 4,040 from order 0's; results/tp_orders.md).
 */
static void try_tp_orders(struct route_job *j, struct ta_result *res,
			  const struct ta_stats *st, struct candidate *best,
			  struct tp_seen *seen)
{
	double first = best->load;
	unsigned v, kept = 0, routed = 1;
	int r, moved;

	for (v = 1; v < j->o->tp_orders; v++) {
		struct candidate c;

		r = run_tp_seeded(j, res, st, v, seen);
		if (r < 0) {
			ta_logf(j->log, TA_LOG_ERROR,
				"tp_candidate: out of memory routing over Turn-Prohibition's turns of removal order %u: the routes found so far are kept",
				v);
			drop_candidate(j, res);
			break;
		}
		if (r)
			continue;
		routed++;
		cand_take(&c, j, res);
		moved = 0;
		keep_less_loaded(best, &c, &moved);
		if (moved)
			kept = v;
	}
	if (j->o->tp_orders > 1)
		ta_logf(j->log, TA_LOG_INFO,
			"tp_candidate: Turn-Prohibition with %u removal orders (%u distinct turn sets routed): order %u kept, throughput %.4f against %.4f with the least-traffic order (under the traffic estimate)",
			j->o->tp_orders, routed, kept,
			as_throughput(j, best->load), as_throughput(j, first));
}

int try_tp_candidate(struct route_job *j, struct ta_result *res,
		     const struct ta_stats *st0)
{
	struct candidate first, tp;
	struct tp_seen seen = { .n = 0 };
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
	if (run_tp_seeded(j, res, &st, 0, &seen)) {
		ta_logf(j->log, TA_LOG_ERROR,
			"tp_candidate: out of memory routing over Turn-Prohibition's turns: turn addition's routes are kept");
		seen_free(&seen);
		cand_give(&first, j, res);
		return 0;
	}
	cand_take(&tp, j, res);
	if (!(tp.minor > 0) && j->o->vls <= 1)
		try_tp_orders(j, res, &st, &tp, &seen);
	seen_free(&seen);
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
