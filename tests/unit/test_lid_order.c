// SPDX-License-Identifier: MIT
/*
 * Port-major LID order: exact LIDs on small fabrics (switch LIDs inside
 * the host groups), block padding, stability of old LIDs, newcomers on a
 * lower port, switch indices and R changing, overflow, LMC alignment,
 * and the netfile / guid2lid readers' errors.
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

/* the LIDs of this run become the old LIDs of the next */
static void keep_lids(struct fab *f)
{
	uint32_t i;

	for (i = 0; i < f->in.n_ports; i++)
		f->p[i].old_lid = f->p[i].lid;
	la_result_free(&f->r);
}

/*
 * Two leaves (GUIDs out of order) and a spine; hosts on ports 1, 3 of
 * leaf 0x20 and 2, 5 of leaf 0x10.  R = 5; switch indices in GUID
 * order: 0x10 -> 0, 0x20 -> 1, 0x30 -> 2.
 */
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
	ck_assert_uint_eq(f.r.n_groups, 5);
	/* group 0: hosts on switch port 1, then switch index 0 */
	ck_assert_uint_eq(lid_of(&f, 0xb1), 1);
	ck_assert_uint_eq(lid_of(&f, 0x10), 2);
	/* group 1 (port 2) on the next block, then switch index 1 */
	ck_assert_uint_eq(lid_of(&f, 0xa2), 64);
	ck_assert_uint_eq(lid_of(&f, 0x20), 65);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 128);
	ck_assert_uint_eq(lid_of(&f, 0x30), 129);
	/* group 3 (port 4) is empty and takes no space */
	ck_assert_uint_lt(f.r.groups[3].hi, f.r.groups[3].lo);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 192);
	ck_assert_uint_eq(f.r.groups[4].lo, 192);
	ck_assert_uint_eq(f.r.groups[4].hi, 255);
	ck_assert_uint_eq(f.r.groups[1].hosts, 1);
	ck_assert_uint_eq(f.r.groups[1].switches, 1);
	ck_assert_uint_eq(f.r.end, 256);
	ck_assert_uint_eq(f.r.placed, 7);
	ck_assert(!f.r.sw_anywhere);
	/* ranks are the core's spreads */
	ck_assert_uint_eq(f.p[0].rank, 1);	/* switch 0x20 */
	ck_assert_uint_eq(f.p[2].rank, 2);	/* switch 0x30 */
	ck_assert_uint_eq(f.p[3].rank, 2);	/* 0xb3: port 3 */
	ck_assert_uint_eq(f.p[6].rank, 4);	/* 0xa5: port 5 */
	la_result_free(&f.r);
}
END_TEST

/*
 * Leaf/spine: leaves 0x100 + i (i < n_leaves), spines 0x200 + k, hosts
 * on ports 1..hosts of every leaf, host GUID 0x1000 * (port) + leaf.
 */
static void leaf_spine(struct fab *f, uint32_t n_leaves, uint32_t n_spines,
		       uint32_t hosts)
{
	uint32_t i, k, s;

	fab_init(f);
	for (i = 0; i < n_leaves; i++) {
		s = add_sw(f, 0x100 + i);
		for (k = 1; k <= hosts; k++)
			add_host(f, s, (uint8_t)k, 0x1000 * k + i, 0);
	}
	for (k = 0; k < n_spines; k++)
		add_sw(f, 0x200 + k);
}

/* leaf switch LIDs routed through spine k sit in spine k's range */
START_TEST(test_switch_lids_in_groups)
{
	struct fab f;
	uint32_t i;

	leaf_spine(&f, 4, 2, 2);
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 2);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(lid_of(&f, 0x1000 + i), 1 + i);
		ck_assert_uint_eq(lid_of(&f, 0x2000 + i), 64 + i);
	}
	/* switch indices: leaves 0-3, spines 4, 5; index mod 2 */
	ck_assert_uint_eq(lid_of(&f, 0x100), 5);
	ck_assert_uint_eq(lid_of(&f, 0x102), 6);
	ck_assert_uint_eq(lid_of(&f, 0x200), 7);
	ck_assert_uint_eq(lid_of(&f, 0x101), 68);
	ck_assert_uint_eq(lid_of(&f, 0x103), 69);
	ck_assert_uint_eq(lid_of(&f, 0x201), 70);
	ck_assert_uint_eq(f.r.groups[0].hi, 63);
	ck_assert_uint_eq(f.r.groups[1].lo, 64);
	ck_assert_uint_eq(f.r.groups[1].hi, 127);
	la_result_free(&f.r);
}
END_TEST

/* n leaves with one host each (on port 1): R = 1 */
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

	leaves(&f, 31);		/* 62 LIDs: block 0 */
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 1);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 30), 31);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 32);
	ck_assert_uint_eq(lid_of(&f, 0x1000 + 30), 62);
	ck_assert_uint_eq(f.r.groups[0].hi, 63);
	la_result_free(&f.r);

	leaves(&f, 32);		/* 64 LIDs: LID 0 is not one, two blocks */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0x1000 + 31), 64);
	ck_assert_uint_eq(f.r.groups[0].hi, 127);
	ck_assert_uint_eq(f.r.end, 128);
	la_result_free(&f.r);

	/* switches only: one group */
	fab_init(&f);
	add_sw(&f, 0x9);
	add_sw(&f, 0x8);
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 1);
	ck_assert_uint_eq(lid_of(&f, 0x8), 1);
	ck_assert_uint_eq(lid_of(&f, 0x9), 2);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_stable_and_moved)
{
	struct fab f;

	small_fabric(&f);
	f.p[5].old_lid = 70;	/* 0xa2, group 1, in range: kept */
	f.p[0].old_lid = 70;	/* switch 0x20 asks for the same LID */
	f.p[3].old_lid = 5;	/* 0xb3, group 2, in group 0's range */
	f.p[2].old_lid = 100;	/* switch 0x30, group 2, in group 1's */
	run(&f);
	/* half the host LIDs are out of place: switches are moved too */
	ck_assert(!f.r.sw_anywhere);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 1);
	ck_assert_uint_eq(lid_of(&f, 0x10), 2);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 70);
	ck_assert_uint_eq(lid_of(&f, 0x20), 64);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 128);
	ck_assert_uint_eq(lid_of(&f, 0x30), 129);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 192);
	ck_assert_uint_eq(f.r.kept, 1);
	ck_assert_uint_eq(f.r.moved, 3);
	ck_assert_int_eq(f.p[3].fate, LA_PLACED);
	la_result_free(&f.r);
}
END_TEST

/* a host appearing on a lower port moves no one (rank = port - 1) */
START_TEST(test_newcomer_lower_port)
{
	struct fab f;
	uint32_t i;

	leaf_spine(&f, 4, 2, 2);
	/* leaf 0's port-1 host (ports[1]) is absent */
	f.in.n_ports--;
	memmove(&f.p[1], &f.p[2], (f.in.n_ports - 1) * sizeof(f.p[0]));
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0x1001), 1);
	ck_assert_uint_eq(lid_of(&f, 0x1003), 3);
	ck_assert_uint_eq(lid_of(&f, 0x2000), 64);	/* port 2 of leaf 0 */
	ck_assert_uint_eq(lid_of(&f, 0x100), 4);
	ck_assert_uint_eq(lid_of(&f, 0x200), 6);
	keep_lids(&f);

	add_host(&f, 0, 1, 0x1000, 0);	/* the newcomer on port 1 */
	run(&f);
	ck_assert_uint_eq(f.r.kept, 13);
	ck_assert_uint_eq(f.r.moved, 0);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 7);	/* group 0's spare */
	ck_assert_uint_eq(lid_of(&f, 0x2000), 64);
	for (i = 0; i < f.in.n_ports - 1; i++)
		ck_assert_uint_eq(f.p[i].lid, f.p[i].old_lid);
	ck_assert_int_eq(f.p[f.in.n_ports - 1].fate, LA_PLACED);
	la_result_free(&f.r);
}
END_TEST

/* a new switch shifts the indices of the switches above it */
START_TEST(test_new_switch_shifts_indices)
{
	struct fab f;
	uint32_t s, i;

	leaf_spine(&f, 4, 2, 2);
	run(&f);
	keep_lids(&f);
	s = add_sw(&f, 0x104);		/* index 4: spines become 5, 6 */
	add_host(&f, s, 1, 0x1004, 0);
	run(&f);
	ck_assert(f.r.sw_anywhere);
	ck_assert_uint_eq(f.r.kept, 14);
	ck_assert_uint_eq(f.r.moved, 0);
	for (i = 0; i < 14; i++)
		ck_assert_uint_eq(f.p[i].lid, f.p[i].old_lid);
	ck_assert_uint_eq(lid_of(&f, 0x1004), 8);
	ck_assert_uint_eq(lid_of(&f, 0x104), 9);
	/* spine 0 (now group 1) stays at 7, spine 1 (group 0) at 70 */
	ck_assert_uint_eq(f.r.groups[0].guests, 1);
	ck_assert_uint_eq(f.r.groups[1].guests, 1);
	la_result_free(&f.r);
}
END_TEST

/* R grows from 2 to 3: switch groups change, no LID moves */
START_TEST(test_r_changes)
{
	struct fab f;
	uint32_t i;

	leaf_spine(&f, 4, 2, 2);
	run(&f);
	keep_lids(&f);
	add_host(&f, 1, 3, 0x3001, 0);	/* port 3 of leaf 0x101 */
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 3);
	ck_assert_uint_eq(f.r.kept, 14);
	ck_assert_uint_eq(f.r.moved, 0);
	for (i = 0; i < 14; i++)
		ck_assert_uint_eq(f.p[i].lid, f.p[i].old_lid);
	ck_assert_uint_eq(lid_of(&f, 0x3001), 128);
	ck_assert_uint_eq(f.r.groups[2].lo, 128);
	la_result_free(&f.r);

	/* and back to 2: the host's LID is no one else's */
	f.in.n_ports--;
	run(&f);
	ck_assert_uint_eq(f.r.kept, 14);
	ck_assert_uint_eq(f.r.moved, 0);
	la_result_free(&f.r);
}
END_TEST

/* a guest switch LID yields when its group needs the room */
START_TEST(test_guest_yields)
{
	static const struct la_range res[] = { { 3, 63 } };
	struct fab f;
	uint32_t a, b;

	fab_init(&f);
	a = add_sw(&f, 0x10);			/* index 0: group 0 */
	b = add_sw(&f, 0x11);			/* index 1: group 1 */
	add_host(&f, a, 1, 0xa1, 0);		/* group 0, new */
	add_host(&f, b, 2, 0xb2, 64);		/* group 1, at home */
	f.p[0].old_lid = 2;
	f.p[1].old_lid = 1;			/* guest in group 0 */
	f.in.reserved = res;
	f.in.n_reserved = 1;
	run(&f);
	ck_assert(f.r.sw_anywhere);
	ck_assert_uint_eq(lid_of(&f, 0xa1), 1);
	ck_assert_uint_eq(lid_of(&f, 0x10), 2);
	ck_assert_uint_eq(lid_of(&f, 0xb2), 64);
	ck_assert_uint_eq(lid_of(&f, 0x11), 65);
	ck_assert_uint_eq(f.r.moved, 1);
	ck_assert_uint_eq(f.r.overflow, 0);
	la_result_free(&f.r);
}
END_TEST

/*
 * 42 leaves with hosts on ports 1 and 2, no spine: groups 0 and 1 hold
 * 42 hosts + 21 switches each, 63 ports: group 0 fills LIDs 1-63.
 */
START_TEST(test_full_group_overflows)
{
	struct fab f;
	uint32_t s;

	leaf_spine(&f, 42, 0, 2);
	run(&f);
	ck_assert_uint_eq(f.r.groups[0].hi, 63);
	ck_assert_uint_eq(lid_of(&f, 0x100 + 40), 63);
	ck_assert_uint_eq(lid_of(&f, 0x100 + 41), 126);
	keep_lids(&f);
	s = add_sw(&f, 0x100 + 42);		/* index 42: group 0 */
	add_host(&f, s, 1, 0x1000 + 42, 0);
	run(&f);
	ck_assert(f.r.inherited);
	ck_assert_uint_eq(f.r.kept, 126);
	ck_assert_uint_eq(f.r.moved, 0);
	ck_assert_uint_eq(f.r.overflow, 2);
	ck_assert_uint_eq(lid_of(&f, 0x1000 + 42), 128);
	ck_assert_uint_eq(lid_of(&f, 0x100 + 42), 129);
	ck_assert_int_eq(f.p[f.in.n_ports - 1].fate, LA_OVERFLOW);
	keep_lids(&f);

	/* next time the overflow ports keep their LIDs */
	run(&f);
	ck_assert_uint_eq(f.r.kept, 128);
	ck_assert_uint_eq(lid_of(&f, 0x1000 + 42), 128);
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
	ck_assert(!f.r.sw_anywhere);
	ck_assert_uint_eq(f.r.overflow, 0);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 5);		/* group 0, kept */
	ck_assert_uint_eq(lid_of(&f, 0x10), 2);		/* group 0, kept */
	ck_assert_uint_eq(lid_of(&f, 0xa2), 64);
	ck_assert_uint_eq(lid_of(&f, 0x20), 65);	/* switch moved too */
	ck_assert_uint_eq(lid_of(&f, 0xb3), 128);
	ck_assert_uint_eq(lid_of(&f, 0x30), 129);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 192);
	ck_assert_uint_eq(f.r.moved, 5);
	la_result_free(&f.r);
}
END_TEST

START_TEST(test_lmc_alignment)
{
	struct fab f;

	small_fabric(&f);
	f.in.lmc = 2;
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 4);
	ck_assert_uint_eq(f.p[4].n_lids, 4);
	ck_assert_uint_eq(lid_of(&f, 0x10), 8);		/* base SP0: 1 LID */
	ck_assert_uint_eq(f.p[1].n_lids, 1);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 64);
	ck_assert_uint_eq(lid_of(&f, 0x20), 68);
	ck_assert_uint_eq(lid_of(&f, 0xb3), 128);
	ck_assert_uint_eq(lid_of(&f, 0xa5), 192);
	la_result_free(&f.r);

	small_fabric(&f);
	f.in.lmc = 2;
	f.in.sp0_lmc = true;
	f.p[4].old_lid = 6;	/* 0xb1: not aligned to 4: moved */
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0xb1), 4);
	ck_assert_uint_eq(lid_of(&f, 0x10), 8);
	ck_assert_uint_eq(f.p[1].n_lids, 4);
	ck_assert_uint_eq(lid_of(&f, 0x20), 68);
	ck_assert_uint_eq(lid_of(&f, 0x30), 132);
	ck_assert_uint_eq(f.r.moved, 1);
	la_result_free(&f.r);

	/* 15 hosts x 4 LIDs fill LIDs 4-63 of block 0 (1-3 are lost to
	 * alignment): their 15 switches need a second block */
	leaves(&f, 15);
	f.in.lmc = 2;
	run(&f);
	ck_assert_uint_eq(lid_of(&f, 0x5000 + 14), 60);
	ck_assert_uint_eq(lid_of(&f, 0x1000), 64);
	ck_assert_uint_eq(f.r.groups[0].hi, 127);
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
	ck_assert_uint_eq(lid_of(&f, 0xb1), 2);
	ck_assert_uint_eq(lid_of(&f, 0x10), 3);
	ck_assert_uint_eq(lid_of(&f, 0xa2), 66);
	ck_assert_uint_eq(lid_of(&f, 0x20), 67);
	ck_assert_uint_eq(lid_of(&f, 0x30), 129);
	ck_assert_uint_eq(lid_of(&f, 0xdd), 256);	/* after all groups */
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
	small_fabric(&f);
	f.p[3].sw_port = 0;
	ck_assert_int_lt(la_assign(&f.in, &r), 0);
	small_fabric(&f);
	f.sw[2] = 0x10;		/* duplicate switch GUID */
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

/* sw_peers of leaf_spine(): a leaf sees every spine, a spine every leaf */
static void spine_peers(struct fab *f, uint32_t *peers, uint32_t n_leaves,
			uint32_t n_spines)
{
	uint32_t s;

	for (s = 0; s < f->in.n_sw; s++)
		peers[s] = s < n_leaves ? n_spines : n_leaves;
	f->in.sw_peers = peers;
}

/*
 * Oversubscribed leaves (4 host ports, 2 spines): ranks r and r + 2
 * share spine r mod 2, so they share a group (P = 2 groups) when they
 * fit in one block together; they keep it when a spine fails (P = 1
 * then; the old LIDs show the period 2).  Too many leaves for one
 * block: one group per rank as without the period.
 */
START_TEST(test_period_groups)
{
	static struct fab f, g;
	uint32_t peers[MAX_P], i;

	leaf_spine(&f, 4, 2, 4);
	spine_peers(&f, peers, 4, 2);
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 2);
	/* group 0: ports 1 and 3 of the 4 leaves, then switches 0, 2, 4 */
	for (i = 0; i < 4; i++) {
		ck_assert_uint_lt(lid_of(&f, 0x1000 + i), 12);
		ck_assert_uint_lt(lid_of(&f, 0x3000 + i), 12);
		ck_assert_uint_ge(lid_of(&f, 0x2000 + i), 64);
		ck_assert_uint_lt(lid_of(&f, 0x4000 + i), 76);
	}
	ck_assert_uint_eq(lid_of(&f, 0x200), 9 + 2);	/* index 4 */
	ck_assert_uint_eq(f.r.end, 128);

	/* spine 0x201 fails: the leaves see one spine */
	leaf_spine(&g, 4, 1, 4);
	for (i = 0; i < g.in.n_ports; i++)
		g.p[i].old_lid = lid_of(&f, g.p[i].guid);
	spine_peers(&g, peers, 4, 1);
	run(&g);
	ck_assert_uint_eq(g.r.n_groups, 2);
	ck_assert_uint_eq(g.r.moved, 0);
	for (i = 0; i < g.in.n_ports; i++)
		ck_assert_uint_eq(g.p[i].lid, lid_of(&f, g.p[i].guid));
	la_result_free(&g.r);
	la_result_free(&f.r);

	/* 40 leaves: 80 hosts share a spine, more than a block */
	leaf_spine(&f, 40, 2, 4);
	spine_peers(&f, peers, 40, 2);
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 4);
	la_result_free(&f.r);
}
END_TEST

/*
 * Hosts absent at bring-up (port 1 of 30 of the 50 leaves): group 0 is
 * sized for all 50, so they find room in it when they arrive (the 20
 * present and the 26 switch LIDs alone would fit in one block).
 */
START_TEST(test_room_for_absent)
{
	static struct fab f;
	uint32_t peers[MAX_P], i, n = 0;

	leaf_spine(&f, 50, 2, 2);
	for (i = 0; i < f.in.n_ports; i++)
		if (f.p[i].kind != LA_HOST || f.p[i].sw_port != 1 ||
		    f.p[i].sw >= 30)
			f.p[n++] = f.p[i];
	f.in.n_ports = n;
	spine_peers(&f, peers, 50, 2);
	run(&f);
	ck_assert_uint_eq(f.r.n_groups, 2);
	ck_assert_uint_eq(f.r.groups[0].hosts, 20);
	/* 50 host LIDs and 26 switch LIDs: two blocks */
	ck_assert_uint_eq(f.r.groups[0].lo, 1);
	ck_assert_uint_eq(f.r.groups[0].hi, 127);
	ck_assert_uint_eq(f.r.groups[1].lo, 128);
	la_result_free(&f.r);
}
END_TEST

static Suite *lid_suite(void)
{
	Suite *s = suite_create("lid_order");
	TCase *t = tcase_create("order");

	tcase_add_test(t, test_exact_order);
	tcase_add_test(t, test_switch_lids_in_groups);
	tcase_add_test(t, test_padding);
	tcase_add_test(t, test_stable_and_moved);
	tcase_add_test(t, test_newcomer_lower_port);
	tcase_add_test(t, test_new_switch_shifts_indices);
	tcase_add_test(t, test_r_changes);
	tcase_add_test(t, test_guest_yields);
	tcase_add_test(t, test_full_group_overflows);
	tcase_add_test(t, test_migrate_from_other_order);
	tcase_add_test(t, test_lmc_alignment);
	tcase_add_test(t, test_reserved_and_loose);
	tcase_add_test(t, test_bad_input);
	tcase_add_test(t, test_period_groups);
	tcase_add_test(t, test_room_for_absent);
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
