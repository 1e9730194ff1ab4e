// SPDX-License-Identifier: MIT
/*
 * Every error path of the four file parsers, one malformed input each:
 * the option and traffic files (plugin/core), the netfile and guid2lid
 * readers of turnadd-lids (lid_assign).  Each must fail with exactly one
 * message, "FILE:LINE: problem" (or "FILE: problem" when no line is at
 * fault), checked here word for word, and leave nothing allocated (the
 * sanitizer build of scripts/test-all.sh runs this under ASan/LSan).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lid_g2l.h"
#include "lid_netfab.h"
#include "lid_netfile.h"
#include "ta_engine.h"
#include "ta_traffic.h"
#include "run_suite.h"

struct bad_case {
	const char *text;
	size_t len;		/* 0: strlen(text); else exact (NUL bytes) */
	const char *msg;	/* the message after the file name */
};

#define T(text, msg) { text, 0, msg }
#define B(text, msg) { text, sizeof(text) - 1, msg }	/* with NUL bytes */
#define N_CASES(a) (sizeof(a) / sizeof((a)[0]))

static char msgs[4][1024];
static int n_errors;

static void collect(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	if (lvl != TA_LOG_ERROR)
		return;
	if (n_errors < 4)
		snprintf(msgs[n_errors], sizeof(msgs[0]), "%s", msg);
	n_errors++;
}

static const struct ta_log test_log = { .fn = collect };

static char tmp_path[64];

/* writes len bytes of text to a fresh temp file, named in tmp_path */
static const char *write_tmp(const char *text, size_t len)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "/tmp/ta-perr-XXXXXX");
	fd = mkstemp(tmp_path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	n_errors = 0;
	return tmp_path;
}

static const char *case_file(const struct bad_case *c)
{
	return write_tmp(c->text, c->len ? c->len : strlen(c->text));
}

/* got == path followed by want */
static void expect_msg(const char *got, const char *path, const char *want,
		       unsigned k)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s%s", path, want);
	ck_assert_msg(!strcmp(got, full), "case %u: got \"%s\", want \"%s\"",
		      k, got, full);
}

/* only the first one checked: "one error" is checked by n_errors */
static void expect_core_error(const char *path, const char *want, unsigned k)
{
	ck_assert_msg(n_errors == 1, "case %u: %d error messages, first \"%s\"",
		      k, n_errors, msgs[0]);
	expect_msg(msgs[0], path, want, k);
}

/* a text of n lines "group gK prefix pK" */
static char *many_groups(unsigned n)
{
	char *s = malloc((size_t)n * 40 + 1), *p = s;
	unsigned i;

	ck_assert_ptr_nonnull(s);
	*p = '\0';
	for (i = 0; i < n; i++)
		p += sprintf(p, "group g%u prefix p%u\n", i, i);
	return s;
}

/* "WORD" followed by n - 1 words "x" on one line */
static char *many_words(const char *word, unsigned n)
{
	char *s = malloc(strlen(word) + 2 * (size_t)n + 2);
	unsigned i;

	ck_assert_ptr_nonnull(s);
	strcpy(s, word);
	for (i = 1; i < n; i++)
		strcat(s, " x");
	strcat(s, "\n");
	return s;
}

/* a comment line of len characters, newline not counted */
static char *long_line(size_t len)
{
	char *s = malloc(len + 2);

	ck_assert_ptr_nonnull(s);
	memset(s, 'x', len);
	s[0] = '#';
	s[len] = '\n';
	s[len + 1] = '\0';
	return s;
}

/* ---- option file ---- */

static const struct bad_case option_cases[] = {
	T("seed 3\nsed 4\n",
	  ":2: sed: unknown option (known: traffic_file, seed, escape_root, mode, lid_order, lid_layout, lft_update, hop_tables, lft_read_on_start, mcast_trees, tp_candidate, tp_orders, failure_routes, vls, experiment)"),
	T("lid_layout group_major\n",
	  ":1: lid_layout: lid_layout must be auto, port-major or group-major"),
	T("\n# c\ntraffic_file\n",
	  ":3: traffic_file: expected exactly one value after the option name"),
	T("seed 1 2\n",
	  ":1: seed: expected exactly one value after the option name"),
	T("seed -3\n", ":1: seed: seed must be a non-negative integer"),
	T("seed 12abc\n", ":1: seed: seed must be a non-negative integer"),
	T("seed 99999999999999999999\n",
	  ":1: seed: seed must be a non-negative integer"),
	T("escape_root 0\n",
	  ":1: escape_root: escape_root must be 'auto' or a switch GUID such as 0x0002c90000000001"),
	T("escape_root 0xfoo\n",
	  ":1: escape_root: escape_root must be 'auto' or a switch GUID such as 0x0002c90000000001"),
	T("mode fastest\n",
	  ":1: mode: mode must be turn_addition, turn_prohibition or no_prohibition"),
	T("hop_tables fast\n",
	  ":1: hop_tables: hop_tables must be turnadd or opensm"),
	T("lid_order random\n",
	  ":1: lid_order: lid_order must be port_major or opensm"),
	T("lft_update all\n",
	  ":1: lft_update: lft_update must be changed_blocks or opensm"),
	T("seed 1\nvls 0\n",
	  ":2: vls: vls must be an integer from 1 to 8 (the layers, each on its own virtual lane)"),
	T("vls 99\n",
	  ":1: vls: vls must be an integer from 1 to 8 (the layers, each on its own virtual lane)"),
	T("vls two\n",
	  ":1: vls: vls must be an integer from 1 to 8 (the layers, each on its own virtual lane)"),
	T("tp_orders 0\n",
	  ":1: tp_orders: tp_orders must be an integer from 1 to 16 (Turn-Prohibition removal orders tried)"),
	T("seed 2\ntp_orders 17\n",
	  ":2: tp_orders: tp_orders must be an integer from 1 to 16 (Turn-Prohibition removal orders tried)"),
	T("tp_orders four\n",
	  ":1: tp_orders: tp_orders must be an integer from 1 to 16 (Turn-Prohibition removal orders tried)"),
	T("vls 2 3\n",
	  ":1: vls: expected exactly one value after the option name"),
	B("seed 1\nseed 2\0 3\n", ":2: NUL byte in the line"),
};

static int load_options(const char *path)
{
	struct ta_options o;
	int ret;

	ta_options_init(&o);
	ret = ta_options_load(&o, path, 0, &test_log);
	ta_options_clear(&o);
	return ret;
}

START_TEST(option_file_errors)
{
	unsigned k;

	for (k = 0; k < N_CASES(option_cases); k++) {
		const char *p = case_file(&option_cases[k]);

		ck_assert_int_eq(load_options(p), -1);
		expect_core_error(p, option_cases[k].msg, k);
		unlink(p);
	}
}
END_TEST

START_TEST(option_file_limits)
{
	char *words = many_words("seed", 65), *ok_words = many_words("#", 65);
	char *longl = long_line(4097), *ok_long = long_line(4096);
	const char *p;

	p = write_tmp(words, strlen(words));
	ck_assert_int_eq(load_options(p), -1);
	expect_core_error(p, ":1: more than 64 words on the line", 0);
	unlink(p);
	p = write_tmp(longl, strlen(longl));
	ck_assert_int_eq(load_options(p), -1);
	expect_core_error(p, ":1: line longer than 4096 characters", 1);
	unlink(p);
	/* at the limits: fine (a comment of 65 words is no words) */
	p = write_tmp(ok_long, strlen(ok_long));
	ck_assert_int_eq(load_options(p), 0);
	ck_assert_int_eq(n_errors, 0);
	unlink(p);
	p = write_tmp(ok_words, strlen(ok_words));
	ck_assert_int_eq(load_options(p), 0);
	unlink(p);
	free(words);
	free(ok_words);
	free(longl);
	free(ok_long);
}
END_TEST

START_TEST(option_file_not_readable)
{
	n_errors = 0;
	ck_assert_int_eq(load_options("/nonexistent/turnadd.conf"), -1);
	expect_core_error("/nonexistent/turnadd.conf",
			  ": cannot open: No such file or directory", 0);
	n_errors = 0;
	ck_assert_int_eq(load_options("/"), -1);
	expect_core_error("/", ": read error: Is a directory", 1);
}
END_TEST

START_TEST(option_file_empty_is_defaults)
{
	const char *p = write_tmp("", 0);
	struct ta_options o;

	ta_options_init(&o);
	o.seed = 7;
	ck_assert_int_eq(ta_options_load(&o, p, 0, &test_log), 0);
	ck_assert_int_eq(n_errors, 0);
	ck_assert_uint_eq(o.seed, 7);	/* nothing changed */
	ck_assert_ptr_null(o.traffic_file);
	ta_options_clear(&o);
	unlink(p);
}
END_TEST

/* ---- traffic file ---- */

#define GROUP_SYNTAX \
	"expected 'group NAME guid GUID...' or 'group NAME prefix TEXT'"
#define NAME_RULE "group name must be 1-64 characters of A-Z a-z 0-9 _ - ."
#define BAD_GUID "bad GUID (expected e.g. 0x0002c90300001234)"
#define BAD_WEIGHT "weight must be a finite number >= 0"
#define BAD_DEFAULT \
	"expected 'default_weight VALUE' with a finite VALUE >= 0"

static const struct bad_case traffic_cases[] = {
	T("# ok\nweigth a a 1\n",
	  ":2: unknown keyword (known: group, weight, default_weight)"),
	T("group a\n", ":1: " GROUP_SYNTAX),
	T("group a host x\n", ":1: " GROUP_SYNTAX),
	T("group a guid\n", ":1: " GROUP_SYNTAX),
	T("group a/b prefix x\n", ":1: " NAME_RULE),
	T("group a1234567890123456789012345678901234567890123456789012345678901234 prefix x\n",
	  ":1: " NAME_RULE),
	T("group a prefix x y\n", ":1: a prefix is one word (no blanks)"),
	T("group a guid 0x10 0xzz\n", ":1: " BAD_GUID),
	T("group a guid 0\n", ":1: " BAD_GUID),
	T("group a guid -1\n", ":1: " BAD_GUID),
	T("weight a a\n", ":1: expected 'weight GROUP1 GROUP2 VALUE'"),
	T("weight a a 1 2\n", ":1: expected 'weight GROUP1 GROUP2 VALUE'"),
	T("weight a b/c 1\n", ":1: bad group name"),
	T("group a prefix x\nweight a a -1\n", ":2: " BAD_WEIGHT),
	T("group a prefix x\nweight a a nan\n", ":2: " BAD_WEIGHT),
	T("group a prefix x\nweight a a inf\n", ":2: " BAD_WEIGHT),
	T("group a prefix x\nweight a a 1e999\n", ":2: " BAD_WEIGHT),
	T("group a prefix x\nweight a a 1.5x\n", ":2: " BAD_WEIGHT),
	T("group a prefix x\n\nweight a b 1\n",
	  ":3: weight names group 'b', which no group line defines"),
	T("weight a b 1\ngroup b prefix x\n",
	  ":1: weight names group 'a', which no group line defines"),
	T("group a prefix x\ngroup b prefix y\nweight a b 1\nweight b a 2\n",
	  ":4: weight between 'b' and 'a' already given at line 3"),
	T("group a prefix x\nweight a a 1\nweight a a 1\n",
	  ":3: weight between 'a' and 'a' already given at line 2"),
	T("default_weight\n", ":1: " BAD_DEFAULT),
	T("default_weight -1\n", ":1: " BAD_DEFAULT),
	T("default_weight 1 2\n", ":1: " BAD_DEFAULT),
	B("group a prefix x\0y\n", ":1: NUL byte in the line"),
};

static int load_traffic(const char *path)
{
	struct ta_traffic t;
	int ret = ta_traffic_load(&t, path, &test_log);

	if (ret) {
		/* a failed load leaves nothing to free */
		ck_assert_uint_eq(t.n_groups, 0);
		ck_assert_uint_eq(t.n_rules, 0);
		ck_assert_ptr_null(t.names);
		ck_assert_ptr_null(t.rules);
		ck_assert_ptr_null(t.w);
	} else {
		ta_traffic_free(&t);
	}
	return ret;
}

START_TEST(traffic_file_errors)
{
	unsigned k;

	for (k = 0; k < N_CASES(traffic_cases); k++) {
		const char *p = case_file(&traffic_cases[k]);

		ck_assert_int_eq(load_traffic(p), -1);
		expect_core_error(p, traffic_cases[k].msg, k);
		unlink(p);
	}
}
END_TEST

START_TEST(traffic_file_limits)
{
	char *groups = many_groups(257), *ok_groups = many_groups(256);
	char *words = many_words("group a guid 0x1", 65);
	char *longl = long_line(5000);
	const char *p;

	p = write_tmp(groups, strlen(groups));
	ck_assert_int_eq(load_traffic(p), -1);
	expect_core_error(p, ":257: too many groups (at most 256)", 0);
	unlink(p);
	p = write_tmp(ok_groups, strlen(ok_groups));
	ck_assert_int_eq(load_traffic(p), 0);
	ck_assert_int_eq(n_errors, 0);
	unlink(p);
	p = write_tmp(words, strlen(words));
	ck_assert_int_eq(load_traffic(p), -1);
	expect_core_error(p, ":1: more than 64 words on the line", 1);
	unlink(p);
	p = write_tmp(longl, strlen(longl));
	ck_assert_int_eq(load_traffic(p), -1);
	expect_core_error(p, ":1: line longer than 4096 characters", 2);
	unlink(p);
	free(groups);
	free(ok_groups);
	free(words);
	free(longl);
}
END_TEST

START_TEST(traffic_file_not_readable)
{
	n_errors = 0;
	ck_assert_int_eq(load_traffic("/nonexistent/t.traffic"), -1);
	expect_core_error("/nonexistent/t.traffic",
			  ": cannot open traffic file: No such file or directory",
			  0);
	n_errors = 0;
	ck_assert_int_eq(load_traffic("/"), -1);
	expect_core_error("/", ": read error: Is a directory", 1);
}
END_TEST

/* what is allowed: an empty file, one group on several lines */
START_TEST(traffic_file_allowed)
{
	const char *p = write_tmp("", 0);
	struct ta_traffic t;

	ck_assert_int_eq(ta_traffic_load(&t, p, &test_log), 0);
	ck_assert_uint_eq(t.n_groups, 0);
	ck_assert(ta_traffic_weight(&t, 0, 0) == 1.0);
	ta_traffic_free(&t);
	unlink(p);
	p = write_tmp("group a prefix x\ngroup a guid 0x5\n",
		      strlen("group a prefix x\ngroup a guid 0x5\n"));
	ck_assert_int_eq(ta_traffic_load(&t, p, &test_log), 0);
	ck_assert_int_eq(n_errors, 0);
	ck_assert_uint_eq(t.n_groups, 1);
	ck_assert_uint_eq(t.n_rules, 2);
	ck_assert_uint_eq(ta_traffic_group_of(&t, 5, "y"), 0);
	ta_traffic_free(&t);
	unlink(p);
}
END_TEST

/* ---- netfile (turnadd-lids) ---- */

#define SW "Switch 4 \"s\"\n"

static const struct bad_case netfile_cases[] = {
	T("", ": no Switch, Hca, Ca or Rt record: not a netfile"),
	T("# only a comment\n\n",
	  ": no Switch, Hca, Ca or Rt record: not a netfile"),
	T("Switch \"s\"\n", ":1: expected the port count after the node type"),
	T("Switch 0 \"s\"\n", ":1: port count must be 1..254"),
	T("Hca 255 \"h\"\n", ":1: port count must be 1..254"),
	T("Switch 4 s\n", ":1: expected a quoted node name"),
	T("Switch 4 \"s\n", ":1: unterminated quoted node name"),
	T("Switch 4 \"\"\n", ":1: empty node name"),
	T("Switch 4 \"a#b\"\n",
	  ":1: node names with '#' or '@' (ibsim aliases and modules) are not supported"),
	T(SW "\n" SW, ":3: node \"s\" already defined at line 1"),
	T("switchguid=0x200000\nSwitch 1 \"a\"\n\nswitchguid=0x200000\nSwitch 1 \"b\"\n",
	  ":5: GUID 0x200000 of \"b\" is already node \"a\" (line 2); ibsim refuses it"),
	T("switchguid 0x10\n", ":1: missing '=' or '+' in GUID base"),
	T("switchguid=zz\n", ":1: bad GUID value"),
	T("caguid=0x10(zz)\n", ":1: bad port GUID in parentheses"),
	T(SW "[x] \"h\"[1]\n", ":2: expected [port number]"),
	T(SW "[1 \"h\"[1]\n", ":2: expected [port number]"),
	T(SW "[5] \"h\"[1]\n", ":2: port number out of range for this node"),
	T(SW "[1](zz) \"h\"[1]\n", ":2: bad port GUID in parentheses"),
	T(SW "[1] h[1]\n", ":2: expected a quoted node name"),
	T(SW "[1] \"h\"[0]\n", ":2: bad remote port number"),
	T(SW "[1] \"h\"[255]\n", ":2: bad remote port number"),
	T(SW "[1] \"h\"[1]\n[1] \"g\"[1]\n",
	  ":3: port 1 of \"s\" already cabled at line 2"),
	T(SW "@1 \"a\"\n", ":2: port aliases ('@') are not supported"),
	T("include \"x.net\"\n",
	  ":1: include, module and do lines are not supported"),
	T(SW "[1] \"h\"[1]\nHca 1 \"h\"\n",
	  ":3: the record of the node above must end with a blank line (ibsim would skip this line)"),
	B(SW "[1] \"h\"[1]\0 junk\n", ":2: NUL byte in the line"),
	/* the cabling, checked once the file is read */
	T(SW "[1] \"x\"[1]\n\n", ":2: unknown node \"x\""),
	T(SW "[1] \"s\"[2]\n\n", ":2: \"s\" is cabled to itself"),
	T(SW "[1] \"h\"[2]\n\nHca 1 \"h\"\n\n",
	  ":2: \"h\" has no port 2 (1 ports, line 4)"),
	T(SW "[1] \"h\"[1]\n[2] \"h\"[1]\n\nHca 1 \"h\"\n\n",
	  ":3: \"h\"[1] cabled to \"s\"[2], but line 2 cables it to \"s\"[1]"),
	T(SW "[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[2]\n\n",
	  ":5: \"h\"[1] cabled to \"s\"[2], but line 2 cables it to \"s\"[1]"),
};

/* ln_parse_path then ln_fabric_build, as turnadd-lids does */
static int read_netfile(const char *path, char *err)
{
	struct ln_fabric fab;
	struct ln_net net;
	int ret;

	ret = ln_parse_path(path, &net, err);
	if (ret) {
		ck_assert_uint_eq(net.n_nodes, 0);
		ck_assert_ptr_null(net.nodes);
		return ret;
	}
	ck_assert_str_eq(err, "");
	ret = ln_fabric_build(&net, true, &fab, err);
	if (!ret)
		ln_fabric_free(&fab);
	ln_free(&net);
	return ret;
}

START_TEST(netfile_errors)
{
	char err[LN_ERR_LEN];
	unsigned k;

	for (k = 0; k < N_CASES(netfile_cases); k++) {
		const char *p = case_file(&netfile_cases[k]);

		ck_assert_msg(read_netfile(p, err) == -1, "case %u accepted",
			      k);
		expect_msg(err, p, netfile_cases[k].msg, k);
		unlink(p);
	}
	ck_assert_int_eq(read_netfile("/nonexistent/x.net", err), -1);
	expect_msg(err, "/nonexistent/x.net",
		   ": cannot open: No such file or directory", k);
	ck_assert_int_eq(read_netfile("/", err), -1);
	expect_msg(err, "/", ": read error: Is a directory", k + 1);
	/* the smallest good one */
	ck_assert_int_eq(read_netfile(case_file(&(struct bad_case)
		T(SW "[1] \"h\"[1]\n\nHca 1 \"h\"\n[1] \"s\"[1]\n", "")), err),
			 0);
	unlink(tmp_path);
}
END_TEST

/* ---- guid2lid (turnadd-lids --existing) ---- */

#define TWO_LIDS ":1: expected a port GUID and two LIDs"
#define LID_RANGE ":1: LID range must be 1 <= MINLID <= MAXLID <= 49151"

static const struct bad_case g2l_cases[] = {
	T("zz 1 1\n", TWO_LIDS),
	T("0x0 1 1\n", TWO_LIDS),
	T("0x10000000000000000 1 1\n", TWO_LIDS),
	T("0x1,1 1\n", TWO_LIDS),
	T("0x1\n", ":1: expected MINLID after the GUID"),
	T("0x1 1\n", ":1: expected MAXLID after MINLID"),
	T("0x1 1 2 x\n", ":1: trailing characters after MAXLID"),
	T("0x1 0 0\n", LID_RANGE),
	T("0x1 5 4\n", LID_RANGE),
	T("0x1 1 49152\n", LID_RANGE),
	T("0x1 -1 1\n", LID_RANGE),
	T("0x1 1 1\n\n0x2 2 2\n\n0x1 3 3\n",
	  ":5: GUID 0x0000000000000001 appears twice"),
	B("0x1 1 1\0 junk\n", ":1: NUL byte in the line"),
};

static int read_g2l(const char *path, char *err, size_t *n)
{
	struct g2l_entry *e = NULL;
	int ret = g2l_read_path(path, &e, n, err);

	if (ret)
		ck_assert_ptr_null(e);
	free(e);
	return ret;
}

START_TEST(g2l_errors)
{
	char err[LN_ERR_LEN];
	unsigned k;
	size_t n;

	for (k = 0; k < N_CASES(g2l_cases); k++) {
		const char *p = case_file(&g2l_cases[k]);

		ck_assert_msg(read_g2l(p, err, &n) == -1, "case %u accepted",
			      k);
		expect_msg(err, p, g2l_cases[k].msg, k);
		unlink(p);
	}
	ck_assert_int_eq(read_g2l("/nonexistent/guid2lid", err, &n), -1);
	expect_msg(err, "/nonexistent/guid2lid",
		   ": cannot open: No such file or directory", k);
	ck_assert_int_eq(read_g2l("/", err, &n), -1);
	expect_msg(err, "/", ": read error: Is a directory", k + 1);
	/* OpenSM writes an empty guid2lid before the first sweep: allowed */
	ck_assert_int_eq(read_g2l(write_tmp("", 0), err, &n), 0);
	ck_assert_uint_eq(n, 0);
	unlink(tmp_path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parse_errors");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, option_file_errors);
	tcase_add_test(tc, option_file_limits);
	tcase_add_test(tc, option_file_not_readable);
	tcase_add_test(tc, option_file_empty_is_defaults);
	tcase_add_test(tc, traffic_file_errors);
	tcase_add_test(tc, traffic_file_limits);
	tcase_add_test(tc, traffic_file_not_readable);
	tcase_add_test(tc, traffic_file_allowed);
	tcase_add_test(tc, netfile_errors);
	tcase_add_test(tc, g2l_errors);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
