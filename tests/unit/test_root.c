// SPDX-License-Identifier: MIT
/*
 * A configured escape root that goes away (ta_root.h): on random nets
 * and a fat tree, the routing after the root switch failed succeeds,
 * logs exactly one WARNING line naming the root used instead (the tree's
 * actual root, as the stats say), keeps the fabric complete and
 * deadlock-free, and changes no more (switch, LID) entries than the same
 * switch's failure with the automatic root changes plus the entries of
 * the switches next to the old root.  When the switch comes back, the
 * routing logs whether the configured root is taken again, and if so the
 * stats name it.  A configured root absent from the start is the
 * automatic choice with the same WARNING.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "route_assert.h"
#include "ta_saved.h"
#include "topo_graph.h"
#include "run_suite.h"

static char lines[16][1100];
static unsigned n_lines, n_errors;

static void collect(void *ctx, enum ta_log_level lvl, const char *msg)
{
	(void)ctx;
	if (lvl == TA_LOG_ERROR)
		n_errors++;
	if (n_lines < 16)
		snprintf(lines[n_lines++], sizeof(lines[0]), "%s", msg);
}

static const struct ta_log test_log = { .fn = collect };

static unsigned count(const char *text)
{
	unsigned i, n = 0;

	for (i = 0; i < n_lines; i++)
		n += strstr(lines[i], text) != NULL;
	return n;
}

static const char *find(const char *text)
{
	unsigned i;

	for (i = 0; i < n_lines; i++)
		if (strstr(lines[i], text))
			return lines[i];
	return NULL;
}

/* routes g with root (0: auto) and the memory sv, checks the routes */
static void route(const struct ta_graph *g, uint64_t root,
		  struct ta_saved *sv, struct ta_result *r)
{
	struct ta_prior_buf pb;
	struct ta_options o;

	ta_options_init(&o);
	o.escape_root_guid = root;
	n_lines = n_errors = 0;
	ck_assert_int_eq(ta_saved_prior(sv, g, &pb), 0);
	ck_assert_int_eq(ta_route_prior(g, &o, ta_saved_empty(sv) ? NULL :
					 &pb.prior, &test_log, r), 0);
	ck_assert_uint_eq(n_errors, 0);
	ck_assert_int_eq(ta_saved_update(sv, g, r), 0);
	ta_prior_buf_free(&pb);
	assert_routes_good(g, r, "root");
}

/* (switch, LID) entries of b that differ from a (by GUID and LID) */
static unsigned changed(const struct ta_graph *ga, const struct ta_result *a,
			const struct ta_graph *gb, const struct ta_result *b)
{
	unsigned n = 0;
	uint32_t s, t, d, e;

	for (s = 0; s < gb->n_sw; s++)
		for (t = 0; t < ga->n_sw; t++) {
			if (ga->sw[t].guid != gb->sw[s].guid)
				continue;
			for (d = 0; d < gb->n_dest; d++)
				for (e = 0; e < ga->n_dest; e++)
					if (ga->dest[e].lid == gb->dest[d].lid &&
					    ta_result_port(a, t, e) !=
					    ta_result_port(b, s, d))
						n++;
		}
	return n;
}

/*
 * LFT blocks (switch of gb, 64-LID block) where b differs from a; a
 * switch or LID that a lacks counts as having no port there
 */
static unsigned changed_blocks(const struct ta_graph *ga,
			       const struct ta_result *a,
			       const struct ta_graph *gb,
			       const struct ta_result *b)
{
	static uint8_t blk[1024];
	unsigned n = 0;
	uint32_t s, t, d, e;

	for (s = 0; s < gb->n_sw; s++) {
		memset(blk, 0, sizeof(blk));
		for (t = 0; t < ga->n_sw && ga->sw[t].guid != gb->sw[s].guid;
		     t++)
			;
		for (d = 0; d < gb->n_dest; d++) {
			uint8_t old = TA_NO_PORT;

			for (e = 0; t < ga->n_sw && e < ga->n_dest; e++)
				if (ga->dest[e].lid == gb->dest[d].lid)
					old = ta_result_port(a, t, e);
			if (old != ta_result_port(b, s, d) &&
			    !blk[gb->dest[d].lid / 64]) {
				blk[gb->dest[d].lid / 64] = 1;
				n++;
			}
		}
	}
	return n;
}

static void root_goes(struct topo *t, unsigned gone, unsigned *with_root,
		      unsigned *auto_root)
{
	struct ta_graph *full = topo_to_graph_port_major(t, TOPO_KEEP_ALL);
	struct ta_graph *less = topo_to_graph_port_major(t, gone);
	struct ta_saved sv;
	struct ta_result r0, r1, r2;
	uint64_t guid;
	char want[96];
	const char *w;

	ck_assert_ptr_nonnull(full);
	ck_assert_ptr_nonnull(less);
	guid = full->sw[gone].guid;

	/* the automatic root: the same switch fails */
	ta_saved_init(&sv);
	route(full, 0, &sv, &r0);
	route(less, 0, &sv, &r1);
	*auto_root = changed(full, &r0, less, &r1);
	ta_result_free(&r0);
	ta_result_free(&r1);
	ta_saved_free(&sv);

	/* the configured root fails */
	ta_saved_init(&sv);
	route(full, guid, &sv, &r0);
	ck_assert_uint_eq(full->sw[r0.stats.escape_root].guid, guid);
	route(less, guid, &sv, &r1);
	snprintf(want, sizeof(want), "WARNING: escape_root 0x%016llx is not a switch of this fabric",
		 (unsigned long long)guid);
	ck_assert_uint_eq(count(want), 1);
	snprintf(want, sizeof(want), "the escape tree is rooted at 0x%016llx ",
		 (unsigned long long)less->sw[r1.stats.escape_root].guid);
	w = find(want);
	ck_assert_msg(w != NULL, "the WARNING does not name the root used");
	ck_assert_ptr_nonnull(strstr(w, "the automatic choice"));
	*with_root = changed(full, &r0, less, &r1);

	/* it stays away: the previous root, again one WARNING */
	route(less, guid, &sv, &r2);
	ck_assert_uint_eq(count("WARNING: escape_root"), 1);
	ck_assert_ptr_nonnull(find("the root of the previous routing"));
	ck_assert_uint_eq(changed(less, &r1, less, &r2), 0);
	ta_result_free(&r2);

	/*
	 * it comes back: taken again only if that changes no more LFT
	 * blocks than keeping the current root (the ordinary restore, routed here
	 * with the same memory and auto); either way said
	 */
	{
		struct ta_saved sv2;
		struct ta_result rk;
		unsigned m_back, m_keep;

		/* the same history again (routing is deterministic) */
		ta_saved_init(&sv2);
		route(full, guid, &sv2, &rk);
		ta_result_free(&rk);
		route(less, guid, &sv2, &rk);
		ta_result_free(&rk);
		route(less, guid, &sv2, &rk);
		ta_result_free(&rk);
		route(full, 0, &sv2, &rk);	/* auto: the current root */
		route(full, guid, &sv, &r2);
		ck_assert_uint_eq(count("WARNING"), 0);
		m_back = changed_blocks(less, &r1, full, &r2);
		m_keep = changed_blocks(less, &r1, full, &rk);
		if (find("is back and taken again")) {
			ck_assert_uint_eq(full->sw[r2.stats.escape_root].guid,
					  guid);
			ck_assert_uint_le(m_back, m_keep);
		} else {
			ck_assert_msg(find("is back but not taken again") &&
				      full->sw[r2.stats.escape_root].guid !=
				      guid, "the return of the root is not logged");
			ck_assert_uint_eq(m_back, m_keep);
		}
		ta_result_free(&rk);
		ta_saved_free(&sv2);
	}
	ta_result_free(&r0);
	ta_result_free(&r1);
	ta_result_free(&r2);
	ta_saved_free(&sv);
	ta_graph_free(full);
	ta_graph_free(less);
}

static void check_topo(struct topo *t, unsigned gone)
{
	unsigned with_root, auto_root, deg;

	root_goes(t, gone, &with_root, &auto_root);
	if (getenv("TEST_ROOT_VERBOSE"))
		fprintf(stderr, "root %u: %u entries moved, automatic root %u\n", gone, with_root, auto_root);
	/* the old root's neighbours re-route around it once more */
	deg = t->n_hosts * 4;
	ck_assert_msg(with_root <= 2 * auto_root + deg,
		      "root failure moved %u entries, automatic root %u",
		      with_root, auto_root);
	topo_free(t);
}

START_TEST(random_root_fails)
{
	struct topo t;

	ck_assert_int_eq(topo_random(&t, 20, 8, 2, 5 + _i), 0);
	check_topo(&t, 3 + _i);
}
END_TEST

START_TEST(fattree_root_fails)
{
	struct topo t;

	ck_assert_int_eq(topo_fattree2(&t, 6, 3, 3, 1), 0);
	check_topo(&t, 2);	/* a leaf: the kind auto would pick */
}
END_TEST

START_TEST(root_absent_from_start)
{
	struct topo t;
	struct ta_graph *g;
	struct ta_saved sv;
	struct ta_result r;

	ck_assert_int_eq(topo_random(&t, 12, 8, 2, 9), 0);
	g = topo_to_graph_port_major(&t, TOPO_KEEP_ALL);
	ck_assert_ptr_nonnull(g);
	ta_saved_init(&sv);
	route(g, 0xdeadbeef, &sv, &r);
	ck_assert_uint_eq(count("WARNING: escape_root 0x00000000deadbeef is not a switch"), 1);
	ta_result_free(&r);
	ta_saved_free(&sv);
	ta_graph_free(g);
	topo_free(&t);
}
END_TEST

static Suite *root_suite(void)
{
	Suite *s = suite_create("root");
	TCase *tc = tcase_create("gone");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, random_root_fails, 0, 4);
	tcase_add_test(tc, fattree_root_fails);
	tcase_add_test(tc, root_absent_from_start);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(root_suite());
}
