// SPDX-License-Identifier: MIT
/* Construction of the core's fabric graph. */
#include <stdlib.h>
#include <string.h>

#include "ta_graph.h"

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct ta_graph *ta_graph_new(void)
{
	return calloc(1, sizeof(struct ta_graph));
}

void ta_graph_free(struct ta_graph *g)
{
	uint32_t i;

	if (!g)
		return;
	for (i = 0; i < g->n_sw; i++) {
		free(g->sw[i].name);
		free(g->sw[i].ends);
	}
	for (i = 0; i < g->n_dest; i++)
		free(g->dest[i].name);
	free(g->sw);
	free(g->links);
	free(g->dest);
	free(g);
}

int ta_graph_add_switch(struct ta_graph *g, uint64_t guid, const char *name)
{
	struct ta_switch *s;

	if (g->finalized ||
	    grow((void **)&g->sw, &g->cap_sw, g->n_sw + 1, sizeof(*g->sw)))
		return -1;
	s = &g->sw[g->n_sw];
	memset(s, 0, sizeof(*s));
	s->guid = guid;
	if (name && !(s->name = strdup(name)))
		return -1;
	return (int)g->n_sw++;
}

static int add_end(struct ta_switch *s, uint32_t link, uint32_t peer,
		   uint8_t port)
{
	if (grow((void **)&s->ends, &s->cap_ends, s->n_ends + 1,
		 sizeof(*s->ends)))
		return -1;
	s->ends[s->n_ends].link = link;
	s->ends[s->n_ends].peer = peer;
	s->ends[s->n_ends].port = port;
	s->n_ends++;
	return 0;
}

int ta_graph_add_link(struct ta_graph *g, uint32_t sw_a, uint8_t port_a,
		      uint32_t sw_b, uint8_t port_b)
{
	struct ta_link *l;

	if (g->finalized || sw_a >= g->n_sw || sw_b >= g->n_sw ||
	    sw_a == sw_b || port_a == 0 || port_b == 0 ||
	    port_a == TA_NO_PORT || port_b == TA_NO_PORT)
		return -1;
	if (grow((void **)&g->links, &g->cap_links, g->n_links + 1,
		 sizeof(*g->links)))
		return -1;
	if (add_end(&g->sw[sw_a], g->n_links, sw_b, port_a) ||
	    add_end(&g->sw[sw_b], g->n_links, sw_a, port_b))
		return -1;
	l = &g->links[g->n_links];
	l->sw[0] = sw_a;
	l->sw[1] = sw_b;
	l->port[0] = port_a;
	l->port[1] = port_b;
	return (int)g->n_links++;
}

int ta_graph_add_dest(struct ta_graph *g, uint16_t lid, uint32_t sw,
		      uint8_t port, bool is_host, uint64_t guid,
		      const char *name)
{
	struct ta_dest *d;

	if (g->finalized || sw >= g->n_sw || port == TA_NO_PORT ||
	    (is_host && port == 0) ||
	    grow((void **)&g->dest, &g->cap_dest, g->n_dest + 1,
		 sizeof(*g->dest)))
		return -1;
	d = &g->dest[g->n_dest];
	memset(d, 0, sizeof(*d));
	d->lid = lid;
	d->sw = sw;
	d->port = port;
	d->is_host = is_host;
	d->guid = guid;
	d->group = -1;
	if (name && !(d->name = strdup(name)))
		return -1;
	return (int)g->n_dest++;
}

static int cmp_end(const void *a, const void *b)
{
	const struct ta_port_ref *x = a, *y = b;

	return (int)x->port - (int)y->port;
}

int ta_graph_finalize(struct ta_graph *g)
{
	uint32_t s, i, base = 0;

	if (g->finalized)
		return 0;
	for (s = 0; s < g->n_sw; s++) {
		struct ta_switch *sw = &g->sw[s];

		/* a switch without links (one-switch fabric) has ends NULL,
		 * which qsort must not get */
		if (sw->n_ends > 1)
			qsort(sw->ends, sw->n_ends, sizeof(*sw->ends),
			      cmp_end);
		for (i = 1; i < sw->n_ends; i++)
			if (sw->ends[i].port == sw->ends[i - 1].port)
				return -1;	/* two links on one port */
		for (i = 0; i < sw->n_ends; i++) {
			struct ta_link *l = &g->links[sw->ends[i].link];

			l->end[l->sw[0] == s ? 0 : 1] = i;
			sw->ends[i].out_chan =
				ta_chan(sw->ends[i].link, l->sw[0] == s ? 0 : 1);
		}
		sw->turn_base = base;
		base += sw->n_ends * sw->n_ends;
	}
	g->n_turn_slots = base;
	g->finalized = true;
	return 0;
}

uint32_t ta_graph_bfs(const struct ta_graph *g, uint32_t src, uint32_t *dist,
		      uint32_t *queue)
{
	uint32_t head = 0, tail = 0, ecc = 0, s;

	for (s = 0; s < g->n_sw; s++)
		dist[s] = UINT32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t u = queue[head++], j;

		if (dist[u] > ecc)
			ecc = dist[u];
		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (dist[v] == UINT32_MAX) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	return ecc;
}

/*
 * 1 if every link joins switches one level apart, a switch's level being
 * its hops to the nearest switch with hosts: fat trees (complete or not,
 * oversubscribed, several links a pair), whose minimal change is at its
 * bound.  Links within a level (dragonflies, Dragonfly+, tori, random
 * nets, joined trees) make it 0; -1 out of memory.
 */
int ta_graph_layered(const struct ta_graph *g)
{
	uint32_t *lvl = malloc((g->n_sw + 1) * sizeof(*lvl));
	uint32_t *queue = malloc((g->n_sw + 1) * sizeof(*queue));
	uint32_t head = 0, tail = 0, s, d, l;
	int r = 1;

	if (!lvl || !queue) {
		r = -1;
		goto out;
	}
	for (s = 0; s < g->n_sw; s++)
		lvl[s] = UINT32_MAX;
	for (d = 0; d < g->n_dest; d++) {
		s = g->dest[d].sw;
		if (g->dest[d].is_host && lvl[s]) {
			lvl[s] = 0;
			queue[tail++] = s;
		}
	}
	while (head < tail) {
		uint32_t u = queue[head++], i;

		for (i = 0; i < g->sw[u].n_ends; i++) {
			uint32_t v = g->sw[u].ends[i].peer;

			if (lvl[v] == UINT32_MAX) {
				lvl[v] = lvl[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	for (l = 0; l < g->n_links && r == 1; l++) {
		uint32_t a = lvl[g->links[l].sw[0]], b = lvl[g->links[l].sw[1]];

		r = a != UINT32_MAX && b != UINT32_MAX &&
		    (a == b + 1 || b == a + 1);
	}
out:
	free(lvl);
	free(queue);
	return r;
}
