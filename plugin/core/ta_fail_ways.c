// SPDX-License-Identifier: MIT
/*
 * The ways a failure may be routed, measured against each other and
 * against a routing from scratch (ta_fail.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ta_fail.h"
#include "ta_hot.h"

uint32_t hosts_of(const struct ta_graph *g)
{
	uint32_t d, hosts = 0;

	for (d = 0; d < g->n_dest; d++)
		hosts += g->dest[d].is_host;
	return hosts;
}

unsigned perm_draws(const struct ta_graph *g)
{
	uint32_t hosts = hosts_of(g);
	unsigned draws;

	draws = hosts ? PERM_FLOWS / hosts : PERM_RANDOM;
	if (draws < PERM_RANDOM)
		draws = PERM_RANDOM;
	return draws < PERM_DRAWS_MAX ? draws : PERM_DRAWS_MAX;
}

/* the 64-LID blocks whose entries r changes against the prior's */
uint64_t blocks_moved(const struct ta_graph *g,
		      const struct ta_prior *p, const uint8_t *port)
{
	uint8_t *blk = malloc(1024);	/* LIDs < 65536 */
	uint64_t n = 0;
	uint32_t s, d;

	if (!blk)
		return 0;
	for (s = 0; s < g->n_sw; s++) {
		memset(blk, 0, 1024);
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * g->n_dest + d;
			uint32_t b = g->dest[d].lid / 64u;

			if (port[k] != p->last_port[k] && !blk[b]) {
				blk[b] = 1;
				n++;
			}
		}
	}
	free(blk);
	return n;
}

/* 1 if busiest channel u and permutation bandwidth p (its error se)
 * are within the slack of u_ref, p_ref or better */
int within(double u, double p, double se, double u_ref, double p_ref)
{
	double slack = FAIL_SLACK - (p_ref > 0 ? PERM_ERRORS * se / p_ref : 0);

	if (slack < PERM_SLACK_MIN)
		slack = PERM_SLACK_MIN;
	return u <= u_ref * (1 + FAIL_SLACK) && p >= p_ref * (1 - slack);
}

/*
 * Routes g from scratch beside res and measures both.  0: measured (the
 * lines of both still held); 1: not (res stands, its lines passed on).
 */
int route_fresh(const struct ta_graph *g, const struct ta_options *o,
		const struct ta_log *log, const struct ta_result *res,
		struct compared *c)
{
	if (ta_route(g, o, hold(&c->hf, log), &c->fresh)) {
		release(&c->hf, 0);
		release(&c->hk, 1);
		return 1;
	}
	c->u_keep = ta_uniform_peak(g, res->port);
	c->u_new = ta_uniform_peak(g, c->fresh.port);
	c->p_keep = -1;
	if (!ta_perm_ref_init(&c->pref, g, c->fresh.port, PERM_RANDOM,
			      PERM_SHIFTS, 1, perm_draws(g)) &&
	    ta_perm_against(g, res->port, &c->pref, &c->p_keep, &c->se_keep))
		c->p_keep = -1;
	c->p_new = c->pref.p;
	if (c->u_keep < 0 || c->u_new < 0 || c->p_keep < 0) {
		release(&c->hf, 0);
		release(&c->hk, 1);
		ta_result_free(&c->fresh);
		ta_perm_ref_free(&c->pref);
		return 1;
	}
	return 0;
}

/* passes on the lines of the routing kept (the other's dropped) */
void pass_lines(struct compared *c, int take)
{
	release(&c->hk, !take);
	release(&c->hf, take);
}

/* res becomes fresh, a routing from scratch, with res's counts of
 * what the fabric lost and gained */
void take_fresh(struct ta_result *res, struct ta_result *fresh)
{
	fresh->stats.restore_fresh = 1;
	fresh->stats.switches_gone = res->stats.switches_gone;
	fresh->stats.dests_gone = res->stats.dests_gone;
	fresh->stats.switches_new = res->stats.switches_new;
	ta_result_free(res);
	*res = *fresh;
}

/* res becomes the routing from scratch (take) or stays */
void keep(struct compared *c, struct ta_result *res, int take)
{
	if (take)
		take_fresh(res, &c->fresh);
	else
		ta_result_free(&c->fresh);
	ta_perm_ref_free(&c->pref);
}

/* 1 if minimal change (res) falls more than FAIL_SLACK below c->fresh */
int worse(const struct compared *c, const struct ta_result *res)
{
	return c->fresh.stats.unreachable < res->stats.unreachable ||
	       (c->fresh.stats.unreachable == res->stats.unreachable &&
		!within(c->u_keep, c->p_keep, c->se_keep, c->u_new, c->p_new));
}

/* routes v by minimal change with options o2 and measures it beside the
 * routing from scratch (its permutations pref); 0 or -1 */
int run_variant(const struct ta_graph *g, const struct ta_options *o2,
		const struct ta_prior *prior, const struct ta_log *log,
		const struct ta_perm_ref *pref, struct variant *v)
{
	if (ta_route_prior(g, o2, prior, hold(&v->h, log), &v->r)) {
		release(&v->h, 0);
		return -1;
	}
	v->u = ta_uniform_peak(g, v->r.port);
	if (ta_perm_against(g, v->r.port, pref, &v->p, &v->se))
		v->p = -1;
	v->blocks = blocks_moved(g, prior, v->r.port);
	if (v->u < 0 || v->p < 0) {
		release(&v->h, 0);
		ta_result_free(&v->r);
		return -1;
	}
	return 0;
}

/* one number for both metrics: busiest channel times the share of
 * permutation traffic lost (lower is better) */
double score(double u, double p)
{
	return u * (1 - p);
}

/* res (its lines and metrics in c) becomes v; v's old content freed */
void take_variant(struct ta_result *res, struct compared *c,
		  struct variant *v)
{
	release(&c->hk, 0);
	c->hk = v->h;
	c->u_keep = v->u;
	c->p_keep = v->p;
	c->se_keep = v->se;
	ta_result_free(res);
	*res = v->r;
}

void drop_variant(struct variant *v)
{
	release(&v->h, 0);
	ta_result_free(&v->r);
}

/* 1 if v may stand for the failure beside res: reaches as much */
int reaches(const struct variant *v, const struct ta_result *res,
	    const struct compared *c)
{
	return v->r.stats.unreachable <= res->stats.unreachable &&
	       v->r.stats.unreachable <= c->fresh.stats.unreachable;
}

/*
 * busiest channel under uniform traffic (*u) and permutation bandwidth
 * (*p) of the routes port on g; 0, or -1
 */
int measure(const struct ta_graph *g, const uint8_t *port, double *u,
	    double *p)
{
	struct ta_perm_ref ref;

	*u = ta_uniform_peak(g, port);
	if (*u < 0 || ta_perm_ref_init(&ref, g, port, PERM_RANDOM, PERM_SHIFTS,
				       1, perm_draws(g)))
		return -1;
	*p = ref.p;
	ta_perm_ref_free(&ref);
	return 0;
}
