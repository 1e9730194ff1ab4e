// SPDX-License-Identifier: MIT
/*
 * Balance of turnadd's routes, judged by walking its tables here (not by
 * the engine's own code) and counting, for every inter-switch channel,
 * the host pairs routed over it (every host sends one unit to every
 * other host).
 *
 * Hand-worked values: in a fat tree whose leaves have as many up-links
 * as hosts (H hosts a leaf, N hosts in all), a leaf's H hosts send
 * H * (N - H) units to other leaves over H up-links, so no routing can
 * do better than N - H on its busiest channel, and spreading the
 * destinations evenly (the fat-tree rule of plugin/DESIGN.md, step 4)
 * gets exactly that: lftcheck's throughput 1.0.  Routing everything over the first
 * equal link instead puts H * (N - H) on one channel.
 *
 * The same holds inside each tree of two K-ary fat trees joined at the
 * top, middle or bottom level when the traffic file says that the
 * traffic stays inside the trees (topogen ft3join-traffic): intra-tree
 * pairs alone load the busiest channel with exactly K^3/4 - K/2, and
 * never more than without the file.  Where uniform traffic leaves the
 * intra-tree pairs worse off (middle and bottom joins: 18 and 38 instead
 * of 14 at K = 4), the file must therefore change the routes; a file
 * whose weights were ignored would not.
 *
 * And on a small fabric where every switch has a host, the balanced
 * choice among equal next hops against the index rule
 * (balanced_choice_hand_worked), and the least-cost paths against the
 * shortest ones (least_cost_paths_hand_worked, and on random nets
 * least_cost_on_random_nets).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "route_assert.h"
#include "ta_engine.h"
#include "topo.h"
#include "topo_graph.h"
#include "run_suite.h"

/* host pairs inside one tree (host names start with the tree's name) */
static int same_tree(const struct ta_graph *g, uint32_t a, uint32_t b)
{
	const char *x = g->dest[a].name, *y = g->dest[b].name;

	return x && y && !strncmp(x, y, 3);
}

static void route(const struct ta_graph *g, const char *traffic_file,
		  struct ta_result *r)
{
	struct ta_options o;

	ta_options_init(&o);
	if (traffic_file) {
		o.traffic_file = strdup(traffic_file);
		ck_assert_ptr_nonnull(o.traffic_file);
	}
	ck_assert_int_eq(ta_route(g, &o, NULL, r), 0);
	ck_assert_uint_eq(r->stats.unreachable, 0);
	ta_options_clear(&o);
}

static void expect_full_bisection(struct topo *t, unsigned hosts_per_leaf,
				  const char *what)
{
	struct ta_graph *g = topo_to_graph(t);
	uint64_t want = t->n_hosts - hosts_per_leaf, got;
	struct ta_result r;

	ck_assert_ptr_nonnull(g);
	route(g, NULL, &r);
	got = host_max_load(g, &r, NULL, what, NULL);
	ck_assert_msg(got == want,
		      "%s: busiest channel carries %llu host pairs, the "
		      "hand-worked optimum is %llu",
		      what, (unsigned long long)got, (unsigned long long)want);
	ta_result_free(&r);
	ta_graph_free(g);
	topo_free(t);
}

/* leaves, spines, links per leaf-spine pair; hosts = spines * links */
START_TEST(two_level_fat_trees)
{
	static const unsigned p[][3] = { { 4, 2, 1 }, { 6, 3, 1 },
					 { 8, 4, 2 }, { 12, 6, 1 },
					 { 5, 2, 3 }, { 16, 8, 1 } };
	struct topo t;
	char what[64];
	unsigned k;

	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		unsigned h = p[k][1] * p[k][2];

		snprintf(what, sizeof(what), "fattree2 %u %u %u %u", p[k][0],
			 p[k][1], h, p[k][2]);
		ck_assert_int_eq(topo_fattree2(&t, p[k][0], p[k][1], h,
					       p[k][2]), 0);
		expect_full_bisection(&t, h, what);
	}
}
END_TEST

/* directors, lines, fabrics, leaves per line; hosts = directors */
START_TEST(three_level_fat_trees)
{
	static const unsigned p[][4] = { { 2, 2, 1, 2 }, { 3, 3, 3, 3 },
					 { 4, 4, 2, 4 }, { 4, 2, 4, 4 } };
	struct topo t;
	char what[64];
	unsigned k;

	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		snprintf(what, sizeof(what), "fattree3 %u %u %u %u %u",
			 p[k][0], p[k][1], p[k][2], p[k][3], p[k][0]);
		ck_assert_int_eq(topo_fattree3(&t, p[k][0], p[k][1], p[k][2],
					       p[k][3], p[k][0]), 0);
		expect_full_bisection(&t, p[k][0], what);
	}
}
END_TEST

/* writes topogen's ft3join traffic file to a temp file; caller unlinks */
static void write_traffic(char *path)
{
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(topo_ft3join_traffic(f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static void check_joined(unsigned k, enum topo_join_level level,
			 const char *traffic)
{
	static const char *const names[] = { "top", "middle", "bottom" };
	uint64_t want = (uint64_t)k * k * k / 4 - k / 2, with, without;
	struct ta_result rw, ru;
	struct ta_graph *g;
	char what[64];
	struct topo t;

	snprintf(what, sizeof(what), "ft3join %u %s", k, names[level]);
	ck_assert_int_eq(topo_ft3join(&t, k, level), 0);
	g = topo_to_graph(&t);
	ck_assert_ptr_nonnull(g);
	route(g, traffic, &rw);
	route(g, NULL, &ru);
	with = host_max_load(g, &rw, same_tree, what, NULL);
	without = host_max_load(g, &ru, same_tree, what, NULL);
	/* every pair still reachable, with the file too */
	host_max_load(g, &rw, NULL, what, NULL);
	ck_assert_msg(with == want,
		      "%s with the traffic file: intra-tree pairs put %llu on "
		      "the busiest channel, the hand-worked optimum is %llu "
		      "(without the file: %llu)",
		      what, (unsigned long long)with,
		      (unsigned long long)want, (unsigned long long)without);
	ck_assert_msg(with <= without,
		      "%s: intra-tree load %llu with the file, %llu without",
		      what, (unsigned long long)with,
		      (unsigned long long)without);
	ta_result_free(&rw);
	ta_result_free(&ru);
	ta_graph_free(g);
	topo_free(&t);
}

START_TEST(joined_fat_trees_with_traffic_file)
{
	char path[] = "/tmp/ta-balance-traffic-XXXXXX";
	unsigned k;

	write_traffic(path);
	for (k = 4; k <= 6; k += 2) {
		check_joined(k, TOPO_JOIN_TOP, path);
		check_joined(k, TOPO_JOIN_MIDDLE, path);
		check_joined(k, TOPO_JOIN_BOTTOM, path);
	}
	unlink(path);
}
END_TEST

/*
 * Equal next hops on a fabric where every switch has a host (not
 * tree-like): s0 is cabled to s1, s2 and the stub s4; s1 and s2 both to
 * s3 and s5; one host a switch, every host sending to every other.
 * From s0 (and s4 behind it) s3 and s5 are two hops away, through s1 or
 * s2.  The index rule takes the same digit for both (their keys 3 and 5
 * are odd: the second neighbour, s2), so s0 -> s2 carries the hosts of
 * s0 and s4 to s2, s3 and s5: 6 host pairs.  Choosing by load sends s3
 * and s5 through different neighbours of s0, so s0 -> s1 and s0 -> s2
 * carry those hosts to two switches each (4) and at most one pair more
 * that another switch routes through s0 (s1 to s2 has three 2-hop
 * routes); every other channel carries fewer: at most 5.
 */
static struct ta_graph *hand_graph(void)
{
	static const unsigned link[][2] = { { 0, 1 }, { 0, 2 }, { 0, 4 },
		{ 1, 3 }, { 1, 5 }, { 2, 3 }, { 2, 5 } };
	struct ta_graph *g = ta_graph_new();
	unsigned next_port[6] = { 2, 2, 2, 2, 2, 2 }, i;
	char name[16];

	ck_assert_ptr_nonnull(g);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ck_assert_int_ge(ta_graph_add_switch(g, 0x100 + i, name), 0);
	}
	for (i = 0; i < sizeof(link) / sizeof(link[0]); i++) {
		unsigned a = link[i][0], b = link[i][1];

		ck_assert_int_ge(ta_graph_add_link(g, a, next_port[a]++, b,
						   next_port[b]++), 0);
	}
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "s%u-h1", i);
		ck_assert_int_ge(ta_graph_add_dest(g, 1 + i, i, 1, true,
						   0x200 + i, name), 0);
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	return g;
}

START_TEST(balanced_choice_hand_worked)
{
	struct ta_graph *g = hand_graph();
	struct ta_options o;
	struct ta_result r;
	uint64_t by_index, balanced;

	ta_options_init(&o);
	o.experiment = TA_EXP_INDEX_CHOICE;
	ck_assert_int_eq(ta_route(g, &o, NULL, &r), 0);
	ck_assert_uint_eq(r.stats.unreachable, 0);
	by_index = host_max_load(g, &r, NULL, "index rule", NULL);
	ta_result_free(&r);
	route(g, NULL, &r);
	balanced = host_max_load(g, &r, NULL, "balanced", NULL);
	ta_result_free(&r);
	ck_assert_msg(by_index == 6,
		      "index rule: busiest channel %llu host pairs, hand-worked 6",
		      (unsigned long long)by_index);
	ck_assert_msg(balanced <= 5,
		      "balanced: busiest channel %llu host pairs, hand-worked at most 5",
		      (unsigned long long)balanced);
	ta_graph_free(g);
}
END_TEST


/*
 * A triangle s0, s1, s2 with H hosts on s0 and s1 and one on s2, the
 * escape tree rooted at s2 (its turns are the tree's: allowed).  Every
 * pair of switches is one hop apart, so the shortest paths send the H * H
 * host pairs from s0 to s1 over the link s0 -> s1 (and back the other
 * way): H * H on it.  The path s0 -> s2 -> s1 is one hop longer and
 * allowed (it turns at the root); sending k of s1's H hosts that way
 * loads s0 -> s1 with H * (H - k) and s0 -> s2, s2 -> s1 with
 * H * (1 + k) (s2's own host included): k = 2 gives 15 at H = 5, and no
 * routing does better than (H * H + 2 * H) / 3 = 11.67 over the two
 * ways from s0 to s1.  The least-cost choice must find such a k.
 */
static struct ta_graph *triangle_graph(unsigned h)
{
	struct ta_graph *g = ta_graph_new();
	unsigned i, n = 0;
	char name[16];

	ck_assert_ptr_nonnull(g);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ck_assert_int_ge(ta_graph_add_switch(g, 0x100 + i, name), 0);
	}
	ck_assert_int_ge(ta_graph_add_link(g, 0, 30, 1, 30), 0);
	ck_assert_int_ge(ta_graph_add_link(g, 0, 31, 2, 30), 0);
	ck_assert_int_ge(ta_graph_add_link(g, 1, 31, 2, 31), 0);
	for (i = 0; i < 3; i++) {
		unsigned k, hosts = i == 2 ? 1 : h;

		for (k = 0; k < hosts; k++, n++) {
			snprintf(name, sizeof(name), "s%u-h%u", i, k + 1);
			ck_assert_int_ge(ta_graph_add_dest(g, 1 + n, i, k + 1,
							   true, 0x200 + n,
							   name), 0);
		}
	}
	ck_assert_int_eq(ta_graph_finalize(g), 0);
	return g;
}

/* routes g with o and returns its busiest channel (host pairs) */
static uint64_t routed_max_load(const struct ta_graph *g,
				const struct ta_options *o, const char *what)
{
	struct ta_result r;
	uint64_t max;

	ck_assert_int_eq(ta_route(g, o, NULL, &r), 0);
	ck_assert_uint_eq(r.stats.unreachable, 0);
	max = host_max_load(g, &r, NULL, what, NULL);
	ta_result_free(&r);
	return max;
}

/* the busiest channel of hop_choice's routes over the least-cost ones' */
static double shortest_over_least_cost(const struct ta_graph *g)
{
	struct ta_options o;
	uint64_t shortest, least_cost;

	ta_options_init(&o);
	o.experiment = TA_EXP_HOP_CHOICE;
	shortest = routed_max_load(g, &o, "shortest");
	o.experiment = 0;
	least_cost = routed_max_load(g, &o, "least cost");
	ck_assert_uint_gt(least_cost, 0);
	return (double)shortest / (double)least_cost;
}

START_TEST(least_cost_paths_hand_worked)
{
	struct ta_graph *g = triangle_graph(5);
	struct ta_options o;
	uint64_t shortest, least_cost;

	ta_options_init(&o);
	o.escape_root_guid = 0x102;
	o.experiment = TA_EXP_HOP_CHOICE;
	shortest = routed_max_load(g, &o, "shortest paths");
	o.experiment = 0;
	least_cost = routed_max_load(g, &o, "least cost");
	ck_assert_msg(shortest == 25,
		      "shortest paths: busiest channel %llu host pairs, hand-worked 25",
		      (unsigned long long)shortest);
	ck_assert_msg(least_cost == 15,
		      "least-cost paths: busiest channel %llu host pairs, hand-worked 15 (k = 2)",
		      (unsigned long long)least_cost);
	ta_graph_free(g);
}
END_TEST

/*
 * 15 random nets (20, 30 and 40 switches, 10 switch ports and 10 hosts
 * each, seeds 1-5): the busiest channel of the shortest allowed paths
 * (experiment hop_choice) carries on average at least 1.3 times what the
 * least-cost paths' does.  Measured: 1.28 to 1.48 (mean 1.37) with the
 * two rip-up-and-reroute passes, 1.11 to 1.36 (mean 1.22) without them.
 */
START_TEST(least_cost_on_random_nets)
{
	static const unsigned sizes[] = { 20, 30, 40 };
	double sum = 0;
	unsigned i, seed, n = 0;

	for (i = 0; i < 3; i++)
		for (seed = 1; seed <= 5; seed++) {
			struct ta_graph *g;
			struct topo t;

			ck_assert_int_eq(topo_random(&t, sizes[i], 10, 10,
						     seed), 0);
			g = topo_to_graph(&t);
			ck_assert_ptr_nonnull(g);
			sum += shortest_over_least_cost(g);
			n++;
			ta_graph_free(g);
			topo_free(&t);
		}
	ck_assert_msg(sum / n >= 1.3,
		      "shortest paths' busiest channel / least-cost paths': mean %.3f over %u random nets, at least 1.3 expected",
		      sum / n, n);
}
END_TEST

/*
 * Random nets with half the hosts absent (40 switches, 10 ports, 2 hosts
 * a switch, seeds 1-5), so that about a quarter of the switches have no
 * host left (every net has some): still not tree-like, so the least-cost
 * paths apply; the shortest paths' busiest channel is on average at
 * least 1.2 times theirs (1.00 where such nets kept the index rule).
 */
START_TEST(least_cost_with_hosts_absent)
{
	double sum = 0;
	unsigned seed;

	for (seed = 1; seed <= 5; seed++) {
		struct ta_graph *g;
		struct topo t;
		uint8_t has[64] = { 0 };
		uint32_t d, sw, bare = 0;

		ck_assert_int_eq(topo_random(&t, 40, 10, 2, seed), 0);
		ck_assert_int_eq(topo_drop_hosts(&t, 500, seed), 0);
		g = topo_to_graph(&t);
		ck_assert_ptr_nonnull(g);
		ck_assert_uint_le(g->n_sw, 64);
		for (d = 0; d < g->n_dest; d++)
			has[g->dest[d].sw] |= g->dest[d].is_host;
		for (sw = 0; sw < g->n_sw; sw++)
			bare += !has[sw];
		ck_assert_msg(bare > 0, "seed %u: every switch has hosts",
			      seed);
		sum += shortest_over_least_cost(g);
		ta_graph_free(g);
		topo_free(&t);
	}
	ck_assert_msg(sum / 5 >= 1.2,
		      "hosts absent: shortest paths' busiest channel / least-cost paths': mean %.3f, at least 1.2 expected",
		      sum / 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("balance");
	TCase *tc = tcase_create("balance");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, two_level_fat_trees);
	tcase_add_test(tc, three_level_fat_trees);
	tcase_add_test(tc, joined_fat_trees_with_traffic_file);
	tcase_add_test(tc, balanced_choice_hand_worked);
	tcase_add_test(tc, least_cost_paths_hand_worked);
	tcase_add_test(tc, least_cost_on_random_nets);
	tcase_add_test(tc, least_cost_with_hosts_absent);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
