// SPDX-License-Identifier: MIT
/*
 * The HyperX, dragonfly and Dragonfly+ generators (ibsim_topos/), judged
 * by properties computed here from the names and the link list alone:
 * switch and host counts, every switch's degree, hosts on the lowest
 * ports, links per pair of switches and per pair of groups, HyperX
 * neighbours differing in exactly one coordinate, distances (BFS) and
 * connectivity; and bad arguments rejected.  Then turnadd on small
 * ones: every host pair reachable, no CDG cycle (route_verify.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "run_suite.h"
#include "ta_engine.h"
#include "topo.h"
#include "topo_graph.h"

/* Links between every two switches, counted: n x n, row-major. */
static unsigned *pair_counts(const struct topo *t)
{
	unsigned *c = calloc((size_t)t->n_sw * t->n_sw, sizeof(*c));
	unsigned i;

	ck_assert_ptr_nonnull(c);
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		ck_assert_uint_lt(l->a, t->n_sw);
		ck_assert_uint_lt(l->b, t->n_sw);
		ck_assert_uint_ne(l->a, l->b);
		c[(size_t)l->a * t->n_sw + l->b]++;
		c[(size_t)l->b * t->n_sw + l->a]++;
	}
	return c;
}

/* Largest BFS distance between two switches; ~0u if not connected. */
static unsigned switch_diameter(const struct topo *t, const unsigned *pc)
{
	unsigned n = t->n_sw, *dist = malloc(n * sizeof(*dist));
	unsigned *queue = malloc(n * sizeof(*queue));
	unsigned src, head, tail, u, v, diam = 0;

	ck_assert_ptr_nonnull(dist);
	ck_assert_ptr_nonnull(queue);
	for (src = 0; src < n && diam != ~0u; src++) {
		for (u = 0; u < n; u++)
			dist[u] = ~0u;
		dist[src] = 0;
		queue[0] = src;
		for (head = 0, tail = 1; head < tail; head++) {
			u = queue[head];
			for (v = 0; v < n; v++)
				if (pc[(size_t)u * n + v] && dist[v] == ~0u) {
					dist[v] = dist[u] + 1;
					queue[tail++] = v;
				}
		}
		for (u = 0; u < n; u++)
			if (dist[u] > diam)
				diam = dist[u];
	}
	free(queue);
	free(dist);
	return diam;
}

/*
 * What every generated net must be: valid, writable, hosts on ports
 * 1..hosts[s] of switch s (named "<switch>-h<port>"), links after them,
 * the declared port count max(36, used), and link ends as `degree` says.
 */
static void check_common(const struct topo *t, const unsigned *hosts,
			 const unsigned *degree)
{
	unsigned *nh = calloc(t->n_sw, sizeof(*nh));
	unsigned *used = calloc(t->n_sw, sizeof(*used));
	unsigned i, s;
	char name[300];
	FILE *f;

	ck_assert_ptr_nonnull(nh);
	ck_assert_ptr_nonnull(used);
	ck_assert_int_eq(topo_validate(t), 0);
	for (i = 0; i < t->n_hosts; i++) {
		s = t->hosts[i].sw;
		ck_assert_uint_lt(s, t->n_sw);
		ck_assert_uint_le(t->hosts[i].port, hosts[s]);
		snprintf(name, sizeof(name), "%s-h%u", t->sw_name[s],
			 t->hosts[i].port);
		ck_assert_str_eq(t->host_name[i], name);
		nh[s]++;
		if (t->hosts[i].port > used[s])
			used[s] = t->hosts[i].port;
	}
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		ck_assert_uint_gt(l->pa, hosts[l->a]);
		ck_assert_uint_gt(l->pb, hosts[l->b]);
		if (l->pa > used[l->a])
			used[l->a] = l->pa;
		if (l->pb > used[l->b])
			used[l->b] = l->pb;
	}
	for (s = 0; s < t->n_sw; s++) {
		ck_assert_uint_eq(nh[s], hosts[s]);
		ck_assert_uint_eq(topo_sw_link_ends(t, s), degree[s]);
		ck_assert_uint_eq(used[s], hosts[s] + degree[s]);
		ck_assert_uint_eq(t->sw_ports[s],
				  used[s] > 36 ? used[s] : 36);
	}
	ck_assert_int_eq(topo_connected(t), 1);
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(topo_write_ibsim(t, f), 0);
	fclose(f);
	free(used);
	free(nh);
}

/* ---- HyperX ---- */

/* "hx-<c0>-<c1>-..." -> coordinates; 0 if the name is that with dims */
static int hx_parse(const char *name, unsigned dims, unsigned *c)
{
	const char *p = name;
	unsigned d;
	char *end;

	if (strncmp(p, "hx", 2))
		return -1;
	p += 2;
	for (d = 0; d < dims; d++) {
		if (*p != '-' || p[1] < '0' || p[1] > '9')
			return -1;
		c[d] = (unsigned)strtoul(p + 1, &end, 10);
		p = end;
	}
	return *p ? -1 : 0;
}

static void check_hyperx(unsigned dims, const unsigned *size, unsigned h)
{
	unsigned n = 1, deg = 0, d, s, i, diff, *hosts, *degree, *pc;
	unsigned (*coord)[TOPO_HYPERX_MAX_DIMS];
	struct topo t;

	for (d = 0; d < dims; d++) {
		n *= size[d];
		deg += size[d] - 1;
	}
	ck_assert_int_eq(topo_hyperx(&t, dims, size, h), 0);
	ck_assert_uint_eq(t.n_sw, n);
	ck_assert_uint_eq(t.n_hosts, n * h);
	ck_assert_uint_eq(t.n_links, n * deg / 2);
	hosts = calloc(n, sizeof(*hosts));
	degree = calloc(n, sizeof(*degree));
	coord = malloc(n * sizeof(*coord));
	ck_assert(hosts && degree && coord);
	for (s = 0; s < n; s++) {
		hosts[s] = h;
		degree[s] = deg;
		ck_assert_msg(!hx_parse(t.sw_name[s], dims, coord[s]),
			      "name %s", t.sw_name[s]);
		for (d = 0; d < dims; d++)
			ck_assert_uint_lt(coord[s][d], size[d]);
	}
	check_common(&t, hosts, degree);
	/* neighbours differ in exactly one coordinate, once each */
	for (i = 0; i < t.n_links; i++) {
		const struct topo_link *l = &t.links[i];

		for (diff = 0, d = 0; d < dims; d++)
			diff += coord[l->a][d] != coord[l->b][d];
		ck_assert_msg(diff == 1, "%s - %s", t.sw_name[l->a],
			      t.sw_name[l->b]);
	}
	pc = pair_counts(&t);
	for (i = 0; i < n * n; i++)
		ck_assert_uint_le(pc[i], 1);
	/* with degree sum(S - 1) and no repeats: all of them; diameter D */
	ck_assert_uint_eq(switch_diameter(&t, pc), dims);
	free(pc);
	free(coord);
	free(degree);
	free(hosts);
	topo_free(&t);
}

START_TEST(hyperx_shapes)
{
	static const unsigned s44[] = { 4, 4 }, s432[] = { 4, 3, 2 },
		s5[] = { 5 }, s2222[] = { 2, 2, 2, 2, 2 }, s333[] = { 3, 3, 3 };

	check_hyperx(2, s44, 2);	/* topogen hyperx 2 4 2 */
	check_hyperx(3, s432, 1);	/* topogen hyperx 4x3x2 1 */
	check_hyperx(1, s5, 3);		/* a complete graph */
	check_hyperx(5, s2222, 1);	/* a hypercube */
	check_hyperx(3, s333, 0);
}
END_TEST

/* ---- dragonfly ---- */

/* "df<g>-s<i>" -> g, i */
static void df_parse(const char *name, unsigned *g, unsigned *i)
{
	int end = -1;

	ck_assert_msg(sscanf(name, "df%u-s%u%n", g, i, &end) == 2 &&
		      end == (int)strlen(name), "name %s", name);
}

static void check_dragonfly(unsigned a, unsigned h, unsigned p, unsigned g)
{
	unsigned groups = g ? g : a * h + 1, n = a * groups, ah = a * h;
	unsigned rounds = ah / (groups - 1), extra = ah % (groups - 1);
	unsigned *grp, *idx, *hosts, *degree, *pc, *gg, *glob, s, u, i;
	unsigned free_ports = 0, pairs_more = 0;
	struct topo t;

	ck_assert_int_eq(topo_dragonfly(&t, a, h, p, g), 0);
	ck_assert_uint_eq(t.n_sw, n);
	ck_assert_uint_eq(t.n_hosts, n * p);
	grp = malloc(n * sizeof(*grp));
	idx = malloc(n * sizeof(*idx));
	hosts = calloc(n, sizeof(*hosts));
	degree = calloc(n, sizeof(*degree));
	glob = calloc(n, sizeof(*glob));
	gg = calloc((size_t)groups * groups, sizeof(*gg));
	ck_assert(grp && idx && hosts && degree && glob && gg);
	for (s = 0; s < n; s++)
		df_parse(t.sw_name[s], &grp[s], &idx[s]);
	pc = pair_counts(&t);
	for (s = 0; s < n; s++) {
		ck_assert_uint_lt(grp[s], groups);
		ck_assert_uint_lt(idx[s], a);
		for (u = 0; u < n; u++) {
			if (u == s)
				continue;
			if (grp[u] == grp[s]) {
				/* all to all inside the group, once */
				ck_assert_uint_eq(pc[(size_t)s * n + u], 1);
				continue;
			}
			glob[s] += pc[(size_t)s * n + u];
			gg[grp[s] * groups + grp[u]] += pc[(size_t)s * n + u];
		}
		ck_assert_uint_le(glob[s], h);
		free_ports += h - glob[s];
		hosts[s] = p;
		degree[s] = a - 1 + glob[s];
	}
	/* at most one free global port, only when the ports are odd */
	ck_assert_uint_eq(free_ports, (groups * ah) % 2);
	/* R or R + 1 links between every two groups */
	for (s = 0; s < groups; s++)
		for (u = 0; u < groups; u++) {
			if (s == u)
				continue;
			ck_assert_uint_eq(gg[s * groups + u],
					  gg[u * groups + s]);
			ck_assert_uint_ge(gg[s * groups + u], rounds);
			ck_assert_uint_le(gg[s * groups + u], rounds + 1);
			pairs_more += gg[s * groups + u] > rounds;
		}
	if (!extra)	/* balanced: exactly A*H / (G - 1) a pair */
		ck_assert_uint_eq(pairs_more, 0);
	check_common(&t, hosts, degree);
	/* balanced (one link a pair): local, global, local at most */
	if (groups == ah + 1)
		ck_assert_uint_le(switch_diameter(&t, pc), a > 1 ? 3 : 1);
	for (i = 0; i < t.n_links; i++)
		ck_assert_uint_le(t.links[i].pa, p + a - 1 + h);
	free(gg);
	free(glob);
	free(pc);
	free(degree);
	free(hosts);
	free(idx);
	free(grp);
	topo_free(&t);
}

START_TEST(dragonfly_balanced)
{
	check_dragonfly(4, 2, 2, 0);	/* 9 groups, 36 switches */
	check_dragonfly(2, 1, 1, 0);
	check_dragonfly(3, 2, 1, 0);
	check_dragonfly(1, 3, 2, 0);	/* one switch a group */
	check_dragonfly(6, 3, 3, 19);	/* G given = A*H + 1 */
}
END_TEST

START_TEST(dragonfly_fewer_groups)
{
	check_dragonfly(4, 2, 2, 5);	/* 2 links a pair */
	check_dragonfly(4, 2, 2, 2);	/* 8 links between the two */
	check_dragonfly(3, 3, 1, 7);	/* 1 or 2, one port free */
	check_dragonfly(3, 1, 1, 3);	/* one port free */
	check_dragonfly(2, 2, 1, 4);	/* q odd, G even */
	check_dragonfly(4, 2, 2, 6);	/* q = 3, G even */
	check_dragonfly(4, 3, 1, 8);	/* q = 5, G even */
	check_dragonfly(5, 3, 1, 9);	/* q = 7, G odd, 45 * 3 odd */
}
END_TEST

/* ---- Dragonfly+ ---- */

/* "dfp<g>-leaf<i>" (role 0) or "dfp<g>-spine<i>" (role 1) */
static void dfp_parse(const char *name, unsigned *g, unsigned *role,
		      unsigned *i)
{
	int end = -1;

	if (sscanf(name, "dfp%u-leaf%u%n", g, i, &end) == 2 &&
	    end == (int)strlen(name)) {
		*role = 0;
		return;
	}
	end = -1;
	ck_assert_msg(sscanf(name, "dfp%u-spine%u%n", g, i, &end) == 2 &&
		      end == (int)strlen(name), "name %s", name);
	*role = 1;
}

static void check_dfplus(unsigned groups, unsigned leaves, unsigned spines,
			 unsigned h, unsigned per_pair)
{
	unsigned n = groups * (leaves + spines), per_group;
	unsigned *grp, *role, *idx, *hosts, *degree, *pc, *gg, *glob;
	unsigned s, u, c, lo, hi, sum;
	struct topo t;

	per_group = (groups - 1) * per_pair;
	ck_assert_int_eq(topo_dfplus(&t, groups, leaves, spines, h, per_pair),
			 0);
	ck_assert_uint_eq(t.n_sw, n);
	ck_assert_uint_eq(t.n_hosts, groups * leaves * h);
	ck_assert_uint_eq(t.n_links, groups * leaves * spines +
				     groups * per_group / 2);
	grp = malloc(n * sizeof(*grp));
	role = malloc(n * sizeof(*role));
	idx = malloc(n * sizeof(*idx));
	hosts = calloc(n, sizeof(*hosts));
	degree = calloc(n, sizeof(*degree));
	glob = calloc(n, sizeof(*glob));
	gg = calloc((size_t)groups * groups, sizeof(*gg));
	ck_assert(grp && role && idx && hosts && degree && glob && gg);
	for (s = 0; s < n; s++)
		dfp_parse(t.sw_name[s], &grp[s], &role[s], &idx[s]);
	pc = pair_counts(&t);
	for (s = 0; s < n; s++) {
		ck_assert_uint_lt(grp[s], groups);
		ck_assert_uint_lt(idx[s], role[s] ? spines : leaves);
		for (u = 0; u < n; u++) {
			c = pc[(size_t)s * n + u];
			if (grp[u] == grp[s]) {
				/* leaf - spine once, nothing else */
				ck_assert_uint_eq(c, role[s] != role[u]);
				continue;
			}
			/* between groups: spine to spine only */
			if (c)
				ck_assert(role[s] && role[u]);
			glob[s] += c;
			gg[grp[s] * groups + grp[u]] += c;
		}
		hosts[s] = role[s] ? 0 : h;
		degree[s] = role[s] ? leaves + glob[s] : spines;
	}
	/* GLOBAL_PER_PAIR links between every two groups */
	for (s = 0; s < groups; s++)
		for (u = 0; u < groups; u++)
			if (s != u)
				ck_assert_uint_eq(gg[s * groups + u],
						  per_pair);
	/* the spines of a group share its global links evenly */
	for (c = 0; c < groups; c++) {
		lo = ~0u;
		hi = sum = 0;
		for (s = 0; s < n; s++) {
			if (grp[s] != c || !role[s])
				continue;
			lo = glob[s] < lo ? glob[s] : lo;
			hi = glob[s] > hi ? glob[s] : hi;
			sum += glob[s];
		}
		ck_assert_uint_eq(sum, per_group);
		ck_assert_uint_le(hi - lo, 1);
	}
	check_common(&t, hosts, degree);
	/* leaf, spine, (global,) spine, leaf: switches at most 5 apart */
	ck_assert_uint_le(switch_diameter(&t, pc), 5);
	free(gg);
	free(glob);
	free(pc);
	free(degree);
	free(hosts);
	free(idx);
	free(role);
	free(grp);
	topo_free(&t);
}

START_TEST(dfplus_shapes)
{
	check_dfplus(5, 4, 4, 4, 1);	/* topogen dfplus 5 4 4 4 */
	check_dfplus(6, 2, 4, 2, 3);	/* 15 globals on 4 spines */
	check_dfplus(3, 2, 3, 1, 2);
	check_dfplus(9, 3, 2, 2, 1);	/* 8 globals on 2 spines */
	check_dfplus(2, 1, 1, 0, 4);	/* 4 parallel global links */
	check_dfplus(4, 3, 5, 2, 1);	/* fewer globals than spines */
}
END_TEST

START_TEST(bad_arguments)
{
	static const unsigned s41[] = { 4, 1 }, s200[] = { 200, 200 },
		s255[] = { 255 }, s256[] = { 256 };
	unsigned s17[TOPO_HYPERX_MAX_DIMS + 1], d;
	struct topo t;

	for (d = 0; d <= TOPO_HYPERX_MAX_DIMS; d++)
		s17[d] = 2;
	ck_assert_int_eq(topo_hyperx(&t, 2, s41, 1), -1);
	ck_assert_uint_eq(t.n_sw, 0);
	ck_assert_int_eq(topo_hyperx(&t, 0, s41, 1), -1);
	ck_assert_int_eq(topo_hyperx(&t, 2, s200, 0), -1);	/* 398 ports */
	ck_assert_int_eq(topo_hyperx(&t, TOPO_HYPERX_MAX_DIMS + 1, s17, 1),
			 -1);
	ck_assert_int_eq(topo_hyperx(&t, 1, s256, 0), -1);	/* 255 */
	ck_assert_int_eq(topo_hyperx(&t, 1, s255, 0), 0);	/* 254 */
	ck_assert_uint_eq(t.sw_ports[0], 254);
	topo_free(&t);
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 10), -1);	/* G > AH+1 */
	ck_assert_uint_eq(t.n_sw, 0);
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 1), -1);
	ck_assert_int_eq(topo_dragonfly(&t, 0, 2, 2, 0), -1);
	ck_assert_int_eq(topo_dragonfly(&t, 4, 0, 2, 0), -1);
	ck_assert_int_eq(topo_dragonfly(&t, 100, 100, 100, 2), -1); /* ports */
	ck_assert_int_eq(topo_dfplus(&t, 1, 2, 2, 2, 1), -1);
	ck_assert_int_eq(topo_dfplus(&t, 3, 0, 2, 2, 1), -1);
	ck_assert_int_eq(topo_dfplus(&t, 3, 2, 0, 2, 1), -1);
	ck_assert_int_eq(topo_dfplus(&t, 3, 2, 2, 2, 0), -1);
	ck_assert_int_eq(topo_dfplus(&t, 3, 2, 2, 253, 1), -1); /* leaf ports */
	ck_assert_int_eq(topo_dfplus(&t, 3, 2, 1, 2, 127), -1); /* spine */
	ck_assert_int_eq(topo_dfplus(&t, 3, 2, 1, 2, 126), 0);
	ck_assert_uint_eq(t.sw_ports[2], 254);
	topo_free(&t);
}
END_TEST

/* turnadd's routes on t (freed): complete and deadlock-free */
static void expect_turnadd_good(struct topo *t, const char *what)
{
	struct ta_graph *g = topo_to_graph(t);
	struct ta_options o;
	struct ta_result r;

	ck_assert_msg(g != NULL, "%s: graph", what);
	ta_options_init(&o);
	ck_assert_msg(ta_route(g, &o, NULL, &r) == 0, "%s: ta_route", what);
	assert_routes_good(g, &r, what);
	ta_result_free(&r);
	ta_options_clear(&o);
	ta_graph_free(g);
	topo_free(t);
}

START_TEST(turnadd_routes)
{
	static const unsigned s44[] = { 4, 4 }, s432[] = { 4, 3, 2 };
	struct topo t;

	ck_assert_int_eq(topo_hyperx(&t, 2, s44, 2), 0);
	expect_turnadd_good(&t, "hyperx 2 4 2");
	ck_assert_int_eq(topo_hyperx(&t, 3, s432, 1), 0);
	expect_turnadd_good(&t, "hyperx 4x3x2 1");
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	expect_turnadd_good(&t, "dragonfly 4 2 2");
	ck_assert_int_eq(topo_dragonfly(&t, 3, 3, 1, 7), 0);
	expect_turnadd_good(&t, "dragonfly 3 3 1 7");
	ck_assert_int_eq(topo_dfplus(&t, 5, 4, 4, 4, 1), 0);
	expect_turnadd_good(&t, "dfplus 5 4 4 4");
	ck_assert_int_eq(topo_dfplus(&t, 6, 2, 4, 2, 3), 0);
	expect_turnadd_good(&t, "dfplus 6 2 4 2 3");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topo_kinds");
	TCase *tc = tcase_create("kinds");
	TCase *tr = tcase_create("turnadd");

	tcase_add_test(tc, hyperx_shapes);
	tcase_add_test(tc, dragonfly_balanced);
	tcase_add_test(tc, dragonfly_fewer_groups);
	tcase_add_test(tc, dfplus_shapes);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tr, 120);
	tcase_add_test(tr, turnadd_routes);
	suite_add_tcase(s, tr);
	return run_suite(s);
}
