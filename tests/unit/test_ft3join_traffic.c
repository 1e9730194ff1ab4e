// SPDX-License-Identifier: MIT
/*
 * The traffic file `topogen ft3join-traffic` writes, read by turnadd's
 * own parser: every host of a joined fat tree (topogen ft3join) falls in
 * the group of its tree, weight 1 inside a tree and 1/100 between.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_traffic.h"
#include "topo.h"
#include "join_traffic.h"
#include "run_suite.h"

static void fail_on_log(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	ck_assert_msg(lvl != TA_LOG_ERROR, "parser error: %s", msg);
}

static const struct ta_log test_log = { .fn = fail_on_log };

static void check_groups(unsigned k, enum topo_join_level level)
{
	struct ta_traffic tr;
	struct topo t;
	unsigned i, n[2] = { 0, 0 };
	uint32_t ga, gb;

	join_traffic_load(&tr, &test_log);
	ck_assert_uint_eq(tr.n_groups, 2);
	ck_assert_int_eq(topo_ft3join(&t, k, level), 0);
	ga = ta_traffic_group_of(&tr, 1, "tA-");
	gb = ta_traffic_group_of(&tr, 2, "tB-");
	ck_assert_uint_ne(ga, gb);
	ck_assert_uint_lt(ga, 2);
	ck_assert_uint_lt(gb, 2);
	for (i = 0; i < t.n_hosts; i++) {
		const char *name = t.host_name[i];
		uint32_t g = ta_traffic_group_of(&tr, 0x100 + i, name);
		int in_b = !strncmp(name, "tB-", 3);

		ck_assert_msg(in_b || !strncmp(name, "tA-", 3), "host %s", name);
		ck_assert_msg(g == (in_b ? gb : ga), "host %s in group %u", name,
			      g);
		n[in_b]++;
	}
	ck_assert_uint_eq(n[0], k * k * k / 4);
	ck_assert_uint_eq(n[1], k * k * k / 4);
	ck_assert(ta_traffic_weight(&tr, ga, ga) == 1.0);
	ck_assert(ta_traffic_weight(&tr, gb, gb) == 1.0);
	ck_assert(ta_traffic_weight(&tr, ga, gb) == 0.01);
	ck_assert(ta_traffic_weight(&tr, gb, ga) == 0.01);
	topo_free(&t);
	ta_traffic_free(&tr);
}

START_TEST(ft3join_traffic_groups)
{
	check_groups(4, TOPO_JOIN_MIDDLE);
	check_groups(8, TOPO_JOIN_TOP);
	check_groups(8, TOPO_JOIN_BOTTOM);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ft3join_traffic");
	TCase *tc = tcase_create("traffic");

	tcase_add_test(tc, ft3join_traffic_groups);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
