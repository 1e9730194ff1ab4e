// SPDX-License-Identifier: MIT
/*
 * Option and traffic files: good files parse to the documented values,
 * bad ones give one error naming file, line and problem.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_engine.h"
#include "ta_traffic.h"
#include "run_suite.h"

static char last_msg[1024];
static int n_errors;

static void collect(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	if (lvl == TA_LOG_ERROR) {
		n_errors++;
		snprintf(last_msg, sizeof(last_msg), "%s", msg);
	}
}

static const struct ta_log test_log = { .fn = collect };

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/ta-parse-XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	n_errors = 0;
	last_msg[0] = '\0';
	return path;
}

/* the error names path:line and contains what */
static void expect_error(const char *path, unsigned line, const char *what)
{
	char where[256];

	snprintf(where, sizeof(where), "%s:%u: ", path, line);
	ck_assert_int_eq(n_errors, 1);
	ck_assert_msg(strncmp(last_msg, where, strlen(where)) == 0,
		      "message '%s' does not start with '%s'", last_msg, where);
	ck_assert_msg(strstr(last_msg, what), "message '%s' lacks '%s'",
		      last_msg, what);
}

START_TEST(options_good)
{
	char *p = write_tmp("# site options\n\n"
			    "traffic_file /etc/opensm/traffic.conf  # groups\n"
			    "seed 42\nescape_root 0x0002c90000000010\n"
			    "lid_order opensm\nlft_read_on_start no\n");
	struct ta_options o;

	ta_options_init(&o);
	ck_assert(o.lft_read_on_start);
	ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
	ck_assert_int_eq(n_errors, 0);
	ck_assert_str_eq(o.traffic_file, "/etc/opensm/traffic.conf");
	ck_assert_uint_eq(o.seed, 42);
	ck_assert_uint_eq(o.escape_root_guid, 0x0002c90000000010ULL);
	ck_assert_int_eq(o.mode, TA_MODE_TURN_ADDITION);
	ck_assert_int_eq(o.lid_order, TA_LID_OPENSM);
	ck_assert(!o.lft_read_on_start);
	ta_options_clear(&o);
	unlink(p);
	free(p);
}
END_TEST

START_TEST(options_modes)
{
	static const struct {
		const char *text;
		enum ta_mode mode;
	} cases[] = {
		{ "mode turn_addition\n", TA_MODE_TURN_ADDITION },
		{ "mode turn_prohibition\n", TA_MODE_TURN_PROHIBITION },
		{ "mode no_prohibition\n", TA_MODE_NONE_PROHIBITED },
	};
	static const struct {
		const char *text;
		unsigned experiment;
	} exps[] = {
		{ "seed 1\n", 0 },
		{ "experiment flat_weights\n", TA_EXP_FLAT_WEIGHTS },
		{ "experiment no_tree_first\nexperiment flat_weights\n",
		  TA_EXP_NO_TREE_FIRST | TA_EXP_FLAT_WEIGHTS },
		{ "experiment flat_weights\nexperiment none\n", 0 },
		{ "experiment no_repair\n", TA_EXP_NO_REPAIR },
	};
	unsigned k;

	for (k = 0; k < sizeof(exps) / sizeof(exps[0]); k++) {
		char *p = write_tmp(exps[k].text);
		struct ta_options o;

		ta_options_init(&o);
		ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
		ck_assert_uint_eq(o.experiment, exps[k].experiment);
		ta_options_clear(&o);
		unlink(p);
		free(p);
	}

	for (k = 0; k < 4; k++) {
		static const char *const vl[] = { "# none\n", "vls 1\n",
			"vls 4\n", "vls 2\nvls 8\n" };
		static const unsigned want[] = { 1, 1, 4, 8 };
		char *p = write_tmp(vl[k]);
		struct ta_options o;

		ta_options_init(&o);
		ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
		ck_assert_uint_eq(o.vls, want[k]);
		ta_options_clear(&o);
		unlink(p);
		free(p);
	}

	for (k = 0; k < 5; k++) {
		static const char *const fr[] = { "# none\n",
			"failure_routes minimal\n",
			"failure_routes minimal\nfailure_routes compared\n",
			"failure_routes nexthop\n",
			"failure_routes nexthop\nfailure_routes compared\n" };
		char *p = write_tmp(fr[k]);
		struct ta_options o;

		ta_options_init(&o);
		ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
		ck_assert_int_eq(o.failure_compare, k != 1);
		ck_assert_int_eq(o.failure_nexthop, k == 3);
		ta_options_clear(&o);
		unlink(p);
		free(p);
	}

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *p = write_tmp(cases[k].text);
		struct ta_options o;

		ta_options_init(&o);
		ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
		ck_assert_int_eq(o.mode, cases[k].mode);
		/* write_tmp() resets the count: check every case here */
		ck_assert_msg(n_errors == 0, "'%s': %d errors, last: %s",
			      cases[k].text, n_errors, last_msg);
		ta_options_clear(&o);
		unlink(p);
		free(p);
	}
}
END_TEST

START_TEST(options_bad)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *what;
	} cases[] = {
		{ "seed 1\nsed 2\n", 2, "unknown option" },
		{ "seed -3\n", 1, "non-negative integer" },
		{ "seed 12abc\n", 1, "non-negative integer" },
		{ "\n\ntraffic_file\n", 3, "exactly one value" },
		{ "escape_root banana\n", 1, "escape_root" },
		{ "mode fastest\n", 1, "mode must be" },
		{ "lid_order random\n", 1, "lid_order must be" },
		{ "lft_read_on_start 1\n", 1, "must be yes or no" },
		{ "experiment faster\n", 1, "experiment must be" },
	};
	unsigned k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *p = write_tmp(cases[k].text);
		struct ta_options o;

		ta_options_init(&o);
		ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), -1);
		expect_error(p, cases[k].line, cases[k].what);
		ta_options_clear(&o);
		unlink(p);
		free(p);
	}
}
END_TEST

START_TEST(options_missing_file)
{
	struct ta_options o;

	ta_options_init(&o);
	n_errors = 0;
	ck_assert_int_eq(ta_options_load(&o, "/nonexistent/turnadd.conf", 1,
					 &test_log), 0);
	ck_assert_int_eq(n_errors, 0);
	ck_assert_int_eq(ta_options_load(&o, "/nonexistent/turnadd.conf", 0,
					 &test_log), -1);
	ck_assert_int_eq(n_errors, 1);
	ck_assert_ptr_nonnull(strstr(last_msg, "/nonexistent/turnadd.conf"));
}
END_TEST

START_TEST(traffic_good)
{
	char *p = write_tmp("group treeA prefix ftA-\n"
			    "group treeB prefix ftB-\n"
			    "group special guid 0x10 0x11\n"
			    "weight treeA treeA 1.0\nweight treeB treeB 1\n"
			    "weight treeA treeB 0.01\ndefault_weight 0.5\n");
	struct ta_traffic t;
	uint32_t a, b, sp, none;

	ck_assert_int_eq(ta_traffic_load(&t, p, &test_log), 0);
	ck_assert_uint_eq(t.n_groups, 3);
	a = ta_traffic_group_of(&t, 1, "ftA-leaf3-h1");
	b = ta_traffic_group_of(&t, 2, "ftB-leaf0-h0");
	sp = ta_traffic_group_of(&t, 0x11, "ftA-but-guid-rule-comes-later");
	none = ta_traffic_group_of(&t, 3, "other");
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 1);
	ck_assert_uint_eq(sp, 0);	/* first matching group line wins */
	ck_assert_uint_eq(ta_traffic_group_of(&t, 0x11, "x"), 2);
	ck_assert_uint_eq(none, 3);
	ck_assert(ta_traffic_weight(&t, a, a) == 1.0);
	ck_assert(ta_traffic_weight(&t, a, b) == 0.01);
	ck_assert(ta_traffic_weight(&t, b, a) == 0.01);
	ck_assert(ta_traffic_weight(&t, a, none) == 0.5);
	ck_assert(ta_traffic_weight(&t, none, none) == 0.5);
	ta_traffic_free(&t);
	unlink(p);
	free(p);
}
END_TEST

START_TEST(traffic_bad)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *what;
	} cases[] = {
		{ "group a prefix x\nweight a b 1\n", 2, "group 'b'" },
		{ "group a prefix x\nweight a a -1\n", 2, ">= 0" },
		{ "group a prefix x\nweight a a nan\n", 2, ">= 0" },
		{ "group a guid 0xzz\n", 1, "bad GUID" },
		{ "group a\n", 1, "expected 'group NAME" },
		{ "group a prefix x y\n", 1, "one word" },
		{ "group a/b prefix x\n", 1, "group name" },
		{ "# ok\nweigth a a 1\n", 2, "unknown keyword" },
		{ "default_weight\n", 1, "default_weight VALUE" },
	};
	unsigned k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *p = write_tmp(cases[k].text);
		struct ta_traffic t;

		ck_assert_int_eq(ta_traffic_load(&t, p, &test_log), -1);
		expect_error(p, cases[k].line, cases[k].what);
		unlink(p);
		free(p);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parsers");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, options_good);
	tcase_add_test(tc, options_modes);
	tcase_add_test(tc, options_bad);
	tcase_add_test(tc, options_missing_file);
	tcase_add_test(tc, traffic_good);
	tcase_add_test(tc, traffic_bad);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
