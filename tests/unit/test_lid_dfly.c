// SPDX-License-Identifier: MIT
/*
 * Group-major LIDs on Dragonfly+ (lid_assign/lid_dfly.c, README
 * "Group-major LIDs on Dragonfly+").  Fabrics come from topogen's
 * generators (ibsim_topos), possibly edited (a cable removed or added,
 * a switch added, hosts dropped); the checks use what the generators
 * say independently of the code under test: the Dragonfly+ group of a
 * switch is the "dfp<g>-" prefix of its name.
 *  - detection: Dragonfly+ of several shapes found with the right group
 *    of every switch; fat trees (2- and 3-level, joined, hosts absent),
 *    dragonfly, random, HyperX, ring not; look-alikes decided as the
 *    README says;
 *  - layout: every group's LIDs in one range, ranges disjoint, in group
 *    order, packed (each right after the previous or at a block
 *    boundary), each spanning no more 64-LID blocks than the group with
 *    every leaf fully populated needs; inside a group hosts port-major (by
 *    port, then leaf GUID), consecutive, then its switches (at the first
 *    layout: hosts arriving later take the free runs); LMC 1 and 2;
 *  - stability: a second sweep keeps every LID, a spine gone or a whole
 *    group gone and back moves none, absent hosts arriving land in
 *    their group's range;
 *  - fat trees: the same LIDs with lid_layout auto as with port-major.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lid_dfly.h"
#include "lid_order.h"
#include "run_suite.h"
#include "topo.h"

#define MAXSW 400u

struct fab {
	unsigned n_sw;
	char name[MAXSW][32];
	unsigned char adj[MAXSW][MAXSW];
	unsigned char gone[MAXSW];	/* switch left out of the input */
	unsigned n_hosts;
	unsigned h_sw[8192], h_port[8192];
	unsigned char h_gone[8192];
	/* the input built from it */
	struct la_input in;
	struct la_port ports[8192 + MAXSW];
	uint64_t guid[MAXSW];
	uint32_t peers[MAXSW];
	uint32_t peer[MAXSW * MAXSW / 4];
	uint32_t map[MAXSW];		/* fab switch -> input index */
	uint32_t port_of_host[8192], port_of_sw[MAXSW];
	uint16_t old[8192 + MAXSW];	/* by host index, then MAXSW + sw */
};

static struct fab *from_topo(struct topo *t)
{
	struct fab *f = calloc(1, sizeof(*f));
	unsigned i;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_le(t->n_sw, MAXSW);
	ck_assert_uint_le(t->n_hosts, 8192);
	f->n_sw = t->n_sw;
	for (i = 0; i < t->n_sw; i++)
		snprintf(f->name[i], sizeof(f->name[i]), "%s", t->sw_name[i]);
	for (i = 0; i < t->n_links; i++) {
		f->adj[t->links[i].a][t->links[i].b] = 1;
		f->adj[t->links[i].b][t->links[i].a] = 1;
	}
	f->n_hosts = t->n_hosts;
	for (i = 0; i < t->n_hosts; i++) {
		f->h_sw[i] = t->hosts[i].sw;
		f->h_port[i] = t->hosts[i].port;
	}
	topo_free(t);
	return f;
}

static struct fab *dfplus(unsigned g, unsigned l, unsigned s, unsigned h,
			  unsigned n)
{
	struct topo t;

	ck_assert_int_eq(topo_dfplus(&t, g, l, s, h, n), 0);
	return from_topo(&t);
}

static unsigned sw_named(const struct fab *f, const char *name)
{
	unsigned i;

	for (i = 0; i < f->n_sw; i++)
		if (!strcmp(f->name[i], name))
			return i;
	ck_abort_msg("no switch %s", name);
	return 0;
}

static void cable(struct fab *f, const char *a, const char *b, int on)
{
	unsigned x = sw_named(f, a), y = sw_named(f, b);

	f->adj[x][y] = f->adj[y][x] = (unsigned char)on;
}

/* builds f->in from what is not gone; old LIDs from f->old */
static void build(struct fab *f, uint8_t lmc, enum la_layout_mode mode)
{
	unsigned i, j, n = 0, np = 0, at = 0;

	for (i = 0; i < f->n_sw; i++) {
		f->map[i] = UINT32_MAX;
		if (f->gone[i])
			continue;
		f->map[i] = n;
		f->guid[n++] = 0x200000u + i;	/* GUIDs in topo order */
	}
	for (i = 0; i < f->n_sw; i++) {
		if (f->gone[i])
			continue;
		f->peers[f->map[i]] = 0;
		for (j = 0; j < f->n_sw; j++)
			if (f->adj[i][j] && !f->gone[j]) {
				f->peer[at++] = f->map[j];
				f->peers[f->map[i]]++;
			}
		f->port_of_sw[i] = np;
		f->ports[np++] = (struct la_port){
			.guid = 0x200000u + i, .kind = LA_SWITCH,
			.sw = f->map[i], .old_lid = f->old[8192 + i] };
	}
	for (i = 0; i < f->n_hosts; i++) {
		f->port_of_host[i] = UINT32_MAX;
		if (f->h_gone[i] || f->gone[f->h_sw[i]])
			continue;
		f->port_of_host[i] = np;
		f->ports[np++] = (struct la_port){
			.guid = 0x100000u + i, .kind = LA_HOST,
			.sw = f->map[f->h_sw[i]],
			.sw_port = (uint8_t)f->h_port[i],
			.old_lid = f->old[i] };
	}
	memset(&f->in, 0, sizeof(f->in));
	f->in.n_sw = n;
	f->in.sw_guid = f->guid;
	f->in.sw_peers = f->peers;
	f->in.sw_peer = f->peer;
	f->in.n_ports = np;
	f->in.ports = f->ports;
	f->in.lmc = lmc;
	f->in.layout = mode;
}

/* la_assign on f; the LIDs given become the old LIDs of the next run */
static void assign(struct fab *f, uint8_t lmc, enum la_layout_mode mode,
		   struct la_result *r)
{
	unsigned i;

	build(f, lmc, mode);
	ck_assert_int_eq(la_assign(&f->in, r), 0);
	ck_assert_uint_eq(r->failed, 0);
	for (i = 0; i < f->n_hosts; i++)
		if (f->port_of_host[i] != UINT32_MAX)
			f->old[i] = f->ports[f->port_of_host[i]].lid;
	for (i = 0; i < f->n_sw; i++)
		if (!f->gone[i])
			f->old[8192 + i] = f->ports[f->port_of_sw[i]].lid;
}

/* the Dragonfly+ group the generator gave switch i: its name's prefix */
static unsigned name_group(const struct fab *f, unsigned i)
{
	unsigned g;

	ck_assert_int_eq(sscanf(f->name[i], "dfp%u-", &g), 1);
	return g;
}

static void detect(struct fab *f, struct la_dfly *d,
		   enum la_layout_mode mode)
{
	build(f, 0, mode);
	ck_assert_int_eq(la_dfly_detect(&f->in, d), 0);
}

/* found, and the groups are the generator's (same prefix, same group) */
static void check_groups(struct fab *f, unsigned groups)
{
	struct la_dfly d;
	unsigned i, j;

	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert_msg(d.found, "not found: %s", d.why);
	ck_assert_uint_eq(d.n_groups, groups);
	for (i = 0; i < f->n_sw; i++)
		for (j = 0; j < f->n_sw; j++)
			if (!f->gone[i] && !f->gone[j])
				ck_assert_int_eq(
				    d.group[f->map[i]] == d.group[f->map[j]],
				    name_group(f, i) == name_group(f, j));
	la_dfly_free(&d);
}

START_TEST(test_dfplus_shapes)
{
	static const unsigned shape[][5] = {
		{ 17, 8, 8, 8, 1 }, { 9, 4, 4, 4, 2 }, { 6, 4, 4, 4, 1 },
		{ 3, 2, 1, 2, 1 },	/* one spine a group */
		{ 2, 1, 1, 1, 1 },	/* smallest */
		{ 5, 6, 3, 4, 1 },	/* more leaves than spines */
	};
	struct la_dfly d;
	struct fab *f;
	unsigned k;

	for (k = 0; k < sizeof(shape) / sizeof(shape[0]); k++) {
		f = dfplus(shape[k][0], shape[k][1], shape[k][2], shape[k][3],
			   shape[k][4]);
		check_groups(f, shape[k][0]);
		detect(f, &d, LA_LAYOUT_AUTO);
		ck_assert_uint_eq(d.leaves, shape[k][0] * shape[k][1]);
		ck_assert_uint_eq(d.spines, shape[k][0] * shape[k][2]);
		ck_assert_uint_eq(d.missing, 0);
		ck_assert_uint_eq(d.empty, 0);
		la_dfly_free(&d);
		free(f);
	}
}
END_TEST

static void check_not_found(struct topo *t, const char *what)
{
	struct fab *f = from_topo(t);
	struct la_dfly d;

	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert_msg(!d.found, "%s taken for a Dragonfly+", what);
	ck_assert_ptr_nonnull(d.why);
	la_dfly_free(&d);
	free(f);
}

START_TEST(test_not_dfplus)
{
	struct topo t;
	unsigned size[2] = { 4, 4 };

	ck_assert_int_eq(topo_fattree2(&t, 6, 3, 3, 1), 0);
	check_not_found(&t, "fattree2 6 3 3");
	ck_assert_int_eq(topo_fattree2(&t, 36, 18, 18, 1), 0);
	check_not_found(&t, "fattree2 36 18 18");
	ck_assert_int_eq(topo_fattree2(&t, 24, 12, 12, 1), 0);
	ck_assert_int_eq(topo_drop_hosts(&t, 300, 2), 0);
	check_not_found(&t, "fattree2 24 12 12, hosts absent");
	ck_assert_int_eq(topo_fattree3(&t, 6, 4, 2, 4, 6), 0);
	check_not_found(&t, "fattree3 6 4 2 4 6");
	ck_assert_int_eq(topo_fattree3(&t, 6, 4, 2, 4, 6), 0);
	ck_assert_int_eq(topo_drop_hosts(&t, 500, 5), 0);
	check_not_found(&t, "fattree3 6 4 2 4 6, hosts absent");
	ck_assert_int_eq(topo_ft3join(&t, 4, TOPO_JOIN_TOP), 0);
	check_not_found(&t, "ft3join 4 top");
	ck_assert_int_eq(topo_ft3join(&t, 4, TOPO_JOIN_MIDDLE), 0);
	check_not_found(&t, "ft3join 4 middle");
	ck_assert_int_eq(topo_ft3join(&t, 8, TOPO_JOIN_BOTTOM), 0);
	check_not_found(&t, "ft3join 8 bottom");
	ck_assert_int_eq(topo_dragonfly(&t, 4, 2, 2, 0), 0);
	check_not_found(&t, "dragonfly 4 2 2");
	ck_assert_int_eq(topo_random(&t, 20, 10, 4, 1), 0);
	check_not_found(&t, "random 20 10 4 1");
	ck_assert_int_eq(topo_hyperx(&t, 2, size, 2), 0);
	check_not_found(&t, "hyperx 4x4");
	ck_assert_int_eq(topo_ring(&t, 8, 2), 0);
	check_not_found(&t, "ring 8");
}
END_TEST

/* fabrics that only look like a Dragonfly+ (README: what still is one) */
START_TEST(test_look_alikes)
{
	struct fab *f = dfplus(6, 4, 4, 4, 1);
	struct la_dfly d;
	unsigned i, leaf;

	/* a global link missing: still one */
	cable(f, "dfp3-spine0", "dfp4-spine0", 0);
	check_groups(f, 6);
	/* a leaf-spine cable missing: still one, counted */
	cable(f, "dfp2-leaf1", "dfp2-spine3", 0);
	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert(d.found);
	ck_assert_uint_eq(d.missing, 1);
	la_dfly_free(&d);
	/* every host of a leaf absent: an empty leaf of its group */
	leaf = sw_named(f, "dfp1-leaf2");
	for (i = 0; i < f->n_hosts; i++)
		if (f->h_sw[i] == leaf)
			f->h_gone[i] = 1;
	check_groups(f, 6);
	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert_uint_eq(d.empty, 1);
	ck_assert_uint_eq(d.leaves, 23);
	la_dfly_free(&d);
	/* two leaves cabled together: not one */
	cable(f, "dfp0-leaf0", "dfp1-leaf0", 1);
	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert(!d.found);
	la_dfly_free(&d);
	/* ... unless forced (lid_layout group-major): one group less */
	detect(f, &d, LA_LAYOUT_GROUP_MAJOR);
	ck_assert(d.found);
	ck_assert_uint_eq(d.n_groups, 5);
	la_dfly_free(&d);
	cable(f, "dfp0-leaf0", "dfp1-leaf0", 0);
	free(f);

	/* a core switch over the spines of several groups: a fat tree's */
	f = dfplus(4, 2, 2, 2, 1);
	f->n_sw++;
	snprintf(f->name[f->n_sw - 1], sizeof(f->name[0]), "core");
	cable(f, "core", "dfp0-spine0", 1);
	cable(f, "core", "dfp1-spine0", 1);
	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert(!d.found);
	la_dfly_free(&d);
	detect(f, &d, LA_LAYOUT_GROUP_MAJOR);
	ck_assert(d.found);
	ck_assert_uint_eq(d.extra, 1);
	la_dfly_free(&d);
	free(f);

	/* groups with no global link between them: separate fat trees */
	f = dfplus(2, 2, 2, 2, 1);
	cable(f, "dfp0-spine0", "dfp1-spine0", 0);
	cable(f, "dfp0-spine1", "dfp1-spine1", 0);
	for (i = 0; i < f->n_sw; i++) {
		unsigned j;

		for (j = 0; j < f->n_sw; j++)
			if (name_group(f, i) != name_group(f, j))
				f->adj[i][j] = 0;
	}
	detect(f, &d, LA_LAYOUT_AUTO);
	ck_assert(!d.found);
	la_dfly_free(&d);
	/* lid_layout port-major: never */
	free(f);
	f = dfplus(6, 4, 4, 4, 1);
	detect(f, &d, LA_LAYOUT_PORT_MAJOR);
	ck_assert(!d.found);
	la_dfly_free(&d);
	free(f);
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The layout from the LIDs alone: per generator group, the span of its
 * LIDs; spans disjoint, in group order, block-aligned, of the fewest
 * blocks for the group fully populated; inside, hosts by (port, leaf)
 * at consecutive aligned runs, then the switches.
 */
static void check_layout(struct fab *f, unsigned groups, unsigned r,
			 uint8_t lmc, bool order)
{
	unsigned g, i, m = 1u << lmc, prev_hi = 0;

	for (g = 0; g < groups; g++) {
		uint32_t key[8192], n = 0, lo = UINT32_MAX, hi = 0, k;
		unsigned leaves = 0, sws = 0, full, blocks;

		for (i = 0; i < f->n_sw; i++) {
			const struct la_port *p;

			if (f->gone[i] || name_group(f, i) != g)
				continue;
			p = &f->ports[f->port_of_sw[i]];
			sws++;
			leaves += strstr(f->name[i], "-leaf") != NULL;
			lo = p->lid < lo ? p->lid : lo;
			hi = p->lid > hi ? p->lid : hi;
		}
		for (i = 0; i < f->n_hosts; i++) {
			const struct la_port *p;

			if (f->port_of_host[i] == UINT32_MAX ||
			    name_group(f, f->h_sw[i]) != g)
				continue;
			p = &f->ports[f->port_of_host[i]];
			ck_assert_uint_eq(p->lid % m, 0);
			ck_assert_uint_eq(p->n_lids, m);
			/* (port, leaf) order as one number; LID beside it */
			key[n++] = (f->h_port[i] * MAXSW + f->h_sw[i]) << 16 |
				   p->lid;
			lo = p->lid < lo ? p->lid : lo;
			hi = p->lid + m - 1 > hi ? p->lid + m - 1 : hi;
		}
		ck_assert_uint_gt(lo, prev_hi);
		/* packed: right after the previous group, or at a block */
		ck_assert_msg(lo <= (prev_hi + m) / m * m || lo % 64 == 0,
			      "group %u starts at LID %u after %u", g, lo,
			      prev_hi);
		full = leaves * r * m + sws;
		blocks = (full + (lo < 64 ? m : 0) + 63) / 64;
		ck_assert_msg(hi / 64 - lo / 64 + 1 <= blocks,
			      "group %u: LIDs %u-%u, more than %u blocks", g,
			      lo, hi, blocks);
		prev_hi = hi;
		qsort(key, n, sizeof(*key), cmp_u32);
		for (k = 0; order && k < n; k++)
			ck_assert_uint_eq(key[k] & 0xffff,
					  (k ? (key[k - 1] & 0xffff) + m :
					       (lo + m - 1) / m * m));
		/* the switches after the hosts */
		for (i = 0; order && n && i < f->n_sw; i++)
			if (!f->gone[i] && name_group(f, i) == g)
				ck_assert_uint_gt(
				    f->ports[f->port_of_sw[i]].lid,
				    key[n - 1] & 0xffff);
	}
}

START_TEST(test_layout)
{
	static const unsigned shape[][5] = {
		{ 17, 8, 8, 8, 1 }, { 9, 4, 4, 4, 2 }, { 6, 4, 4, 4, 1 },
		{ 4, 12, 6, 12, 1 },	/* 144 host LIDs a group */
	};
	struct la_result r;
	struct fab *f;
	unsigned k;
	uint8_t lmc;

	for (k = 0; k < sizeof(shape) / sizeof(shape[0]); k++)
		for (lmc = 0; lmc <= 2; lmc++) {
			f = dfplus(shape[k][0], shape[k][1], shape[k][2],
				   shape[k][3], shape[k][4]);
			assign(f, lmc, LA_LAYOUT_AUTO, &r);
			ck_assert(r.group_major);
			ck_assert_uint_eq(r.n_groups, shape[k][0]);
			ck_assert_uint_eq(r.moved + r.overflow, 0);
			la_result_free(&r);
			check_layout(f, shape[k][0], shape[k][3], lmc, true);
			free(f);
		}
}
END_TEST

/* every LID given before is given again (ports present) */
static void check_same(const struct fab *f, const uint16_t *before)
{
	unsigned i;

	for (i = 0; i < f->n_hosts; i++)
		if (f->port_of_host[i] != UINT32_MAX && before[i])
			ck_assert_uint_eq(f->old[i], before[i]);
	for (i = 0; i < f->n_sw; i++)
		if (!f->gone[i] && before[8192 + i])
			ck_assert_uint_eq(f->old[8192 + i], before[8192 + i]);
}

START_TEST(test_stability)
{
	static uint16_t first[8192 + MAXSW];
	struct fab *f = dfplus(9, 4, 4, 4, 2);
	struct la_result r;
	unsigned i;
	uint8_t lmc = (uint8_t)_i;

	for (i = 0; i < f->n_hosts; i++)	/* some hosts absent */
		f->h_gone[i] = i % 7 == 3;
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	la_result_free(&r);
	memcpy(first, f->old, sizeof(first));
	/* a resweep */
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert_uint_eq(r.moved + r.placed, 0);
	la_result_free(&r);
	check_same(f, first);
	/* a spine gone (indices shift), then back */
	f->gone[sw_named(f, "dfp3-spine0")] = 1;
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert(r.group_major);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	f->gone[sw_named(f, "dfp3-spine0")] = 0;
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	check_same(f, first);
	/* group 0 gone whole (cut off), then back: its LIDs were reserved
	 * by OpenSM meanwhile; here they are simply not taken */
	for (i = 0; i < f->n_sw; i++)
		f->gone[i] = name_group(f, i) == 0;
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert(r.group_major);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	memset(f->gone, 0, sizeof(f->gone));
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert_uint_eq(r.moved, 0);
	la_result_free(&r);
	check_same(f, first);
	/* the absent hosts arrive: each in its group's range */
	memset(f->h_gone, 0, sizeof(f->h_gone));
	assign(f, lmc, LA_LAYOUT_AUTO, &r);
	ck_assert_uint_eq(r.moved + r.overflow, 0);
	la_result_free(&r);
	check_same(f, first);
	/* newcomers take the free runs: the ranges hold, not the order */
	check_layout(f, 9, 4, lmc, false);
	free(f);
}
END_TEST

/* fat trees: the same LIDs whether recognition runs or not */
START_TEST(test_fat_trees_unchanged)
{
	static uint16_t a[8192 + MAXSW];
	struct topo t;
	struct la_result r;
	struct fab *f;
	unsigned k;

	for (k = 0; k < 5; k++) {
		if (k == 0)
			ck_assert_int_eq(topo_fattree2(&t, 12, 6, 6, 1), 0);
		else if (k == 1)
			ck_assert_int_eq(topo_fattree3(&t, 6, 4, 2, 4, 6), 0);
		else if (k == 2)
			ck_assert_int_eq(topo_ft3join(&t, 4, TOPO_JOIN_TOP),
					 0);
		else if (k == 3)
			ck_assert_int_eq(topo_ft3join(&t, 4,
						      TOPO_JOIN_BOTTOM), 0);
		else
			ck_assert_int_eq(topo_fattree2(&t, 24, 12, 12, 1), 0);
		if (k == 4)
			ck_assert_int_eq(topo_drop_hosts(&t, 300, 2), 0);
		f = from_topo(&t);
		assign(f, (uint8_t)(k % 3), LA_LAYOUT_AUTO, &r);
		ck_assert(!r.group_major);
		la_result_free(&r);
		memcpy(a, f->old, sizeof(a));
		memset(f->old, 0, sizeof(f->old));
		assign(f, (uint8_t)(k % 3), LA_LAYOUT_PORT_MAJOR, &r);
		la_result_free(&r);
		ck_assert_int_eq(memcmp(a, f->old, sizeof(a)), 0);
		free(f);
	}
}
END_TEST

START_TEST(test_mode_parse)
{
	enum la_layout_mode m = LA_LAYOUT_AUTO;

	ck_assert_int_eq(la_layout_mode_parse("group-major", &m), 0);
	ck_assert_int_eq(m, LA_LAYOUT_GROUP_MAJOR);
	ck_assert_int_eq(la_layout_mode_parse("port-major", &m), 0);
	ck_assert_int_eq(m, LA_LAYOUT_PORT_MAJOR);
	ck_assert_int_eq(la_layout_mode_parse("auto", &m), 0);
	ck_assert_int_eq(m, LA_LAYOUT_AUTO);
	ck_assert_int_eq(la_layout_mode_parse("port_major", &m), -1);
	ck_assert_int_eq(la_layout_mode_parse("", &m), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lid_dfly");
	TCase *tc = tcase_create("dfly");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_dfplus_shapes);
	tcase_add_test(tc, test_not_dfplus);
	tcase_add_test(tc, test_look_alikes);
	tcase_add_test(tc, test_layout);
	tcase_add_loop_test(tc, test_stability, 0, 3);
	tcase_add_test(tc, test_fat_trees_unchanged);
	tcase_add_test(tc, test_mode_parse);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
