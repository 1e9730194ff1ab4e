// SPDX-License-Identifier: MIT
/*
 * The plugin's option reading (plugin/turnadd_config.c, no OpenSM
 * header): the last good options and traffic groups stay in force when
 * the options or traffic file goes bad or away, with one ERROR line
 * naming the file, line and problem and saying so; without a last good
 * reading the failure is reported to the caller (OpenSM then falls
 * back at its first routing).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "turnadd_config.h"
#include "ta_traffic.h"
#include "run_suite.h"

static char errors[8][1100];
static unsigned n_errors;

static void collect(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	if (lvl != TA_LOG_ERROR)
		return;
	ck_assert_uint_lt(n_errors, 8);
	snprintf(errors[n_errors++], sizeof(errors[0]), "%s", msg);
}

static const struct ta_log test_log = { .fn = collect };
static char dir[] = "/tmp/ta-config-XXXXXX";
static char conf[64], traffic[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/turnadd.conf", dir);
	snprintf(traffic, sizeof(traffic), "%s/traffic", dir);
	setenv(TURNADD_CONFIG_ENV, conf, 1);
	n_errors = 0;
}

static void teardown(void)
{
	turnadd_config_forget();
	unlink(conf);
	unlink(traffic);
	rmdir(dir);
	strcpy(dir, "/tmp/ta-config-XXXXXX");
}

/* one reading as the routing does it; returns its status */
static int load(struct ta_options *o, const char **path)
{
	n_errors = 0;
	return turnadd_config_load(o, &test_log, path);
}

static void expect_kept(const char *problem)
{
	ck_assert_uint_eq(n_errors, 1);
	ck_assert_msg(strstr(errors[0], problem) == errors[0],
		      "error '%s' does not start with '%s'", errors[0],
		      problem);
	ck_assert_msg(strstr(errors[0], " (turnadd keeps routing with the last good options and traffic groups, read at "),
		      "error '%s' does not say the last good reading stays",
		      errors[0]);
}

START_TEST(first_reading_bad_fails)
{
	struct ta_options o;
	const char *path;

	put(conf, "seed x\n");
	ck_assert_int_eq(load(&o, &path), -1);
	ck_assert_uint_eq(n_errors, 1);
	ck_assert_ptr_null(strstr(errors[0], "last good"));
	ta_options_clear(&o);
}
END_TEST

START_TEST(last_good_stays)
{
	struct ta_options o;
	const char *path;
	char want[128];
	uint32_t ga, gb;

	put(traffic, "group a prefix x\ngroup b prefix y\nweight a b 1e300\ndefault_weight 1\n");
	snprintf(want, sizeof(want), "seed 7\nescape_root 0x42\ntraffic_file %s\n", traffic);
	put(conf, want);
	ck_assert_int_eq(load(&o, &path), 0);
	ck_assert_uint_eq(n_errors, 0);
	ck_assert_str_eq(path, conf);
	ck_assert_ptr_nonnull(o.traffic);
	ck_assert_uint_eq(o.traffic->n_groups, 2);
	ta_options_clear(&o);

	/* the traffic file goes away: kept, with the groups */
	unlink(traffic);
	ck_assert_int_eq(load(&o, &path), 0);
	snprintf(want, sizeof(want), "%s: cannot open traffic file: No such file or directory", traffic);
	expect_kept(want);
	ck_assert_ptr_nonnull(strstr(path, "the last good reading"));
	ck_assert_uint_eq(o.seed, 7);
	ck_assert_uint_eq(o.escape_root_guid, 0x42);
	ck_assert_str_eq(o.traffic_file, traffic);
	ck_assert_ptr_nonnull(o.traffic);
	ga = ta_traffic_group_of(o.traffic, 0, "x1");
	gb = ta_traffic_group_of(o.traffic, 0, "y1");
	ck_assert(ta_traffic_weight(o.traffic, ga, gb) == 1.0);
	ta_options_clear(&o);

	/* a bad traffic line */
	put(traffic, "group a prefix x\nweight a b 1\n");
	ck_assert_int_eq(load(&o, &path), 0);
	snprintf(want, sizeof(want), "%s:2: weight names group 'b'", traffic);
	expect_kept(want);
	ck_assert_uint_eq(o.seed, 7);
	ta_options_clear(&o);

	/* a bad option line, through the sweep's reading */
	put(conf, "seed 8\nseed -1\n");
	n_errors = 0;
	ck_assert_ptr_nonnull(turnadd_config_sweep(&test_log));
	snprintf(want, sizeof(want), "%s:2: seed: ", conf);
	expect_kept(want);
	ck_assert_uint_eq(turnadd_config_current(&test_log)->seed, 7);
	ck_assert_uint_eq(n_errors, 1);	/* not read again */
	ck_assert_int_eq(load(&o, &path), 0);	/* handed over */
	ck_assert_uint_eq(n_errors, 0);
	ck_assert_uint_eq(o.seed, 7);
	ta_options_clear(&o);

	/* the options file gone */
	unlink(conf);
	ck_assert_int_eq(load(&o, &path), 0);
	snprintf(want, sizeof(want), "%s: cannot open: No such file or directory", conf);
	expect_kept(want);
	ck_assert_uint_eq(o.seed, 7);
	ta_options_clear(&o);

	/* good again: taken, no traffic file now */
	put(conf, "seed 9\n");
	ck_assert_int_eq(load(&o, &path), 0);
	ck_assert_uint_eq(n_errors, 0);
	ck_assert_str_eq(path, conf);
	ck_assert_uint_eq(o.seed, 9);
	ck_assert_ptr_null(o.traffic);
	ck_assert_ptr_null(o.traffic_file);
	ta_options_clear(&o);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config_keep");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, first_reading_bad_fails);
	tcase_add_test(tc, last_good_stays);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(config_suite());
}
