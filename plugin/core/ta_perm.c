// SPDX-License-Identifier: MIT
/* Permutation bandwidth of a routing (ta_perm.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ta_perm.h"
#include "ta_prng.h"

struct walk {
	const struct ta_graph *g;
	const uint8_t *port;
	uint16_t *end_of;	/* [sw * 256 + port]: end index + 1, or 0 */
	uint32_t *cnt;		/* flows per channel */
};

/*
 * Follows host src's flow to destination d; add: counts it on every
 * channel.  Returns the most flows on a channel of its path (at least 1:
 * its own host links carry it alone), 0 if it is not delivered.
 */
static uint32_t follow(const struct walk *w, uint32_t src_sw, uint32_t d,
		       int add)
{
	const struct ta_graph *g = w->g;
	uint32_t s = src_sw, hops, max = 1;

	for (hops = 0; hops <= g->n_sw; hops++) {
		uint8_t p = w->port[(size_t)s * g->n_dest + d];
		uint32_t e, c;

		if (s == g->dest[d].sw)
			return p == g->dest[d].port ? max : 0;
		e = w->end_of[(size_t)s * 256 + p];
		if (p == TA_NO_PORT || !e)
			return 0;
		c = g->sw[s].ends[e - 1].out_chan;
		if (add)
			w->cnt[c]++;
		if (w->cnt[c] > max)
			max = w->cnt[c];
		s = g->sw[s].ends[e - 1].peer;
	}
	return 0;
}

/* one pattern (host rank i sends to rank dst[i]): adds to *sum, *flows */
static void run(const struct walk *w, const uint32_t *host,
		const uint32_t *dst, uint32_t n, double *sum, uint64_t *flows)
{
	const struct ta_graph *g = w->g;
	uint32_t i;

	memset(w->cnt, 0, 2 * (size_t)g->n_links * sizeof(*w->cnt));
	for (i = 0; i < n; i++)
		if (dst[i] != i)
			follow(w, g->dest[host[i]].sw, host[dst[i]], 1);
	for (i = 0; i < n; i++) {
		uint32_t m;

		if (dst[i] == i)
			continue;
		m = follow(w, g->dest[host[i]].sw, host[dst[i]], 0);
		*sum += m ? 1.0 / m : 0;
		++*flows;
	}
}

/*
 * Host order for the shifts: by node description with numbers compared
 * by value ("n2" before "n10"), as job launchers number ranks by host
 * name; hosts without a name last, by LID
 */
static int name_order(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10);
			unsigned long long y = strtoull(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
		} else if (*a != *b) {
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		} else {
			a++;
			b++;
		}
	}
	return *a ? 1 : *b ? -1 : 0;
}

struct ranked {
	const char *name;
	uint16_t lid;
	uint32_t d;
};

static int cmp_host(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c;

	if (!a->name || !b->name)
		c = !a->name - !b->name;
	else
		c = name_order(a->name, b->name);
	return c ? c : (a->lid > b->lid) - (a->lid < b->lid);
}

double ta_perm_bandwidth(const struct ta_graph *g, const uint8_t *port,
			 unsigned n_rand, unsigned n_shift, uint64_t seed)
{
	struct walk w = { .g = g, .port = port };
	uint32_t *host = malloc((g->n_dest + 1) * sizeof(*host));
	uint32_t *dst = malloc((g->n_dest + 1) * sizeof(*dst));
	struct ranked *rank = malloc((g->n_dest + 1) * sizeof(*rank));
	uint32_t n = 0, i, s, k;
	uint64_t flows = 0, st = seed;
	double sum = 0, ret = -1;

	w.end_of = calloc((size_t)g->n_sw * 256 + 1, sizeof(*w.end_of));
	w.cnt = calloc(2 * (size_t)g->n_links + 1, sizeof(*w.cnt));
	if (!host || !dst || !rank || !w.end_of || !w.cnt)
		goto out;
	for (s = 0; s < g->n_sw; s++)
		for (k = 0; k < g->sw[s].n_ends; k++)
			w.end_of[(size_t)s * 256 + g->sw[s].ends[k].port] =
				(uint16_t)(k + 1);
	for (i = 0; i < g->n_dest; i++)
		if (g->dest[i].is_host)
			rank[n++] = (struct ranked){ g->dest[i].name,
						    g->dest[i].lid, i };
	qsort(rank, n, sizeof(*rank), cmp_host);
	for (i = 0; i < n; i++)
		host[i] = rank[i].d;
	ret = 1;
	if (n < 2)
		goto out;
	for (k = 0; k < n_rand; k++) {
		for (i = 0; i < n; i++)
			dst[i] = i;
		ta_shuffle_u32(dst, n, &st);
		run(&w, host, dst, n, &sum, &flows);
	}
	if (n_shift > n - 1)
		n_shift = n - 1;
	for (k = 0; k < n_shift; k++) {
		s = 1 + (uint32_t)((uint64_t)k * (n - 1) / n_shift);
		for (i = 0; i < n; i++)
			dst[i] = (i + s) % n;
		run(&w, host, dst, n, &sum, &flows);
	}
	ret = flows ? sum / (double)flows : 1;
out:
	free(rank);
	free(host);
	free(dst);
	free(w.end_of);
	free(w.cnt);
	return ret;
}
