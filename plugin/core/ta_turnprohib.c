// SPDX-License-Identifier: MIT
/* Turn prohibition: the paper's reference method (ta_turnprohib.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ta_turnprohib.h"

#define NONE UINT32_MAX

struct tp_work {
	const struct ta_graph *g;
	uint8_t *state;
	const double *w;
	uint8_t *present;	/* per switch: not removed yet */
	uint8_t *cut;		/* per switch: its removal splits its piece */
	int64_t *sum;		/* per switch: quantised turn traffic */
	uint32_t *disc, *low, *next, *parent, *stack;	/* cut search */
	uint32_t *rank;		/* per switch: removal step */
	uint32_t *n_prohib;	/* per switch: turns prohibited there */
	double *factor;		/* per switch: its weight's factor, or NULL
				 * (the least-traffic order itself) */
};

/*
 * Order vary > 0 weighs each switch's turn traffic by 1 + VARY_SPAN * x,
 * x in [0, 1) drawn from the switch's GUID and vary: switches of about
 * equal traffic then leave in another order, and the turn sets differ
 * where the fabric has many such switches (dragonflies, random nets).
 * 0.2 from tests/bench/tp_orders.sh (results/tp_orders.md).
 */
#define VARY_SPAN 0.2

static double vary_factor(uint64_t guid, uint32_t vary)
{
	uint64_t x = guid + 0x9e3779b97f4a7c15ull * ((uint64_t)vary + 1);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return 1 + VARY_SPAN * (double)(x >> 11) * 0x1p-53;
}

static int work_init(struct tp_work *t, struct ta_cdg *c, const double *w,
		     uint32_t vary)
{
	uint32_t n = c->g->n_sw + 1, s;

	memset(t, 0, sizeof(*t));
	t->g = c->g;
	t->state = c->state;
	t->w = w;
	t->present = malloc(n);
	t->cut = calloc(n, 1);
	t->sum = malloc(n * sizeof(*t->sum));
	t->disc = malloc(n * sizeof(*t->disc));
	t->low = malloc(n * sizeof(*t->low));
	t->next = malloc(n * sizeof(*t->next));
	t->parent = malloc(n * sizeof(*t->parent));
	t->stack = malloc(n * sizeof(*t->stack));
	t->rank = malloc(n * sizeof(*t->rank));
	t->n_prohib = calloc(n, sizeof(*t->n_prohib));
	if (vary)
		t->factor = malloc(n * sizeof(*t->factor));
	if (!t->present || !t->cut || !t->sum || !t->disc || !t->low ||
	    !t->next || !t->parent || !t->stack || !t->rank || !t->n_prohib ||
	    (vary && !t->factor))
		return -1;
	for (s = 0; s < c->g->n_sw; s++) {
		t->present[s] = 1;
		if (vary)
			t->factor[s] = vary_factor(c->g->sw[s].guid, vary);
	}
	return 0;
}

static void work_free(struct tp_work *t)
{
	free(t->present);
	free(t->cut);
	free(t->sum);
	free(t->disc);
	free(t->low);
	free(t->next);
	free(t->parent);
	free(t->stack);
	free(t->rank);
	free(t->n_prohib);
	free(t->factor);
}

/* is the turn at s from end i to end j one between present links? */
static int live_turn(const struct tp_work *t, uint32_t s, uint32_t i,
		     uint32_t j)
{
	const struct ta_switch *sw = &t->g->sw[s];

	return t->present[sw->ends[i].peer] && t->present[sw->ends[j].peer] &&
	       t->state[ta_turn(t->g, s, i, j)] != TA_TURN_USELESS;
}

/* quantised turn traffic of s over its turns between present links */
static void update_sum(struct tp_work *t, uint32_t s)
{
	uint32_t n = t->g->sw[s].n_ends, i, j;
	int64_t sum = 0;

	for (i = 0; t->w && i < n; i++)
		for (j = 0; j < n; j++)
			if (live_turn(t, s, i, j))
				sum += (int64_t)llround(
					t->w[ta_turn(t->g, s, i, j)] * 1e6);
	t->sum[s] = sum;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/*
 * cut[s] = 1 for the present switches whose removal splits their piece
 * of the present graph (Hopcroft and Tarjan's articulation points, by
 * an explicit stack).  Parallel links do not change the answer.
 */
static void find_cuts(struct tp_work *t)
{
	const struct ta_graph *g = t->g;
	uint32_t s, clock = 0;

	for (s = 0; s < g->n_sw; s++)
		t->disc[s] = 0;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t sp = 0, root_children = 0;

		if (!t->present[s] || t->disc[s])
			continue;
		t->disc[s] = t->low[s] = ++clock;
		t->next[s] = 0;
		t->parent[s] = NONE;
		t->cut[s] = 0;
		t->stack[sp++] = s;
		while (sp) {
			uint32_t u = t->stack[sp - 1], v, p;

			if (t->next[u] < g->sw[u].n_ends) {
				v = g->sw[u].ends[t->next[u]++].peer;
				if (!t->present[v])
					continue;
				if (t->disc[v]) {
					t->low[u] = min_u32(t->low[u],
							    t->disc[v]);
					continue;
				}
				t->disc[v] = t->low[v] = ++clock;
				t->next[v] = 0;
				t->parent[v] = u;
				t->cut[v] = 0;
				t->stack[sp++] = v;
				root_children += u == s;
				continue;
			}
			sp--;
			p = t->parent[u];
			if (p == NONE)
				continue;
			t->low[p] = min_u32(t->low[p], t->low[u]);
			if (p != s && t->low[u] >= t->disc[p])
				t->cut[p] = 1;
		}
		t->cut[s] = root_children > 1;
	}
}

/* the next switch to remove: least traffic among non-cut switches
 * (weighed by its factor where the order varies) */
static uint32_t pick(const struct tp_work *t)
{
	uint32_t s, best = NONE;
	double v, least = 0;

	for (s = 0; s < t->g->n_sw; s++) {
		if (!t->present[s] || t->cut[s])
			continue;
		if (!t->factor) {
			if (best == NONE || t->sum[s] < t->sum[best])
				best = s;
			continue;
		}
		v = (double)t->sum[s] * t->factor[s];
		if (best == NONE || v < least) {
			best = s;
			least = v;
		}
	}
	return best;
}

/* prohibits the turns of s between present links and removes s */
static void remove_switch(struct tp_work *t, uint32_t s)
{
	const struct ta_switch *sw = &t->g->sw[s];
	uint32_t i, j;

	for (i = 0; i < sw->n_ends; i++)
		for (j = 0; j < sw->n_ends; j++)
			if (i != j && live_turn(t, s, i, j)) {
				t->state[ta_turn(t->g, s, i, j)] =
					TA_TURN_PROHIBITED;
				t->n_prohib[s]++;
			}
	t->present[s] = 0;
	for (i = 0; i < sw->n_ends; i++)
		if (t->present[sw->ends[i].peer])
			update_sum(t, sw->ends[i].peer);
}

/* pieces numbered by their lowest switch, as ta_escape_build does */
static void number_pieces(const struct ta_graph *g, struct ta_escape *e,
			  uint32_t *queue)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		e->piece[s] = NONE;
	for (s = 0; s < g->n_sw; s++) {
		uint32_t head = 0, tail = 0;

		if (e->piece[s] != NONE)
			continue;
		e->piece[s] = e->n_pieces;
		queue[tail++] = s;
		while (head < tail) {
			uint32_t u = queue[head++], j;

			for (j = 0; j < g->sw[u].n_ends; j++) {
				uint32_t v = g->sw[u].ends[j].peer;

				if (e->piece[v] == NONE) {
					e->piece[v] = e->n_pieces;
					queue[tail++] = v;
				}
			}
		}
		e->n_pieces++;
	}
}

/* the climbing tree of ta_turnprohib.h, from the removal order */
static int build_tree(const struct tp_work *t, const uint32_t *order,
		      struct ta_escape *e)
{
	const struct ta_graph *g = t->g;
	uint32_t n = g->n_sw + 1, k;
	uint32_t *queue = malloc(n * sizeof(*queue));

	memset(e, 0, sizeof(*e));
	e->parent_end = malloc(n * sizeof(*e->parent_end));
	e->piece = malloc(n * sizeof(*e->piece));
	e->level = malloc(n * sizeof(*e->level));
	if (!queue || !e->parent_end || !e->piece || !e->level) {
		free(queue);
		ta_escape_free(e);
		return -1;
	}
	number_pieces(g, e, queue);
	free(queue);
	e->root = NONE;
	for (k = g->n_sw; k-- > 0;) {
		uint32_t v = order[k], j, best = TA_NO_END;

		for (j = 0; j < g->sw[v].n_ends; j++) {
			uint32_t p = g->sw[v].ends[j].peer, b;

			if (t->rank[p] < t->rank[v])
				continue;
			b = best == TA_NO_END ? NONE : g->sw[v].ends[best].peer;
			if (best == TA_NO_END || e->level[p] < e->level[b] ||
			    (e->level[p] == e->level[b] && p < b))
				best = j;
		}
		e->parent_end[v] = best;
		e->level[v] = best == TA_NO_END ? 0 :
			      e->level[g->sw[v].ends[best].peer] + 1;
		if (best == TA_NO_END && e->piece[v] == 0)
			e->root = v;
	}
	return 0;
}

static const char *sw_name(const struct ta_graph *g, uint32_t s)
{
	return g->sw[s].name ? g->sw[s].name : "?";
}

static void log_summary(const struct tp_work *t, const uint32_t *order,
			const struct ta_log *log)
{
	const struct ta_graph *g = t->g;
	uint32_t s, at = 0, busiest = 0;

	if (!g->n_sw)
		return;
	for (s = 0; s < g->n_sw; s++) {
		at += t->n_prohib[s] > 0;
		if (t->n_prohib[s] > t->n_prohib[busiest])
			busiest = s;
	}
	ta_logf(log, TA_LOG_INFO,
		"turn prohibition: %u switches removed, least turn traffic first (first %s, last %s); turns prohibited at %u switches, most (%u) at %s",
		g->n_sw, sw_name(g, order[0]), sw_name(g, order[g->n_sw - 1]),
		at, t->n_prohib[busiest], sw_name(g, busiest));
}

int ta_turnprohib_decide(struct ta_cdg *c, const double *w, uint32_t *order,
			 struct ta_escape *esc, const struct ta_log *log)
{
	return ta_turnprohib_decide_varied(c, w, 0, order, esc, log);
}

int ta_turnprohib_decide_varied(struct ta_cdg *c, const double *w,
				uint32_t vary, uint32_t *order,
				struct ta_escape *esc, const struct ta_log *log)
{
	const struct ta_graph *g = c->g;
	uint32_t *own = order ? NULL : malloc((g->n_sw + 1) * sizeof(*own));
	struct tp_work t = { .g = NULL };
	uint32_t s, k;
	int cyc, ret = -1;

	if (!order)
		order = own;
	if (!order || work_init(&t, c, w, vary))
		goto out;
	for (s = 0; s < g->n_sw; s++)
		update_sum(&t, s);
	for (k = 0; k < g->n_sw; k++) {
		find_cuts(&t);
		s = pick(&t);	/* a piece always has a non-cut switch */
		if (s == NONE) {
			ret = -2;
			goto out;
		}
		order[k] = s;
		t.rank[s] = k;
		remove_switch(&t, s);
	}
	for (k = 0; k < g->n_turn_slots; k++)
		if (c->state[k] == TA_TURN_UNDECIDED)
			c->state[k] = TA_TURN_ALLOWED;
	ta_cdg_touch(c);
	cyc = ta_cdg_has_cycle(c);
	if (cyc < 0)
		goto out;
	if (cyc) {
		ta_logf(log, TA_LOG_ERROR,
			"internal error: turn prohibition left a cycle of allowed turns");
		ret = -2;
		goto out;
	}
	if (build_tree(&t, order, esc))
		goto out;
	log_summary(&t, order, log);
	ret = 0;
out:
	work_free(&t);
	free(own);
	return ret;
}
