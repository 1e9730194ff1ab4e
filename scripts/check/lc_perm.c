// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lc_hosts.h"
#include "lc_perm.h"
#include "lc_routes.h"

struct perm {
	const struct lc_fabric *f;
	unsigned n;		/* hosts */
	unsigned *src_sw;	/* per host rank: its switch index */
	unsigned *lid;		/* per host rank: its base LID */
	unsigned *dst;		/* the pattern: rank -> rank */
	unsigned *base;		/* first count slot of each switch */
	unsigned slots;
	unsigned *count;	/* flows per (switch, output port) */
	uint64_t rng;
};

struct ranked {
	const char *desc;
	unsigned port, sw, lid;
};

/* Natural order: runs of digits compare as numbers ("h2" < "h10"). */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea, *eb;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			c = memcmp(a, b, la);
			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = natural_cmp(a->desc, b->desc);

	if (c)
		return c;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return a->lid < b->lid ? -1 : a->lid > b->lid;
}

static void perm_free(struct perm *p)
{
	free(p->src_sw);
	free(p->lid);
	free(p->dst);
	free(p->base);
	free(p->count);
}

/* Hosts in natural name order; count slots per switch output port. */
static int perm_init(struct perm *p, const struct lc_fabric *f, uint64_t seed)
{
	struct lc_hosts hosts;
	struct ranked *r;
	unsigned i, s;

	memset(p, 0, sizeof(*p));
	p->f = f;
	p->rng = seed;
	if (lc_hosts_collect(&hosts, f))
		return -1;
	p->n = hosts.n;
	r = malloc((p->n + 1) * sizeof(*r));
	p->src_sw = malloc((p->n + 1) * sizeof(*p->src_sw));
	p->lid = malloc((p->n + 1) * sizeof(*p->lid));
	p->dst = malloc((p->n + 1) * sizeof(*p->dst));
	p->base = malloc((f->n_switches + 1) * sizeof(*p->base));
	if (!r || !p->src_sw || !p->lid || !p->dst || !p->base) {
		free(r);
		lc_hosts_free(&hosts);
		return -1;
	}
	for (i = 0; i < p->n; i++) {
		const struct lc_host *h = &hosts.host[i];

		r[i] = (struct ranked){
			.desc = f->node[h->node].desc, .port = h->port,
			.sw = h->sw, .lid = f->node[h->node].port[h->port].lid,
		};
	}
	lc_hosts_free(&hosts);
	qsort(r, p->n, sizeof(*r), ranked_cmp);
	for (i = 0; i < p->n; i++) {
		p->src_sw[i] = r[i].sw;
		p->lid[i] = r[i].lid;
	}
	free(r);
	for (s = 0; s < f->n_switches; s++) {
		p->base[s] = p->slots;
		p->slots += f->node[f->sw_node[s]].n_ports + 1;
	}
	p->count = calloc(p->slots + 1, sizeof(*p->count));
	return p->count ? 0 : -1;
}

/* splitmix64 */
static uint64_t next_rand(struct perm *p)
{
	uint64_t z = (p->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static unsigned rand_below(struct perm *p, unsigned n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = next_rand(p);
	while (x >= limit);
	return (unsigned)(x % n);
}

/* Fisher-Yates over the identity. */
static void random_pattern(struct perm *p)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		p->dst[i] = i;
	for (i = p->n; i > 1; i--) {
		unsigned j = rand_below(p, i), t = p->dst[i - 1];

		p->dst[i - 1] = p->dst[j];
		p->dst[j] = t;
	}
}

static void shift_pattern(struct perm *p, unsigned s)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		p->dst[i] = (i + s) % p->n;
}

/*
 * Follows the flow of rank i.  add: counts it on every link direction of
 * its path.  Returns the most flows on a link of its path (after
 * counting), 0 if the tables do not deliver it.
 */
static unsigned walk(struct perm *p, unsigned i, int add)
{
	const struct lc_fabric *f = p->f;
	unsigned sw = p->src_sw[i], lid = p->lid[p->dst[i]], hops, max = 0;

	for (hops = 0; hops <= f->n_switches; hops++) {
		struct lc_step st = lc_step(f, sw, lid);
		unsigned *c;

		if (st.fail != LC_DELIVERED || st.port == 0)
			return 0;	/* port 0: a switch LID, not a host */
		c = &p->count[p->base[sw] + st.port];
		if (add)
			++*c;
		if (*c > max)
			max = *c;
		if (st.next_sw < 0)
			return max;
		sw = (unsigned)st.next_sw;
	}
	return 0;		/* a loop */
}

/* One pattern: adds its flows' bandwidths to *sum; its flow count. */
static unsigned run_pattern(struct perm *p, double *sum,
			    struct lc_perm_report *r)
{
	unsigned i, flows = 0;
	double mean = 0;

	memset(p->count, 0, (p->slots + 1) * sizeof(*p->count));
	for (i = 0; i < p->n; i++)
		if (p->dst[i] != i)
			walk(p, i, 1);
	for (i = 0; i < p->n; i++) {
		unsigned max;

		if (p->dst[i] == i)
			continue;
		max = walk(p, i, 0);
		flows++;
		if (max)
			mean += 1.0 / max;
		else
			r->undelivered++;
	}
	*sum += mean;
	r->flows += flows;
	if (flows) {
		mean /= flows;
		if (!r->flows_before || mean < r->worst_pattern)
			r->worst_pattern = mean;
	}
	r->flows_before = r->flows;
	r->patterns++;
	return flows;
}

int lc_perm_compute(const struct lc_fabric *f, const struct lc_perm_opts *o,
		    struct lc_perm_report *r)
{
	struct perm p;
	double rsum = 0, ssum = 0;
	unsigned long long rflows = 0, sflows = 0;
	unsigned k, shifts;

	memset(r, 0, sizeof(*r));
	if (perm_init(&p, f, o->seed)) {
		perm_free(&p);
		return -1;
	}
	r->hosts = p.n;
	if (p.n >= 2) {
		for (k = 0; k < o->random; k++) {
			random_pattern(&p);
			rflows += run_pattern(&p, &rsum, r);
		}
		shifts = p.n - 1;
		if (shifts > o->max_shifts)
			shifts = o->max_shifts;
		for (k = 0; k < shifts; k++) {
			/* s = 1 .. n - 1, evenly spread when fewer */
			unsigned s = 1 + (unsigned)((unsigned long long)k *
						    (p.n - 1) / shifts);

			shift_pattern(&p, s);
			sflows += run_pattern(&p, &ssum, r);
		}
		r->shifts = shifts;
	}
	r->random_bandwidth = rflows ? rsum / rflows : 0;
	r->shift_bandwidth = sflows ? ssum / sflows : 0;
	r->bandwidth = rflows + sflows ? (rsum + ssum) / (rflows + sflows) : 0;
	perm_free(&p);
	return 0;
}
