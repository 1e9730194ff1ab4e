// SPDX-License-Identifier: MIT
/* Per-destination in-tree over allowed turns (see ta_intree.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_intree.h"

#define PENDING (UINT32_MAX - 1)

/* height[s]: hops from s to the nearest switch with hosts */
static void heights(struct ta_intree *t)
{
	const struct ta_graph *g = t->g;
	uint32_t head = 0, tail = 0, s;

	for (s = 0; s < g->n_sw; s++) {
		t->height[s] = t->has_host[s] ? 0 : TA_UNREACHED;
		if (t->has_host[s])
			t->pending[tail++] = s;
	}
	while (head < tail) {
		uint32_t u = t->pending[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (t->height[v] == TA_UNREACHED) {
				t->height[v] = t->height[u] + 1;
				t->pending[tail++] = v;
			}
		}
	}
}

int ta_intree_init(struct ta_intree *t, const struct ta_graph *g)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, max_ends = 1, s;

	memset(t, 0, sizeof(*t));
	t->g = g;
	for (s = 0; s < g->n_sw; s++)
		if (g->sw[s].n_ends > max_ends)
			max_ends = g->sw[s].n_ends;
	t->dist = malloc(n * sizeof(*t->dist));
	t->out_end = malloc(n * sizeof(*t->out_end));
	t->order = malloc(n * sizeof(*t->order));
	t->tree_next = malloc(n * sizeof(*t->tree_next));
	t->pending = malloc(n * sizeof(*t->pending));
	t->cand = malloc(max_ends * sizeof(*t->cand));
	t->div = malloc(n * sizeof(*t->div));
	t->lvl = malloc(n * sizeof(*t->lvl));
	t->has_host = calloc(n, 1);
	t->seen = calloc(n, sizeof(*t->seen));
	t->height = malloc(n * sizeof(*t->height));
	t->bneck = malloc(n * sizeof(*t->bneck));
	t->bdist = malloc(n * sizeof(*t->bdist));
	t->plain_order = malloc(n * sizeof(*t->plain_order));
	t->pc_start = malloc((n + 1) * sizeof(*t->pc_start));
	t->pg_start = malloc((n + 1) * sizeof(*t->pg_start));
	t->n_peers = malloc(n * sizeof(*t->n_peers));
	t->pc_n = malloc(n * sizeof(*t->pc_n));
	t->pc = malloc((2 * g->n_links + 1) * sizeof(*t->pc));
	t->pg = malloc((2 * g->n_links + 1) * sizeof(*t->pg));
	t->pc_open = malloc(2 * g->n_links + 1);
	t->end_base = malloc((n + 1) * sizeof(*t->end_base));
	t->slot_child = malloc((2 * g->n_links + 1) * sizeof(*t->slot_child));
	t->plain_sw = UINT32_MAX;
	t->fast_sw = UINT32_MAX;
	t->div_sw = UINT32_MAX;
	if (!t->dist || !t->out_end || !t->order || !t->tree_next ||
	    !t->pending || !t->cand || !t->div || !t->lvl || !t->has_host ||
	    !t->seen || !t->height || !t->bneck || !t->bdist ||
	    !t->plain_order ||
	    !t->pc_start || !t->pg_start || !t->n_peers || !t->pc_n ||
	    !t->pc || !t->pg || !t->pc_open || !t->end_base ||
	    !t->slot_child) {
		ta_intree_free(t);
		return -1;
	}
	t->end_base[0] = 0;
	for (s = 0; s < g->n_sw; s++)
		t->end_base[s + 1] = t->end_base[s] + g->sw[s].n_ends;
	memset(t->slot_child, 0xff,
	       (2 * (size_t)g->n_links + 1) * sizeof(*t->slot_child));
	for (s = 0; s < g->n_dest; s++)
		if (g->dest[s].is_host)
			t->has_host[g->dest[s].sw] = 1;
	heights(t);
	return 0;
}

void ta_intree_free(struct ta_intree *t)
{
	free(t->dist);
	free(t->out_end);
	free(t->order);
	free(t->tree_next);
	free(t->pending);
	free(t->cand);
	free(t->div);
	free(t->lvl);
	free(t->has_host);
	free(t->seen);
	free(t->height);
	free(t->bneck);
	free(t->bdist);
	free(t->plain_order);
	free(t->pc_start);
	free(t->pg_start);
	free(t->n_peers);
	free(t->pc_n);
	free(t->pc);
	free(t->pg);
	free(t->pc_open);
	free(t->end_base);
	free(t->slot_child);
	free(t->wcost);
	free(t->heap);
	free(t->home_walk);
	memset(t, 0, sizeof(*t));
}

/* escape mode: tree_next[s] = end of s towards dest_sw along the tree */
static void tree_paths(struct ta_intree *t, const struct ta_escape *esc,
		       uint32_t dest_sw)
{
	const struct ta_graph *g = t->g;
	uint32_t head = 0, tail = 0, s;

	for (s = 0; s < g->n_sw; s++)
		t->tree_next[s] = TA_NO_END;
	t->pending[tail++] = dest_sw;
	t->tree_next[dest_sw] = TA_OUT_DELIVER;
	while (head < tail) {
		uint32_t u = t->pending[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (t->tree_next[v] != TA_NO_END ||
			    !ta_escape_is_tree_end(esc, g, u, j))
				continue;
			t->tree_next[v] = ta_graph_far_end(g, u, j);
			t->pending[tail++] = v;
		}
	}
}

/* escape rule: may s send to end j, given its unrouted tree children? */
static int children_can_turn(const struct ta_intree *t, const uint8_t *state,
			     const struct ta_escape *esc, uint32_t s,
			     uint32_t j)
{
	const struct ta_graph *g = t->g;
	uint32_t c;

	for (c = 0; c < g->sw[s].n_ends; c++) {
		uint32_t p = g->sw[s].ends[c].peer;

		if (c == j || t->dist[p] < PENDING ||
		    !ta_escape_is_tree_end(esc, g, s, c) ||
		    t->tree_next[p] != ta_graph_far_end(g, s, c))
			continue;
		if (state[ta_turn(g, s, c, j)] != TA_TURN_ALLOWED)
			return 0;
	}
	return 1;
}

/* is end j of s a way into a switch of level lvl whose output admits it? */
static int can_join_via(const struct ta_intree *t, const uint8_t *state,
			uint32_t s, uint32_t j, uint32_t lvl)
{
	const struct ta_graph *g = t->g;
	uint32_t n = g->sw[s].ends[j].peer, o = t->out_end[n];

	if (t->dist[n] != lvl)
		return 0;
	if (o == TA_OUT_DELIVER)
		return 1;
	return state[ta_turn(g, n, ta_graph_far_end(g, s, j), o)] == TA_TURN_ALLOWED;
}

/* candidates in a switch-independent order: neighbour index, then port */
static void sort_cand(const struct ta_graph *g, uint32_t s, uint32_t *cand,
		      uint32_t n)
{
	uint32_t i, k;

	for (i = 1; i < n; i++) {
		uint32_t x = cand[i];
		uint32_t px = g->sw[s].ends[x].peer;

		for (k = i; k > 0; k--) {
			uint32_t y = cand[k - 1];
			uint32_t py = g->sw[s].ends[y].peer;

			if (py < px || (py == px && y < x))
				break;
			cand[k] = y;
		}
		cand[k] = x;
	}
}

#define MAX_DIV (1u << 24)

/* div[] for destination switch dest_sw (see struct ta_choice) */
static void compute_div(struct ta_intree *t, uint32_t dest_sw)
{
	const struct ta_graph *g = t->g;
	uint32_t head = 0, tail = 0, s, k;

	if (t->div_sw == dest_sw)
		return;
	t->div_sw = dest_sw;
	for (s = 0; s < g->n_sw; s++)
		t->lvl[s] = TA_UNREACHED;
	t->lvl[dest_sw] = 0;
	t->pending[tail++] = dest_sw;
	while (head < tail) {
		uint32_t u = t->pending[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (t->lvl[v] == TA_UNREACHED) {
				t->lvl[v] = t->lvl[u] + 1;
				t->pending[tail++] = v;
			}
		}
	}
	/* farthest first; tree_next holds each switch's next-hop count */
	for (k = tail; k-- > 0;) {
		uint32_t v = t->pending[k], j, nh = 0, div = 1;

		if (++t->stamp == 0) {
			memset(t->seen, 0, g->n_sw * sizeof(*t->seen));
			t->stamp = 1;
		}
		for (j = 0; j < g->sw[v].n_ends; j++) {
			uint32_t u = g->sw[v].ends[j].peer;

			if (t->lvl[u] + 1 == t->lvl[v]) {
				nh += t->seen[u] != t->stamp;
				t->seen[u] = t->stamp;
			} else if (!t->has_host[v] && t->lvl[u] == t->lvl[v] + 1 &&
				   t->height[u] < t->height[v]) {
				uint64_t x = (uint64_t)t->div[u] *
					     t->tree_next[u];

				if (x > div)
					div = x > MAX_DIV ? MAX_DIV : (uint32_t)x;
			}
		}
		t->tree_next[v] = nh;
		t->div[v] = div;
	}
	for (s = 0; s < g->n_sw; s++)
		if (t->lvl[s] == TA_UNREACHED)
			t->div[s] = 1;
}

#define MAX_SIB 256u

/* the neighbour digit of key digit q among peers at switch s */
static uint32_t neighbour_digit(const struct ta_intree *t, uint32_t s,
				uint32_t q, uint32_t peers)
{
	return (q + (t->leaf_rot && t->has_host[s] ? t->leaf_rot[s] : 0)) %
	       peers;
}

/*
 * A displaced destination's pick at switch s (struct ta_choice): index
 * in cand (n candidates, sorted by sort_cand) of candidate key mod n,
 * key = spread + s + dest_sw, if no more siblings use its neighbour at
 * s than any other's, else of the (key / n mod f)-th of the f
 * candidates with the fewest: the displaced LIDs a sibling's neighbour
 * would have had go evenly to the others.  Where the LIDs lie in spine
 * sets on a two-level tree (ch->sets_2level), the (key mod f)-th: the
 * displaced LIDs of one leaf's ports, whose spreads differ by less than
 * n, then take different ones (measured: ft2-648 LMC 3, a spine down,
 * throughput 0.9246 against 0.8635; elsewhere key / n mod f does better:
 * 0.9426 against 0.8499 on a 2-level tree with hosts absent at LMC 3,
 * 0.7917 against 0.7451 on a 3-level tree with the sets at LMC 2).
 */
static uint32_t displaced_pick(const struct ta_graph *g, uint32_t s,
			       uint32_t dest_sw, const uint32_t *cand,
			       uint32_t n, const struct ta_choice *ch)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t key = ch->spread + s + dest_sw;
	uint32_t peer[MAX_SIB], use[MAX_SIB], n_peer = 0, least = UINT32_MAX;
	uint32_t f = 0, i, k;

	for (i = 0; i < ch->n_sib && n_peer < MAX_SIB; i++) {
		uint8_t p = ch->sib[i].col[(size_t)s * ch->sib[i].stride];

		for (k = 0; p != TA_NO_PORT && k < sw->n_ends; k++)
			if (sw->ends[k].port == p) {
				peer[n_peer++] = sw->ends[k].peer;
				break;
			}
	}
	if (!n_peer || n > MAX_SIB)
		return key % n;
	for (k = 0; k < n; k++) {
		use[k] = 0;
		for (i = 0; i < n_peer; i++)
			use[k] += peer[i] == sw->ends[cand[k]].peer;
		if (use[k] < least)
			least = use[k];
	}
	if (use[key % n] == least)
		return key % n;
	for (k = 0; k < n; k++)
		f += use[k] == least;
	f = ch->sets_2level ? key % f : key / n % f;
	for (k = 0; k < n; k++)
		if (use[k] == least && !f--)
			break;
	return k;
}

/*
 * The busiest channel under ch->load of the path from s through end e;
 * *at: its hops to the destination switch (the first of equal ones).
 */
static double path_load(const struct ta_intree *t, const struct ta_choice *ch,
			uint32_t s, uint32_t e, uint32_t *at)
{
	const struct ta_port_ref *r = &t->g->sw[s].ends[e];
	double l = ch->load[r->out_chan], b = t->bneck[r->peer];

	*at = l >= b ? t->dist[r->peer] : t->bdist[r->peer];
	return l >= b ? l : b;
}

/*
 * Minor traffic: the least loaded path, from candidate pick on.  Among
 * paths whose busiest channels carry the same (non-zero) load, the one
 * whose busiest channel lies farthest from the destination: the routes
 * of one destination merge on their way to it, so a channel nearer to it
 * gathers the traffic of more sources of this destination (between two
 * fat trees joined at several links: one join link that every inter-tree
 * route into a pod may reach, against the join of the source's own pod).
 * With ch->same (fabrics that are not tree-like, ta_engine.c):
 * first the output channel fewest destinations of this destination's
 * switch took before, then the rule above.
 */
static uint32_t least_loaded(const struct ta_intree *t, uint32_t s,
			     const uint32_t *cand, uint32_t n, uint32_t pick,
			     const struct ta_choice *ch)
{
	const struct ta_port_ref *ends = t->g->sw[s].ends;
	uint32_t k, at = pick, far, f, cnt = 0, c;
	double best = path_load(t, ch, s, cand[pick], &far);

	if (ch->same)
		cnt = ch->same[ends[cand[pick]].out_chan];
	for (k = 1; k < n; k++) {
		uint32_t i = (pick + k) % n;
		double l = path_load(t, ch, s, cand[i], &f);

		c = ch->same ? ch->same[ends[cand[i]].out_chan] : 0;
		if (c > cnt)
			continue;
		if (c < cnt || l < best * (1 - 1e-9) ||
		    (l > 0 && l <= best * (1 + 1e-9) && f > far)) {
			best = l;
			far = f;
			at = i;
			cnt = c;
		}
	}
	return at;
}

/* the rule of struct ta_choice */
static uint32_t choose(const struct ta_intree *t, uint32_t s,
		       uint32_t dest_sw, const uint32_t *cand, uint32_t n,
		       const struct ta_choice *ch)
{
	uint8_t home = ch->home ? ch->home[(size_t)s * ch->home_stride] :
				  TA_NO_PORT;
	uint32_t k;

	if (home == TA_NO_PORT) {
		/* cand is sorted by neighbour: pick one, then a parallel link */
		uint32_t q = ch->spread / t->div[s], peers = 1, first = 0, par;
		uint32_t want;

		for (k = 1; k < n; k++)
			peers += t->g->sw[s].ends[cand[k]].peer !=
				 t->g->sw[s].ends[cand[k - 1]].peer;
		want = neighbour_digit(t, s, q, peers);
		for (k = 1; k < n && want; k++)
			if (t->g->sw[s].ends[cand[k]].peer !=
			    t->g->sw[s].ends[cand[k - 1]].peer && !--want)
				first = k;
		for (par = 1; first + par < n &&
			      t->g->sw[s].ends[cand[first + par]].peer ==
				      t->g->sw[s].ends[cand[first]].peer;
		     par++)
			;
		k = first + (q / peers) % par;
		if (ch->main_sw && !ch->main_sw[s])
			k = least_loaded(t, s, cand, n, k, ch);
		return cand[k];
	}
	for (k = 0; k < n; k++)
		if (t->g->sw[s].ends[cand[k]].port == home)
			return cand[k];
	return cand[displaced_pick(t->g, s, dest_sw, cand, n, ch)];
}

uint32_t ta_intree_build(struct ta_intree *t, const uint8_t *state,
			 const struct ta_escape *esc, uint32_t dest_sw,
			 const struct ta_choice *ch)
{
	const struct ta_graph *g = t->g;
	uint32_t s, lvl = 0, lvl_start = 0;

	for (s = 0; s < g->n_sw; s++) {
		t->dist[s] = TA_UNREACHED;
		t->out_end[s] = TA_NO_END;
	}
	compute_div(t, dest_sw);
	if (esc)
		tree_paths(t, esc, dest_sw);
	t->dist[dest_sw] = 0;
	t->out_end[dest_sw] = TA_OUT_DELIVER;
	t->bneck[dest_sw] = 0;
	t->bdist[dest_sw] = 0;
	t->order[0] = dest_sw;
	t->n_order = 1;
	while (lvl_start < t->n_order) {
		uint32_t lvl_end = t->n_order, n_pend = 0, k, p;

		/* switches next to this level, not yet routed */
		for (k = lvl_start; k < lvl_end; k++) {
			uint32_t u = t->order[k], j;

			for (j = 0; j < g->sw[u].n_ends; j++) {
				uint32_t v = g->sw[u].ends[j].peer;

				if (t->dist[v] != TA_UNREACHED)
					continue;
				t->dist[v] = PENDING;
				t->pending[n_pend++] = v;
			}
		}
		for (p = 0; p < n_pend; p++) {
			uint32_t v = t->pending[p], j, n_cand = 0;

			for (j = 0; j < g->sw[v].n_ends; j++)
				if (can_join_via(t, state, v, j, lvl) &&
				    (!esc ||
				     children_can_turn(t, state, esc, v, j)))
					t->cand[n_cand++] = j;
			if (!n_cand)
				continue;
			sort_cand(g, v, t->cand, n_cand);
			t->out_end[v] = choose(t, v, dest_sw, t->cand, n_cand, ch);
			if (ch->load)
				t->bneck[v] = path_load(t, ch, v,
							t->out_end[v],
							&t->bdist[v]);
			t->dist[v] = lvl + 1;
			t->order[t->n_order++] = v;
		}
		/* the stranded ones may join later through a longer path */
		for (p = 0; p < n_pend; p++)
			if (t->dist[t->pending[p]] == PENDING)
				t->dist[t->pending[p]] = TA_UNREACHED;
		lvl_start = lvl_end;
		lvl++;
	}
	return t->n_order;
}

/* levels, divisors and sorted candidates towards dest_sw, for all */
static void plain_prepare(struct ta_intree *t, uint32_t dest_sw)
{
	const struct ta_graph *g = t->g;
	uint32_t k, n = 0, c = 0, gi = 0, s;

	t->div_sw = UINT32_MAX;	/* compute_div's queue is needed too */
	compute_div(t, dest_sw);
	for (s = 0; s < g->n_sw; s++)
		n += t->lvl[s] != TA_UNREACHED;
	memcpy(t->plain_order, t->pending, n * sizeof(*t->plain_order));
	t->n_plain = n;
	for (k = 0; k < n; k++) {
		uint32_t v = t->plain_order[k], j, first = c;

		t->pc_start[v] = c;
		t->pg_start[v] = gi;
		t->n_peers[v] = 0;
		t->pc_n[v] = 0;
		if (k == 0)
			continue;
		for (j = 0; j < g->sw[v].n_ends; j++)
			if (t->lvl[g->sw[v].ends[j].peer] + 1 == t->lvl[v])
				t->pc[c++] = j;
		sort_cand(g, v, t->pc + first, c - first);
		t->pc_n[v] = c - first;
		for (j = first; j < c; j++)
			if (j == first || g->sw[v].ends[t->pc[j]].peer !=
					  g->sw[v].ends[t->pc[j - 1]].peer) {
				t->pg[gi++] = j - first;
				t->n_peers[v]++;
			}
	}
	t->plain_sw = dest_sw;
	t->fast_sw = UINT32_MAX;
}

uint32_t ta_intree_plain(struct ta_intree *t, uint32_t dest_sw,
			 uint32_t spread)
{
	const struct ta_graph *g = t->g;
	uint32_t k;

	if (t->plain_sw != dest_sw)
		plain_prepare(t, dest_sw);
	for (k = 0; k < g->n_sw; k++)
		t->dist[k] = TA_UNREACHED;
	t->dist[dest_sw] = 0;
	t->out_end[dest_sw] = TA_OUT_DELIVER;
	t->order[0] = dest_sw;
	/* choose()'s rule without a home: neighbour digit, then parallel */
	for (k = 1; k < t->n_plain; k++) {
		uint32_t v = t->plain_order[k], peers = t->n_peers[v];
		const uint32_t *grp = t->pg + t->pg_start[v];
		uint32_t q = spread / t->div[v];
		uint32_t want = neighbour_digit(t, v, q, peers);
		uint32_t first = grp[want];
		uint32_t end = want + 1 < peers ? grp[want + 1] : t->pc_n[v];

		t->out_end[v] = t->pc[t->pc_start[v] + first +
				      (q / peers) % (end - first)];
		t->dist[v] = t->lvl[v];
		t->order[k] = v;
	}
	t->n_order = t->n_plain;
	return t->n_order;
}

/* pc_open[] for the prepared destination switch under state */
static void fast_prepare(struct ta_intree *t, const uint8_t *state)
{
	const struct ta_graph *g = t->g;
	uint32_t k;

	uint8_t *open = (uint8_t *)t->cand;	/* max_ends words: room */

	for (k = 1; k < t->n_plain; k++) {
		uint32_t v = t->plain_order[k], c, j, o;
		const struct ta_switch *sw = &g->sw[v];
		const uint32_t n = sw->n_ends, up = t->lvl[v] + 1;
		const uint8_t *rows = state + sw->turn_base;

		memset(open, 1, n);
		/* the turns from every end one level farther, row by row */
		for (j = 0; j < n; j++) {
			const uint8_t *row = rows + (size_t)j * n;

			if (t->lvl[sw->ends[j].peer] != up)
				continue;
			/* 8 turns a word: state 1 (allowed) is bit 0 alone */
			for (o = 0; o + 8 <= n; o += 8) {
				uint64_t r, m;

				memcpy(&r, row + o, 8);
				memcpy(&m, open + o, 8);
				m &= r & ~(r >> 1) & 0x0101010101010101ull;
				memcpy(open + o, &m, 8);
			}
			for (; o < n; o++)
				open[o] &= row[o] == TA_TURN_ALLOWED;
		}
		for (c = t->pc_start[v]; c < t->pc_start[v] + t->pc_n[v]; c++)
			t->pc_open[c] = open[t->pc[c]];
	}
	t->fast_state = state;
	t->fast_sw = t->plain_sw;
}

uint32_t ta_intree_fast(struct ta_intree *t, const uint8_t *state,
			uint32_t dest_sw, const struct ta_choice *ch)
{
	const struct ta_graph *g = t->g;
	uint32_t k;

	if (ch->main_sw)
		return 0;	/* the load-aware choice: grown turn by turn */
	if (t->plain_sw != dest_sw || t->div_sw != dest_sw)
		plain_prepare(t, dest_sw);
	if (t->fast_sw != dest_sw || t->fast_state != state)
		fast_prepare(t, state);
	for (k = 1; k < t->n_plain; k++) {
		uint32_t v = t->plain_order[k], n = t->pc_n[v];
		const uint32_t *cand = t->pc + t->pc_start[v];
		uint8_t home = ch->home ?
			ch->home[(size_t)v * ch->home_stride] : TA_NO_PORT;
		uint32_t c;

		if (home == TA_NO_PORT) {
			/* choose()'s rule: neighbour digit, then parallel */
			uint32_t peers = t->n_peers[v];
			const uint32_t *grp = t->pg + t->pg_start[v];
			uint32_t q = ch->spread / t->div[v];
			uint32_t want = neighbour_digit(t, v, q, peers);
			uint32_t first = grp[want];
			uint32_t end = want + 1 < peers ? grp[want + 1] : n;

			c = first + (q / peers) % (end - first);
		} else {
			for (c = 0; c < n; c++)
				if (g->sw[v].ends[cand[c]].port == home)
					break;
			if (c == n)
				c = displaced_pick(g, v, dest_sw, cand, n, ch);
		}
		if (!t->pc_open[t->pc_start[v] + c])
			return 0;
		t->out_end[v] = cand[c];
	}
	for (k = 0; k < g->n_sw; k++) {
		t->dist[k] = t->lvl[k];
		if (t->lvl[k] == TA_UNREACHED)
			t->out_end[k] = TA_NO_END;
	}
	t->out_end[dest_sw] = TA_OUT_DELIVER;
	memcpy(t->order, t->plain_order, t->n_plain * sizeof(*t->order));
	t->n_order = t->n_plain;
	return t->n_order;
}
