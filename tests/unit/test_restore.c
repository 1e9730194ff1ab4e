// SPDX-License-Identifier: MIT
/*
 * A switch fails and comes back, on random nets and a torus (routing
 * core with its memory, as the plugin drives it: ta_saved, ta_home,
 * ta_route_resweep):
 *  - after the failure every host pair is reachable, the routes are
 *    acyclic on one VL and no destination is routed by the escape rule;
 *    the routing from scratch of the same fabric is not better by more
 *    than 3 % on one metric while within 1 % on the other (busiest
 *    channel and permutation bandwidth walked hop by hop here);
 *  - after the restore every port and turn decision is the bring-up's;
 *  - a standby that reads the tables after the failure (ta_saved_seed)
 *    keeps them whole (ta_route_adopt), acyclic with its turn decisions;
 *    shortest-path tables on a ring, whose turns close a cycle, it
 *    does not keep.
 * The fabric keys tell what changed.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "ta_cdg.h"
#include "ta_layers.h"
#include "ta_restore.h"
#include "ta_saved.h"
#include "topo_graph.h"
#include "turn_verify.h"
#include "run_suite.h"

struct memory {
	struct ta_saved sv;
	struct ta_home home;
	struct ta_fabric_key last;
	unsigned routings;
};

static unsigned opt_vls = 1;	/* option vls of every routing */
static int opt_nexthop;		/* option failure_routes nexthop */
static int opt_minimal;		/* option failure_routes minimal */
static unsigned opt_orders;	/* option tp_orders (0: its default) */
static unsigned opt_experiment;	/* option experiment (TA_EXP_*) */

static void options(struct ta_options *o)
{
	ta_options_init(o);
	o->tp_candidate = true;
	o->vls = opt_vls;
	o->failure_nexthop = opt_nexthop;
	if (opt_minimal)
		o->failure_compare = false;
	if (opt_orders)
		o->tp_orders = opt_orders;
	o->experiment = opt_experiment;
}

/* one routing of g as the plugin makes it; the key of g is kept */
static void route(struct memory *m, const struct ta_graph *g,
		  struct ta_result *r)
{
	struct ta_prior_buf pb;
	struct ta_fabric_key key;
	struct ta_options o;

	options(&o);
	ck_assert_int_eq(ta_fabric_key_make(&key, g), 0);
	ck_assert_int_eq(ta_saved_prior(&m->sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_resweep(&m->home, &key, &m->last, g, &o,
					  ta_saved_empty(&m->sv) ? NULL :
								   &pb.prior,
					  NULL, r), 0);
	ta_prior_buf_free(&pb);
	ck_assert_int_eq(ta_saved_update(&m->sv, g, r), 0);
	ck_assert_int_eq(ta_home_after(&m->home, g, r, &key, ++m->routings),
			 0);
	ta_fabric_key_move(&m->last, &key);
	ta_options_clear(&o);
}

static void memory_init(struct memory *m)
{
	memset(m, 0, sizeof(*m));
	ta_saved_init(&m->sv);
	ta_home_init(&m->home);
}

static void memory_free(struct memory *m)
{
	ta_saved_free(&m->sv);
	ta_home_free(&m->home);
	ta_fabric_key_free(&m->last);
}

/*
 * 1 if b is better than a by more than 3 % on one metric and not worse
 * by more than 1 % on the other (loads: lower is better).  The core
 * keeps minimal change only within 2 % of from scratch on both, judged
 * on its own permutations; this walk samples others.
 */
static int dominates(uint64_t load_a, double perm_a, uint64_t load_b,
		     double perm_b)
{
	return (load_b * 1.03 < load_a && perm_b >= perm_a * 0.99) ||
	       (perm_b > perm_a * 1.03 && load_b <= load_a * 1.01);
}

/* no routing of g from scratch dominates r (walked here) */
static void not_beaten(const struct ta_graph *g, const struct ta_result *r,
		       const char *what)
{
	struct ta_options o;
	struct ta_result fresh;
	uint64_t l_r, l_f;
	double p_r, p_f;

	options(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, &fresh), 0);
	l_r = host_max_load(g, r, NULL, what, NULL);
	l_f = host_max_load(g, &fresh, NULL, what, NULL);
	p_r = perm_bandwidth(g, r, 20, 32, 7);
	p_f = perm_bandwidth(g, &fresh, 20, 32, 7);
	ck_assert_msg(!dominates(l_r, p_r, l_f, p_f),
		      "%s: from scratch busiest %llu perm %.4f, here %llu %.4f",
		      what, (unsigned long long)l_f, p_f,
		      (unsigned long long)l_r, p_r);
	ta_result_free(&fresh);
	ta_options_clear(&o);
}

static void check_failure(const struct ta_graph *g, const struct ta_result *r,
			  const char *what)
{
	assert_routes_good(g, r, what);
	ck_assert_msg(r->stats.dests_fallback == 0,
		      "%s: %u destinations routed by the escape rule", what,
		      r->stats.dests_fallback);
	not_beaten(g, r, what);
}

static uint32_t hosts_in(const struct ta_graph *g)
{
	uint32_t d, n = 0;

	for (d = 0; d < g->n_dest; d++)
		n += g->dest[d].is_host;
	return n;
}

/*
 * A failure (r on g) after the bring-up up on full: complete, acyclic,
 * no destination on the escape rule, and either no worse than the
 * bring-up (walked here: busiest channel within 3 % of the bring-up's
 * scaled to the hosts left, permutation bandwidth within 3 %: the
 * core keeps such a minimal change without a routing from scratch) or
 * not beaten by a routing from scratch (not_beaten)
 */
static void check_failure_after(const struct ta_graph *g,
				const struct ta_result *r,
				const struct ta_graph *full,
				const struct ta_result *up, const char *what)
{
	uint64_t l_up, l_r;
	double scale, p_up, p_r;

	assert_routes_good(g, r, what);
	ck_assert_msg(r->stats.dests_fallback == 0,
		      "%s: %u destinations routed by the escape rule", what,
		      r->stats.dests_fallback);
	l_up = host_max_load(full, up, NULL, what, NULL);
	l_r = host_max_load(g, r, NULL, what, NULL);
	scale = (hosts_in(g) - 1.0) / (hosts_in(full) - 1.0);
	p_up = perm_bandwidth(full, up, 20, 32, 7);
	p_r = perm_bandwidth(g, r, 20, 32, 7);
	if (l_r > l_up * scale * 1.03 || p_r < p_up * 0.97)
		not_beaten(g, r, what);
}

static void same_routing(const struct ta_graph *g, const struct ta_result *a,
			 const struct ta_result *b, const char *what)
{
	ck_assert_msg(!memcmp(a->port, b->port,
			      (size_t)g->n_sw * g->n_dest),
		      "%s: a port differs from the bring-up's", what);
	ck_assert_msg(!memcmp(a->turn_state, b->turn_state, g->n_turn_slots),
		      "%s: a turn decision differs from the bring-up's", what);
}

/* the tables of r as a standby reads them from the switches */
static void seed_from(struct ta_saved *sv, const struct ta_graph *g,
		      const struct ta_result *r)
{
	struct ta_saved_table *t = calloc(g->n_sw, sizeof(*t));
	uint8_t *rows = malloc((size_t)g->n_sw * 1024);
	uint32_t s, d;

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(rows);
	memset(rows, TA_NO_PORT, (size_t)g->n_sw * 1024);
	for (s = 0; s < g->n_sw; s++) {
		t[s].guid = g->sw[s].guid;
		t[s].port = rows + (size_t)s * 1024;
		t[s].n_lids = 1024;
		for (d = 0; d < g->n_dest; d++)
			rows[(size_t)s * 1024 + g->dest[d].lid] =
				ta_result_port(r, s, d);
	}
	ck_assert_int_eq(ta_saved_seed(sv, t, g->n_sw), 0);
	free(rows);
	free(t);
}

static void check_takeover(const struct ta_graph *g, const struct ta_result *r,
			   const char *what)
{
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_options o;
	struct ta_result got;

	ta_saved_init(&sv);
	seed_from(&sv, g, r);
	options(&o);
	ck_assert_int_eq(ta_saved_prior(&sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_adopt(g, &o, &pb.prior, NULL, &got), 0);
	ck_assert_msg(!memcmp(got.port, r->port, (size_t)g->n_sw * g->n_dest),
		      "%s: the takeover changed a table", what);
	/* acyclic with the decisions the standby keeps from now on */
	assert_routes_good(g, &got, what);
	ta_result_free(&got);
	ta_prior_buf_free(&pb);
	ta_saved_free(&sv);
	ta_options_clear(&o);
}

static void fail_and_restore(struct topo *t, unsigned gone, const char *what)
{
	struct ta_graph *full = topo_to_graph_port_major(t, TOPO_KEEP_ALL);
	struct ta_graph *less = topo_to_graph_port_major(t, gone);
	struct ta_result up, down, back;
	struct memory m;
	struct ta_fabric_key kf, kl;
	struct ta_key_diff dd;

	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(less);
	memory_init(&m);
	ck_assert_int_eq(ta_fabric_key_make(&kf, full), 0);
	ck_assert_int_eq(ta_fabric_key_make(&kl, less), 0);
	ta_fabric_key_diff(&kl, &kf, &dd);
	ck_assert(ta_key_diff_lost(&dd) && !ta_key_diff_grew(&dd));
	ck_assert_uint_eq(dd.only_b[TA_KEY_SWITCH], 1);
	ck_assert_uint_eq(dd.only_b[TA_KEY_LINK],
			  full->n_links - less->n_links);
	ck_assert_uint_eq(dd.only_b[TA_KEY_DEST],
			  full->n_dest - less->n_dest);
	ta_fabric_key_diff(&kf, &kl, &dd);
	ck_assert(ta_key_diff_grew(&dd));
	ta_fabric_key_free(&kf);
	ta_fabric_key_free(&kl);

	route(&m, full, &up);
	assert_routes_good(full, &up, what);
	route(&m, less, &down);
	check_failure_after(less, &down, full, &up, what);
	check_takeover(less, &down, what);
	route(&m, full, &back);
	ck_assert_uint_eq(back.stats.reinstated, 1);
	assert_routes_good(full, &back, what);
	same_routing(full, &up, &back, what);
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&back);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
}

START_TEST(random_nets)
{
	static const unsigned gone[] = { 0, 3, 7, 11, 17 };
	unsigned seed, k;

	for (seed = 1; seed <= 4; seed++) {
		struct topo t;

		ck_assert_int_eq(topo_random(&t, 20, 8, 2, seed), 0);
		for (k = 0; k < sizeof(gone) / sizeof(gone[0]); k++) {
			char what[64];

			snprintf(what, sizeof(what), "random seed %u, switch %u",
				 seed, gone[k]);
			fail_and_restore(&t, gone[k], what);
		}
		topo_free(&t);
	}
}
END_TEST

START_TEST(torus)
{
	struct topo t;
	unsigned k;

	ck_assert_int_eq(topo_mesh(&t, 5, 5, 2, 1), 0);
	for (k = 0; k < 25; k += 6) {
		char what[64];

		snprintf(what, sizeof(what), "torus 5x5, switch %u", k);
		fail_and_restore(&t, k, what);
	}
	topo_free(&t);
}
END_TEST

/* nothing kept: a restore is routed by minimal change or from scratch */
START_TEST(restore_without_home)
{
	struct topo t;
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down, back;

	ck_assert_int_eq(topo_random(&t, 20, 8, 2, 9), 0);
	full = topo_to_graph_port_major(&t, TOPO_KEEP_ALL);
	less = topo_to_graph_port_major(&t, 5);
	memory_init(&m);
	route(&m, full, &up);
	route(&m, less, &down);
	ta_home_free(&m.home);	/* as after a takeover: none kept */
	route(&m, full, &back);
	ck_assert_uint_eq(back.stats.reinstated, 0);
	check_failure(full, &back, "restore without a kept routing");
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&back);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
	topo_free(&t);
}
END_TEST

/*
 * Shortest-path tables on a ring: every switch sends towards the
 * nearer side (both sides used), so the turns close the ring's cycle.
 * A standby that reads them must not keep them.
 */
START_TEST(takeover_cyclic_tables)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_result ring = { 0 }, got;
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_options o;
	uint32_t s, d, i, *dist, *queue;

	ck_assert_int_eq(topo_ring(&t, 6, 1), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	dist = malloc(g->n_sw * sizeof(*dist));
	queue = malloc(g->n_sw * sizeof(*queue));
	ring.n_sw = g->n_sw;
	ring.n_dest = g->n_dest;
	ring.port = malloc((size_t)g->n_sw * g->n_dest);
	ck_assert(dist && queue && ring.port);
	for (d = 0; d < g->n_dest; d++) {
		ta_graph_bfs(g, g->dest[d].sw, dist, queue);
		for (s = 0; s < g->n_sw; s++) {
			uint8_t p = g->dest[d].port;

			for (i = 0; s != g->dest[d].sw && i < g->sw[s].n_ends;
			     i++)
				if (dist[g->sw[s].ends[i].peer] + 1 == dist[s]) {
					p = g->sw[s].ends[i].port;
					break;
				}
			ring.port[(size_t)s * g->n_dest + d] = p;
		}
	}
	ta_saved_init(&sv);
	seed_from(&sv, g, &ring);
	options(&o);
	ck_assert_int_eq(ta_saved_prior(&sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_adopt(g, &o, &pb.prior, NULL, &got), 0);
	ck_assert_msg(memcmp(got.port, ring.port,
			     (size_t)g->n_sw * g->n_dest) != 0,
		      "tables whose turns close a cycle were kept");
	assert_routes_good(g, &got, "after cyclic tables");
	ta_result_free(&got);
	ta_prior_buf_free(&pb);
	ta_saved_free(&sv);
	ta_options_clear(&o);
	free(ring.port);
	free(dist);
	free(queue);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

/* failure_routes minimal: a failure is minimal change, never compared */
START_TEST(failure_minimal_option)
{
	struct topo t;
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down, plain;
	struct ta_prior_buf pb;
	struct ta_fabric_key key;
	struct ta_options o;

	ck_assert_int_eq(topo_random(&t, 20, 8, 2, 2), 0);
	full = topo_to_graph_port_major(&t, TOPO_KEEP_ALL);
	less = topo_to_graph_port_major(&t, 11);
	memory_init(&m);
	route(&m, full, &up);
	options(&o);
	o.failure_compare = false;
	ck_assert_int_eq(ta_fabric_key_make(&key, less), 0);
	ck_assert_int_eq(ta_saved_prior(&m.sv, less, &pb), 0);
	ck_assert_int_eq(ta_route_resweep(&m.home, &key, &m.last, less, &o,
					  &pb.prior, NULL, &down), 0);
	ck_assert_int_eq(ta_route_prior(less, &o, &pb.prior, NULL, &plain), 0);
	ck_assert_uint_eq(down.stats.restore_fresh, 0);
	ck_assert(!memcmp(down.port, plain.port,
			  (size_t)less->n_sw * less->n_dest));
	assert_routes_good(less, &down, "failure_routes minimal");
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&plain);
	ta_prior_buf_free(&pb);
	ta_fabric_key_free(&key);
	ta_options_clear(&o);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
	topo_free(&t);
}
END_TEST

/*
 * Off fat trees a failure's minimal change reroutes by the load of the
 * whole way, the routes kept included, and where that falls short it is
 * made again over the turns whose cycles went with the lost switch: on
 * tori, a Dragonfly+, dragonflies and random nets minimal change is kept
 * (not the routing from scratch) and its busiest channel is within 2 %
 * of that routing's or of the bring-up's (scaled to the hosts left: then
 * the failure left the fabric no worse and no routing from scratch is
 * made), while it keeps the routes the loss did not touch.  Each case
 * twice: as configured, and without the next-hop repair relieved by load
 * (experiment no_repair), which would otherwise stand in for the other
 * ways of minimal change where they fall short (failure_repaired_by_load
 * tests it).  All routed with Turn-Prohibition's least-traffic order
 * alone (tp_orders 1): the same routings on every build, the orders are
 * tested in test_tp_candidate.c.
 */
static void load_aware_once(const struct topo *t, unsigned gone,
			    const char *what)
{
	struct ta_graph *full = topo_to_graph_without(t, TOPO_KEEP_ALL);
	struct ta_graph *less = topo_to_graph_without(t, gone);
	struct memory m;
	struct ta_result up, mc, fresh;
	struct ta_options o;
	uint64_t l_m, l_f, l_up;
	double scale;
	const char *way = opt_experiment ? " (no_repair)" : "";

	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(less);
	memory_init(&m);
	opt_orders = 1;
	route(&m, full, &up);
	route(&m, less, &mc);
	options(&o);
	ck_assert_int_eq(ta_route(less, &o, NULL, &fresh), 0);
	opt_orders = 0;
	assert_routes_good(less, &mc, what);
	ck_assert_msg(mc.stats.restore_fresh == 0,
		      "%s%s: the routing from scratch was taken", what, way);
	ck_assert_uint_gt(mc.stats.dests_kept, 0);
	l_m = host_max_load(less, &mc, NULL, what, NULL);
	l_f = host_max_load(less, &fresh, NULL, what, NULL);
	l_up = host_max_load(full, &up, NULL, what, NULL);
	scale = (hosts_in(less) - 1.0) / (hosts_in(full) - 1.0);
	ck_assert_msg(l_m * 100 <= l_f * 102 || l_m <= l_up * scale * 1.02,
		      "%s%s: minimal change's busiest channel %llu, from scratch %llu, bring-up %llu (scaled %.1f)",
		      what, way, (unsigned long long)l_m,
		      (unsigned long long)l_f, (unsigned long long)l_up,
		      l_up * scale);
	ta_result_free(&up);
	ta_result_free(&mc);
	ta_result_free(&fresh);
	ta_options_clear(&o);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
}

static void load_aware(const struct topo *t, unsigned gone, const char *what)
{
	load_aware_once(t, gone, what);
	opt_experiment = TA_EXP_NO_REPAIR;
	load_aware_once(t, gone, what);
	opt_experiment = 0;
}

static uint32_t switch_of(const struct ta_graph *g, uint64_t guid)
{
	uint32_t s;

	for (s = 0; s < g->n_sw && g->sw[s].guid != guid; s++)
		;
	return s;
}

static uint32_t dest_of(const struct ta_graph *g, uint16_t lid)
{
	uint32_t d;

	for (d = 0; d < g->n_dest && g->dest[d].lid != lid; d++)
		;
	return d;
}

/* a flag per 64-LID block of g's LIDs (*blocks of them), for free() */
static uint8_t *block_flags(const struct ta_graph *g, uint32_t *blocks)
{
	uint8_t *seen;
	uint32_t d;

	*blocks = 0;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid / 64u + 1 > *blocks)
			*blocks = g->dest[d].lid / 64u + 1;
	seen = malloc(*blocks + 1);
	ck_assert_ptr_nonnull(seen);
	return seen;
}

/*
 * (switch, 64-LID block) pairs of b's switches where b's entry for a LID
 * differs from a's (a on ga, the fabric before; b on gb, matched by
 * switch GUID and LID): the LFT blocks OpenSM would set
 */
static uint64_t blocks_differ(const struct ta_graph *ga,
			      const struct ta_result *a,
			      const struct ta_graph *gb,
			      const struct ta_result *b)
{
	uint64_t n = 0;
	uint32_t s, d, sa, da, blocks;
	uint8_t *seen = block_flags(gb, &blocks);

	for (s = 0; s < gb->n_sw; s++) {
		sa = switch_of(ga, gb->sw[s].guid);
		ck_assert_uint_lt(sa, ga->n_sw);
		memset(seen, 0, blocks + 1);
		for (d = 0; d < gb->n_dest; d++) {
			da = dest_of(ga, gb->dest[d].lid);
			ck_assert_uint_lt(da, ga->n_dest);
			if (ta_result_port(b, s, d) != ta_result_port(a, sa, da) &&
			    !seen[gb->dest[d].lid / 64u]) {
				seen[gb->dest[d].lid / 64u] = 1;
				n++;
			}
		}
	}
	free(seen);
	return n;
}

/*
 * One VL, dragonfly 6 2 3 (13 groups of 6 routers, 234 hosts), router
 * 54 (df9-s0) down: the minimal change is within 2 % of the bring-up
 * (busiest channel scaled to the hosts left, walked here) and kept
 * with no routing from scratch, though a routing from scratch of the
 * fabric left is more than 2 % better (the rule against it alone
 * would take that): under half as many LFT blocks change as with the
 * routing from scratch.
 */
/*
 * t routed whole (up), then without switch gone (down) by the same
 * memory m: down complete, acyclic and not a routing from scratch
 */
static void up_and_down(const struct topo *t, unsigned gone,
			struct ta_graph **full, struct ta_graph **less,
			struct memory *m, struct ta_result *up,
			struct ta_result *down, const char *what)
{
	*full = topo_to_graph_without(t, TOPO_KEEP_ALL);
	*less = topo_to_graph_without(t, gone);
	ck_assert_ptr_nonnull(*full);
	ck_assert_ptr_nonnull(*less);
	memory_init(m);
	route(m, *full, up);
	route(m, *less, down);
	assert_routes_good(*less, down, what);
	ck_assert_int_eq(down->stats.restore_fresh, 0);
}

START_TEST(failure_held_to_bringup)
{
	struct topo t;
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down, fresh;
	struct ta_options o;
	uint64_t l_up, l_down, moved, moved_fresh, all = 0;
	double scale;
	uint32_t d, blocks = 0;

	ck_assert_int_eq(topo_dragonfly(&t, 6, 2, 3, 0), 0);
	up_and_down(&t, 54, &full, &less, &m, &up, &down, "router 54 down");
	l_up = host_max_load(full, &up, NULL, "bring-up", NULL);
	l_down = host_max_load(less, &down, NULL, "router 54 down", NULL);
	scale = (hosts_in(less) - 1.0) / (hosts_in(full) - 1.0);
	ck_assert_msg(l_down <= l_up * scale * 1.02,
		      "busiest channel %llu, bring-up %llu (scaled %.1f)",
		      (unsigned long long)l_down, (unsigned long long)l_up,
		      l_up * scale);
	options(&o);
	ck_assert_int_eq(ta_route(less, &o, NULL, &fresh), 0);
	for (d = 0; d < less->n_dest; d++)
		if (less->dest[d].lid / 64u + 1 > blocks)
			blocks = less->dest[d].lid / 64u + 1;
	all = (uint64_t)blocks * less->n_sw;
	moved = blocks_differ(full, &up, less, &down);
	moved_fresh = blocks_differ(full, &up, less, &fresh);
	ck_assert_msg(moved * 2 < moved_fresh,
		      "LFT blocks changed: %llu kept, %llu from scratch, of %llu",
		      (unsigned long long)moved,
		      (unsigned long long)moved_fresh,
		      (unsigned long long)all);
	ck_assert_msg(host_max_load(less, &fresh, NULL, "scratch", NULL) *
				      1.02 < l_down,
		      "a routing from scratch is no more than 2 %% better");
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&fresh);
	ta_options_clear(&o);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
	topo_free(&t);
}
END_TEST

/*
 * One VL, a router down: the next-hop repair of the bring-up's routes,
 * its routes over the busiest channels moved by load, is within 2 % of
 * the bring-up (busiest channel scaled to the hosts left, permutation
 * bandwidth; walked here, within 3 %) and changes fewer than most % of
 * the LFT blocks minimal change alone (failure_routes minimal) does.
 */
static void repaired_case(const struct topo *t, unsigned gone,
			  unsigned most, const char *what)
{
	struct ta_graph *full, *less;
	struct memory m, mm;
	struct ta_result up, down, up_m, alone;
	uint64_t l_up, l_down, moved, moved_alone;
	double scale, p_up, p_down;

	up_and_down(t, gone, &full, &less, &m, &up, &down, what);
	check_failure_after(less, &down, full, &up, what);
	l_up = host_max_load(full, &up, NULL, "bring-up", NULL);
	l_down = host_max_load(less, &down, NULL, what, NULL);
	scale = (hosts_in(less) - 1.0) / (hosts_in(full) - 1.0);
	ck_assert_msg(l_down <= l_up * scale * 1.03,
		      "%s: busiest channel %llu, bring-up %llu (scaled %.1f)",
		      what, (unsigned long long)l_down,
		      (unsigned long long)l_up, l_up * scale);
	p_up = perm_bandwidth(full, &up, 20, 32, 7);
	p_down = perm_bandwidth(less, &down, 20, 32, 7);
	ck_assert_msg(p_down >= p_up * 0.97,
		      "%s: permutation bandwidth %.4f, bring-up %.4f", what,
		      p_down, p_up);
	memory_init(&mm);
	opt_minimal = 1;
	route(&mm, full, &up_m);
	route(&mm, less, &alone);
	opt_minimal = 0;
	moved = blocks_differ(full, &up, less, &down);
	moved_alone = blocks_differ(full, &up_m, less, &alone);
	ck_assert_msg(moved * 100 < moved_alone * most,
		      "%s: LFT blocks changed: %llu, minimal change alone %llu",
		      what, (unsigned long long)moved,
		      (unsigned long long)moved_alone);
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&up_m);
	ta_result_free(&alone);
	memory_free(&m);
	memory_free(&mm);
	ta_graph_free(full);
	ta_graph_free(less);
}

/*
 * dragonfly 4 9 2 (37 groups of 4 routers, 2 hosts a router), router 4
 * (group 1's first): 94 blocks in the core's LID order against 163 for
 * minimal change alone (58 %), once the rounds are made again marking
 * the destinations by their share against the LFT blocks moving them
 * would newly rewrite (by share alone: 104, 64 %).  Router 13 (group
 * 3's second): 198 against 386 (51 %; 215 by share alone).
 */
START_TEST(failure_repaired_by_load)
{
	struct topo t;

	ck_assert_int_eq(topo_dragonfly(&t, 4, 9, 2, 0), 0);
	repaired_case(&t, 4, 61, "dragonfly 4 9 2, router 4 down");
	repaired_case(&t, 13, 54, "dragonfly 4 9 2, router 13 down");
	topo_free(&t);
}
END_TEST

START_TEST(minimal_change_by_load)
{
	static const struct {
		unsigned seed, gone;
	} rnd[] = { { 19, 6 }, { 25, 4 }, { 30, 9 } };
	struct topo t;
	char what[64];
	unsigned k;

	ck_assert_int_eq(topo_mesh(&t, 6, 6, 2, 1), 0);
	load_aware(&t, 5, "torus 6x6, switch 5");
	load_aware(&t, 14, "torus 6x6, switch 14");
	topo_free(&t);
	/* group 2's spine 0: switch 2 * (4 + 4) + 4 */
	ck_assert_int_eq(topo_dfplus(&t, 9, 4, 4, 4, 2), 0);
	load_aware(&t, 20, "Dragonfly+ 9 groups, a spine");
	topo_free(&t);
	/* group 1's router 0 */
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	load_aware(&t, 4, "dragonfly 4 2 2, a router");
	topo_free(&t);
	/* group 3's router 0 */
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 19), 0);
	load_aware(&t, 18, "dragonfly 6 3 3 19, a router");
	topo_free(&t);
	/*
	 * group 3's router 0, and group 7's router 2: within 2 % of the
	 * routing from scratch, and not of the bring-up, only once
	 * destinations also move off the busiest channels (busiest channel
	 * 276, then 238)
	 */
	ck_assert_int_eq(topo_dragonfly(&t, 4, 9, 2, 0), 0);
	load_aware(&t, 12, "dragonfly 4 9 2, a router");
	load_aware(&t, 30, "dragonfly 4 9 2, router 30");
	topo_free(&t);
	/*
	 * random nets of 24 switches: kept only once the turns whose
	 * cycles went with the switch are allowed again
	 */
	for (k = 0; k < sizeof(rnd) / sizeof(rnd[0]); k++) {
		snprintf(what, sizeof(what), "random 24 8 2 %u, switch %u",
			 rnd[k].seed, rnd[k].gone);
		ck_assert_int_eq(topo_random(&t, 24, 8, 2, rnd[k].seed), 0);
		load_aware(&t, rnd[k].gone, what);
		topo_free(&t);
	}
}
END_TEST

/* g of t without the links flagged in drop[] (and switch gone) */
static struct ta_graph *graph_cut(const struct topo *t, const uint8_t *drop,
				  unsigned gone)
{
	struct topo c = *t;
	struct ta_graph *g;
	unsigned i;

	c.links = malloc((t->n_links + 1) * sizeof(*c.links));
	ck_assert_ptr_nonnull(c.links);
	c.n_links = 0;
	for (i = 0; i < t->n_links; i++)
		if (!drop[i])
			c.links[c.n_links++] = t->links[i];
	g = topo_to_graph_port_major(&c, gone);
	free(c.links);
	ck_assert_ptr_nonnull(g);
	return g;
}

/*
 * The standby's memory after a takeover of r (on g): the master's
 * tables kept (ta_route_adopt), the routing to return to adopted
 */
static void take_over(struct memory *sb, const struct ta_graph *g,
		      const struct ta_result *r, struct ta_result *a)
{
	struct ta_prior_buf pb;
	struct ta_options o;

	memory_init(sb);
	seed_from(&sb->sv, g, r);
	options(&o);
	ck_assert_int_eq(ta_saved_prior(&sb->sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_adopt(g, &o, &pb.prior, NULL, a), 0);
	ta_prior_buf_free(&pb);
	ck_assert_int_eq(ta_saved_update(&sb->sv, g, a), 0);
	ck_assert_int_eq(ta_fabric_key_make(&sb->last, g), 0);
	ck_assert_int_eq(ta_home_after(&sb->home, g, a, &sb->last, 1), 0);
	sb->routings = 1;
	ta_options_clear(&o);
}

/*
 * r's busiest channel (walked hop by hop) is within 2 % of a routing
 * from scratch of g
 */
static void near_scratch(const struct ta_graph *g, const struct ta_result *r,
			 const char *what)
{
	struct ta_options o;
	struct ta_result fresh;
	uint64_t l_r, l_f;

	options(&o);
	ck_assert_int_eq(ta_route(g, &o, NULL, &fresh), 0);
	l_r = host_max_load(g, r, NULL, what, NULL);
	l_f = host_max_load(g, &fresh, NULL, "from scratch", NULL);
	ck_assert_msg(l_r * 100 <= l_f * 102,
		      "%s: busiest %llu, from scratch %llu", what,
		      (unsigned long long)l_r, (unsigned long long)l_f);
	ta_result_free(&fresh);
	ta_options_clear(&o);
}

/*
 * A fat tree loses a spine, then leaf-spine links one by one: the first
 * failure keeps minimal change uncompared (at its bound); every later
 * one, on a fabric already missing parts, is compared with a routing
 * from scratch, so the busiest channel after it is within 2 % of that
 * routing's.
 */
START_TEST(fat_tree_failures_in_a_row)
{
	struct topo t;
	struct memory m;
	uint8_t *drop;
	struct ta_graph *g;
	struct ta_result r;
	unsigned step, i, cut = 0;

	ck_assert_int_eq(topo_fattree2(&t, 8, 4, 4, 1), 0);
	drop = calloc(t.n_links + 1, 1);
	ck_assert_ptr_nonnull(drop);
	memory_init(&m);
	for (step = 0; step < 5; step++) {
		char what[64];

		/* step 1: spine 9 (index 8 + 1); then leaf s-2 to spine 10 */
		for (i = 0; step >= 2 && i < t.n_links; i++)
			if (!drop[i] && t.links[i].b == 10 &&
			    t.links[i].a == step - 2) {
				drop[i] = 1;
				cut++;
				break;
			}
		g = graph_cut(&t, drop, step ? 9 : TOPO_KEEP_ALL);
		route(&m, g, &r);
		assert_routes_good(g, &r, "fat tree failures");
		snprintf(what, sizeof(what), "%u links cut after the spine",
			 cut);
		if (step >= 2)
			near_scratch(g, &r, what);
		ta_result_free(&r);
		ta_graph_free(g);
	}
	free(drop);
	memory_free(&m);
	topo_free(&t);
}
END_TEST

/*
 * A standby takes over a fat tree whose master routed around a spine
 * (the tables it reads are minimal change, not a bring-up's); a link
 * failure then is compared with a routing from scratch: the busiest
 * channel after it is within 2 % of that routing's.
 */
START_TEST(fat_tree_failure_after_takeover)
{
	struct topo t;
	struct memory m, sb;
	struct ta_graph *full, *g1, *g2;
	struct ta_result up, r1, a, r2;
	uint8_t *drop;
	unsigned i;

	ck_assert_int_eq(topo_fattree2(&t, 8, 4, 4, 1), 0);
	drop = calloc(t.n_links + 1, 1);
	ck_assert_ptr_nonnull(drop);
	memory_init(&m);
	full = graph_cut(&t, drop, TOPO_KEEP_ALL);
	g1 = graph_cut(&t, drop, 9);
	for (i = 0; i < t.n_links; i++)
		if (t.links[i].a == 0 && t.links[i].b == 10)
			drop[i] = 1;
	g2 = graph_cut(&t, drop, 9);
	route(&m, full, &up);
	route(&m, g1, &r1);
	/* the standby's first routing: the master's tables kept */
	take_over(&sb, g1, &r1, &a);
	route(&sb, g2, &r2);
	assert_routes_good(g2, &r2, "after the takeover");
	near_scratch(g2, &r2, "a link cut after the takeover");
	ta_result_free(&up);
	ta_result_free(&r1);
	ta_result_free(&a);
	ta_result_free(&r2);
	memory_free(&m);
	memory_free(&sb);
	ta_graph_free(full);
	ta_graph_free(g1);
	ta_graph_free(g2);
	free(drop);
	topo_free(&t);
}
END_TEST

/* the layers that allow every turn of r's route from s to d in g,
 * walked here from r's ports and turn_layers */
static uint8_t walked_mask(const struct ta_graph *g, const struct ta_result *r,
			   uint32_t s, uint32_t d)
{
	uint8_t mask = 0xff;
	uint32_t in = UINT32_MAX, hops = 0, e;

	while (s != g->dest[d].sw) {
		uint8_t p = r->port[(size_t)s * g->n_dest + d];
		const struct ta_link *l;

		ck_assert_uint_le(++hops, g->n_sw);
		for (e = 0; e < g->sw[s].n_ends; e++)
			if (g->sw[s].ends[e].port == p)
				break;
		ck_assert_uint_lt(e, g->sw[s].n_ends);
		if (in != UINT32_MAX)
			mask &= r->turn_layers[g->sw[s].turn_base +
					       in * g->sw[s].n_ends + e];
		l = &g->links[g->sw[s].ends[e].link];
		in = l->sw[0] == s && l->end[0] == e ? l->end[1] : l->end[0];
		s = g->sw[s].ends[e].peer;
	}
	return mask;
}

/*
 * Three layers on a dragonfly, a router fails and the routing from
 * scratch is taken: a path changes its layer (its SL, which open
 * connections hold) only where its previous layer does not allow its
 * new route; every layer stays acyclic.
 */
START_TEST(failure_keeps_layers)
{
	struct topo t;
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down;
	uint32_t s, d, fs, fd, i;
	uint64_t same = 0;

	opt_vls = 3;
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	less = topo_to_graph_without(&t, 4);
	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(less);
	memory_init(&m);
	route(&m, full, &up);
	route(&m, less, &down);
	ck_assert_int_eq(up.stats.layers_used, 1);
	ck_assert_uint_eq(down.stats.restore_fresh, 1);
	ck_assert_ptr_nonnull(down.layer);
	ck_assert_ptr_nonnull(down.turn_layers);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ta_layers_cyclic(less, down.turn_layers, i), 0);
	for (s = 0; s < less->n_sw; s++) {
		for (fs = 0; full->sw[fs].guid != less->sw[s].guid; fs++)
			;
		for (d = 0; d < less->n_dest; d++) {
			uint8_t was, now = down.layer[(size_t)s * less->n_dest + d];

			for (fd = 0; full->dest[fd].lid != less->dest[d].lid; fd++)
				;
			was = up.layer[(size_t)fs * full->n_dest + fd];
			if (was == now) {
				same++;
				continue;
			}
			ck_assert_msg(!(walked_mask(less, &down, s, d) >> was & 1u),
				      "switch %u to LID %u: layer %u -> %u although layer %u allows the route",
				      s, less->dest[d].lid, was, now, was);
		}
	}
	ck_assert_uint_gt(same, 0);
	ta_result_free(&up);
	ta_result_free(&down);
	opt_vls = 1;
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
	topo_free(&t);
}
END_TEST

/* 1 if r's route in g from switch s to destination d passes a switch
 * absent from less (matched by GUID) */
static int crosses_gone(const struct ta_graph *g, const struct ta_result *r,
			uint32_t s, uint32_t d, const struct ta_graph *less)
{
	uint32_t hops = 0, e, i;

	for (;;) {
		for (i = 0; i < less->n_sw && less->sw[i].guid != g->sw[s].guid;
		     i++)
			;
		if (i == less->n_sw)
			return 1;
		if (s == g->dest[d].sw)
			return 0;
		ck_assert_uint_le(++hops, g->n_sw);
		for (e = 0; e < g->sw[s].n_ends; e++)
			if (g->sw[s].ends[e].port ==
			    r->port[(size_t)s * g->n_dest + d])
				break;
		ck_assert_uint_lt(e, g->sw[s].n_ends);
		s = g->sw[s].ends[e].peer;
	}
}

/*
 * Paths over layers from routing r0 on g0 to r1 on g1 (g1: g0 less a
 * switch): every path of r1 reaches, in a layer that allows it
 * (walked here); of the paths that did not cross the switch g1 lacks
 * (*unaffected), *kept keep their port and layer.
 */
static void count_kept(const struct ta_graph *g0, const struct ta_result *r0,
		       const struct ta_graph *g1, const struct ta_result *r1,
		       uint64_t *kept, uint64_t *unaffected)
{
	uint32_t s, d, fs, fd;

	*kept = *unaffected = 0;
	for (s = 0; s < g1->n_sw; s++) {
		for (fs = 0; g0->sw[fs].guid != g1->sw[s].guid; fs++)
			;
		for (d = 0; d < g1->n_dest; d++) {
			size_t a, b = (size_t)s * g1->n_dest + d;

			for (fd = 0; g0->dest[fd].lid != g1->dest[d].lid; fd++)
				;
			a = (size_t)fs * g0->n_dest + fd;
			ck_assert(walked_mask(g1, r1, s, d) >> r1->layer[b] &
				  1u);
			if (s == g1->dest[d].sw ||
			    crosses_gone(g0, r0, fs, fd, g1))
				continue;
			(*unaffected)++;
			*kept += r0->port[a] == r1->port[b] &&
				 r0->layer[a] == r1->layer[b];
		}
	}
}

/*
 * A switch of topology tp (taken over and freed) fails under vls
 * layers (layers_hold(): a router of dragonfly a h p): the routes that
 * did not cross it keep their port and layer (95 % of them or more),
 * every layer stays acyclic and every path is in a layer allowing it;
 * near_bringup: the routes after the failure are within 3 % of the
 * bring-up on both metrics, else no routing from scratch beats them by
 * more than 3 % on one metric while within 1 % on the other (walked
 * here).
 */
static void layers_hold_on(struct topo *tp, unsigned vls,
			   const unsigned *gone, unsigned n_gone,
			   int near_bringup)
{
	struct topo t = *tp;
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down;
	uint32_t i, l;
	uint64_t kept = 0, unaffected = 0, l_up, l_down;
	double p_up, p_down, scale;

	opt_vls = vls;
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	ck_assert_ptr_nonnull(full);
	for (i = 0; i < n_gone; i++) {
		less = topo_to_graph_without(&t, gone[i]);
		ck_assert_ptr_nonnull(less);
		memory_init(&m);
		route(&m, full, &up);
		route(&m, less, &down);
		ck_assert_int_eq(up.stats.layers_used, 1);
		ck_assert_ptr_nonnull(down.layer);
		for (l = 0; l < vls; l++)
			ck_assert_int_eq(ta_layers_cyclic(less, down.turn_layers,
							  l), 0);
		count_kept(full, &up, less, &down, &kept, &unaffected);
		ck_assert_msg(kept * 100 >= unaffected * 95,
			      "switch %u down: %llu of %llu paths that did not cross it keep their port and layer",
			      gone[i], (unsigned long long)kept,
			      (unsigned long long)unaffected);
		l_up = host_max_load(full, &up, NULL, "bring-up", NULL);
		l_down = host_max_load(less, &down, NULL, "failure", NULL);
		scale = (hosts_in(less) - 1.0) / (hosts_in(full) - 1.0);
		p_up = perm_bandwidth(full, &up, 20, 32, 7);
		p_down = perm_bandwidth(less, &down, 20, 32, 7);
		if (near_bringup) {
			ck_assert_msg(l_down <= l_up * scale * 1.03 &&
					      p_down >= p_up * 0.97,
				      "switch %u down: busiest %llu perm %.4f, bring-up %llu (scaled %.1f) %.4f",
				      gone[i], (unsigned long long)l_down,
				      p_down, (unsigned long long)l_up,
				      l_up * scale, p_up);
		} else {
			not_beaten(less, &down, "router down");
		}
		ta_result_free(&up);
		ta_result_free(&down);
		memory_free(&m);
		ta_graph_free(less);
	}
	opt_vls = 1;
	ta_graph_free(full);
	topo_free(&t);
}

static void layers_hold(unsigned a, unsigned h, unsigned p, unsigned vls,
			const unsigned *gone, unsigned n_gone, int near_bringup)
{
	struct topo t;

	ck_assert_int_eq(topo_dragonfly(&t, a, h, p, 0), 0);
	layers_hold_on(&t, vls, gone, n_gone, near_bringup);
}

/*
 * Three layers on dragonfly 6 3 3 19, two routers in turn, where
 * minimal change stays within 2 % of the bring-up (a routing from
 * scratch would be better still, by luck of its own layers).
 */
START_TEST(failure_holds_layers)
{
	static const unsigned gone[] = { 33, 42 };

	layers_hold(6, 3, 3, 3, gone, 2, 1);
}
END_TEST

/*
 * Two layers on dragonfly 6 3 3 19 (router 13, 33 or 42 down), three on
 * dragonfly 8 4 4 (router 10 down): minimal change misses the 2 % of
 * the bring-up until the destinations on the channels above the
 * bring-up's busiest move too (several rounds); it is then kept, so the
 * paths that did not cross the router keep their port and layer.
 */
START_TEST(failure_relieves_to_bringup)
{
	static const unsigned gone[] = { 13, 33, 42 }, gone_844[] = { 10 };

	layers_hold(6, 3, 3, 2, gone, 3, 1);
	layers_hold(8, 4, 4, 3, gone_844, 1, 1);
}
END_TEST

/*
 * Routes g[0 .. n-1] one after the other in one memory into r;
 * the last routing keeps at least 85 % of the paths that did not
 * cross what failed last whole (port and layer), what: that failure
 */
static void route_series_kept(struct ta_graph **g, struct ta_result *r,
			      unsigned n, const char *what)
{
	struct memory m;
	uint64_t kept, unaffected;
	unsigned i;

	memory_init(&m);
	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(g[i]);
		route(&m, g[i], &r[i]);
	}
	memory_free(&m);
	count_kept(g[n - 2], &r[n - 2], g[n - 1], &r[n - 1], &kept,
		   &unaffected);
	ck_assert_msg(kept * 100 >= unaffected * 85,
		      "%s: %llu of %llu paths that did not cross it keep their port and layer",
		      what, (unsigned long long)kept,
		      (unsigned long long)unaffected);
}

static void free_series(struct ta_graph **g, struct ta_result *r, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		ta_result_free(&r[i]);
		ta_graph_free(g[i]);
	}
}

/*
 * Two layers on dragonfly 6 3 3 19: router 13 down, router 33 too,
 * router 33 back (a restore to a fabric that is not the routing to
 * return to's: compared with a routing from scratch), then router 42
 * down.  At that failure the paths that did not cross router 42 keep
 * their port and layer (85 % or more; 92 % measured, 69 % where the
 * routes of the routing to return to were checked against the latest
 * layers): the resweep carries the routes the switches hold and the
 * layers given to them.
 */
START_TEST(later_failure_keeps_layers)
{
	struct topo t;
	struct ta_graph *g[5];
	struct ta_result r[5];
	uint32_t l;

	opt_vls = 2;
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 0), 0);
	g[0] = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	g[1] = topo_to_graph_without(&t, 13);
	g[2] = topo_to_graph_without2(&t, 13, 33);
	g[3] = topo_to_graph_without(&t, 13);
	g[4] = topo_to_graph_without2(&t, 13, 42);
	route_series_kept(g, r, 5, "router 42 down");
	ck_assert_int_eq(r[4].stats.layers_used, 1);
	for (l = 0; l < 2; l++)
		ck_assert_int_eq(ta_layers_cyclic(g[4], r[4].turn_layers, l),
				 0);
	free_series(g, r, 5);
	topo_free(&t);
	opt_vls = 1;
}
END_TEST

/*
 * Two layers on the 6 x 6 torus, switch 5 down: the destinations
 * released off the busiest channels are routed again over the layers
 * (not kept whole because their old routes still reach), so minimal
 * change gets within 2 % of the bring-up and is kept.
 */
START_TEST(failure_relieves_torus_layers)
{
	static const unsigned gone[] = { 5 };
	struct topo t;

	ck_assert_int_eq(topo_mesh(&t, 6, 6, 2, 1), 0);
	layers_hold_on(&t, 2, gone, 1, 1);
}
END_TEST

/*
 * Two layers on dragonfly 4 9 2, router 1 down: minimal change misses
 * the 2 % until the destinations on the busiest channels move too.
 */
START_TEST(failure_relieves_layers)
{
	static const unsigned gone[] = { 1 };

	layers_hold(4, 9, 2, 2, gone, 1, 0);
}
END_TEST

/*
 * Three layers on dragonfly 6 3 3 19, a standby takes over from the
 * switches' tables alone (router gone: after the master routed around
 * it).  Every layer acyclic, every path in a layer that allows it
 * (walked here).  With nothing gone every table and every path's layer
 * (SL) stay the master's; after a failure the standby does not know
 * the layers the master kept, and its routes are not beaten by a
 * routing from scratch by more than 3 % on one metric while within 1 %
 * on the other.
 */
static void takeover_layers(unsigned gone)
{
	struct topo t;
	struct ta_graph *g, *full;
	struct memory m;
	struct ta_result up, got, first;
	struct ta_saved sv;
	struct ta_prior_buf pb;
	struct ta_options o;
	uint32_t s, d, l, changed = 0, moved = 0;

	opt_vls = 3;
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 19), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	g = topo_to_graph_without(&t, gone);
	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(g);
	memory_init(&m);
	route(&m, full, &first);
	route(&m, g, &up);
	ck_assert_int_eq(up.stats.layers_used, 1);
	ta_saved_init(&sv);
	seed_from(&sv, g, &up);
	options(&o);
	ck_assert_int_eq(ta_saved_prior(&sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_adopt(g, &o, &pb.prior, NULL, &got), 0);
	ck_assert_ptr_nonnull(got.layer);
	ck_assert_ptr_nonnull(got.turn_layers);
	for (l = 0; l < 3; l++)
		ck_assert_int_eq(ta_layers_cyclic(g, got.turn_layers, l), 0);
	for (s = 0; s < g->n_sw; s++)
		for (d = 0; d < g->n_dest; d++) {
			size_t i = (size_t)s * g->n_dest + d;

			changed += got.layer[i] != up.layer[i];
			moved += got.port[i] != up.port[i];
			ck_assert(walked_mask(g, &got, s, d) >> got.layer[i] &
				  1u);
		}
	if (gone == TOPO_KEEP_ALL) {
		ck_assert_msg(!changed && !moved,
			      "takeover: %u paths change port, %u layer (SL)",
			      moved, changed);
	} else {
		not_beaten(g, &got, "router down, takeover");
	}
	ta_result_free(&first);
	ta_result_free(&up);
	ta_result_free(&got);
	ta_prior_buf_free(&pb);
	ta_saved_free(&sv);
	ta_options_clear(&o);
	opt_vls = 1;
	memory_free(&m);
	ta_graph_free(g);
	ta_graph_free(full);
	topo_free(&t);
}

/*
 * LFT blocks (switch, 64 LIDs) of r on g, at the switches less keeps,
 * that hold a route to a LID less keeps crossing a switch less lacks:
 * every routing of less rewrites them
 */
static uint64_t blocks_through(const struct ta_graph *g,
			       const struct ta_result *r,
			       const struct ta_graph *less)
{
	uint64_t n = 0;
	uint32_t s, d, blocks;
	uint8_t *seen = block_flags(g, &blocks);

	for (s = 0; s < g->n_sw; s++) {
		if (switch_of(less, g->sw[s].guid) >= less->n_sw)
			continue;
		memset(seen, 0, blocks + 1);
		for (d = 0; d < g->n_dest; d++)
			if (dest_of(less, g->dest[d].lid) < less->n_dest &&
			    !seen[g->dest[d].lid / 64u] &&
			    crosses_gone(g, r, s, d, less)) {
				seen[g->dest[d].lid / 64u] = 1;
				n++;
			}
	}
	free(seen);
	return n;
}

/*
 * Three layers on a dragonfly: the master routes around router first,
 * a standby takes over (it cannot read the layers the master kept, so
 * it routes anew, ta_route_adopt()), then router second fails too.  The
 * standby's routing of that failure reaches over its layers and
 * rewrites at most four times the LFT blocks that hold a route through
 * the router on its own tables (which every routing rewrites): the
 * master's tables it read at the takeover are no home its displaced
 * routes return to.
 */
static void layered_takeover_failure(unsigned first, unsigned second)
{
	struct topo t;
	struct ta_graph *full, *g1, *g2;
	struct memory m, sb;
	struct ta_result up, down, a, next;
	uint64_t moved, through;
	uint32_t s, d;

	opt_vls = 3;
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 19), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	g1 = topo_to_graph_without(&t, first);
	g2 = topo_to_graph_without2(&t, first, second);
	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(g1);
	ck_assert_ptr_nonnull(g2);
	memory_init(&m);
	route(&m, full, &up);
	route(&m, g1, &down);
	take_over(&sb, g1, &down, &a);
	route(&sb, g2, &next);
	ck_assert_ptr_nonnull(next.layer);
	for (s = 0; s < g2->n_sw; s++)
		for (d = 0; d < g2->n_dest; d++)
			ck_assert(walked_mask(g2, &next, s, d) >>
					  next.layer[(size_t)s * g2->n_dest + d] &
				  1u);
	moved = blocks_differ(g1, &a, g2, &next);
	through = blocks_through(g1, &a, g2);
	ck_assert_uint_gt(through, 0);
	ck_assert_msg(moved <= 4 * through,
		      "dragonfly 6 3 3 19, vls 3, router %u down, takeover, router %u down: %llu LFT blocks rewritten where %llu hold a route through it",
		      first, second, (unsigned long long)moved,
		      (unsigned long long)through);
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&a);
	ta_result_free(&next);
	memory_free(&m);
	memory_free(&sb);
	opt_vls = 1;
	ta_graph_free(full);
	ta_graph_free(g1);
	ta_graph_free(g2);
	topo_free(&t);
}

START_TEST(layered_takeover_then_failure)
{
	layered_takeover_failure(13, 42);
	layered_takeover_failure(42, 13);
	layered_takeover_failure(5, 77);
}
END_TEST

START_TEST(takeover_keeps_layers)
{
	takeover_layers(TOPO_KEEP_ALL);
	takeover_layers(13);
	takeover_layers(42);
}
END_TEST

/*
 * Routes over three layers on a dragonfly: after a router fails and
 * comes back, the routing to return to is reinstated with its layers,
 * so every path has its bring-up's port and layer (SL) again.
 */
/*
 * Three layers, a switch down and back: the restore reinstates the
 * bring-up's routing whole (every port and every path's layer), both
 * where layered routes were taken (layered: turn_layers kept) and where
 * every path stayed on layer 0 (a tree-like fabric: no turn_layers).
 */
static void restore_reinstates(struct topo *t, unsigned gone, int layered,
			       const char *what)
{
	struct ta_graph *full, *less;
	struct memory m;
	struct ta_result up, down, back;
	size_t n;

	opt_vls = 3;
	full = topo_to_graph_without(t, TOPO_KEEP_ALL);
	less = topo_to_graph_without(t, gone);
	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(less);
	n = (size_t)full->n_sw * full->n_dest;
	memory_init(&m);
	route(&m, full, &up);
	ck_assert_int_eq(up.stats.layers_used, layered);
	ck_assert_ptr_nonnull(up.layer);
	ck_assert_msg(!up.turn_layers == !layered,
		      "%s: layered routes %s", what,
		      layered ? "not taken" : "taken");
	route(&m, less, &down);
	route(&m, full, &back);
	ck_assert_msg(back.stats.reinstated == 1,
		      "%s: the restore does not reinstate the bring-up", what);
	ck_assert_ptr_nonnull(back.layer);
	ck_assert_int_eq(back.stats.layers_used, layered);
	ck_assert(!memcmp(back.port, up.port, n));
	ck_assert_msg(!memcmp(back.layer, up.layer, n),
		      "%s: a path's layer differs from the bring-up's", what);
	opt_vls = 1;
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&back);
	memory_free(&m);
	ta_graph_free(full);
	ta_graph_free(less);
}

START_TEST(restore_keeps_layers)
{
	struct topo t;

	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	restore_reinstates(&t, 4, 1, "dragonfly 4 2 2, router 4");
	topo_free(&t);
	ck_assert_int_eq(topo_fattree2(&t, 8, 4, 4, 1), 0);
	restore_reinstates(&t, 9, 0, "fattree2 8 4 4 1, a spine");
	topo_free(&t);
	ck_assert_int_eq(topo_dfplus(&t, 7, 3, 3, 3, 1), 0);
	restore_reinstates(&t, 4, 0, "dfplus 7 3 3 3, a spine");
	topo_free(&t);
}
END_TEST

/*
 * Three layers on dragonfly 4 2 2, one router after another fails
 * (where minimal change falls short of the routing from scratch):
 * where the routing from scratch is taken and paths change layer, it
 * is made again with the previous layers' turns first and taken where
 * as good, so no more paths change layer than the routing from scratch
 * alone would change, fewer on some failure; there a path changes its
 * layer only where its previous layer does not allow its new route,
 * and every layer stays acyclic.
 */
START_TEST(failure_prior_layers)
{
	struct topo t;
	struct ta_graph *full;
	uint32_t gone, fewer = 0, fresh = 0;

	opt_vls = 3;
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	ck_assert_ptr_nonnull(full);
	for (gone = 0; gone < 6; gone++) {
		struct ta_graph *less = topo_to_graph_without(&t, gone * 4);
		struct memory m;
		struct ta_result up, down;
		uint32_t s, d, fs, fd, i;

		ck_assert_ptr_nonnull(less);
		memory_init(&m);
		route(&m, full, &up);
		route(&m, less, &down);
		ck_assert_int_eq(up.stats.layers_used, 1);
		ck_assert_uint_le(down.stats.layer_changes,
				  down.stats.layer_changes_fresh);
		fresh += down.stats.restore_fresh;
		fewer += down.stats.layer_changes <
			 down.stats.layer_changes_fresh;
		for (i = 0; down.turn_layers && i < 3; i++)
			ck_assert_int_eq(ta_layers_cyclic(less, down.turn_layers,
							  i), 0);
		for (s = 0; down.stats.restore_fresh && down.turn_layers &&
			    s < less->n_sw;
		     s++) {
			for (fs = 0; full->sw[fs].guid != less->sw[s].guid;
			     fs++)
				;
			for (d = 0; d < less->n_dest; d++) {
				uint8_t was, now;

				for (fd = 0;
				     full->dest[fd].lid != less->dest[d].lid;
				     fd++)
					;
				was = up.layer[(size_t)fs * full->n_dest + fd];
				now = down.layer[(size_t)s * less->n_dest + d];
				if (was != now)
					ck_assert(!(walked_mask(less, &down, s,
								d) >> was & 1u));
			}
		}
		ta_result_free(&up);
		ta_result_free(&down);
		memory_free(&m);
		ta_graph_free(less);
	}
	ck_assert_uint_gt(fresh, 0);
	ck_assert_uint_gt(fewer, 0);
	opt_vls = 1;
	ta_graph_free(full);
	topo_free(&t);
}
END_TEST

/* every port and every path's layer of a and b equal */
static void same_paths(const struct ta_graph *g, const struct ta_result *a,
		       const struct ta_result *b, const char *what)
{
	size_t n = (size_t)g->n_sw * g->n_dest, k;
	uint64_t ports = 0, layers = 0;

	for (k = 0; k < n; k++) {
		ports += a->port[k] != b->port[k];
		layers += a->layer && b->layer && a->layer[k] != b->layer[k];
	}
	ck_assert_msg(!ports && !layers && !a->layer == !b->layer,
		      "%s: %llu ports and %llu paths' layers differ", what,
		      (unsigned long long)ports, (unsigned long long)layers);
}

static void routes_sound(const struct ta_graph *g, const struct ta_result *r,
			 const char *what)
{
	unsigned l;

	if (!r->layer) {
		assert_routes_good(g, r, what);
		return;
	}
	ck_assert_uint_eq(r->stats.unreachable, 0);
	for (l = 0; l < opt_vls; l++)
		ck_assert_msg(!ta_layers_cyclic(g, r->turn_layers, l),
			      "%s: layer %u cyclic", what, l);
}

/*
 * Off fat trees, a restore to a fabric still missing parts is routed
 * as a failure of those parts from the routing to return to: switches
 * a and b down one after the other, then a back, gets the routes (and
 * layers) that b down alone gets (another memory); a down again, then
 * b back, gets a's failure routing back.
 */
static void partial_restore(struct topo *t, unsigned vls, unsigned a,
			    unsigned b, const char *what)
{
	struct ta_graph *full = topo_to_graph_without(t, TOPO_KEEP_ALL);
	struct ta_graph *ga = topo_to_graph_without(t, a);
	struct ta_graph *gb = topo_to_graph_without(t, b);
	struct ta_graph *gab = topo_to_graph_without2(t, a, b);
	struct ta_result r[6], alone[2];
	struct memory m, m2;
	unsigned i;

	ck_assert(full && ga && gb && gab);
	opt_vls = vls;
	memory_init(&m);
	memory_init(&m2);
	route(&m, full, &r[0]);
	route(&m, ga, &r[1]);
	route(&m, gab, &r[2]);
	route(&m, gb, &r[3]);	/* a back */
	route(&m, gab, &r[4]);
	route(&m, ga, &r[5]);	/* b back */
	route(&m2, full, &alone[0]);
	route(&m2, gb, &alone[1]);
	routes_sound(gb, &r[3], what);
	routes_sound(ga, &r[5], what);
	same_paths(gb, &r[3], &alone[1], what);
	same_paths(ga, &r[5], &r[1], what);
	for (i = 0; i < 6; i++)
		ta_result_free(&r[i]);
	ta_result_free(&alone[0]);
	ta_result_free(&alone[1]);
	memory_free(&m);
	memory_free(&m2);
	ta_graph_free(full);
	ta_graph_free(ga);
	ta_graph_free(gb);
	ta_graph_free(gab);
	opt_vls = 1;
}

START_TEST(partial_restore_from_home)
{
	struct topo t;

	ck_assert_int_eq(topo_random(&t, 20, 8, 2, 3), 0);
	partial_restore(&t, 1, 4, 11, "random 20, switches 4 and 11");
	topo_free(&t);
	ck_assert_int_eq(topo_mesh(&t, 5, 5, 2, 1), 0);
	partial_restore(&t, 1, 6, 12, "torus 5x5, switches 6 and 12");
	topo_free(&t);
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 0), 0);
	partial_restore(&t, 2, 13, 33, "dragonfly 6 3 3, vls 2, 13 and 33");
	topo_free(&t);
}
END_TEST

/* 1 if r's route from s to d on g visits switch x */
static int route_visits(const struct ta_graph *g, const struct ta_result *r,
			uint32_t s, uint32_t d, uint32_t x)
{
	uint32_t hops, j;

	for (hops = 0; s != g->dest[d].sw && hops <= g->n_sw; hops++) {
		if (s == x)
			return 1;
		j = ta_graph_end_of_port(g, s, ta_result_port(r, s, d));
		ck_assert_uint_ne(j, UINT32_MAX);
		s = g->sw[s].ends[j].peer;
	}
	return s == x;
}

/*
 * Two layers on dragonfly 5 2 3, routed with Turn-Prohibition's
 * least-traffic order alone (tp_orders 1), where router 7's failure
 * takes a routing from scratch; a later failure (router 2) keeps most
 * of its paths whole (their port and layer), judged on the latest
 * routes, not the bring-up's.
 */
START_TEST(failure_after_fresh_keeps_layers)
{
	struct topo t;
	struct ta_graph *g[3];
	struct ta_result r[3];

	opt_vls = 2;
	opt_orders = 1;
	ck_assert_int_eq(topo_dragonfly(&t, 5, 2, 3, 0), 0);
	g[0] = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	g[1] = topo_to_graph_without(&t, 7);
	g[2] = topo_to_graph_without2(&t, 7, 2);
	route_series_kept(g, r, 3, "router 2 down after a routing from scratch");
	ck_assert_int_eq(r[1].stats.restore_fresh, 1);
	free_series(g, r, 3);
	topo_free(&t);
	opt_vls = 1;
	opt_orders = 0;
}
END_TEST

/*
 * 1 if every turn r's routes take is allowed in r's turn decisions (so
 * the multicast trees over those turns stay acyclic with them)
 */
static int turns_allowed(const struct ta_graph *g, const struct ta_result *r)
{
	uint32_t s, d, t, j, in, hops;

	for (d = 0; d < g->n_dest; d++)
		for (s = 0; s < g->n_sw; s++) {
			in = UINT32_MAX;
			for (t = s, hops = 0;
			     t != g->dest[d].sw && hops <= g->n_sw; hops++) {
				j = ta_graph_end_of_port(g, t,
							 ta_result_port(r, t, d));
				if (j == UINT32_MAX)
					return 0;
				if (in != UINT32_MAX &&
				    r->turn_state[ta_turn(g, t, in, j)] !=
					    TA_TURN_ALLOWED)
					return 0;
				in = ta_graph_far_end(g, t, j);
				t = g->sw[t].ends[j].peer;
			}
		}
	return 1;
}

/*
 * Option failure_routes nexthop, switch gone down: every pair reaches
 * over acyclic turns, and an entry whose bring-up route to its
 * destination does not cross the failed switch keeps its port (walked
 * here on the bring-up's routes); fewer entries change than with
 * minimal change.
 */
static void nexthop_failure(struct topo *t, unsigned gone, const char *what)
{
	struct ta_graph *full = topo_to_graph_without(t, TOPO_KEEP_ALL);
	struct ta_graph *less = topo_to_graph_without(t, gone);
	struct ta_result up, down, plain;
	struct memory m, m2;
	uint64_t moved = 0, moved_plain = 0;
	uint32_t s, d, fs, fd, x = 0;

	ck_assert(full && less);
	for (x = 0; x < full->n_sw &&
		    switch_of(less, full->sw[x].guid) < less->n_sw; x++)
		;
	ck_assert_uint_lt(x, full->n_sw);
	opt_nexthop = 1;
	memory_init(&m);
	route(&m, full, &up);
	route(&m, less, &down);
	opt_nexthop = 0;
	memory_init(&m2);
	route(&m2, full, &plain);
	ta_result_free(&plain);
	{
		struct ta_prior_buf pb;
		struct ta_options o;

		options(&o);
		o.failure_compare = false;
		ck_assert_int_eq(ta_saved_prior(&m2.sv, less, &pb), 0);
		ck_assert_int_eq(ta_route_prior(less, &o, &pb.prior, NULL,
						&plain), 0);
		ta_prior_buf_free(&pb);
		ta_options_clear(&o);
	}
	assert_routes_good(less, &down, what);
	ck_assert_msg(turns_allowed(less, &down),
		      "%s: a route takes a turn its routing prohibits", what);
	ck_assert_int_eq(turns_cyclic(less, down.turn_state), 0);
	for (s = 0; s < less->n_sw; s++) {
		fs = switch_of(full, less->sw[s].guid);
		for (d = 0; d < less->n_dest; d++) {
			uint8_t was;

			fd = dest_of(full, less->dest[d].lid);
			ck_assert_uint_lt(fd, full->n_dest);
			was = ta_result_port(&up, fs, fd);
			moved += ta_result_port(&down, s, d) != was;
			moved_plain += ta_result_port(&plain, s, d) != was;
			if (!route_visits(full, &up, fs, fd, x))
				ck_assert_msg(ta_result_port(&down, s, d) == was,
					      "%s: switch %u towards LID %u moved, though its route did not cross the failed switch",
					      what, s, less->dest[d].lid);
		}
	}
	ck_assert_msg(moved < moved_plain,
		      "%s: %llu entries change, minimal change %llu", what,
		      (unsigned long long)moved,
		      (unsigned long long)moved_plain);
	ta_result_free(&up);
	ta_result_free(&down);
	ta_result_free(&plain);
	memory_free(&m);
	memory_free(&m2);
	ta_graph_free(full);
	ta_graph_free(less);
}

/*
 * Two joined fat trees (ft3join 4 middle), a switch down, a standby
 * takes over (the routing to return to: the tables it adopted), then a
 * second switch: the failure is compared with a routing from scratch
 * and its busiest channel stays within 2 % of that routing's.  Held to
 * the adopted tables instead (within 2 % of them is no worse than
 * before the failure) it stays far above: switch 0 then 20, minimal
 * change 74 against 60 from scratch; switch 8 then 6, the next-hop
 * repair relieved down to the adopted tables' busiest channel, 110
 * against 88.
 */
START_TEST(failure_after_takeover_not_held)
{
	static const unsigned pair[][2] = {
		{ 0, 20 }, { 2, 6 }, { 8, 6 }, { 8, 7 },
	};
	struct topo t;
	struct ta_graph *full, *g1, *g2;
	struct ta_result up, r1, r2, a;
	struct memory m, sb;
	char what[64];
	unsigned i;

	ck_assert_int_eq(topo_ft3join(&t, 4, TOPO_JOIN_MIDDLE), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	ck_assert_ptr_nonnull(full);
	for (i = 0; i < sizeof(pair) / sizeof(pair[0]); i++) {
		g1 = topo_to_graph_without(&t, pair[i][0]);
		g2 = topo_to_graph_without2(&t, pair[i][0], pair[i][1]);
		ck_assert_ptr_nonnull(g1);
		ck_assert_ptr_nonnull(g2);
		memory_init(&m);
		route(&m, full, &up);
		route(&m, g1, &r1);
		take_over(&sb, g1, &r1, &a);
		route(&sb, g2, &r2);
		assert_routes_good(g2, &r2, "after the takeover");
		snprintf(what, sizeof(what),
			 "switch %u, a takeover, switch %u", pair[i][0],
			 pair[i][1]);
		near_scratch(g2, &r2, what);
		ta_result_free(&up);
		ta_result_free(&r1);
		ta_result_free(&r2);
		ta_result_free(&a);
		memory_free(&m);
		memory_free(&sb);
		ta_graph_free(g1);
		ta_graph_free(g2);
	}
	ta_graph_free(full);
	topo_free(&t);
}
END_TEST

/*
 * The same fabric, switches 0 and 1 down, a standby takes over, switch
 * 1 comes back (the standby's routing of the fabric without switch 0
 * becomes its routing to return to: it never saw switch 0), then
 * switch 21 fails: compared with a routing from scratch, within 2 %
 * of it; held within 2 % of that routing to return to it would keep
 * 68 on the busiest channel against 60.
 */
START_TEST(failure_after_takeover_relink_not_held)
{
	struct topo t;
	struct ta_graph *full, *g0, *g01, *g021;
	struct ta_result up, r1, r2, a, rb, rc;
	struct memory m, sb;

	ck_assert_int_eq(topo_ft3join(&t, 4, TOPO_JOIN_MIDDLE), 0);
	full = topo_to_graph_without(&t, TOPO_KEEP_ALL);
	g0 = topo_to_graph_without(&t, 0);
	g01 = topo_to_graph_without2(&t, 0, 1);
	g021 = topo_to_graph_without2(&t, 0, 21);
	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(g0);
	ck_assert_ptr_nonnull(g01);
	ck_assert_ptr_nonnull(g021);
	memory_init(&m);
	route(&m, full, &up);
	route(&m, g0, &r1);
	route(&m, g01, &r2);
	take_over(&sb, g01, &r2, &a);
	route(&sb, g0, &rb);
	route(&sb, g021, &rc);
	assert_routes_good(g021, &rc, "switch 21 down");
	near_scratch(g021, &rc,
		     "switch 21 down after the takeover and a relink");
	ta_result_free(&up);
	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_result_free(&a);
	ta_result_free(&rb);
	ta_result_free(&rc);
	memory_free(&m);
	memory_free(&sb);
	ta_graph_free(full);
	ta_graph_free(g0);
	ta_graph_free(g01);
	ta_graph_free(g021);
	topo_free(&t);
}
END_TEST

START_TEST(failure_nexthop)
{
	struct topo t;

	ck_assert_int_eq(topo_dfplus(&t, 9, 4, 4, 4, 1), 0);
	nexthop_failure(&t, 5, "dfplus 9 4 4 4, a spine");
	topo_free(&t);
	ck_assert_int_eq(topo_dragonfly(&t, 6, 3, 3, 0), 0);
	nexthop_failure(&t, 13, "dragonfly 6 3 3, router 13");
	topo_free(&t);
	ck_assert_int_eq(topo_random(&t, 30, 8, 2, 4), 0);
	nexthop_failure(&t, 7, "random 30, switch 7");
	topo_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("restore");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);

	tcase_add_test(tc, random_nets);
	tcase_add_test(tc, torus);
	tcase_add_test(tc, restore_without_home);
	tcase_add_test(tc, takeover_cyclic_tables);
	tcase_add_test(tc, failure_minimal_option);
	tcase_add_test(tc, minimal_change_by_load);
	tcase_add_test(tc, failure_held_to_bringup);
	tcase_add_test(tc, failure_repaired_by_load);
	tcase_add_test(tc, fat_tree_failures_in_a_row);
	tcase_add_test(tc, fat_tree_failure_after_takeover);
	tcase_add_test(tc, restore_keeps_layers);
	tcase_add_test(tc, failure_keeps_layers);
	tcase_add_test(tc, failure_holds_layers);
	tcase_add_test(tc, failure_relieves_layers);
	tcase_add_test(tc, failure_relieves_to_bringup);
	tcase_add_test(tc, failure_relieves_torus_layers);
	tcase_add_test(tc, later_failure_keeps_layers);
	tcase_add_test(tc, takeover_keeps_layers);
	tcase_add_test(tc, layered_takeover_then_failure);
	tcase_add_test(tc, failure_prior_layers);
	tcase_add_test(tc, partial_restore_from_home);
	tcase_add_test(tc, failure_nexthop);
	tcase_add_test(tc, failure_after_takeover_not_held);
	tcase_add_test(tc, failure_after_takeover_relink_not_held);
	tcase_add_test(tc, failure_after_fresh_keeps_layers);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
