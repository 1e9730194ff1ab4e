// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lc_check.h"
#include "lc_hosts.h"
#include "lc_routes.h"

struct checker {
	const struct lc_fabric *f;
	struct lc_report *r;
	struct lc_hosts hosts;
	struct lc_walker w;
	FILE *detail;
	unsigned detail_left;
	unsigned char *bad;	/* per switch: a LID of this dest failed */
	const struct lc_sl *sl;	/* NULL: one CDG */
	unsigned *src;		/* per SL: the sources on it */
};

/* the dependencies of the routes to lid into their SL's CDG */
static void add_routes(struct checker *c, unsigned lid)
{
	struct lc_report *r = c->r;
	unsigned i, n, sl;

	if (!c->sl) {
		lc_cdg_add_lid(&r->cdg, lid, c->hosts.src, c->hosts.n_src);
		return;
	}
	for (sl = 0; sl < r->n_sl; sl++) {
		for (i = n = 0; i < c->hosts.n_src; i++) {
			unsigned s = c->hosts.src[i];
			unsigned l = lc_sl_get(c->sl, s, lid);

			if (l == LC_SL_UNSET) {
				l = 0;
				r->sl_unset += !sl;
			}
			if (l == sl)
				c->src[n++] = s;
		}
		r->sl_paths[sl] += n;
		if (n)
			lc_cdg_add_lid(sl ? &r->sl[sl].cdg : &r->cdg, lid,
				       c->src, n);
	}
}

/* the per-SL CDGs; -1 if out of memory */
static int sl_init(struct checker *c)
{
	struct lc_report *r = c->r;
	unsigned i;

	if (!c->sl)
		return 0;
	r->n_sl = c->sl->n_sls;
	r->sl = calloc(r->n_sl, sizeof(*r->sl));
	r->sl_paths = calloc(r->n_sl, sizeof(*r->sl_paths));
	c->src = malloc((c->hosts.n_src + 1) * sizeof(*c->src));
	if (!r->sl || !r->sl_paths || !c->src)
		return -1;
	for (i = 1; i < r->n_sl; i++)
		if (lc_cdg_init(&r->sl[i].cdg, c->f))
			return -1;
	return 0;
}

/* the cycle search of SLs 1 and up; -1 if out of memory */
static int sl_cycles(struct lc_report *r)
{
	unsigned i;

	for (i = 1; i < r->n_sl; i++) {
		struct lc_sl_cdg *l = &r->sl[i];

		l->result = lc_cdg_find_cycle(&l->cdg, &l->cycle,
					      &l->cycle_len);
		if (l->result < 0)
			return -1;
	}
	return 0;
}

static const char *sw_desc(const struct lc_fabric *f, unsigned sw)
{
	return f->node[f->sw_node[sw]].desc;
}

static void report_failure(struct checker *c, unsigned src_sw,
			   unsigned n_src, unsigned lid,
			   const struct lc_outcome *o)
{
	const struct lc_fabric *f = c->f;
	const struct lc_node *dst = &f->node[f->lid_node[lid]];

	if (!c->detail || !c->detail_left)
		return;
	c->detail_left--;
	fprintf(c->detail, "unreachable: from the %u host(s) on %s to \"%s\" "
		"lid %u: %s at %s\n", n_src, sw_desc(f, src_sw), dst->desc, lid,
		lc_fail_name(o->fail), sw_desc(f, o->at));
}

/* Routes to the LIDs of one host port, from the hosts on every switch. */
static void check_host_dest(struct checker *c, const struct lc_host *dst)
{
	const struct lc_port *dp = &c->f->node[dst->node].port[dst->port];
	unsigned n_lids = 1u << dp->lmc, k, i;
	struct lc_report *r = c->r;

	memset(c->bad, 0, c->f->n_switches);
	for (k = 0; k < n_lids; k++) {
		unsigned lid = dp->lid + k;

		lc_walk_lid(&c->w, lid);
		add_routes(c, lid);
		for (i = 0; i < c->hosts.n_src; i++) {
			unsigned s = c->hosts.src[i];
			unsigned n = c->hosts.per_sw[s] - (s == dst->sw);
			const struct lc_outcome *o = &c->w.out[s];

			if (!n)
				continue;
			if (k == 0)
				r->host_pairs += n;
			if (o->fail != LC_DELIVERED) {
				/* count a pair once, on its first bad LID */
				if (!c->bad[s])
					r->unreachable_host_pairs += n;
				c->bad[s] = 1;
				report_failure(c, s, n, lid, o);
			} else if (k == 0) {
				r->hop_sum += (unsigned long long)n * o->hops;
				r->hop_pairs += n;
				if (o->hops > r->max_hops)
					r->max_hops = o->hops;
			}
		}
	}
}

static void check_switch_dest(struct checker *c, unsigned sw)
{
	const struct lc_port *p0 = &c->f->node[c->f->sw_node[sw]].port[0];
	struct lc_report *r = c->r;
	unsigned i;

	if (!p0->lid) {
		r->switches_without_lid++;
		return;
	}
	lc_walk_lid(&c->w, p0->lid);
	add_routes(c, p0->lid);
	for (i = 0; i < c->hosts.n_src; i++) {
		unsigned s = c->hosts.src[i], n = c->hosts.per_sw[s];
		const struct lc_outcome *o = &c->w.out[s];

		r->host_to_switch += n;
		if (o->fail != LC_DELIVERED) {
			r->unreachable_host_to_switch += n;
			report_failure(c, s, n, p0->lid, o);
		}
	}
}

int lc_check(const struct lc_fabric *f, struct lc_report *r, FILE *detail,
	     unsigned max_detail)
{
	return lc_check_sl(f, NULL, r, detail, max_detail);
}

int lc_check_sl(const struct lc_fabric *f, const struct lc_sl *sl,
		struct lc_report *r, FILE *detail, unsigned max_detail)
{
	struct checker c = { .f = f, .r = r, .detail = detail,
			     .detail_left = max_detail, .sl = sl };
	unsigned i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (lc_hosts_collect(&c.hosts, f))
		return -1;
	c.bad = calloc(f->n_switches + 1, 1);
	if (!c.bad || lc_walker_init(&c.w, f) || lc_cdg_init(&r->cdg, f) ||
	    sl_init(&c))
		goto out;
	r->hosts = c.hosts.n;
	r->hosts_without_lid = c.hosts.n_no_lid;
	r->switches = f->n_switches;
	for (i = 0; i < c.hosts.n; i++)
		check_host_dest(&c, &c.hosts.host[i]);
	for (i = 0; i < f->n_switches; i++)
		check_switch_dest(&c, i);
	r->cdg_result = lc_cdg_find_cycle(&r->cdg, &r->cycle, &r->cycle_len);
	if (r->cdg_result >= 0 && !sl_cycles(r))
		ret = 0;
out:
	free(c.src);
	free(c.bad);
	lc_walker_free(&c.w);
	lc_hosts_free(&c.hosts);
	return ret;
}

void lc_report_free(struct lc_report *r)
{
	unsigned i;

	for (i = 1; r->sl && i < r->n_sl; i++) {
		lc_cdg_free(&r->sl[i].cdg);
		free(r->sl[i].cycle);
	}
	free(r->sl);
	free(r->sl_paths);
	lc_cdg_free(&r->cdg);
	free(r->cycle);
	memset(r, 0, sizeof(*r));
}

/* 1 if the CDG of some SL above 0 has a cycle */
static int sl_cyclic(const struct lc_report *r)
{
	unsigned i;

	for (i = 1; i < r->n_sl; i++)
		if (r->sl[i].result)
			return 1;
	return 0;
}

int lc_report_ok(const struct lc_report *r)
{
	return !r->unreachable_host_pairs && !r->unreachable_host_to_switch &&
	       !r->hosts_without_lid && !r->switches_without_lid &&
	       r->cdg_result == 0 && !sl_cyclic(r);
}
