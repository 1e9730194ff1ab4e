// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdlib.h>

#include "route_assert.h"

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
