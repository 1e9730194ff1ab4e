// SPDX-License-Identifier: MIT
/* Independent reachability and deadlock check of a routing result. */
#include <stdlib.h>
#include <string.h>

#include "route_verify.h"

struct edge {
	uint32_t from, to;
};

struct walk_ctx {
	const struct ta_graph *g;
	const struct ta_result *r;
	int32_t *port_link;	/* [sw * 256 + port] -> link, -1 if none */
	struct edge *edges;
	size_t n_edges, cap_edges;
	double *load;		/* per channel, or NULL */
	double rate;		/* added to load per channel a walk takes */
};

static uint32_t chan_from(const struct ta_graph *g, uint32_t link,
			  uint32_t sw)
{
	return 2 * link + (g->links[link].sw[0] == sw ? 0 : 1);
}

static int add_edge(struct walk_ctx *w, uint32_t a, uint32_t b)
{
	if (w->n_edges == w->cap_edges) {
		size_t nc = w->cap_edges ? 2 * w->cap_edges : 1024;
		struct edge *ne = realloc(w->edges, nc * sizeof(*ne));

		if (!ne)
			return -1;
		w->edges = ne;
		w->cap_edges = nc;
	}
	w->edges[w->n_edges].from = a;
	w->edges[w->n_edges].to = b;
	w->n_edges++;
	return 0;
}

/* hops from switch s to destination d, or -1 if the packet is lost */
static int walk(struct walk_ctx *w, uint32_t s, uint32_t d, int record)
{
	const struct ta_graph *g = w->g;
	uint32_t hops = 0, prev = UINT32_MAX;

	for (;;) {
		uint8_t port = ta_result_port(w->r, s, d);
		int32_t link;
		uint32_t ch;

		if (s == g->dest[d].sw && port == g->dest[d].port)
			return (int)hops;
		if (port == TA_NO_PORT || port == 0 || hops > g->n_sw)
			return -1;
		link = w->port_link[s * 256 + port];
		if (link < 0)
			return -1;	/* port leads to a host or nowhere */
		ch = chan_from(g, (uint32_t)link, s);
		if (record && prev != UINT32_MAX && add_edge(w, prev, ch))
			return -2;
		if (w->load)
			w->load[ch] += w->rate;
		prev = ch;
		s = g->links[link].sw[g->links[link].sw[0] == s ? 1 : 0];
		hops++;
	}
}

static int kahn_cyclic(uint32_t n_chan, const struct edge *e, size_t n_e)
{
	uint32_t *indeg = calloc(n_chan + 1, sizeof(*indeg));
	uint32_t *start = calloc(n_chan + 2, sizeof(*start));
	uint32_t *adj = malloc((n_e + 1) * sizeof(*adj));
	uint32_t *queue = malloc((n_chan + 1) * sizeof(*queue));
	uint32_t head = 0, tail = 0, c, done = 0;
	size_t k;
	int cyclic = -1;

	if (!indeg || !start || !adj || !queue)
		goto out;
	for (k = 0; k < n_e; k++) {
		indeg[e[k].to]++;
		start[e[k].from + 1]++;
	}
	for (c = 0; c < n_chan; c++)
		start[c + 1] += start[c];
	{
		uint32_t *fill = calloc(n_chan + 1, sizeof(*fill));

		if (!fill)
			goto out;
		for (k = 0; k < n_e; k++)
			adj[start[e[k].from] + fill[e[k].from]++] = e[k].to;
		free(fill);
	}
	for (c = 0; c < n_chan; c++)
		if (!indeg[c])
			queue[tail++] = c;
	while (head < tail) {
		uint32_t u = queue[head++];

		done++;
		for (k = start[u]; k < start[u + 1]; k++)
			if (--indeg[adj[k]] == 0)
				queue[tail++] = adj[k];
	}
	cyclic = done != n_chan;
out:
	free(indeg);
	free(start);
	free(adj);
	free(queue);
	return cyclic;
}

int verify_routes(const struct ta_graph *g, const struct ta_result *r,
		  struct verify_report *rep)
{
	struct walk_ctx w = { .g = g, .r = r };
	uint64_t hop_sum = 0, n_ok = 0;
	uint32_t src, d, l;
	double host_rate = 0;

	memset(rep, 0, sizeof(*rep));
	w.port_link = malloc((size_t)g->n_sw * 256 * sizeof(*w.port_link));
	w.load = calloc(2 * (size_t)g->n_links + 1, sizeof(*w.load));
	if (!w.port_link || !w.load) {
		free(w.port_link);
		free(w.load);
		return -1;
	}
	for (d = 0; d < g->n_dest; d++)
		host_rate += g->dest[d].is_host;
	host_rate = host_rate > 1 ? 1 / (host_rate - 1) : 0;
	memset(w.port_link, 0xff, (size_t)g->n_sw * 256 * sizeof(int32_t));
	for (l = 0; l < g->n_links; l++) {
		w.port_link[g->links[l].sw[0] * 256 + g->links[l].port[0]] = l;
		w.port_link[g->links[l].sw[1] * 256 + g->links[l].port[1]] = l;
	}
	for (src = 0; src < g->n_dest; src++) {
		if (!g->dest[src].is_host)
			continue;
		for (d = 0; d < g->n_dest; d++) {
			int h;

			if (d == src)
				continue;
			/* uniform traffic: 1 / (hosts - 1) per host pair */
			w.rate = g->dest[d].is_host ? host_rate : 0;
			h = walk(&w, g->dest[src].sw, d, 1);
			if (h == -2)
				goto oom;
			if (!g->dest[d].is_host) {
				rep->unreachable_host_to_switch += h < 0;
				continue;
			}
			rep->host_pairs++;
			if (h < 0) {
				rep->unreachable_host_pairs++;
				continue;
			}
			n_ok++;
			hop_sum += (uint32_t)h;
			if ((uint32_t)h > rep->max_hops)
				rep->max_hops = (uint32_t)h;
		}
	}
	rep->mean_hops = n_ok ? (double)hop_sum / n_ok : 0;
	for (l = 0; l < 2 * g->n_links; l++)
		if (w.load[l] > rep->max_chan_load)
			rep->max_chan_load = w.load[l];
	rep->cdg_edges = w.n_edges;
	rep->cdg_cyclic = kahn_cyclic(2 * g->n_links, w.edges, w.n_edges);
	free(w.port_link);
	free(w.edges);
	free(w.load);
	return rep->cdg_cyclic < 0 ? -1 : 0;
oom:
	free(w.port_link);
	free(w.edges);
	free(w.load);
	return -1;
}
