// SPDX-License-Identifier: MIT
/*
 * Group-major LIDs on dragonflies (lid_assign/lid_df.c, README
 * "Group-major LIDs on dragonflies").  Fabrics come from topogen's
 * generators (ibsim_topos), possibly edited (a switch, a cable or hosts
 * left out); the checks use what the generator says: the group of a
 * switch is the "df<g>-" prefix of its name.
 *  - detection: dragonflies of several shapes (one and two global
 *    cables a group pair, fewer groups than A*H+1) found with the
 *    generator's groups, also with a router, a global cable, an
 *    in-group cable, a whole group or a router's hosts gone; HyperX
 *    (2-D, 3-D), tori, meshes, rings, random nets, fat trees (2- and
 *    3-level, joined), Dragonfly+ and a dragonfly of groups of 2 not;
 *    HyperX S x 2 (two cliques switch to switch) found, as decided;
 *  - layout: la_assign gives every group one LID range, disjoint, in
 *    group order; inside, hosts router by router (switch GUID, then
 *    port), then the switches; port-major on request;
 *  - stability: a resweep, a router gone and back, a global cable
 *    gone move no LID.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lid_df.h"
#include "lid_order.h"
#include "run_suite.h"
#include "topo.h"

struct net {
	struct topo t;
	unsigned char *gone;	/* [n_sw] switch left out */
	unsigned char *cut;	/* [n_links] cable left out */
	unsigned char *h_gone;	/* [n_hosts] host left out */
	uint16_t *old;		/* [n_hosts + n_sw] LIDs of the last run */
	/* the input built */
	struct la_input in;
	struct la_port *ports;
	uint64_t *guid;
	uint32_t *peers, *peer, *map, *port_of;	/* port_of: host, sw */
};

static struct net *net_new(int ret, struct topo *t)
{
	struct net *n = calloc(1, sizeof(*n));
	unsigned all;

	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(n);
	n->t = *t;
	all = t->n_hosts + t->n_sw;
	n->gone = calloc(t->n_sw + 1, 1);
	n->cut = calloc(t->n_links + 1, 1);
	n->h_gone = calloc(t->n_hosts + 1, 1);
	n->old = calloc(all + 1, sizeof(*n->old));
	n->ports = calloc(all + 1, sizeof(*n->ports));
	n->guid = calloc(t->n_sw + 1, sizeof(*n->guid));
	n->peers = calloc(t->n_sw + 1, sizeof(*n->peers));
	n->peer = calloc(2 * t->n_links + 1, sizeof(*n->peer));
	n->map = calloc(t->n_sw + 1, sizeof(*n->map));
	n->port_of = calloc(all + 1, sizeof(*n->port_of));
	ck_assert(n->gone && n->cut && n->h_gone && n->old && n->ports &&
		  n->guid && n->peers && n->peer && n->map && n->port_of);
	return n;
}

static void net_free(struct net *n)
{
	topo_free(&n->t);
	free(n->gone);
	free(n->cut);
	free(n->h_gone);
	free(n->old);
	free(n->ports);
	free(n->guid);
	free(n->peers);
	free(n->peer);
	free(n->map);
	free(n->port_of);
	free(n);
}

static struct net *dragonfly(unsigned a, unsigned h, unsigned p, unsigned g)
{
	struct topo t;

	return net_new(topo_dragonfly(&t, a, h, p, g), &t);
}

static unsigned sw_named(const struct net *n, const char *name)
{
	unsigned i;

	for (i = 0; i < n->t.n_sw; i++)
		if (!strcmp(n->t.sw_name[i], name))
			return i;
	ck_abort_msg("no switch %s", name);
	return 0;
}

/* leaves out every cable between switches a and b */
static void cut(struct net *n, const char *a, const char *b)
{
	unsigned x = sw_named(n, a), y = sw_named(n, b), i, k = 0;

	for (i = 0; i < n->t.n_links; i++) {
		const struct topo_link *l = &n->t.links[i];

		if ((l->a == x && l->b == y) || (l->a == y && l->b == x)) {
			n->cut[i] = 1;
			k++;
		}
	}
	ck_assert_uint_gt(k, 0);
}

/* the input from what is not gone, old LIDs from the last run */
static void build(struct net *n, enum la_layout_mode mode)
{
	const struct topo *t = &n->t;
	uint32_t i, k, s = 0, np = 0, at = 0;
	unsigned char *seen = calloc(t->n_sw + 1, 1);

	ck_assert_ptr_nonnull(seen);
	for (i = 0; i < t->n_sw; i++) {
		n->map[i] = UINT32_MAX;
		if (n->gone[i])
			continue;
		n->map[i] = s;
		n->guid[s++] = 0x200000u + i;
	}
	for (i = 0; i < t->n_sw; i++) {
		if (n->gone[i])
			continue;
		memset(seen, 0, t->n_sw);
		n->peers[n->map[i]] = 0;
		for (k = 0; k < t->n_links; k++) {
			const struct topo_link *l = &t->links[k];
			unsigned o = l->a == i ? l->b : l->b == i ? l->a :
				     UINT32_MAX;

			if (o == UINT32_MAX || n->cut[k] || n->gone[o] ||
			    seen[o])
				continue;
			seen[o] = 1;
			n->peer[at++] = n->map[o];
			n->peers[n->map[i]]++;
		}
		n->port_of[t->n_hosts + i] = np;
		n->ports[np++] = (struct la_port){
			.guid = 0x200000u + i, .kind = LA_SWITCH,
			.sw = n->map[i], .old_lid = n->old[t->n_hosts + i] };
	}
	for (i = 0; i < t->n_hosts; i++) {
		n->port_of[i] = UINT32_MAX;
		if (n->h_gone[i] || n->gone[t->hosts[i].sw])
			continue;
		n->port_of[i] = np;
		n->ports[np++] = (struct la_port){
			.guid = 0x100000u + i, .kind = LA_HOST,
			.sw = n->map[t->hosts[i].sw],
			.sw_port = (uint8_t)t->hosts[i].port,
			.old_lid = n->old[i] };
	}
	free(seen);
	memset(&n->in, 0, sizeof(n->in));
	n->in.n_sw = s;
	n->in.sw_guid = n->guid;
	n->in.sw_peers = n->peers;
	n->in.sw_peer = n->peer;
	n->in.n_ports = np;
	n->in.ports = n->ports;
	n->in.layout = mode;
}

static unsigned name_group(const struct net *n, unsigned i)
{
	unsigned g;

	ck_assert_int_eq(sscanf(n->t.sw_name[i], "df%u-", &g), 1);
	return g;
}

/* found, with the generator's groups */
static void check_found(struct net *n, unsigned groups, const char *what)
{
	struct la_dfly d;
	unsigned i, j;

	build(n, LA_LAYOUT_AUTO);
	ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
	ck_assert_msg(d.found, "%s: not found: %s", what, d.why);
	ck_assert(d.classic);
	ck_assert_uint_eq(d.n_groups, groups);
	for (i = 0; i < n->t.n_sw; i++)
		for (j = 0; j < n->t.n_sw; j++)
			if (!n->gone[i] && !n->gone[j])
				ck_assert_int_eq(
				    d.group[n->map[i]] == d.group[n->map[j]],
				    name_group(n, i) == name_group(n, j));
	la_dfly_free(&d);
}

START_TEST(test_shapes)
{
	static const unsigned shape[][4] = {
		{ 4, 2, 2, 0 }, { 6, 3, 3, 19 }, { 8, 4, 4, 0 },
		{ 4, 2, 2, 5 },		/* two cables a group pair */
		{ 3, 1, 2, 0 },		/* smallest groups */
		{ 8, 4, 4, 9 },		/* four cables a group pair */
		{ 6, 3, 4, 7 },
	};
	struct la_dfly d;
	struct net *n;
	unsigned k, g;

	for (k = 0; k < sizeof(shape) / sizeof(shape[0]); k++) {
		n = dragonfly(shape[k][0], shape[k][1], shape[k][2],
			      shape[k][3]);
		g = shape[k][3] ? shape[k][3] :
				  shape[k][0] * shape[k][1] + 1;
		check_found(n, g, "dragonfly");
		build(n, LA_LAYOUT_AUTO);
		ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
		ck_assert_uint_eq(d.leaves, g * shape[k][0]);
		ck_assert_uint_eq(d.largest, shape[k][0]);
		ck_assert_uint_eq(d.missing, 0);
		ck_assert_uint_eq(d.pairs_missing, 0);
		la_dfly_free(&d);
		build(n, LA_LAYOUT_PORT_MAJOR);
		ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
		ck_assert(!d.found);
		net_free(n);
	}
}
END_TEST

/* what a failure leaves is still the same dragonfly */
START_TEST(test_failures)
{
	struct net *n = dragonfly(6, 3, 3, 19);
	struct la_dfly d;
	unsigned i, r;

	n->gone[sw_named(n, "df3-s0")] = 1;		/* a router */
	check_found(n, 19, "router gone");
	cut(n, "df5-s1", "df5-s4");			/* an in-group cable */
	build(n, LA_LAYOUT_AUTO);
	ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
	ck_assert(d.found);
	ck_assert_uint_eq(d.missing, 1);
	ck_assert_uint_eq(d.pairs_missing, 3);	/* df3-s0's three */
	la_dfly_free(&d);
	cut(n, "df0-s0", "df1-s5");			/* a global cable */
	check_found(n, 19, "global cable gone");
	for (i = 0; i < n->t.n_sw; i++)			/* a whole group */
		if (name_group(n, i) == 7)
			n->gone[i] = 1;
	check_found(n, 18, "group gone");
	r = sw_named(n, "df2-s2");			/* a router's hosts */
	for (i = 0; i < n->t.n_hosts; i++)
		if (n->t.hosts[i].sw == r)
			n->h_gone[i] = 1;
	check_found(n, 18, "hosts gone");
	net_free(n);

	n = dragonfly(4, 2, 2, 0);	/* small groups: a router down */
	n->gone[sw_named(n, "df0-s1")] = 1;
	check_found(n, 9, "4 2 2, router gone");
	net_free(n);
}
END_TEST

static void check_not_found(int ret, struct topo *t, const char *what)
{
	struct net *n = net_new(ret, t);
	struct la_dfly d;

	build(n, LA_LAYOUT_AUTO);
	ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
	ck_assert_msg(!d.found, "%s taken for a dragonfly", what);
	ck_assert_ptr_nonnull(d.why);
	net_free(n);
}

START_TEST(test_look_alikes)
{
	unsigned s44[2] = { 4, 4 }, s333[3] = { 3, 3, 3 }, s35[2] = { 3, 5 };
	unsigned s52[2] = { 5, 2 };
	struct topo t;
	struct net *n;
	struct la_dfly d;
	unsigned seed;

	check_not_found(topo_hyperx(&t, 2, s44, 2), &t, "hyperx 4x4");
	check_not_found(topo_hyperx(&t, 3, s333, 1), &t, "hyperx 3x3x3");
	check_not_found(topo_hyperx(&t, 2, s35, 1), &t, "hyperx 3x5");
	check_not_found(topo_mesh(&t, 3, 4, 1, 1), &t, "torus 3x4");
	check_not_found(topo_mesh(&t, 3, 3, 1, 1), &t, "torus 3x3");
	check_not_found(topo_mesh(&t, 3, 7, 1, 1), &t, "torus 3x7");
	check_not_found(topo_mesh(&t, 4, 4, 1, 1), &t, "torus 4x4");
	check_not_found(topo_mesh(&t, 5, 5, 2, 0), &t, "mesh 5x5");
	check_not_found(topo_ring(&t, 8, 2), &t, "ring 8");
	check_not_found(topo_ring(&t, 3, 2), &t, "ring 3");
	for (seed = 1; seed <= 6; seed++) {
		check_not_found(topo_random(&t, 20, 10, 4, seed), &t,
				"random 20");
		check_not_found(topo_random(&t, 60, 10, 4, seed), &t,
				"random 60");
	}
	check_not_found(topo_random(&t, 30, 20, 2, 3), &t, "random dense");
	check_not_found(topo_fattree2(&t, 6, 3, 3, 1), &t, "fattree2 6 3 3");
	check_not_found(topo_fattree2(&t, 36, 18, 18, 1), &t,
			"fattree2 36 18 18");
	check_not_found(topo_fattree3(&t, 6, 4, 2, 4, 6), &t,
			"fattree3 6 4 2 4 6");
	check_not_found(topo_ft3join(&t, 4, TOPO_JOIN_TOP), &t, "ft3join top");
	check_not_found(topo_ft3join(&t, 4, TOPO_JOIN_MIDDLE), &t,
			"ft3join middle");
	check_not_found(topo_ft3join(&t, 8, TOPO_JOIN_BOTTOM), &t,
			"ft3join bottom");
	check_not_found(topo_dfplus(&t, 6, 4, 4, 4, 1), &t, "dfplus 6 4 4 4");
	check_not_found(topo_dragonfly(&t, 2, 2, 2, 0), &t,
			"dragonfly of groups of 2");

	/* two cliques joined switch to switch: a dragonfly of two groups */
	n = net_new(topo_hyperx(&t, 2, s52, 1), &t);
	build(n, LA_LAYOUT_AUTO);
	ck_assert_int_eq(la_df_detect(&n->in, &d), 0);
	ck_assert(d.found);
	ck_assert_uint_eq(d.n_groups, 2);
	ck_assert_uint_eq(d.largest, 5);
	la_dfly_free(&d);
	net_free(n);
}
END_TEST

/* runs la_assign; the LIDs become the next run's old LIDs */
static void assign(struct net *n, enum la_layout_mode mode,
		   struct la_result *r)
{
	unsigned i, all = n->t.n_hosts + n->t.n_sw;

	build(n, mode);
	ck_assert_int_eq(la_assign(&n->in, r), 0);
	ck_assert_uint_eq(r->failed, 0);
	for (i = 0; i < all; i++) {
		uint32_t p = i < n->t.n_hosts ? n->port_of[i] :
			     n->gone[i - n->t.n_hosts] ? UINT32_MAX :
			     n->port_of[i];

		if (p != UINT32_MAX)
			n->old[i] = n->ports[p].lid;
	}
}

/*
 * Group-major and router-major, judged from the LIDs: each group's
 * LIDs one run of its own (no other LID between its lowest and
 * highest), groups in ascending order of their first LID; inside a
 * group, hosts by (switch, port) ascending, then the switches.
 */
static void check_layout(struct net *n, unsigned groups)
{
	const struct topo *t = &n->t;
	unsigned *lo = calloc(groups, sizeof(*lo));
	unsigned *hi = calloc(groups, sizeof(*hi));
	unsigned i, j, g;

	ck_assert(lo && hi);
	for (g = 0; g < groups; g++)
		lo[g] = UINT32_MAX;
	for (i = 0; i < t->n_hosts + t->n_sw; i++) {
		unsigned sw = i < t->n_hosts ? t->hosts[i].sw :
					       i - t->n_hosts;

		if (n->gone[sw] || (i < t->n_hosts && n->h_gone[i]))
			continue;
		g = name_group(n, sw);
		if (n->old[i] < lo[g])
			lo[g] = n->old[i];
		if (n->old[i] > hi[g])
			hi[g] = n->old[i];
	}
	for (g = 0; g < groups; g++)
		for (j = 0; j < groups; j++)
			ck_assert(g == j || hi[g] < lo[j] || hi[j] < lo[g]);
	for (i = 0; i < t->n_hosts; i++)
		for (j = 0; j < t->n_hosts; j++) {
			unsigned a = t->hosts[i].sw, b = t->hosts[j].sw;

			if (name_group(n, a) != name_group(n, b) ||
			    (a == b && t->hosts[i].port == t->hosts[j].port))
				continue;
			if (a < b || (a == b &&
				      t->hosts[i].port < t->hosts[j].port))
				ck_assert_uint_lt(n->old[i], n->old[j]);
			ck_assert_uint_lt(n->old[i], n->old[t->n_hosts + b]);
		}
	free(lo);
	free(hi);
}

START_TEST(test_layout)
{
	struct net *n = dragonfly(6, 3, 3, 19);
	struct la_result r;
	uint16_t *before;
	unsigned all = n->t.n_hosts + n->t.n_sw, i;

	assign(n, LA_LAYOUT_GROUP_MAJOR, &r);
	ck_assert(r.group_major && r.dfly_classic);
	ck_assert_uint_eq(r.dfly_groups, 19);
	ck_assert_uint_eq(r.n_groups, 19);
	la_result_free(&r);
	check_layout(n, 19);
	before = malloc(all * sizeof(*before));
	ck_assert_ptr_nonnull(before);
	memcpy(before, n->old, all * sizeof(*before));
	assign(n, LA_LAYOUT_GROUP_MAJOR, &r);			/* resweep */
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	n->gone[sw_named(n, "df4-s2")] = 1;		/* a router fails */
	assign(n, LA_LAYOUT_GROUP_MAJOR, &r);
	ck_assert(r.dfly_classic);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	n->gone[sw_named(n, "df4-s2")] = 0;		/* and returns */
	cut(n, "df0-s0", "df1-s5");			/* a global cable */
	assign(n, LA_LAYOUT_GROUP_MAJOR, &r);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	ck_assert_mem_eq(before, n->old, all * sizeof(*before));
	for (i = 0; i < all; i++)			/* port-major asked */
		n->old[i] = 0;
	assign(n, LA_LAYOUT_PORT_MAJOR, &r);
	ck_assert(!r.group_major);
	la_result_free(&r);
	/* a classic dragonfly is group-major only when asked */
	assign(n, LA_LAYOUT_AUTO, &r);
	ck_assert(!r.group_major && !r.dfly_classic);
	la_result_free(&r);
	free(before);
	net_free(n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lid_df");
	TCase *tc = tcase_create("df");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_shapes);
	tcase_add_test(tc, test_failures);
	tcase_add_test(tc, test_look_alikes);
	tcase_add_test(tc, test_layout);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
