// SPDX-License-Identifier: MIT
/* Escape spanning tree: root choice, BFS with traffic-aware parents. */
#include <stdlib.h>
#include <string.h>

#include "ta_escape.h"

#define MAX_ECC_CANDIDATES 64u

static double switch_traffic(const struct ta_graph *g, const double *w,
			     uint32_t s)
{
	uint32_t n = g->sw[s].n_ends, k;
	double sum = 0;

	if (!w)
		return 0;
	for (k = 0; k < n * n; k++)
		sum += w[g->sw[s].turn_base + k];
	return sum;
}

/*
 * Best root among the switches of the piece listed in members[0..n).
 * Where some switches have hosts and some have none (fat trees and
 * other tree-like fabrics), only switches with hosts are candidates:
 * a tree rooted at a leaf joins the upper switches through that one leaf
 * and the switches next to it, so its turns that go down and up again
 * sit at one place and never force a prohibition among the up-and-down
 * turns the fabric's traffic uses; a tree rooted at the top would join
 * the top switches through leaves and middle switches all over the
 * fabric, and the cycles its down-and-up turns make with the traffic's
 * turns would cost bandwidth.
 */
static uint32_t pick_root(const struct ta_graph *g, const double *w,
			  const uint8_t *has_host, const uint32_t *members,
			  uint32_t n, uint32_t *dist, uint32_t *queue)
{
	uint32_t max_deg = 0, i, tried = 0, best = members[0], n_cand = 0;
	uint32_t best_ecc = UINT32_MAX, with_hosts = 0;
	double best_w = -1;

	for (i = 0; i < n; i++)
		with_hosts += has_host[members[i]];
	for (i = 0; i < n; i++) {
		uint32_t s = members[i];

		if (with_hosts && with_hosts < n && !has_host[s])
			continue;
		n_cand++;
		if (g->sw[s].n_ends > max_deg)
			max_deg = g->sw[s].n_ends;
	}
	/* few candidates: all of them; many: the best-connected few */
	for (i = 0; i < n && tried < MAX_ECC_CANDIDATES; i++) {
		uint32_t s = members[i], ecc;
		double tw;

		if (with_hosts && with_hosts < n && !has_host[s])
			continue;
		if (n_cand > MAX_ECC_CANDIDATES && g->sw[s].n_ends != max_deg)
			continue;
		tried++;
		ecc = ta_graph_bfs(g, s, dist, queue);
		tw = switch_traffic(g, w, s);
		if (ecc < best_ecc || (ecc == best_ecc && tw > best_w)) {
			best = s;
			best_ecc = ecc;
			best_w = tw;
		}
	}
	return best;
}

struct root_rank {
	uint32_t s, ecc;
	double w;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct root_rank *x = a, *y = b;

	if (x->ecc != y->ecc)
		return x->ecc < y->ecc ? -1 : 1;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->s < y->s ? -1 : (x->s > y->s);
}

uint32_t ta_escape_rank_roots(const struct ta_graph *g,
			      const double *turn_weight, uint32_t *out,
			      uint32_t max)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, s, cnt = 0, with_hosts = 0;
	uint32_t max_deg = 0, n_cand = 0, tried = 0, i;
	uint32_t *dist = malloc(n * sizeof(*dist));
	uint32_t *queue = malloc(n * sizeof(*queue));
	uint8_t *has_host = calloc(n, 1);
	struct root_rank *rk = malloc(MAX_ECC_CANDIDATES * sizeof(*rk));

	if (!dist || !queue || !has_host || !rk || !g->n_sw)
		goto out;
	for (s = 0; s < g->n_dest; s++)
		if (g->dest[s].is_host)
			has_host[g->dest[s].sw] = 1;
	ta_graph_bfs(g, 0, dist, queue);
	for (s = 0; s < g->n_sw; s++)
		if (dist[s] != UINT32_MAX) {
			cnt++;
			with_hosts += has_host[s];
		}
	/* the candidates of pick_root, in the same order */
	for (s = 0; s < g->n_sw; s++) {
		if (dist[s] == UINT32_MAX ||
		    (with_hosts && with_hosts < cnt && !has_host[s]))
			continue;
		n_cand++;
		if (g->sw[s].n_ends > max_deg)
			max_deg = g->sw[s].n_ends;
	}
	for (s = 0; s < g->n_sw && tried < MAX_ECC_CANDIDATES; s++) {
		if (dist[s] == UINT32_MAX ||
		    (with_hosts && with_hosts < cnt && !has_host[s]) ||
		    (n_cand > MAX_ECC_CANDIDATES &&
		     g->sw[s].n_ends != max_deg))
			continue;
		rk[tried].s = s;
		rk[tried].w = switch_traffic(g, turn_weight, s);
		tried++;
	}
	for (i = 0; i < tried; i++)	/* queue is free again */
		rk[i].ecc = ta_graph_bfs(g, rk[i].s, dist, queue);
	qsort(rk, tried, sizeof(*rk), cmp_rank);
	for (i = 0; i < tried && i < max; i++)
		out[i] = rk[i].s;
	cnt = i;
	goto done;
out:
	cnt = 0;
done:
	free(dist);
	free(queue);
	free(has_host);
	free(rk);
	return cnt;
}

/*
 * How good p is as parent, entering through its end in_end: first
 * whether the turn into p's own parent link is already allowed in state,
 * then the weight of that turn pair.
 */
struct parent_score {
	int allowed;
	double weight;
	uint32_t children;	/* tie-break: tree children so far */
};

static struct parent_score score_parent(const struct ta_graph *g,
					const double *w, const uint8_t *state,
					const struct ta_escape *e, uint32_t p,
					uint32_t in_end)
{
	struct parent_score sc = { 0, 0, 0 };
	uint32_t up = e->parent_end[p];

	if (up == TA_NO_END)
		return sc;
	if (w)
		sc.weight = w[ta_turn(g, p, in_end, up)] +
			    w[ta_turn(g, p, up, in_end)];
	sc.allowed = state &&
		     state[ta_turn(g, p, in_end, up)] == TA_TURN_ALLOWED;
	return sc;
}

/*
 * Among equal turns, the parent that already has the most children: the
 * turns no traffic estimate covers (a tree-like fabric's upper switches
 * joined through a lower one) then meet at few switches.
 */
static int better(struct parent_score a, struct parent_score b)
{
	if (a.allowed != b.allowed)
		return a.allowed > b.allowed;
	if (a.weight != b.weight)
		return a.weight > b.weight;
	return a.children > b.children;
}

/* BFS tree of one piece from root; parents chosen by turn weight */
static void grow_tree(struct ta_escape *e, const struct ta_graph *g,
		      const double *w, const uint8_t *state, uint32_t root,
		      uint32_t *dist, uint32_t *queue)
{
	uint32_t k, n_piece = 0, s;
	uint32_t *children = calloc(g->n_sw + 1, sizeof(*children));

	ta_graph_bfs(g, root, dist, queue);
	/* queue holds the piece in BFS order: parents come before children */
	for (s = 0; s < g->n_sw; s++)
		if (dist[s] != UINT32_MAX)
			n_piece++;
	e->parent_end[root] = TA_NO_END;
	for (k = 0; k < n_piece; k++)
		e->level[queue[k]] = dist[queue[k]];
	for (k = 1; k < n_piece; k++) {
		uint32_t v = queue[k], j, best = TA_NO_END;
		struct parent_score best_sc = { -1, -1, 0 };

		for (j = 0; j < g->sw[v].n_ends; j++) {
			const struct ta_port_ref *r = &g->sw[v].ends[j];
			const struct ta_link *l = &g->links[r->link];
			uint32_t p = r->peer, p_end;
			struct parent_score sc;

			if (dist[p] + 1 != dist[v])
				continue;
			p_end = l->end[l->sw[0] == p ? 0 : 1];
			sc = score_parent(g, w, state, e, p, p_end);
			sc.children = children ? children[p] : 0;
			if (better(sc, best_sc)) {
				best_sc = sc;
				best = j;
			}
		}
		e->parent_end[v] = best;
		if (children && best != TA_NO_END)
			children[g->sw[v].ends[best].peer]++;
	}
	free(children);
}

/*
 * Numbers the piece holding switch s (the next piece number, as
 * ta_escape_build numbers them) and returns its root: the switch with
 * root_guid when the piece holds it, else pick_root()'s choice.
 */
static uint32_t number_piece(struct ta_escape *e, const struct ta_graph *g,
			     uint32_t s, uint64_t root_guid,
			     const double *turn_weight, const uint8_t *has_host,
			     uint32_t *members, uint32_t *dist,
			     uint32_t *queue)
{
	uint32_t cnt = 0, i, root = UINT32_MAX;

	ta_graph_bfs(g, s, dist, queue);
	for (i = 0; i < g->n_sw; i++)
		if (dist[i] != UINT32_MAX) {
			members[cnt++] = i;
			e->piece[i] = e->n_pieces;
		}
	for (i = 0; root_guid && i < cnt; i++)
		if (g->sw[members[i]].guid == root_guid)
			root = members[i];
	if (root == UINT32_MAX)
		root = pick_root(g, turn_weight, has_host, members, cnt, dist,
				 queue);
	return root;
}

int ta_escape_build(struct ta_escape *e, const struct ta_graph *g,
		    const double *turn_weight, const uint8_t *state,
		    uint64_t root_guid)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, s;
	uint32_t *dist = malloc(n * sizeof(*dist));
	uint32_t *queue = malloc(n * sizeof(*queue));
	uint32_t *members = malloc(n * sizeof(*members));
	uint8_t *has_host = calloc(n, 1);

	memset(e, 0, sizeof(*e));
	e->parent_end = malloc(n * sizeof(*e->parent_end));
	e->piece = malloc(n * sizeof(*e->piece));
	e->level = malloc(n * sizeof(*e->level));
	if (!dist || !queue || !members || !has_host || !e->parent_end ||
	    !e->piece || !e->level) {
		free(dist);
		free(queue);
		free(members);
		free(has_host);
		ta_escape_free(e);
		return -1;
	}
	for (s = 0; s < g->n_dest; s++)
		if (g->dest[s].is_host)
			has_host[g->dest[s].sw] = 1;
	for (s = 0; s < g->n_sw; s++) {
		e->parent_end[s] = TA_NO_END;
		e->piece[s] = UINT32_MAX;
	}
	for (s = 0; s < g->n_sw; s++) {
		uint32_t root;

		if (e->piece[s] != UINT32_MAX)
			continue;
		root = number_piece(e, g, s, root_guid, turn_weight, has_host,
				    members, dist, queue);
		grow_tree(e, g, turn_weight, state, root, dist, queue);
		if (e->n_pieces == 0)
			e->root = root;
		e->n_pieces++;
	}
	free(dist);
	free(queue);
	free(members);
	free(has_host);
	return 0;
}

/* ---- a tree carried over from a previous routing ---- */

struct carry_cand {
	uint32_t link;
	uint32_t not_allowed;	/* its turns with tree links not allowed */
	uint32_t prohibited;	/* ... of which prohibited */
	double weight;
};

struct carry_work {
	const struct ta_graph *g;
	const double *w;
	const uint8_t *state;
	uint32_t *uf;		/* union-find parent, per switch */
	uint8_t *tree;		/* per link: a tree link */
	struct carry_cand *cand;
	uint32_t n_cand;
};

static uint32_t uf_find(uint32_t *uf, uint32_t s)
{
	while (uf[s] != s) {
		uf[s] = uf[uf[s]];
		s = uf[s];
	}
	return s;
}

/* joins the sets of a and b; 0 if they were one set already */
static int uf_join(uint32_t *uf, uint32_t a, uint32_t b)
{
	a = uf_find(uf, a);
	b = uf_find(uf, b);
	if (a == b)
		return 0;
	if (a < b)
		uf[b] = a;
	else
		uf[a] = b;
	return 1;
}

/* the turns between end j of s and the tree links at s, into x */
static void score_end(const struct carry_work *c, uint32_t s, uint32_t j,
		      struct carry_cand *x)
{
	const struct ta_graph *g = c->g;
	uint32_t i, t;

	for (i = 0; i < g->sw[s].n_ends; i++) {
		uint32_t k[2];

		if (i == j || !c->tree[g->sw[s].ends[i].link])
			continue;
		k[0] = ta_turn(g, s, i, j);
		k[1] = ta_turn(g, s, j, i);
		for (t = 0; t < 2; t++) {
			if (c->state && c->state[k[t]] != TA_TURN_ALLOWED)
				x->not_allowed++;
			if (c->state && c->state[k[t]] == TA_TURN_PROHIBITED)
				x->prohibited++;
			if (c->w)
				x->weight += c->w[k[t]];
		}
	}
}

static int cmp_cand(const void *a, const void *b)
{
	const struct carry_cand *x = a, *y = b;
	int xa = !x->not_allowed, ya = !y->not_allowed;

	if (xa != ya)
		return xa ? -1 : 1;
	if (x->prohibited != y->prohibited)
		return x->prohibited < y->prohibited ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->link < y->link ? -1 : (x->link > y->link);
}

/* joins the kept forest's pieces by further links (ta_escape.h) */
static void join_forest(struct carry_work *c)
{
	const struct ta_graph *g = c->g;
	uint32_t l, k;

	c->n_cand = 0;
	for (l = 0; l < g->n_links; l++) {
		const struct ta_link *ln = &g->links[l];
		struct carry_cand *x = &c->cand[c->n_cand];

		if (c->tree[l] || uf_find(c->uf, ln->sw[0]) ==
				  uf_find(c->uf, ln->sw[1]))
			continue;
		memset(x, 0, sizeof(*x));
		x->link = l;
		score_end(c, ln->sw[0], ln->end[0], x);
		score_end(c, ln->sw[1], ln->end[1], x);
		c->n_cand++;
	}
	qsort(c->cand, c->n_cand, sizeof(*c->cand), cmp_cand);
	for (k = 0; k < c->n_cand; k++) {
		const struct ta_link *ln = &g->links[c->cand[k].link];

		if (uf_join(c->uf, ln->sw[0], ln->sw[1]))
			c->tree[c->cand[k].link] = 1;
	}
}

/* parents and levels along the tree links, from root over its piece */
static void orient(struct ta_escape *e, const struct ta_graph *g,
		   const uint8_t *tree, uint32_t root, uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	e->parent_end[root] = TA_NO_END;
	e->level[root] = 0;
	queue[tail++] = root;
	while (head < tail) {
		uint32_t u = queue[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			const struct ta_port_ref *r = &g->sw[u].ends[j];
			const struct ta_link *l = &g->links[r->link];
			uint32_t v = r->peer;

			if (!tree[r->link] || v == root ||
			    e->parent_end[v] != TA_NO_END)
				continue;
			e->parent_end[v] = l->end[l->sw[0] == v ? 0 : 1];
			e->level[v] = e->level[u] + 1;
			queue[tail++] = v;
		}
	}
}

int ta_escape_carry(struct ta_escape *e, const struct ta_graph *g,
		    const uint32_t *prev_parent, const double *turn_weight,
		    const uint8_t *state, uint64_t root_guid)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, nl = g->n_links + 1, s;
	struct carry_work c = { .g = g, .w = turn_weight, .state = state };
	uint32_t *dist = malloc(n * sizeof(*dist));
	uint32_t *queue = malloc(n * sizeof(*queue));
	uint32_t *members = malloc(n * sizeof(*members));
	uint8_t *has_host = calloc(n, 1);
	int ret = -1;

	memset(e, 0, sizeof(*e));
	c.uf = malloc(n * sizeof(*c.uf));
	c.tree = calloc(nl, 1);
	c.cand = malloc(nl * sizeof(*c.cand));
	e->parent_end = malloc(n * sizeof(*e->parent_end));
	e->piece = malloc(n * sizeof(*e->piece));
	e->level = malloc(n * sizeof(*e->level));
	if (!dist || !queue || !members || !has_host || !c.uf || !c.tree ||
	    !c.cand ||
	    !e->parent_end || !e->piece || !e->level) {
		ta_escape_free(e);
		goto out;
	}
	for (s = 0; s < g->n_dest; s++)
		if (g->dest[s].is_host)
			has_host[g->dest[s].sw] = 1;
	for (s = 0; s < g->n_sw; s++) {
		c.uf[s] = s;
		e->parent_end[s] = TA_NO_END;
		e->piece[s] = UINT32_MAX;
	}
	/* the previous tree links that are still there */
	for (s = 0; prev_parent && s < g->n_sw; s++) {
		uint32_t j = prev_parent[s];
		const struct ta_port_ref *r;

		if (j >= g->sw[s].n_ends)
			continue;
		r = &g->sw[s].ends[j];
		if (uf_join(c.uf, s, r->peer))
			c.tree[r->link] = 1;
	}
	join_forest(&c);
	/* pieces as ta_escape_build numbers them, each rooted */
	for (s = 0; s < g->n_sw; s++) {
		uint32_t root;

		if (e->piece[s] != UINT32_MAX)
			continue;
		root = number_piece(e, g, s, root_guid, turn_weight, has_host,
				    members, dist, queue);
		orient(e, g, c.tree, root, queue);
		if (e->n_pieces == 0)
			e->root = root;
		e->n_pieces++;
	}
	ret = 0;
out:
	free(dist);
	free(queue);
	free(members);
	free(has_host);
	free(c.uf);
	free(c.tree);
	free(c.cand);
	return ret;
}

void ta_escape_free(struct ta_escape *e)
{
	free(e->parent_end);
	free(e->piece);
	free(e->level);
	e->parent_end = NULL;
	e->piece = NULL;
	e->level = NULL;
}

int ta_escape_is_tree_end(const struct ta_escape *e, const struct ta_graph *g,
			  uint32_t s, uint32_t j)
{
	const struct ta_port_ref *r = &g->sw[s].ends[j];
	uint32_t pe;

	if (e->parent_end[s] == j)
		return 1;
	pe = e->parent_end[r->peer];
	return pe != TA_NO_END && g->sw[r->peer].ends[pe].link == r->link;
}

int ta_escape_allow_turns(const struct ta_escape *e, struct ta_cdg *c)
{
	const struct ta_graph *g = c->g;
	uint32_t s, i, j;

	for (s = 0; s < g->n_sw; s++)
		for (i = 0; i < g->sw[s].n_ends; i++) {
			if (!ta_escape_is_tree_end(e, g, s, i))
				continue;
			for (j = 0; j < g->sw[s].n_ends; j++) {
				if (j == i || !ta_escape_is_tree_end(e, g, s, j) ||
				    ta_cdg_allowed(c, s, i, j))
					continue;
				if (ta_cdg_closes_cycle(c, s, i, j))
					return -1;
				ta_cdg_allow(c, s, i, j);
			}
		}
	return 0;
}
