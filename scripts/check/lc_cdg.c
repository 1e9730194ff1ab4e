// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lc_cdg.h"
#include "lc_routes.h"

static const struct lc_node *sw_node(const struct lc_fabric *f, unsigned sw)
{
	return &f->node[f->sw_node[sw]];
}

static int alloc_slots(struct lc_cdg *g)
{
	const struct lc_fabric *f = g->f;
	unsigned s, n = 0;

	g->slot_base = malloc((f->n_switches + 1) * sizeof(*g->slot_base));
	if (!g->slot_base)
		return -1;
	for (s = 0; s < f->n_switches; s++) {
		g->slot_base[s] = n;
		n += sw_node(f, s)->n_ports + 1;
	}
	g->slot_base[s] = n;
	g->n_slots = n;
	g->slot_sw = malloc((n + 1) * sizeof(*g->slot_sw));
	g->slot_peer = malloc((n + 1) * sizeof(*g->slot_peer));
	g->bit_off = malloc((n + 1) * sizeof(*g->bit_off));
	g->used = calloc(n + 1, sizeof(*g->used));
	return g->slot_sw && g->slot_peer && g->bit_off && g->used ? 0 : -1;
}

static int alloc_bits(struct lc_cdg *g)
{
	const struct lc_fabric *f = g->f;
	size_t bit = 0;
	unsigned s, p;

	for (s = 0; s < f->n_switches; s++) {
		const struct lc_node *n = sw_node(f, s);

		for (p = 0; p <= n->n_ports; p++) {
			unsigned slot = g->slot_base[s] + p;
			const struct lc_node *peer = p ?
				lc_fabric_peer(f, n, p) : NULL;

			g->slot_sw[slot] = s;
			g->slot_peer[slot] = peer && peer->is_switch ?
					     peer->sw : -1;
			g->bit_off[slot] = bit;
			if (g->slot_peer[slot] >= 0)
				bit += peer->n_ports + 1;
		}
	}
	g->n_words = bit / 64 + 1;
	g->bits = calloc(g->n_words, sizeof(*g->bits));
	return g->bits ? 0 : -1;
}

int lc_cdg_init(struct lc_cdg *g, const struct lc_fabric *f)
{
	unsigned n = f->n_switches + 1;

	memset(g, 0, sizeof(*g));
	g->f = f;
	g->stamp = calloc(n, sizeof(*g->stamp));
	g->list = calloc(n, sizeof(*g->list));
	if (!g->stamp || !g->list || alloc_slots(g) || alloc_bits(g)) {
		lc_cdg_free(g);
		return -1;
	}
	return 0;
}

void lc_cdg_free(struct lc_cdg *g)
{
	free(g->slot_base);
	free(g->slot_sw);
	free(g->slot_peer);
	free(g->bit_off);
	free(g->bits);
	free(g->used);
	free(g->stamp);
	free(g->list);
	memset(g, 0, sizeof(*g));
}

static void set_edge(struct lc_cdg *g, unsigned slot, unsigned next_port)
{
	size_t bit = g->bit_off[slot] + next_port;

	g->bits[bit / 64] |= 1ull << (bit % 64);
}

bool lc_cdg_has_edge(const struct lc_cdg *g, unsigned slot,
		     unsigned next_port)
{
	size_t bit = g->bit_off[slot] + next_port;

	return g->bits[bit / 64] >> (bit % 64) & 1;
}

void lc_cdg_add_lid(struct lc_cdg *g, unsigned lid, const unsigned *src,
		    unsigned n_src)
{
	const struct lc_fabric *f = g->f;
	unsigned mark = lid + 1, n = 0, i;

	/* the switches on routes from the sources, each once */
	for (i = 0; i < n_src; i++) {
		int s = (int)src[i];

		while (s >= 0 && g->stamp[s] != mark) {
			g->stamp[s] = mark;
			g->list[n++] = (unsigned)s;
			s = lc_step(f, (unsigned)s, lid).next_sw;
		}
	}
	for (i = 0; i < n; i++) {
		unsigned s = g->list[i];
		struct lc_step a = lc_step(f, s, lid), b;
		unsigned slot;

		if (a.next_sw < 0)
			continue;
		slot = g->slot_base[s] + a.port;
		g->used[slot] = true;
		b = lc_step(f, (unsigned)a.next_sw, lid);
		if (b.next_sw >= 0)
			set_edge(g, slot, b.port);
	}
}

void lc_cdg_add_turn(struct lc_cdg *g, unsigned slot, unsigned next_port)
{
	int peer = g->slot_peer[slot];

	if (peer < 0)
		return;
	g->used[slot] = true;
	g->used[g->slot_base[peer] + next_port] = true;
	set_edge(g, slot, next_port);
}

unsigned lc_cdg_channels(const struct lc_cdg *g)
{
	unsigned slot, n = 0;

	for (slot = 0; slot < g->n_slots; slot++)
		n += g->used[slot];
	return n;
}

unsigned long lc_cdg_edges(const struct lc_cdg *g)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < g->n_words; i++)
		n += (unsigned long)__builtin_popcountll(g->bits[i]);
	return n;
}

unsigned lc_cdg_slot_sw(const struct lc_cdg *g, unsigned slot)
{
	return g->slot_sw[slot];
}

unsigned lc_cdg_slot_port(const struct lc_cdg *g, unsigned slot)
{
	return slot - g->slot_base[g->slot_sw[slot]];
}

/* ---- cycle search: iterative DFS ---- */

enum { WHITE, GRAY, BLACK };

struct dfs {
	const struct lc_cdg *g;
	unsigned char *color;
	unsigned *stack;	/* slots on the current DFS path */
	unsigned *next_port;	/* next successor port to try, per level */
	unsigned depth;
};

/* Next successor slot of the top of the stack, or -1 when exhausted. */
static int next_successor(struct dfs *d)
{
	const struct lc_cdg *g = d->g;
	unsigned top = d->depth - 1, slot = d->stack[top];
	unsigned t = (unsigned)g->slot_peer[slot];
	unsigned n_ports = sw_node(g->f, t)->n_ports;

	while (d->next_port[top] <= n_ports) {
		unsigned q = d->next_port[top]++;

		if (lc_cdg_has_edge(g, slot, q))
			return (int)(g->slot_base[t] + q);
	}
	return -1;
}

static int report_cycle(struct dfs *d, unsigned back_to, unsigned **cycle,
			unsigned *len)
{
	unsigned i = d->depth;

	while (i > 0 && d->stack[i - 1] != back_to)
		i--;
	i--;
	*len = d->depth - i;
	*cycle = malloc(*len * sizeof(**cycle));
	if (!*cycle)
		return -1;
	memcpy(*cycle, d->stack + i, *len * sizeof(**cycle));
	return 1;
}

static int dfs_from(struct dfs *d, unsigned root, unsigned **cycle,
		    unsigned *len)
{
	d->depth = 0;
	d->stack[d->depth] = root;
	d->next_port[d->depth++] = 1;
	d->color[root] = GRAY;
	while (d->depth) {
		int next = next_successor(d);

		if (next < 0) {
			d->color[d->stack[--d->depth]] = BLACK;
			continue;
		}
		if (d->color[next] == GRAY)
			return report_cycle(d, (unsigned)next, cycle, len);
		if (d->color[next] == WHITE) {
			d->color[next] = GRAY;
			d->stack[d->depth] = (unsigned)next;
			d->next_port[d->depth++] = 1;
		}
	}
	return 0;
}

int lc_cdg_find_cycle(const struct lc_cdg *g, unsigned **cycle,
		      unsigned *len)
{
	struct dfs d = { .g = g };
	unsigned slot;
	int ret = 0;

	*cycle = NULL;
	*len = 0;
	d.color = calloc(g->n_slots + 1, 1);
	d.stack = malloc((g->n_slots + 1) * sizeof(*d.stack));
	d.next_port = malloc((g->n_slots + 1) * sizeof(*d.next_port));
	if (!d.color || !d.stack || !d.next_port)
		ret = -1;
	for (slot = 0; slot < g->n_slots && !ret; slot++)
		if (g->used[slot] && d.color[slot] == WHITE)
			ret = dfs_from(&d, slot, cycle, len);
	free(d.color);
	free(d.stack);
	free(d.next_port);
	return ret;
}
