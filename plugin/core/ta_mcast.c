// SPDX-License-Identifier: MIT
/* Multicast trees over turns allowed to unicast (see ta_mcast.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_mcast.h"

int ta_mcast_init(struct ta_mcast *m, const struct ta_graph *g,
		  const uint8_t *turn_state, const uint32_t *escape_parent)
{
	size_t n = g->n_sw + 1, nl = g->n_links + 1, maxd = 1;
	uint32_t s;

	memset(m, 0, sizeof(*m));
	m->g = g;
	m->turn_state = turn_state;
	m->escape_parent = escape_parent;
	for (s = 0; s < g->n_sw; s++)
		if (g->sw[s].n_ends > maxd)
			maxd = g->sw[s].n_ends;
	m->load = calloc(nl, sizeof(*m->load));
	m->in_tree = calloc(n, 1);
	m->member = calloc(n, 1);
	m->deg = calloc(n, sizeof(*m->deg));
	m->from = calloc(n, sizeof(*m->from));
	m->seen = calloc(n, sizeof(*m->seen));
	m->queue = calloc(n, sizeof(*m->queue));
	m->link_in = calloc(nl, 1);
	m->order = calloc(maxd, sizeof(*m->order));
	if (!m->load || !m->in_tree || !m->member || !m->deg || !m->from ||
	    !m->seen || !m->queue || !m->link_in || !m->order) {
		ta_mcast_free(m);
		return -1;
	}
	return 0;
}

void ta_mcast_free(struct ta_mcast *m)
{
	free(m->load);
	free(m->in_tree);
	free(m->member);
	free(m->deg);
	free(m->from);
	free(m->seen);
	free(m->queue);
	free(m->link_in);
	free(m->order);
	memset(m, 0, sizeof(*m));
}

void ta_mc_tree_free(struct ta_mc_tree *t)
{
	free(t->links);
	memset(t, 0, sizeof(*t));
}

void ta_mcast_unload(struct ta_mcast *m, const uint32_t *links,
		     uint32_t n_links)
{
	uint32_t k;

	for (k = 0; k < n_links; k++)
		if (links[k] < m->g->n_links && m->load[links[k]])
			m->load[links[k]]--;
}

static bool allowed(const struct ta_graph *g, const uint8_t *st, uint32_t s,
		    uint32_t i, uint32_t j)
{
	return st[ta_turn(g, s, i, j)] == TA_TURN_ALLOWED &&
	       st[ta_turn(g, s, j, i)] == TA_TURN_ALLOWED;
}

/* can end j of s join the tree ends s has (link_in marks them)? */
static bool fits(const struct ta_mcast *m, uint32_t s, uint32_t j)
{
	const struct ta_switch *w = &m->g->sw[s];
	uint32_t i;

	for (i = 0; i < w->n_ends; i++)
		if (i != j && m->link_in[w->ends[i].link] &&
		    !allowed(m->g, m->turn_state, s, i, j))
			return false;
	return true;
}

static int add_link(struct ta_mcast *m, struct ta_mc_tree *t, uint32_t l)
{
	const struct ta_link *k = &m->g->links[l];

	if (t->n_links == t->cap_links) {
		uint32_t cap = t->cap_links ? 2 * t->cap_links : 16;
		uint32_t *p = realloc(t->links, cap * sizeof(*p));

		if (!p)
			return -1;
		t->links = p;
		t->cap_links = cap;
	}
	t->links[t->n_links++] = l;
	m->link_in[l] = 1;
	m->deg[k->sw[0]]++;
	m->deg[k->sw[1]]++;
	m->in_tree[k->sw[0]] = 1;
	m->in_tree[k->sw[1]] = 1;
	return 0;
}

/* drops every link, clearing the marks (in_tree too) */
static void drop_all(struct ta_mcast *m, struct ta_mc_tree *t)
{
	uint32_t k;

	for (k = 0; k < t->n_links; k++) {
		const struct ta_link *l = &m->g->links[t->links[k]];

		m->link_in[t->links[k]] = 0;
		m->deg[l->sw[0]] = m->deg[l->sw[1]] = 0;
		m->in_tree[l->sw[0]] = m->in_tree[l->sw[1]] = 0;
	}
	t->n_links = 0;
}

/* union-find root with path halving */
static uint32_t uf_find(uint32_t *p, uint32_t x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

/*
 * Takes over the prior links that still hold: all of them must keep
 * their turns allowed and form no cycle (else none is kept); then the
 * piece joining the most member switches is kept.
 */
static int take_prior(struct ta_mcast *m, struct ta_mc_tree *t,
		      const uint32_t *prior, uint32_t n_prior)
{
	const struct ta_graph *g = m->g;
	uint32_t *uf, *cnt, k, s, best = UINT32_MAX, best_n = 0;
	bool ok = true;

	for (k = 0; k < n_prior; k++)
		if (prior[k] < g->n_links && !m->link_in[prior[k]] &&
		    add_link(m, t, prior[k]))
			return -1;
	if (!t->n_links)
		return 0;
	uf = malloc(2 * (size_t)g->n_sw * sizeof(*uf));
	if (!uf)
		return -1;
	cnt = uf + g->n_sw;
	for (s = 0; s < g->n_sw; s++) {
		uf[s] = s;
		cnt[s] = 0;
	}
	for (k = 0; k < t->n_links && ok; k++) {
		const struct ta_link *l = &g->links[t->links[k]];
		uint32_t a = uf_find(uf, l->sw[0]), b = uf_find(uf, l->sw[1]);

		if (a == b)
			ok = false;
		uf[a] = b;
		ok = ok && fits(m, l->sw[0], l->end[0]) &&
		     fits(m, l->sw[1], l->end[1]);
	}
	for (s = 0; s < g->n_sw && ok; s++)
		if (m->member[s] && m->in_tree[s] &&
		    ++cnt[uf_find(uf, s)] > best_n) {
			best_n = cnt[uf_find(uf, s)];
			best = uf_find(uf, s);
		}
	if (!ok || best == UINT32_MAX) {
		drop_all(m, t);
	} else {
		uint32_t n = t->n_links;

		drop_all(m, t);
		for (k = 0; k < n; k++)
			if (uf_find(uf, g->links[t->links[k]].sw[0]) == best)
				add_link(m, t, t->links[k]);	/* no growth */
	}
	free(uf);
	return 0;
}

/* removes links to leaves that are not members, until none is left */
static void prune(struct ta_mcast *m, struct ta_mc_tree *t)
{
	const struct ta_graph *g = m->g;
	bool changed = true;
	uint32_t k, n;

	while (changed) {
		changed = false;
		for (k = 0; k < t->n_links; k++) {
			const struct ta_link *l = &g->links[t->links[k]];
			int e;

			for (e = 0; e < 2; e++) {
				uint32_t s = l->sw[e];

				if (m->deg[s] != 1 || m->member[s])
					continue;
				m->link_in[t->links[k]] = 0;
				m->deg[l->sw[0]]--;
				m->deg[l->sw[1]]--;
				m->in_tree[s] = 0;
				changed = true;
				break;
			}
		}
		for (k = n = 0; k < t->n_links; k++)
			if (m->link_in[t->links[k]])
				t->links[n++] = t->links[k];
		t->n_links = n;
	}
}

/* ends of s sorted by link load, ties rotated by key */
static uint32_t sorted_ends(struct ta_mcast *m, uint32_t s, uint32_t key)
{
	const struct ta_switch *w = &m->g->sw[s];
	uint32_t n = w->n_ends, i, j;

	for (i = 0; i < n; i++) {
		uint32_t e = (i + key) % n, v = m->load[w->ends[e].link];

		for (j = i; j > 0 &&
		     m->load[w->ends[m->order[j - 1]].link] > v; j--)
			m->order[j] = m->order[j - 1];
		m->order[j] = e;
	}
	return n;
}

/*
 * One breadth-first search from every tree switch over compatible
 * turns; then each member switch it reached is attached by its path,
 * in the order reached, where the path still fits.  Returns the
 * member switches attached, -1 on allocation failure.
 */
static int grow_round(struct ta_mcast *m, struct ta_mc_tree *t, uint32_t key)
{
	const struct ta_graph *g = m->g;
	uint32_t head = 0, tail = 0, s, q, attached = 0;

	m->epoch++;
	for (s = 0; s < g->n_sw; s++)
		if (m->in_tree[s]) {
			m->seen[s] = m->epoch;
			m->from[s] = TA_NO_END;
			m->queue[tail++] = s;
		}
	while (head < tail) {
		uint32_t x = m->queue[head++], n = sorted_ends(m, x, key), k;

		for (k = 0; k < n; k++) {
			uint32_t j = m->order[k];
			const struct ta_port_ref *r = &g->sw[x].ends[j];
			const struct ta_link *l = &g->links[r->link];

			if (m->seen[r->peer] == m->epoch || m->link_in[r->link])
				continue;
			if (m->in_tree[x] ? !fits(m, x, j) :
			    !allowed(g, m->turn_state, x, m->from[x], j))
				continue;
			m->seen[r->peer] = m->epoch;
			m->from[r->peer] = l->sw[0] == r->peer ? l->end[0] :
								  l->end[1];
			m->queue[tail++] = r->peer;
		}
	}
	for (q = 0; q < tail; q++) {
		uint32_t y = m->queue[q], x = y, link = 0, z;
		const struct ta_link *l;

		if (!m->member[y] || m->in_tree[y])
			continue;
		/* walk back to the first switch now in the tree */
		while (!m->in_tree[x]) {
			link = g->sw[x].ends[m->from[x]].link;
			x = g->sw[x].ends[m->from[x]].peer;
		}
		l = &g->links[link];
		if (!fits(m, x, l->sw[0] == x ? l->end[0] : l->end[1]))
			continue;	/* the next round may find another way */
		for (z = y; z != x; z = g->sw[z].ends[m->from[z]].peer)
			if (add_link(m, t, g->sw[z].ends[m->from[z]].link))
				return -1;
		attached++;
	}
	return (int)attached;
}

static bool all_reached(const struct ta_mcast *m, const uint32_t *members,
			uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		if (!m->in_tree[members[k]])
			return false;
	return true;
}

/* grows t until every member switch is in it or no round attaches one */
static int grow(struct ta_mcast *m, struct ta_mc_tree *t,
		const uint32_t *members, uint32_t n_members, uint32_t key)
{
	while (!all_reached(m, members, n_members)) {
		int got = grow_round(m, t, key);

		if (got < 0)
			return -1;
		if (!got)
			break;
	}
	return 0;
}

/* the escape tree's paths from every member switch to its root */
static int escape_tree(struct ta_mcast *m, struct ta_mc_tree *t,
		       const uint32_t *members, uint32_t n)
{
	const struct ta_graph *g = m->g;
	uint32_t k, root0 = UINT32_MAX;

	drop_all(m, t);
	for (k = 0; k < n; k++)
		if (members[k] < g->n_sw)
			m->in_tree[members[k]] = 0;
	for (k = 0; k < n; k++) {
		uint32_t s = members[k], r = s;

		if (s >= g->n_sw)
			continue;

		while (m->escape_parent[r] != TA_NO_END)
			r = g->sw[r].ends[m->escape_parent[r]].peer;
		if (root0 == UINT32_MAX)
			root0 = r;
		if (r != root0)
			continue;	/* another piece: unreached */
		m->in_tree[s] = 1;
		while (m->escape_parent[s] != TA_NO_END) {
			uint32_t l = g->sw[s].ends[m->escape_parent[s]].link;

			if (m->link_in[l])
				break;
			if (add_link(m, t, l))
				return -1;
			s = g->sw[s].ends[m->escape_parent[s]].peer;
		}
	}
	return 0;
}

int ta_mcast_build(struct ta_mcast *m, const uint32_t *members,
		   uint32_t n_members, const uint32_t *prior,
		   uint32_t n_prior, uint32_t key, struct ta_mc_tree *t)
{
	const struct ta_graph *g = m->g;
	uint32_t k, n_uniq = 0, first = UINT32_MAX;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < n_members; k++)
		if (members[k] < g->n_sw && !m->member[members[k]]) {
			m->member[members[k]] = 1;
			n_uniq++;
		}
	t->n_members = n_uniq;
	if (!n_uniq)
		return 0;
	if (take_prior(m, t, prior, n_prior))
		goto out;
	t->kept = t->n_links;
	prune(m, t);
	if (!t->n_links) {
		/* start at one member switch, rotated by the key */
		uint32_t pick = key % n_uniq, cnt = 0;

		drop_all(m, t);
		m->epoch++;
		for (k = 0; k < n_members && first == UINT32_MAX; k++) {
			uint32_t s = members[k];

			if (s >= g->n_sw || m->seen[s] == m->epoch)
				continue;
			m->seen[s] = m->epoch;
			if (cnt++ == pick)
				first = s;
		}
		m->in_tree[first] = 1;
		t->kept = 0;
	} else {
		first = g->links[t->links[0]].sw[0];
	}
	t->root = first;
	if (grow(m, t, members, n_members, key))
		goto out;
	if (!all_reached(m, members, n_members) && t->kept) {
		/* the kept part blocks the way: start afresh */
		drop_all(m, t);
		for (k = 0; k < n_members; k++)
			if (members[k] < g->n_sw)
				m->in_tree[members[k]] = 0;
		t->kept = 0;
		first = members[key % n_members] < g->n_sw ?
			members[key % n_members] : first;
		m->in_tree[first] = 1;
		t->root = first;
		if (grow(m, t, members, n_members, key))
			goto out;
	}
	if (!all_reached(m, members, n_members) && m->escape_parent) {
		t->kept = 0;
		if (escape_tree(m, t, members, n_members))
			goto out;
		t->via_escape = n_uniq;
	}
	prune(m, t);
	for (k = 0; k < n_members; k++)
		if (members[k] < g->n_sw && m->member[members[k]] == 1) {
			m->member[members[k]] = 2;	/* counted */
			t->unreached += !m->in_tree[members[k]];
		}
	for (k = 0; k < t->n_links; k++)
		m->load[t->links[k]]++;
	ret = 0;
out:
	/* count the tree's switches, then clear the scratch marks */
	t->n_switches = 0;
	for (k = 0; k < t->n_links; k++) {
		const struct ta_link *l = &g->links[t->links[k]];

		m->deg[l->sw[0]] = m->deg[l->sw[1]] = 0;
		m->link_in[t->links[k]] = 0;
	}
	for (k = 0; k < t->n_links; k++) {
		const struct ta_link *l = &g->links[t->links[k]];
		int e;

		for (e = 0; e < 2; e++)
			if (m->in_tree[l->sw[e]]) {
				m->in_tree[l->sw[e]] = 0;
				t->n_switches++;
			}
	}
	for (k = 0; k < n_members; k++)
		if (members[k] < g->n_sw) {
			if (m->in_tree[members[k]])
				t->n_switches++;
			m->in_tree[members[k]] = 0;
			m->member[members[k]] = 0;
		}
	if (first < g->n_sw)
		m->in_tree[first] = 0;
	if (ret)
		ta_mc_tree_free(t);
	return ret;
}

bool ta_mcast_valid(const struct ta_graph *g, const uint8_t *turn_state,
		    const uint32_t *links, uint32_t n_links,
		    const uint32_t *members, uint32_t n_members)
{
	uint32_t *uf = malloc(((size_t)g->n_sw + 1) * sizeof(*uf));
	uint8_t *in = calloc(g->n_links + 1, 1);
	bool ok = uf && in;
	uint32_t k, s, i, j;

	for (s = 0; ok && s < g->n_sw; s++)
		uf[s] = s;
	for (k = 0; ok && k < n_links; k++) {
		const struct ta_link *l;
		uint32_t a, b;

		if (links[k] >= g->n_links || in[links[k]]) {
			ok = false;
			break;
		}
		in[links[k]] = 1;
		l = &g->links[links[k]];
		a = uf_find(uf, l->sw[0]);
		b = uf_find(uf, l->sw[1]);
		ok = a != b;	/* else a cycle */
		uf[a] = b;
	}
	for (k = 1; ok && k < n_members; k++)
		ok = uf_find(uf, members[k]) == uf_find(uf, members[0]);
	for (s = 0; ok && s < g->n_sw; s++)
		for (i = 0; ok && i < g->sw[s].n_ends; i++)
			for (j = 0; ok && j < g->sw[s].n_ends; j++)
				if (i != j && in[g->sw[s].ends[i].link] &&
				    in[g->sw[s].ends[j].link])
					ok = turn_state[ta_turn(g, s, i, j)] ==
					     TA_TURN_ALLOWED;
	free(uf);
	free(in);
	return ok;
}
