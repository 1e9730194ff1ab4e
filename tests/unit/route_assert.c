// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "topo_prng.h"

void assert_report_good(const struct verify_report *rep, const char *what)
{
	ck_assert_msg(rep->host_pairs > 0, "%s: no host pairs", what);
	ck_assert_msg(rep->unreachable_host_pairs == 0,
		      "%s: %llu of %llu host pairs unreachable", what,
		      (unsigned long long)rep->unreachable_host_pairs,
		      (unsigned long long)rep->host_pairs);
	ck_assert_msg(rep->unreachable_host_to_switch == 0,
		      "%s: %llu host-to-switch routes missing", what,
		      (unsigned long long)rep->unreachable_host_to_switch);
	ck_assert_msg(!rep->cdg_cyclic, "%s: channel dependency cycle", what);
}

void assert_routes_good(const struct ta_graph *g, const struct ta_result *r,
			const char *what)
{
	struct verify_report rep;

	ck_assert_msg(verify_routes(g, r, &rep) == 0, "%s: verify", what);
	assert_report_good(&rep, what);
}

uint64_t host_max_load(const struct ta_graph *g, const struct ta_result *r,
		       host_pair_filter counted, const char *what,
		       uint64_t *hop_sum)
{
	uint64_t *load = calloc(2 * g->n_links + 1, sizeof(*load)), max = 0;
	uint64_t hops_all = 0;
	uint32_t src, d, k;

	ck_assert_ptr_nonnull(load);
	for (src = 0; src < g->n_dest; src++)
		for (d = 0; d < g->n_dest; d++) {
			uint32_t s = g->dest[src].sw, hops = 0;

			if (!g->dest[src].is_host || !g->dest[d].is_host ||
			    src == d || (counted && !counted(g, src, d)))
				continue;
			while (s != g->dest[d].sw) {
				uint8_t port = ta_result_port(r, s, d);
				const struct ta_port_ref *e = NULL;

				for (k = 0; k < g->sw[s].n_ends; k++)
					if (g->sw[s].ends[k].port == port)
						e = &g->sw[s].ends[k];
				ck_assert_msg(e && hops++ <= g->n_sw,
					      "%s: route %s -> %s lost at %s",
					      what, g->dest[src].name,
					      g->dest[d].name, g->sw[s].name);
				load[e->out_chan]++;
				s = e->peer;
			}
			hops_all += hops;
		}
	for (k = 0; k < 2 * g->n_links; k++)
		if (load[k] > max)
			max = load[k];
	free(load);
	if (hop_sum)
		*hop_sum = hops_all;
	return max;
}

/* the end of switch s whose port is p, or n_ends */
static uint32_t end_of_port(const struct ta_graph *g, uint32_t s, uint8_t p)
{
	uint32_t e;

	for (e = 0; e < g->sw[s].n_ends && g->sw[s].ends[e].port != p; e++)
		;
	return e;
}

/* the busiest channel of src's path to d (add: counts the flow first) */
static uint32_t perm_walk(const struct ta_graph *g, const struct ta_result *r,
			  uint32_t src, uint32_t d, uint32_t *cnt, int add)
{
	uint32_t s = g->dest[src].sw, hops, max = 1;

	for (hops = 0; s != g->dest[d].sw; hops++) {
		uint8_t p = ta_result_port(r, s, d);
		uint32_t e = end_of_port(g, s, p), c;

		ck_assert_msg(hops <= g->n_sw && e < g->sw[s].n_ends,
			      "no route or a loop from %s to LID %u",
			      g->dest[src].name ? g->dest[src].name : "?",
			      g->dest[d].lid);
		c = g->sw[s].ends[e].out_chan;
		cnt[c] += add;
		if (cnt[c] > max)
			max = cnt[c];
		s = g->sw[s].ends[e].peer;
	}
	return max;
}

/* one pattern (host rank i to rank to[i]): adds to *sum and *flows */
static void perm_pattern(const struct ta_graph *g, const struct ta_result *r,
			 const uint32_t *host, const uint32_t *to, uint32_t h,
			 uint32_t *cnt, double *sum, uint64_t *flows)
{
	uint32_t i;

	memset(cnt, 0, 2 * g->n_links * sizeof(*cnt));
	for (i = 0; i < h; i++)
		if (to[i] != i)
			perm_walk(g, r, host[i], host[to[i]], cnt, 1);
	for (i = 0; i < h; i++)
		if (to[i] != i) {
			*sum += 1.0 / perm_walk(g, r, host[i], host[to[i]],
						cnt, 0);
			++*flows;
		}
}

double perm_bandwidth(const struct ta_graph *g, const struct ta_result *r,
		      unsigned n, unsigned shifts, uint64_t seed)
{
	uint32_t *host = calloc(g->n_dest + 1, sizeof(*host));
	uint32_t *to = calloc(g->n_dest + 1, sizeof(*to));
	uint32_t *cnt = calloc(2 * g->n_links + 1, sizeof(*cnt));
	uint32_t h = 0, i, k;
	uint64_t flows = 0;
	struct topo_prng rng;
	double sum = 0;

	ck_assert(host && to && cnt);
	topo_prng_seed(&rng, seed);
	for (i = 0; i < g->n_dest; i++)
		if (g->dest[i].is_host)
			host[h++] = i;
	for (k = 0; k < n && h > 1; k++) {
		for (i = 0; i < h; i++)
			to[i] = i;
		for (i = h; i > 1; i--) {
			uint32_t j = topo_prng_below(&rng, i), t = to[i - 1];

			to[i - 1] = to[j];
			to[j] = t;
		}
		perm_pattern(g, r, host, to, h, cnt, &sum, &flows);
	}
	if (h > 1 && shifts > h - 1)
		shifts = h - 1;
	for (k = 0; k < shifts && h > 1; k++) {
		uint32_t s = 1 + (uint32_t)((uint64_t)k * (h - 1) / shifts);

		for (i = 0; i < h; i++)
			to[i] = (i + s) % h;
		perm_pattern(g, r, host, to, h, cnt, &sum, &flows);
	}
	free(host);
	free(to);
	free(cnt);
	return flows ? sum / (double)flows : 1;
}
