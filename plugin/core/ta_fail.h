/* SPDX-License-Identifier: MIT */
/*
 * ta_fail.h: the ways a failure off fat trees is routed and how they are
 * judged, shared by ta_restore.c (which way is kept: failure_routes(),
 * choose_minimal()), ta_fail_ways.c (routing a way, measuring and
 * comparing ways), ta_fail_relief.c (ways that move destinations off
 * the busiest channels; the hold to the routing to return to) and
 * ta_fail_layers.c (paths keep their layers under a routing from
 * scratch).  Internal to the core: the plugin and the tests see
 * ta_restore.h only.
 */
#ifndef TA_FAIL_H
#define TA_FAIL_H

#include <stdint.h>

#include "ta_engine.h"
#include "ta_held_lines.h"
#include "ta_home.h"
#include "ta_perm.h"

/*
 * The permutations ta_engine.c's candidates are judged on (and
 * lftcheck --perm=100 measures), their random part estimated from
 * enough draws for about PERM_FLOWS flows: a routing compared with
 * another is judged on the metric, not on one sample of it.
 */
#define PERM_RANDOM 100u
#define PERM_SHIFTS 256u
#define PERM_FLOWS 100000u
#define PERM_DRAWS_MAX 2000u

/*
 * A failure: minimal change is kept where it is within FAIL_SLACK of
 * the routing from scratch of the same fabric on both metrics (a
 * failure may cost the balance it forces, no more); else the routing
 * from scratch is taken.  The busiest channel is exact; permutation
 * bandwidth is held closer by PERM_ERRORS times the error with which a
 * check on a sample of 100 permutations of its own (lftcheck
 * --perm=100) may find the two apart (se, from ta_perm_against()), to no
 * less than PERM_SLACK_MIN.
 */
#define FAIL_SLACK 0.02
#define PERM_SLACK_MIN 0.005
#define PERM_ERRORS 1.0

/* rounds of relieve(): from minimal change at a compared
 * failure; towards the routing to return to, and the repaired way's */
#define RELIEVE_ROUNDS 3
#define RELIEVE_HOME_ROUNDS 8

/* minimal change (res, its lines held in hk) beside a routing from scratch */
struct compared {
	struct ta_result fresh;
	struct held_lines hk, hf;
	double u_keep, u_new, p_keep, p_new;
	double se_keep;		/* ta_perm_against() fresh */
	struct ta_perm_ref pref;	/* fresh's permutations */
};

/* a way of minimal change beside the one in res (run_variant()) */
struct variant {
	struct ta_result r;
	struct held_lines h;
	double u, p, se;
	uint64_t blocks;
};

/*
 * The next-hop repair of the latest routes (ta_repair.h; res: minimal
 * change, whose turn decisions it keeps), made once per failure: its
 * ports, the LFT blocks they change, their busiest channel and the
 * permutations drawn on them (what the ways from it are measured on).
 */
struct repaired {
	uint8_t *port;		/* NULL: not made (yet) */
	uint64_t blocks;
	double u;
	struct ta_perm_ref pref;
	int failed;		/* could not be made (out of memory) */
};

/* ta_fail_ways.c */
uint32_t hosts_of(const struct ta_graph *g);
/* permutation draws for about PERM_FLOWS flows (PERM_RANDOM to
 * PERM_DRAWS_MAX) */
unsigned perm_draws(const struct ta_graph *g);
/* the 64-LID blocks whose entries port changes against p's last ports */
uint64_t blocks_moved(const struct ta_graph *g, const struct ta_prior *p,
		      const uint8_t *port);
int within(double u, double p, double se, double u_ref, double p_ref);
int route_fresh(const struct ta_graph *g, const struct ta_options *o,
		const struct ta_log *log, const struct ta_result *res,
		struct compared *c);
void pass_lines(struct compared *c, int take);
void take_fresh(struct ta_result *res, struct ta_result *fresh);
void keep(struct compared *c, struct ta_result *res, int take);
int worse(const struct compared *c, const struct ta_result *res);
int run_variant(const struct ta_graph *g, const struct ta_options *o2,
		const struct ta_prior *prior, const struct ta_log *log,
		const struct ta_perm_ref *pref, struct variant *v);
double score(double u, double p);
void take_variant(struct ta_result *res, struct compared *c,
		  struct variant *v);
void drop_variant(struct variant *v);
int reaches(const struct variant *v, const struct ta_result *res,
	    const struct compared *c);
int measure(const struct ta_graph *g, const uint8_t *port, double *u,
	    double *p);

/* ta_fail_relief.c */
void relieve(const struct ta_graph *g, const struct ta_options *o,
	     const struct ta_prior *prior, const struct ta_log *log,
	     struct ta_result *res, struct compared *c, double ru,
	     double rp, int rounds);
void repaired_free(struct repaired *r);
int repaired_within(const struct ta_graph *g,
		    const struct ta_options *o,
		    const struct ta_prior *prior,
		    const struct ta_log *log, struct ta_result *res,
		    struct compared *c, struct repaired *r,
		    double ru, double rp);
int relieve_to_home(const struct ta_graph *g, const struct ta_home *h,
		    const struct ta_options *o,
		    const struct ta_prior *prior,
		    const struct ta_log *log, struct ta_result *res,
		    struct compared *c);
int held_to_home(const struct ta_graph *g, const struct ta_home *h,
		 const struct ta_prior *prior, const struct ta_log *log,
		 const struct ta_result *res, int quiet,
		 const struct compared *known);
int repaired_held(const struct ta_graph *g, const struct ta_home *h,
		  const struct ta_options *o,
		  const struct ta_prior *prior,
		  const struct ta_log *log, struct ta_result *res,
		  struct compared *c, struct repaired *r);

/* ta_fail_layers.c */
/* paths whose previous layer (SL) differs from their layer in r */
uint64_t sl_changes(const struct ta_graph *g,
		    const struct ta_prior *prior,
		    const struct ta_result *r);
void keep_layers(const struct ta_graph *g, const struct ta_options *o,
		 const struct ta_prior *prior,
		 const struct ta_log *log, struct ta_result *res,
		 int again);

#endif
