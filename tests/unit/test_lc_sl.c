// SPDX-License-Identifier: MIT
/*
 * lftcheck's CDG per SL (lc_check_sl, lc_sl.h) on a hand-made ring of
 * four switches r-s0..r-s3, one host each, routed by shortest paths
 * (distance 1 and 2 clockwise, 3 counter-clockwise).  On one SL the
 * clockwise channels close a cycle.  Paths that cross the dateline
 * r-s3 -> r-s0 on SL 1, the others on SL 0: each SL acyclic.  Every
 * path on SL 0 but r-s3's path to r-s0's host on SL 1: SL 0 keeps the
 * cycle.  Every path on SL 1: SL 1's graph has it, and fails the check.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_check.h"
#include "lc_ibnd.h"
#include "lc_parse.h"
#include "lc_sl.h"
#include "run_suite.h"

#define N 4u
#define HOST_LID(i) ((i) + 1u)
#define SW_LID(i) ((i) + 5u)
#define SW_GUID(i) (0x10u * ((i) + 1u))

static char dir[64];

static void write_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void write_topology(void)
{
	char buf[4096];
	size_t k = 0;
	unsigned i;

	for (i = 0; i < N; i++) {
		unsigned nx = (i + 1) % N, pv = (i + N - 1) % N;

		k += (size_t)snprintf(buf + k, sizeof(buf) - k,
			"switchguid=0x%x(%x)\n"
			"Switch\t8 \"S-%016x\"\t\t# \"r-s%u\" base port 0 lid %u lmc 0\n"
			"[1]\t\"H-%016x\"[1](%x) \t\t# \"r-h%u\" lid %u 4xQDR\n"
			"[2]\t\"S-%016x\"[3]\t\t# \"r-s%u\" lid %u 4xQDR\n"
			"[3]\t\"S-%016x\"[2]\t\t# \"r-s%u\" lid %u 4xQDR\n\n",
			SW_GUID(i), SW_GUID(i), SW_GUID(i), i, SW_LID(i),
			2 * i + 1, 2 * i + 2, i, HOST_LID(i),
			SW_GUID(nx), nx, SW_LID(nx),
			SW_GUID(pv), pv, SW_LID(pv));
	}
	for (i = 0; i < N; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k,
			"Ca\t1 \"H-%016x\"\t\t# \"r-h%u\"\n"
			"[1](%x) \t\"S-%016x\"[1]\t\t# lid %u lmc 0 \"r-s%u\" lid %u 4xQDR\n\n",
			2 * i + 1, i, 2 * i + 2, SW_GUID(i), HOST_LID(i), i,
			SW_LID(i));
	write_file("ring.topo", buf);
}

/* the port of switch s towards switch t's LIDs (host: self 1) */
static unsigned port_to(unsigned s, unsigned t, int host)
{
	unsigned dist = (t + N - s) % N;

	if (!dist)
		return host ? 1 : 0;
	return dist == 3 ? 3 : 2;
}

static void write_lfts(void)
{
	char buf[4096];
	size_t k = 0;
	unsigned s, t;

	for (s = 0; s < N; s++) {
		k += (size_t)snprintf(buf + k, sizeof(buf) - k,
			"Unicast lids [0x0-0x8] of switch DR path slid 0; dlid 0; 0 guid 0x%016x (r-s%u):\n",
			SW_GUID(s), s);
		for (t = 0; t < N; t++)
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      "0x%04x %03u\n", HOST_LID(t),
					      port_to(s, t, 1));
		for (t = 0; t < N; t++)
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      "0x%04x %03u\n", SW_LID(t),
					      port_to(s, t, 0));
		k += (size_t)snprintf(buf + k, sizeof(buf) - k,
				      "8 valid lids dumped\n");
	}
	write_file("ring.lft", buf);
}

/* 1 if the clockwise path from s to t crosses r-s3 -> r-s0 */
static int crosses(unsigned s, unsigned t)
{
	unsigned dist = (t + N - s) % N;

	return dist && dist < 3 && s + dist >= N;
}

/*
 * SL file: dateline 1: crossing paths on SL 1; 2: every path on SL 1;
 * 0: only r-s3 -> r-h0 on SL 1
 */
static void write_sl(const char *name, int dateline)
{
	char buf[4096];
	size_t k = 0;
	unsigned s, t, sl;

	for (s = 0; s < N; s++)
		for (t = 0; t < N; t++) {
			sl = dateline == 2 ? 1 : dateline ? crosses(s, t) :
							 s == 3 && t == 0;
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      "0x%016x %u %u\n0x%016x %u %u\n",
					      SW_GUID(s), HOST_LID(t), sl,
					      SW_GUID(s), SW_LID(t),
					      dateline ? sl : 0);
		}
	write_file(name, buf);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_lc_sl.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_topology();
	write_lfts();
	write_sl("dateline.sl", 1);
	write_sl("one.sl", 0);
	write_sl("all.sl", 2);
}

static void teardown(void)
{
	const char *f[] = { "ring.topo", "ring.lft", "dateline.sl",
			    "one.sl", "all.sl" };
	char path[128];
	unsigned i;

	for (i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, f[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* reads the ring and sl_name (NULL: none), checks into r */
static void check_ring(const char *sl_name, struct lc_fabric *f,
		       struct lc_sl *sl, struct lc_report *r)
{
	char topo[128], lft[128], slp[128];

	snprintf(topo, sizeof(topo), "%s/ring.topo", dir);
	snprintf(lft, sizeof(lft), "%s/ring.lft", dir);
	lc_fabric_init(f);
	memset(sl, 0, sizeof(*sl));
	ck_assert_int_eq(lc_read_topology_any(f, topo), 0);
	ck_assert_int_eq(lc_read_lfts(f, lft), 0);
	ck_assert_uint_eq(f->n_switches, N);
	if (sl_name) {
		snprintf(slp, sizeof(slp), "%s/%s", dir, sl_name);
		ck_assert_int_eq(lc_sl_read(sl, f, slp), 0);
	}
	ck_assert_int_eq(lc_check_sl(f, sl_name ? sl : NULL, r, NULL, 0), 0);
	ck_assert_uint_eq(r->unreachable_host_pairs, 0);
}

static void done(struct lc_fabric *f, struct lc_sl *sl, struct lc_report *r)
{
	lc_report_free(r);
	lc_sl_free(sl);
	lc_fabric_free(f);
}

START_TEST(one_sl_cyclic)
{
	struct lc_fabric f;
	struct lc_sl sl;
	struct lc_report r;

	check_ring(NULL, &f, &sl, &r);
	ck_assert_int_eq(r.cdg_result, 1);
	ck_assert_uint_eq(r.cycle_len, 4);
	ck_assert_uint_eq(r.n_sl, 0);
	ck_assert(!lc_report_ok(&r));
	done(&f, &sl, &r);
}
END_TEST

START_TEST(dateline_acyclic)
{
	struct lc_fabric f;
	struct lc_sl sl;
	struct lc_report r;

	check_ring("dateline.sl", &f, &sl, &r);
	ck_assert_uint_eq(sl.n_sls, 2);
	ck_assert_uint_eq(sl.lines, 2 * N * N);
	ck_assert_uint_eq(r.n_sl, 2);
	ck_assert_int_eq(r.cdg_result, 0);
	ck_assert_int_eq(r.sl[1].result, 0);
	/* crossing paths: r-s2 -> r-s0, r-s3 -> r-s0, r-s3 -> r-s1, both
	 * LIDs of each */
	ck_assert_uint_eq(r.sl_paths[1], 6);
	ck_assert_uint_eq(r.sl_paths[0] + r.sl_paths[1], 2 * N * N);
	ck_assert_uint_eq(r.sl_unset, 0);
	ck_assert(lc_report_ok(&r));
	done(&f, &sl, &r);
}
END_TEST

START_TEST(one_path_moved_cyclic)
{
	struct lc_fabric f;
	struct lc_sl sl;
	struct lc_report r;

	check_ring("one.sl", &f, &sl, &r);
	ck_assert_uint_eq(r.n_sl, 2);
	ck_assert_uint_eq(r.sl_paths[1], 1);
	/* SL 0 keeps the clockwise cycle of four channels */
	ck_assert_int_eq(r.cdg_result, 1);
	ck_assert_uint_eq(r.cycle_len, 4);
	ck_assert_int_eq(r.sl[1].result, 0);
	ck_assert(!lc_report_ok(&r));
	done(&f, &sl, &r);
}
END_TEST

START_TEST(all_on_sl1_cyclic)
{
	struct lc_fabric f;
	struct lc_sl sl;
	struct lc_report r;

	check_ring("all.sl", &f, &sl, &r);
	ck_assert_uint_eq(r.n_sl, 2);
	ck_assert_uint_eq(r.sl_paths[0], 0);
	ck_assert_int_eq(r.cdg_result, 0);
	ck_assert_int_eq(r.sl[1].result, 1);
	ck_assert_uint_eq(r.sl[1].cycle_len, 4);
	ck_assert(!lc_report_ok(&r));
	done(&f, &sl, &r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lc_sl");
	TCase *tc = tcase_create("ring");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_sl_cyclic);
	tcase_add_test(tc, dateline_acyclic);
	tcase_add_test(tc, one_path_moved_cyclic);
	tcase_add_test(tc, all_on_sl1_cyclic);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
