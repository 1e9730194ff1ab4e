// SPDX-License-Identifier: MIT
/*
 * Port-major LID order: exact LIDs on small fabrics, block padding,
 * stability of old LIDs, newcomers, overflow, LMC alignment, and the
 * netfile / guid2lid readers' errors.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lid_g2l.h"
#include "lid_netfab.h"
#include "lid_order.h"

#define MAX_P 300

struct fab {
	uint64_t sw[MAX_P];
	struct la_port p[MAX_P];
	struct la_input in;
	struct la_result r;
};

static void fab_init(struct fab *f)
{
	memset(f, 0, sizeof(*f));
	f->in.sw_guid = f->sw;
	f->in.ports = f->p;
}

static uint32_t add_sw(struct fab *f, uint64_t guid)
{
	uint32_t s = f->in.n_sw++;
	struct la_port *p = &f->p[f->in.n_ports++];

	f->sw[s] = guid;
	p->guid = guid;
	p->kind = LA_SWITCH;
	p->sw = s;
	return s;
}

static struct la_port *add_host(struct fab *f, uint32_t sw, uint8_t port,
				uint64_t guid, uint16_t old)
{
	struct la_port *p = &f->p[f->in.n_ports++];

	p->guid = guid;
	p->kind = LA_HOST;
	p->sw = sw;
	p->sw_port = port;
	p->old_lid = old;
	return p;
}

static uint16_t lid_of(const struct fab *f, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < f->in.n_ports; i++)
		if (f->p[i].guid == guid)
			return f->p[i].lid;
	ck_abort_msg("no port 0x%llx", (unsigned long long)guid);
	return 0;
}

static void run(struct fab *f)
{
	ck_assert_int_eq(la_assign(&f->in, &f->r), 0);
}

/* two leaves (GUIDs out of order) and a spine; hosts on odd ports */
static void small_fabric(struct fab *f)
{
	uint32_t b, a;

	fab_init(f);
	b = add_sw(f, 0x20);
	a = add_sw(f, 0x10);
	add_sw(f, 0x30);
	add_host(f, b, 3, 0xb3, 0);
	add_host(f, b, 1, 0xb1, 0);
	add_host(f, a, 2, 0xa2, 0);
	add_host(f, a, 5, 0xa5, 0);
}

START_TEST(test_exact_order)
{
	struct fab f;

	small_fabric(&f);
	run(&f);
	/* group 0: rank-0 hosts by switch GUID, from LID 1 */
	ck_assert_uint_eq(lid_of(&f, 0xa2), 1);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 2);
	/* group 1 on the next block */
	ck_assert_uint_eq(lid_of(&f, 0xa5), 64);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 65);
	/* switches last, by GUID */
	ck_assert_uint_eq(lid_of(&f, 0x10), 128);
	ck_assert_uint_eq(lid_of(&f, 0x20), 129);
	ck_assert_uint_eq(lid_of(&f, 0x30), 130);
	ck_assert_uint_eq(f.r.n_groups, 3);
	ck_assert_uint_eq(f.r.n_host_groups, 2);
	ck_assert_uint_eq(f.r.placed, 7);
	ck_assert_uint_eq(f.r.groups[1].lo, 64);
	ck_assert_uint_eq(f.r.groups[1].hi, 127);
	ck_assert_uint_eq(f.p[2].rank, 0);
	ck_assert_uint_eq(f.p[3].rank, 1);
	la_result_free(&f.r);
}
END_TEST

/* n leaves with one host each: group 0 holds n hosts */
static void leaves(struct fab *f, uint32_t n)
{
	uint32_t i;

	fab_init(f);
	for (i = 0; i < n; i++)
		add_host(f, add_sw(f, 0x1000 + i), 1, 0x5000 + i, 0);
}

START_TEST(test_padding)
{
	struct fab f;

	leaves(&f, 63);		/* LIDs 1..63 fill block 0 */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 62), 63);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 64);
	ck_assert_uint_eq(f.r.groups[0].hi, 63);
	la_result_free(&f.r);

	leaves(&f, 64);		/* one more: two blocks, switches at 128 */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 63), 64);
	ck_assert_uint_eq(f.r.groups[0].hi, 127);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 128);
	ck_assert_uint_eq(f.r.groups[1].lo, 128);
	ck_assert_uint_eq(f.r.groups[1].hi, 191);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_stable_and_moved)
{
	struct fab f;

	small_fabric(&f);
	f.p[5].old_lid = 5;	/* 0xa2, group 0, in range: kept */
	f.p[4].old_lid = 70;	/* 0xb1, group 0, in group 1's range */
	f.p[0].old_lid = 129;	/* switch 0x20 keeps 129 */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 5);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 1);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 64);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 65);
	ck_assert_uint_eq(lid_of(&f, 0x10), 128);
	ck_assert_uint_eq(lid_of(&f, 0x20), 129);
	ck_assert_uint_eq(lid_of(&f, 0x30), 130);
	ck_assert_uint_eq(f.r.kept, 2);
	ck_assert_uint_eq(f.r.moved, 1);
	ck_assert_int_eq(f.p[4].fate, LA_PLACED);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_newcomer_in_group)
{
	static const uint64_t g[] = { 0xa2, 0xb1, 0xa5, 0xb3, 0x10, 0x20,
				      0x30 };
	static const uint16_t l[] = { 1, 2, 64, 65, 128, 129, 130 };
	struct fab f;
	uint32_t c, i, k;

	small_fabric(&f);
	for (i = 0; i < f.in.n_ports; i++)
		for (k = 0; k < 7; k++)
			if (f.p[i].guid == g[k])
				f.p[i].old_lid = l[k];
	c = add_sw(&f, 0x15);
	add_host(&f, c, 1, 0xc1, 0);
	run(&f);
	for (k = 0; k < 7; k++)
		ck_assert_uint_eq(lid_of(&f, g[k]), l[k]);
	ck_assert_uint_eq(lid_of(&f, 0xc1), 3);
	ck_assert_uint_eq(lid_of(&f, 0x15), 131);
	ck_assert_uint_eq(f.r.kept, 7);
	ck_assert_uint_eq(f.r.placed, 2);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_full_group_overflows)
{
	struct fab f;
	uint32_t i, s;

	leaves(&f, 63);
	for (i = 0; i < 63; i++) {
		f.p[2 * i].old_lid = 64 + i;		/* switches */
		f.p[2 * i + 1].old_lid = 1 + i;		/* hosts */
	}
	s = add_sw(&f, 0x1000 + 63);
	add_host(&f, s, 1, 0x5000 + 63, 0);
	run(&f);
	ck_assert(f.r.inherited);
	ck_assert_uint_eq(f.r.kept, 126);
	ck_assert_uint_eq(lid_of(&f, 0x5000), 1);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 64);
	/* the new switch fits its group, the new host does not */
	ck_assert_uint_eq(lid_of(&f, 0x1000 + 63), 127);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 63), 128);
	ck_assert_int_eq(f.p[f.in.n_ports - 1].fate, LA_OVERFLOW);
	ck_assert_uint_eq(f.r.overflow, 1);
	la_result_free(&f.r);

	/* next time the overflow port keeps its LID */
	f.p[f.in.n_ports - 2].old_lid = 127;
	f.p[f.in.n_ports - 1].old_lid = 128;
	run(&f);
	ck_assert_uint_eq(f.r.kept, 128);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 63), 128);
	la_result_free(&f.r);
}
END_TEST

/* OpenSM's own order (switches first): renumbered to port-major */
START_TEST(test_migrate_from_other_order)
{
	struct fab f;

	small_fabric(&f);
	f.p[0].old_lid = 1;	/* switches 1-3, hosts 4-7 */
	f.p[1].old_lid = 2;
	f.p[2].old_lid = 3;
	f.p[3].old_lid = 4;
	f.p[4].old_lid = 5;
	f.p[5].old_lid = 6;
	f.p[6].old_lid = 7;
	run(&f);
	ck_assert(!f.r.inherited);
	ck_assert_uint_eq(f.r.overflow, 0);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 6);	/* group 0, kept */
	ck_assert_uint_eq(lid_of(&f, 0xb1), 5);	/* group 0, kept */
	ck_assert_uint_eq(lid_of(&f, 0xa5), 64);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 65);
	ck_assert_uint_eq(lid_of(&f, 0x10), 128);
	ck_assert_uint_eq(lid_of(&f, 0x20), 129);
	ck_assert_uint_eq(lid_of(&f, 0x30), 130);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_lmc_alignment)
{
	struct fab f;

	small_fabric(&f);
	f.in.lmc = 2;
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 4);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 8);
	ck_assert_uint_eq(f.p[3].n_lids, 4);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 64);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 68);
	ck_assert_uint_eq(lid_of(&f, 0x10), 128);	/* base SP0: 1 LID */
	ck_assert_uint_eq(lid_of(&f, 0x20), 129);
	ck_assert_uint_eq(f.p[0].n_lids, 1);
	la_result_free(&f.r);

	small_fabric(&f);
	f.in.lmc = 2;
	f.in.sp0_lmc = true;
	f.p[5].old_lid = 6;	/* not aligned to 4: moved */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 4);
	ck_assert_uint_eq(lid_of(&f, 0x20), 132);
	ck_assert_uint_eq(lid_of(&f, 0x30), 136);
	ck_assert_uint_eq(f.r.moved, 1);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_reserved_and_loose)
{
	static const struct la_range res[] = { { 1, 1 }, { 64, 65 } };
	struct fab f;
	struct la_port *loose;

	small_fabric(&f);
	f.in.reserved = res;
	f.in.n_reserved = 2;
	loose = &f.p[f.in.n_ports++];
	loose->guid = 0xdd;
	loose->kind = LA_LOOSE;
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 2);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 3);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 66);
	ck_assert_uint_eq(lid_of(&f, 0x30), 130);
	ck_assert_uint_eq(lid_of(&f, 0xdd), 192);	/* after all groups */
	ck_assert_uint_eq(f.r.loose, 1);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_bad_input)
{
	struct fab f;
	struct la_result r;

	small_fabric(&f);
	f.p[3].sw = 99;
	ck_assert_int_lt(la_assign(&f.in, &r), 0);
	small_fabric(&f);
	f.in.lmc = 8;
	ck_assert_int_lt(la_assign(&f.in, &r), 0);
}
END_TEST

/* ---- netfile reader ---- */

static int parse_text(const char *text, struct ln_net *net,
		      struct ln_fabric *fab, bool ibsim, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = ln_parse(f, "t.net", net, err);
	fclose(f);
	if (!ret) {
		ret = ln_fabric_build(net, ibsim, fab, err);
		ln_free(net);
	}
	return ret;
}

static void expect_error(const char *text, const char *msg)
{
	struct ln_net net;
	struct ln_fabric fab;
	char err[LN_ERR_LEN];

	ck_assert_int_eq(parse_text(text, &net, &fab, true, err), -1);
	ck_assert_msg(strstr(err, msg), "got \"%s\", want \"%s\"", err, msg);
}

static const char good_net[] =
	"# comment\n"
	"Switch\t8 \"sw\"\n"
	"[1]\t\"h1\"[1]\t\t# \"h1\" lid 0 4xQDR\n"
	"[2]\t\"h2\"[1]\n"
	"\n"
	"Hca\t1 \"h1\"\n"
	"[1]\t\"sw\"[1]\n"
	"\n"
	"caguid=0x500\n"
	"Ca\t2 \"h2\"\n"
	"[2](abc)\t\"h3\"[1]\n"
	"\n"
	"Hca\t1 \"h3\"\n";

START_TEST(test_netfile_guids)
{
	struct ln_net net;
	struct ln_fabric fab;
	char err[LN_ERR_LEN];

	ck_assert_int_eq(parse_text(good_net, &net, &fab, true, err), 0);
	ck_assert_uint_eq(fab.in.n_sw, 1);
	ck_assert_uint_eq(fab.sw_guid[0], 0x200000);
	/* sw port 0, h1 port 1, h2 port 1 (cabled from sw), h2 port 2
	 * (loose, to h3), h3 port 1 */
	ck_assert_uint_eq(fab.in.n_ports, 5);
	ck_assert_uint_eq(fab.in.ports[0].guid, 0x200000);
	ck_assert_uint_eq(fab.in.ports[1].guid, 0x100001);
	ck_assert_uint_eq(fab.in.ports[1].kind, LA_HOST);
	ck_assert_uint_eq(fab.in.ports[2].guid, 0x501);
	ck_assert_uint_eq(fab.in.ports[2].sw_port, 2);
	ck_assert_uint_eq(fab.in.ports[3].guid, 0x502);
	ck_assert_uint_eq(fab.in.ports[3].kind, LA_LOOSE);
	ck_assert_uint_eq(fab.in.ports[4].guid, 0x504);
	ln_fabric_free(&fab);

	/* explicit port GUIDs win unless ibsim's are asked for */
	ck_assert_int_eq(parse_text(good_net, &net, &fab, false, err), 0);
	ck_assert_uint_eq(fab.in.ports[3].guid, 0xabc);
	ln_fabric_free(&fab);
}
END_TEST

START_TEST(test_netfile_errors)
{
	expect_error("Switch 4 \"s\"\n[1] \"h\"[1]\nHca 1 \"h\"\n",
		     "t.net:3: the record of the node above must end with a blank line");
	expect_error("Switch 4 \"s\"\n[1] \"x\"[1]\n\n",
		     "t.net:2: unknown node \"x\"");
	expect_error("Switch 4 \"s\"\n[5] \"h\"[1]\n\n",
		     "t.net:2: port number out of range");
	expect_error("Switch 4 \"s\"\n\nSwitch 4 \"s\"\n",
		     "t.net:3: node \"s\" already defined at line 1");
	expect_error("Switch \"s\"\n", "t.net:1: expected the port count");
	expect_error("Switch 4 s\n", "t.net:1: expected a quoted node name");
	expect_error("Switch 4 \"s\"\n[1] \"h\"[1]\n[2] \"h\"[1]\n\nHca 1 \"h\"\n\n",
		     "t.net:3: \"h\"[1] cabled to \"s\"[2], but line 2 cables it to \"s\"[1]");
	expect_error("Switch 4 \"s\"\n[1] \"h\"[2]\n\nHca 1 \"h\"\n\n",
		     "t.net:2: \"h\" has no port 2");
	expect_error("include \"x.net\"\n", "t.net:1: include");
	expect_error("switchguid 0x10\n", "t.net:1: missing '=' or '+'");
	expect_error("Switch 4 \"s\"\n@1 \"a\"\n", "t.net:2: port aliases");
	expect_error("switchguid=0x100000\nSwitch 1 \"a\"\n\nHca 1 \"b\"\n\n"
		     "Switch 1 \"c\"\n\n",
		     "t.net:4: GUID 0x100000 of \"b\" is already node \"a\"");
}
END_TEST

/* ---- guid2lid files ---- */

START_TEST(test_g2l_roundtrip_and_errors)
{
	static const char text[] = "0x0000000000000002 5 5\n\n"
				   "0x0000000000000001 1 1\n\n";
	struct g2l_entry *e;
	char err[LN_ERR_LEN], *buf = NULL;
	size_t n, len = 0;
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	ck_assert_int_eq(g2l_read(f, "g", &e, &n, err), 0);
	fclose(f);
	ck_assert_uint_eq(n, 2);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(g2l_write(f, e, n), 0);
	fclose(f);
	ck_assert_str_eq(buf, "0x0000000000000001 1 1\n\n"
			      "0x0000000000000002 5 5\n\n");
	free(buf);
	free(e);

	f = fmemopen((void *)"0x1 1 1\n0x2 7\n", 14, "r");
	ck_assert_int_eq(g2l_read(f, "g", &e, &n, err), -1);
	fclose(f);
	ck_assert_str_eq(err, "g:2: expected MAXLID after MINLID");
	f = fmemopen((void *)"0x1 1 1\n\n0x1 2 2\n", 17, "r");
	ck_assert_int_eq(g2l_read(f, "g", &e, &n, err), -1);
	fclose(f);
	ck_assert_str_eq(err, "g:3: GUID 0x0000000000000001 appears twice");
	f = fmemopen((void *)"0x1 0 1\n", 8, "r");
	ck_assert_int_eq(g2l_read(f, "g", &e, &n, err), -1);
	fclose(f);
	ck_assert_msg(strstr(err, "g:1: LID range"), "%s", err);
}
END_TEST

static Suite *lid_suite(void)
{
	Suite *s = suite_create("lid_order");
	TCase *t = tcase_create("order");

	tcase_add_test(t, test_exact_order);
	tcase_add_test(t, test_padding);
	tcase_add_test(t, test_stable_and_moved);
	tcase_add_test(t, test_newcomer_in_group);
	tcase_add_test(t, test_full_group_overflows);
	tcase_add_test(t, test_migrate_from_other_order);
	tcase_add_test(t, test_lmc_alignment);
	tcase_add_test(t, test_reserved_and_loose);
	tcase_add_test(t, test_bad_input);
	suite_add_tcase(s, t);
	t = tcase_create("files");
	tcase_add_test(t, test_netfile_guids);
	tcase_add_test(t, test_netfile_errors);
	tcase_add_test(t, test_g2l_roundtrip_and_errors);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lid_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
