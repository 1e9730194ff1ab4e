// SPDX-License-Identifier: MIT
/*
 * The escape tree through every link between two traffic groups
 * (ta_cut_tree.h), built on two k-ary fat trees joined at the middle
 * level (the trees are the groups), checked against the fabric itself:
 *  - it spans every switch, with the level of each one hop below its
 *    parent and the root at level 0;
 *  - middle join: every join link is a tree link (the far switch hangs
 *    from it, holding one upper switch of its own), and no switch of the
 *    far tree has two tree neighbours higher than itself (height: hops
 *    to the nearest switch with hosts, computed here by a BFS of its
 *    own), so its tree turns never go down and up again;
 *  - bottom join: the far middle and upper switches of one slot form one
 *    class (connected among themselves), k / 2 classes; every join is a
 *    tree link, but only one far leaf per class holds a switch of it
 *    above (a second would close a cycle through the near tree on the
 *    trees' own turns), and where a far switch has several tree
 *    neighbours above it they are of one class (the slot's upper
 *    switches held at one middle switch);
 *  - where the far side cannot be built so (ft3join's own wiring, where
 *    a slot has more upper switches than joined middle switches), the
 *    switches joined against the rule are counted, and the tree is still
 *    a spanning tree;
 *  - a fabric whose hosts are all in one group: not applicable (1), the
 *    tree left empty.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "join_traffic.h"
#include "run_suite.h"
#include "ta_cut_tree.h"
#include "topo.h"
#include "topo_graph.h"

struct fabric {
	struct topo t;
	struct ta_graph *g;
	uint32_t *group;	/* per destination: its tree */
	uint32_t *height;	/* per switch */
	int *tree;		/* per switch: its tree (-1: none found) */
};

static void fabric_make_at(struct fabric *f, unsigned k, int alt,
			   int one_group, enum topo_join_level level)
{
	uint32_t d, s, head = 0, tail = 0, *queue;

	ck_assert_int_eq(alt ? topo_ft3join_alt(&f->t, k, level) :
			       topo_ft3join(&f->t, k, level), 0);
	f->g = topo_to_graph(&f->t);
	ck_assert_ptr_nonnull(f->g);
	f->group = calloc(f->g->n_dest + 1, sizeof(*f->group));
	f->height = malloc((f->g->n_sw + 1) * sizeof(*f->height));
	f->tree = malloc((f->g->n_sw + 1) * sizeof(*f->tree));
	queue = malloc((f->g->n_sw + 1) * sizeof(*queue));
	ck_assert(f->group && f->height && f->tree && queue);
	for (s = 0; s < f->g->n_sw; s++) {
		f->height[s] = UINT32_MAX;
		f->tree[s] = -1;
	}
	for (d = 0; d < f->g->n_dest; d++) {
		if (!f->g->dest[d].is_host)
			continue;
		f->group[d] = one_group ? 0 : (uint32_t)join_tree_of(f->g, d);
		s = f->g->dest[d].sw;
		if (f->height[s] == UINT32_MAX) {
			f->height[s] = 0;
			f->tree[s] = join_tree_of(f->g, d);
			queue[tail++] = s;
		}
	}
	while (head < tail) {
		uint32_t u = queue[head++], j;

		for (j = 0; j < f->g->sw[u].n_ends; j++) {
			uint32_t v = f->g->sw[u].ends[j].peer;

			if (f->height[v] != UINT32_MAX)
				continue;
			f->height[v] = f->height[u] + 1;
			f->tree[v] = f->tree[u];
			queue[tail++] = v;
		}
	}
	free(queue);
}

static void fabric_make(struct fabric *f, unsigned k, int alt, int one_group)
{
	fabric_make_at(f, k, alt, one_group, TOPO_JOIN_MIDDLE);
}

static void fabric_free(struct fabric *f)
{
	free(f->group);
	free(f->height);
	free(f->tree);
	ta_graph_free(f->g);
	topo_free(&f->t);
}

static uint32_t parent_of(const struct ta_graph *g, const struct ta_escape *e,
			  uint32_t s)
{
	return g->sw[s].ends[e->parent_end[s]].peer;
}

/* a join switch of tree A: a middle switch with a link to tree B */
static uint32_t a_join_switch(const struct fabric *f)
{
	uint32_t s, j;

	for (s = 0; s < f->g->n_sw; s++)
		for (j = 0; f->tree[s] == 0 && j < f->g->sw[s].n_ends; j++)
			if (f->tree[f->g->sw[s].ends[j].peer] == 1)
				return s;
	ck_abort_msg("no join switch");
	return 0;
}

/* spanning: each switch but the root one level below its parent */
static void assert_spans(const struct fabric *f, const struct ta_escape *e,
			 uint32_t root)
{
	uint32_t s;

	ck_assert_uint_eq(e->root, root);
	ck_assert_uint_eq(e->level[root], 0);
	ck_assert_uint_eq(e->parent_end[root], TA_NO_END);
	for (s = 0; s < f->g->n_sw; s++) {
		if (s == root)
			continue;
		ck_assert_uint_ne(e->parent_end[s], TA_NO_END);
		ck_assert_uint_lt(e->parent_end[s], f->g->sw[s].n_ends);
		ck_assert_uint_eq(e->level[s],
				  e->level[parent_of(f->g, e, s)] + 1);
	}
}

/* tree neighbours of s higher than s */
static uint32_t higher_tree_neighbours(const struct fabric *f,
				       const struct ta_escape *e, uint32_t s)
{
	uint32_t j, n = 0;

	for (j = 0; j < f->g->sw[s].n_ends; j++) {
		uint32_t p = f->g->sw[s].ends[j].peer;

		if (ta_escape_is_tree_end(e, f->g, s, j) &&
		    f->height[p] > f->height[s])
			n++;
	}
	return n;
}

/* the tree rooted at a join switch of tree A: built, none bent, spans */
static void build_spanning(const struct fabric *f, struct ta_escape *e)
{
	uint32_t root = a_join_switch(f), bent;

	ck_assert_int_eq(ta_escape_build_cut(e, f->g, NULL, f->group, root,
					     &bent), 0);
	ck_assert_uint_eq(bent, 0);
	assert_spans(f, e, root);
}

static void check_far_side(unsigned k)
{
	struct fabric f;
	struct ta_escape e;
	uint32_t s, j, joins = 0;

	fabric_make(&f, k, 1, 0);
	build_spanning(&f, &e);
	for (s = 0; s < f.g->n_sw; s++) {
		if (f.tree[s] != 1)
			continue;
		ck_assert_msg(higher_tree_neighbours(&f, &e, s) <= 1,
			      "K=%u: far switch %s has %u tree neighbours above it",
			      k, f.g->sw[s].name, higher_tree_neighbours(&f, &e, s));
		for (j = 0; j < f.g->sw[s].n_ends; j++) {
			if (f.tree[f.g->sw[s].ends[j].peer] != 0)
				continue;
			joins++;
			ck_assert_msg(e.parent_end[s] == j,
				      "K=%u: far join switch %s not hung from its join",
				      k, f.g->sw[s].name);
		}
	}
	ck_assert_uint_eq(joins, (uint32_t)k * k / 4);
	ta_escape_free(&e);
	fabric_free(&f);
}

/*
 * cls[s]: for switches of tree B at least 1 high, the connected piece
 * they form among themselves (one per slot at the bottom join); returns
 * how many.
 */
static uint32_t far_upper_classes(const struct fabric *f, uint32_t *cls)
{
	uint32_t s, n = 0, *queue = malloc((f->g->n_sw + 1) * sizeof(*queue));

	ck_assert_ptr_nonnull(queue);
	for (s = 0; s < f->g->n_sw; s++)
		cls[s] = UINT32_MAX;
	for (s = 0; s < f->g->n_sw; s++) {
		uint32_t head = 0, tail = 0;

		if (f->tree[s] != 1 || f->height[s] < 1 || cls[s] != UINT32_MAX)
			continue;
		cls[s] = n;
		queue[tail++] = s;
		while (head < tail) {
			uint32_t u = queue[head++], j;

			for (j = 0; j < f->g->sw[u].n_ends; j++) {
				uint32_t v = f->g->sw[u].ends[j].peer;

				if (f->tree[v] != 1 || f->height[v] < 1 ||
				    cls[v] != UINT32_MAX)
					continue;
				cls[v] = n;
				queue[tail++] = v;
			}
		}
		n++;
	}
	free(queue);
	return n;
}

static void check_bottom(unsigned k, int alt)
{
	struct fabric f;
	struct ta_escape e;
	uint32_t s, j, n_cls, hung = 0, holders = 0, *cls, *held;

	fabric_make_at(&f, k, alt, 0, TOPO_JOIN_BOTTOM);
	cls = malloc((f.g->n_sw + 1) * sizeof(*cls));
	ck_assert_ptr_nonnull(cls);
	n_cls = far_upper_classes(&f, cls);
	ck_assert_uint_eq(n_cls, k / 2);
	held = calloc(n_cls + 1, sizeof(*held));
	ck_assert_ptr_nonnull(held);
	build_spanning(&f, &e);
	for (s = 0; s < f.g->n_sw; s++) {
		uint32_t up = UINT32_MAX;

		if (f.tree[s] != 1)
			continue;
		if (f.tree[parent_of(f.g, &e, s)] == 0) {
			uint32_t above = 0;

			hung++;
			/* the class it holds: its one tree neighbour above */
			for (j = 0; j < f.g->sw[s].n_ends; j++) {
				uint32_t p = f.g->sw[s].ends[j].peer;

				if (ta_escape_is_tree_end(&e, f.g, s, j) &&
				    f.height[p] > f.height[s]) {
					held[cls[p]]++;
					above++;
				}
			}
			ck_assert_uint_le(above, 1);
			holders += above;
		}
		for (j = 0; j < f.g->sw[s].n_ends; j++) {
			uint32_t p = f.g->sw[s].ends[j].peer;

			if (!ta_escape_is_tree_end(&e, f.g, s, j) ||
			    f.height[p] <= f.height[s])
				continue;
			if (up == UINT32_MAX)
				up = cls[p];
			ck_assert_msg(cls[p] == up,
				      "K=%u: far switch %s has tree neighbours above it in two classes",
				      k, f.g->sw[s].name);
		}
	}
	ck_assert_uint_eq(hung, (uint32_t)k * k / 4);
	ck_assert_uint_eq(holders, n_cls);
	for (j = 0; j < n_cls; j++)
		ck_assert_msg(held[j] == 1, "K=%u: class %u held by %u joins",
			      k, j, held[j]);
	free(held);
	free(cls);
	ta_escape_free(&e);
	fabric_free(&f);
}

/*
 * The bottom join: a far leaf climbing into one middle switch reaches
 * the whole slot on the trees' own turns, so one hung leaf per slot
 * holds a switch of it.
 */
START_TEST(bottom_one_join_per_class)
{
	check_bottom(4, 0);
	check_bottom(8, 0);
	check_bottom(8, 1);
}
END_TEST

START_TEST(alt_far_side_up_and_down)
{
	check_far_side(4);
	check_far_side(8);
	check_far_side(12);
}
END_TEST

/*
 * ft3join's wiring: each pod joins at one middle switch, so a slot with
 * k / 2 upper switches has one joined middle switch to hang them from;
 * the rest join against the rule and are counted, the tree still spans.
 */
START_TEST(same_wiring_counts_bent)
{
	struct fabric f;
	struct ta_escape e;
	uint32_t root, bent;

	fabric_make(&f, 8, 0, 0);
	root = a_join_switch(&f);
	ck_assert_int_eq(ta_escape_build_cut(&e, f.g, NULL, f.group, root,
					     &bent), 0);
	ck_assert_uint_gt(bent, 0);
	assert_spans(&f, &e, root);
	ta_escape_free(&e);
	fabric_free(&f);
}
END_TEST

START_TEST(one_group_not_applicable)
{
	struct fabric f;
	struct ta_escape e;
	uint32_t bent;

	fabric_make(&f, 4, 1, 1);
	ck_assert_int_eq(ta_escape_build_cut(&e, f.g, NULL, f.group,
					     a_join_switch(&f), &bent), 1);
	ck_assert_ptr_null(e.parent_end);
	ck_assert_int_eq(ta_escape_build_cut(&e, f.g, NULL, f.group,
					     f.g->n_sw, &bent), 1);
	fabric_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cut_tree");
	TCase *tc = tcase_create("cut_tree");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, alt_far_side_up_and_down);
	tcase_add_test(tc, bottom_one_join_per_class);
	tcase_add_test(tc, same_wiring_counts_bent);
	tcase_add_test(tc, one_group_not_applicable);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
