// SPDX-License-Identifier: MIT
/*
 * Extreme but legal traffic weights, through the whole core: 1e300,
 * 1e-300, DBL_MAX and many groups with equal weights are decided without
 * overflow or undefined behaviour (this test runs under UBSan with
 * --enable-sanitizers), and since weights are relative, a file whose
 * weights are all equal (however large or small, however many groups)
 * routes exactly like uniform traffic, and 1e300 against 1e-300 exactly
 * like 1 against 0.  Every routing is also checked for reachability and
 * an acyclic channel dependency graph (route_verify.h).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_engine.h"
#include "ta_traffic.h"
#include "route_assert.h"
#include "topo.h"
#include "topo_graph.h"
#include "run_suite.h"

static void fail_on_error(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	ck_assert_msg(lvl != TA_LOG_ERROR, "core error: %s", msg);
}

static const struct ta_log test_log = { .fn = fail_on_error };

static char *write_file(const char *text)
{
	char *path = strdup("/tmp/ta-weights-XXXXXX");
	int fd;
	FILE *f;

	ck_assert_ptr_nonnull(path);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* routes g with the traffic text (NULL: uniform); checks the routes */
static void route(const struct ta_graph *g, const char *traffic,
		  struct ta_result *r)
{
	struct ta_options o;
	char *path = traffic ? write_file(traffic) : NULL;

	ta_options_init(&o);
	o.traffic_file = path;
	ck_assert_int_eq(ta_route(g, &o, &test_log, r), 0);
	assert_routes_good(g, r, traffic ? traffic : "uniform");
	if (path)
		unlink(path);
	ta_options_clear(&o);	/* frees path */
}

static void same_routes(const struct ta_result *a, const struct ta_result *b,
			const char *what)
{
	ck_assert_uint_eq(a->n_sw, b->n_sw);
	ck_assert_uint_eq(a->n_dest, b->n_dest);
	ck_assert_msg(!memcmp(a->port, b->port, (size_t)a->n_sw * a->n_dest),
		      "%s: routes differ", what);
	ck_assert_uint_eq(a->stats.turns_allowed, b->stats.turns_allowed);
}

static struct ta_graph *random_graph(unsigned seed)
{
	struct topo t;
	struct ta_graph *g;

	ck_assert_int_eq(topo_random(&t, 16, 8, 2, seed), 0);
	g = topo_to_graph(&t);
	topo_free(&t);
	ck_assert_ptr_nonnull(g);
	return g;
}

/* all weights equal, at any scale: exactly the uniform routing */
START_TEST(equal_weights_any_scale)
{
	static const char *const files[] = {
		"default_weight 1e300\n",
		"default_weight 1e-300\n",
		"default_weight 1.7976931348623157e308\n",
		"default_weight 4.9e-324\n",	/* subnormal */
		"group a prefix rnd-sw1\nweight a a 1e300\ndefault_weight 1e300\n",
	};
	struct ta_graph *g = random_graph(3 + _i);
	struct ta_result uni, r;
	size_t k;

	route(g, NULL, &uni);
	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		route(g, files[k], &r);
		same_routes(&uni, &r, files[k]);
		ta_result_free(&r);
	}
	ta_result_free(&uni);
	ta_graph_free(g);
}
END_TEST

/* a weight below the smallest double is 0: no traffic at all is legal */
START_TEST(zero_weights)
{
	struct ta_graph *g = random_graph(7);
	struct ta_result a, b;

	route(g, "default_weight 1e-400\n", &a);
	route(g, "default_weight 0\n", &b);
	same_routes(&a, &b, "1e-400 against 0");
	ta_result_free(&a);
	ta_result_free(&b);
	ta_graph_free(g);
}
END_TEST

/* 256 groups (the limit), every pair weight 1e300: uniform again */
START_TEST(many_equal_groups)
{
	struct ta_graph *g = random_graph(11);
	struct ta_result uni, r;
	size_t cap = 1 << 22, len = 0;
	char *text = malloc(cap);
	unsigned i, j;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 256; i++)	/* hosts spread over 16 of them */
		len += snprintf(text + len, cap - len,
				"group g%u prefix rnd-sw%u-h%u\n", i, i / 2,
				i % 2 + 1);
	for (i = 0; i < 256; i++)
		for (j = i; j < 256; j++)
			len += snprintf(text + len, cap - len,
					"weight g%u g%u 1e300\n", i, j);
	ck_assert_uint_lt(len, cap);
	route(g, NULL, &uni);
	route(g, text, &r);
	same_routes(&uni, &r, "256 groups of 1e300");
	ta_result_free(&r);
	ta_result_free(&uni);
	ta_graph_free(g);
	free(text);
}
END_TEST

/* only ratios count: 1e300 against 1e-300 is 1 against 0 */
START_TEST(extreme_ratio)
{
	struct ta_graph *g = random_graph(5 + _i);
	struct ta_result a, b;

	route(g, "group a prefix rnd-sw1\ngroup b prefix rnd-sw2\n"
		 "weight a a 1e300\nweight a b 1e300\nweight b b 1e-300\n"
		 "default_weight 1e-300\n", &a);
	route(g, "group a prefix rnd-sw1\ngroup b prefix rnd-sw2\n"
		 "weight a a 1\nweight a b 1\nweight b b 0\n"
		 "default_weight 0\n", &b);
	same_routes(&a, &b, "1e300/1e-300 against 1/0");
	ta_result_free(&a);
	ta_result_free(&b);
	ta_graph_free(g);
}
END_TEST

/* the matrix the core sees: finite, the largest weight 1 */
START_TEST(matrix_scaled)
{
	char *path = write_file("group a prefix x\ngroup b prefix y\n"
				"weight a a 1.7976931348623157e308\n"
				"weight a b 1e-300\ndefault_weight 1e300\n");
	struct ta_traffic tr;
	uint32_t i, j;

	ck_assert_int_eq(ta_traffic_load(&tr, path, &test_log), 0);
	for (i = 0; i <= tr.n_groups; i++)
		for (j = 0; j <= tr.n_groups; j++) {
			double w = ta_traffic_weight(&tr, i, j);

			ck_assert(isfinite(w) && w >= 0 && w <= 1);
		}
	ck_assert(ta_traffic_weight(&tr, 0, 0) == 1.0);
	ck_assert(ta_traffic_weight(&tr, 0, 1) == 0.0);	/* underflow */
	ck_assert(ta_traffic_weight(&tr, 1, 1) > 0);
	ta_traffic_free(&tr);
	unlink(path);
	free(path);
}
END_TEST

static Suite *weights_suite(void)
{
	Suite *s = suite_create("weights");
	TCase *tc = tcase_create("extreme");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, equal_weights_any_scale, 0, 3);
	tcase_add_test(tc, zero_weights);
	tcase_add_test(tc, many_equal_groups);
	tcase_add_loop_test(tc, extreme_ratio, 0, 3);
	tcase_add_test(tc, matrix_scaled);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(weights_suite());
}
