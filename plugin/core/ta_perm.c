// SPDX-License-Identifier: MIT
/* Permutation bandwidth of a routing (ta_perm.h). */
#include <ctype.h>
#include <math.h>
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

/* the hosts in shift order and the walk's tables */
struct perm_ctx {
	struct walk w;
	uint32_t *host, *dst, n;
	uint64_t st;
};

static void ctx_free(struct perm_ctx *c)
{
	free(c->host);
	free(c->dst);
	free(c->w.end_of);
	free(c->w.cnt);
}

static int ctx_init(struct perm_ctx *c, const struct ta_graph *g,
		    uint64_t seed)
{
	struct ranked *rank = malloc((g->n_dest + 1) * sizeof(*rank));
	uint32_t i, s, k;

	memset(c, 0, sizeof(*c));
	c->w.g = g;
	c->st = seed;
	c->host = malloc((g->n_dest + 1) * sizeof(*c->host));
	c->dst = malloc((g->n_dest + 1) * sizeof(*c->dst));
	c->w.end_of = calloc((size_t)g->n_sw * 256 + 1, sizeof(*c->w.end_of));
	c->w.cnt = calloc(2 * (size_t)g->n_links + 1, sizeof(*c->w.cnt));
	if (!rank || !c->host || !c->dst || !c->w.end_of || !c->w.cnt) {
		free(rank);
		ctx_free(c);
		return -1;
	}
	for (s = 0; s < g->n_sw; s++)
		for (k = 0; k < g->sw[s].n_ends; k++)
			c->w.end_of[(size_t)s * 256 + g->sw[s].ends[k].port] =
				(uint16_t)(k + 1);
	for (i = 0; i < g->n_dest; i++)
		if (g->dest[i].is_host)
			rank[c->n++] = (struct ranked){ g->dest[i].name,
						       g->dest[i].lid, i };
	qsort(rank, c->n, sizeof(*rank), cmp_host);
	for (i = 0; i < c->n; i++)
		c->host[i] = rank[i].d;
	free(rank);
	return 0;
}

/* the next pattern into c->dst: random draw, else shift k of n_shift */
static void next_pattern(struct perm_ctx *c, int random, unsigned k,
			 unsigned n_shift)
{
	uint32_t i, n = c->n, s;

	if (random) {
		for (i = 0; i < n; i++)
			c->dst[i] = i;
		ta_shuffle_u32(c->dst, n, &c->st);
		return;
	}
	s = 1 + (uint32_t)((uint64_t)k * (n - 1) / n_shift);
	for (i = 0; i < n; i++)
		c->dst[i] = (i + s) % n;
}

/* one pattern along port: its flows' sum into *sum, their count *flows */
static void run_port(struct perm_ctx *c, const uint8_t *port, double *sum,
		     uint64_t *flows)
{
	c->w.port = port;
	run(&c->w, c->host, c->dst, c->n, sum, flows);
}

/* what the patterns of one routing add up to */
struct tally {
	double r_sum, s_sum;	/* random draws, shifts */
	uint64_t r_flows, s_flows;
};

/* the metric: random draws weighed as n_rand patterns of n - 1 flows */
static double metric(const struct tally *t, unsigned n_rand,
		     unsigned n_draw, uint32_t n)
{
	double r_sum = t->r_sum, r_flows = (double)t->r_flows;

	if (n_draw > n_rand && t->r_flows) {
		r_flows = (double)n_rand * (n - 1);
		r_sum = t->r_sum / (double)t->r_flows * r_flows;
	}
	return r_flows + (double)t->s_flows > 0 ?
		       (r_sum + t->s_sum) / (r_flows + (double)t->s_flows) :
		       1;
}

/*
 * Runs n_draw random patterns and up to n_shift shifts along port into
 * t (the shifts into s_sum/s_flows if split, else after the draws into
 * r_sum/r_flows).  Per draw k, its flows' mean into mean[k] (if not
 * NULL) and, against ref_mean[k] (if not NULL), the spread of the
 * difference into *m2 (Welford).  *n: the hosts.  0, or -1 when out of
 * memory.
 */
static int tally_port(const struct ta_graph *g, const uint8_t *port,
		      unsigned n_shift, uint64_t seed, unsigned n_draw,
		      int split, struct tally *t, double *mean,
		      const double *ref_mean, double *m2, uint32_t *n)
{
	struct perm_ctx c;
	double avg = 0, w;
	unsigned k;

	memset(t, 0, sizeof(*t));
	*m2 = 0;
	if (ctx_init(&c, g, seed))
		return -1;
	*n = c.n;
	for (k = 0; c.n >= 2 && k < n_draw; k++) {
		double s0 = t->r_sum, x;
		uint64_t f0 = t->r_flows;

		next_pattern(&c, 1, k, 0);
		run_port(&c, port, &t->r_sum, &t->r_flows);
		if (!mean && !ref_mean)
			continue;
		f0 = t->r_flows - f0;
		x = f0 ? (t->r_sum - s0) / (double)f0 : 1;
		if (mean)
			mean[k] = x;
		if (!ref_mean)
			continue;
		x -= ref_mean[k];
		w = x - avg;
		avg += w / (k + 1);
		*m2 += w * (x - avg);
	}
	if (n_shift > c.n - 1)
		n_shift = c.n - 1;
	for (k = 0; c.n >= 2 && k < n_shift; k++) {
		next_pattern(&c, 0, k, n_shift);
		if (split)
			run_port(&c, port, &t->s_sum, &t->s_flows);
		else
			run_port(&c, port, &t->r_sum, &t->r_flows);
	}
	ctx_free(&c);
	return 0;
}

double ta_perm_bandwidth(const struct ta_graph *g, const uint8_t *port,
			 unsigned n_rand, unsigned n_shift, uint64_t seed)
{
	return ta_perm_bandwidth_drawn(g, port, n_rand, n_shift, seed, n_rand);
}

double ta_perm_bandwidth_drawn(const struct ta_graph *g, const uint8_t *port,
			       unsigned n_rand, unsigned n_shift,
			       uint64_t seed, unsigned n_draw)
{
	struct tally t;
	double m2;
	uint32_t n;

	if (n_draw < n_rand)
		n_draw = n_rand;
	/* one sum in drawing order where nothing is weighed */
	if (tally_port(g, port, n_shift, seed, n_draw, n_draw > n_rand, &t,
		       NULL, NULL, &m2, &n))
		return -1;
	return n < 2 ? 1 : metric(&t, n_rand, n_draw, n);
}

int ta_perm_ref_init(struct ta_perm_ref *ref, const struct ta_graph *g,
		     const uint8_t *port, unsigned n_rand, unsigned n_shift,
		     uint64_t seed, unsigned n_draw)
{
	struct tally t;
	double m2;

	memset(ref, 0, sizeof(*ref));
	ref->n_rand = n_rand;
	ref->n_shift = n_shift;
	ref->seed = seed;
	ref->n_draw = n_draw < n_rand ? n_rand : n_draw;
	ref->mean = malloc((ref->n_draw + 1) * sizeof(*ref->mean));
	if (!ref->mean ||
	    tally_port(g, port, n_shift, seed, ref->n_draw, 1, &t, ref->mean,
		       NULL, &m2, &ref->hosts)) {
		ta_perm_ref_free(ref);
		return -1;
	}
	ref->p = ref->hosts < 2 ? 1 : metric(&t, n_rand, ref->n_draw, ref->hosts);
	return 0;
}

void ta_perm_ref_free(struct ta_perm_ref *ref)
{
	free(ref->mean);
	memset(ref, 0, sizeof(*ref));
}

int ta_perm_against(const struct ta_graph *g, const uint8_t *port,
		    const struct ta_perm_ref *ref, double *p, double *se)
{
	struct tally t;
	double m2, w;
	uint32_t n;

	*p = 1;
	*se = 0;
	if (tally_port(g, port, ref->n_shift, ref->seed, ref->n_draw, 1, &t,
		       NULL, ref->mean, &m2, &n))
		return -1;
	if (n < 2)
		return 0;
	*p = metric(&t, ref->n_rand, ref->n_draw, n);
	/* the random part's weight in the metric, its error with n_rand
	 * draws */
	w = (double)ref->n_rand * (n - 1);
	w /= w + (double)t.s_flows;
	if (ref->n_draw > 1)
		*se = w * sqrt(m2 / (ref->n_draw - 1) / ref->n_rand);
	return 0;
}

int ta_perm_paired(const struct ta_graph *g, const uint8_t *a,
		   const uint8_t *b, unsigned n_rand, unsigned n_shift,
		   uint64_t seed, unsigned n_draw, double *pa, double *pb,
		   double *se)
{
	struct ta_perm_ref ref;
	int err;

	*se = 0;
	if (!b) {
		*pa = ta_perm_bandwidth_drawn(g, a, n_rand, n_shift, seed,
					      n_draw);
		*pb = 1;
		return *pa < 0 ? -1 : 0;
	}
	if (ta_perm_ref_init(&ref, g, b, n_rand, n_shift, seed, n_draw))
		return -1;
	*pb = ref.p;
	err = ta_perm_against(g, a, &ref, pa, se);
	ta_perm_ref_free(&ref);
	return err;
}
