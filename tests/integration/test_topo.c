// SPDX-License-Identifier: MIT
/*
 * Self-test of the topology generators in ibsim_topos/: shapes, port
 * layout, connectivity and reproducibility of random nets.  Exits 0 if
 * all checks pass, 1 otherwise (prints every failed check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

static int failures;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			failures++;					\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
		}							\
	} while (0)

static void check_sane(const struct topo *t, const char *what)
{
	CHECK(topo_validate(t) == 0, "%s: invalid", what);
	CHECK(topo_connected(t) == 1, "%s: not connected", what);
}

static void test_ring(void)
{
	struct topo t;
	unsigned s;

	CHECK(topo_ring(&t, 8, 2) == 0, "ring 8 2");
	check_sane(&t, "ring");
	CHECK(t.n_sw == 8 && t.n_links == 8 && t.n_hosts == 16, "ring size");
	for (s = 0; s < t.n_sw; s++)
		CHECK(topo_sw_link_ends(&t, s) == 2 && t.sw_ports[s] == 36,
		      "ring switch %u", s);
	CHECK(!strcmp(t.sw_name[3], "ring-sw3"), "name %s", t.sw_name[3]);
	CHECK(!strcmp(t.host_name[7], "ring-sw3-h2"), "name %s",
	      t.host_name[7]);
	CHECK(t.hosts[7].sw == 3 && t.hosts[7].port == 2, "host port");
	topo_free(&t);
	CHECK(topo_ring(&t, 2, 1) == -1 && t.n_sw == 0, "ring 2 rejected");
	CHECK(topo_ring(&t, 3, 253) == -1 && t.n_sw == 0, "ring too wide");
}

static void test_mesh(void)
{
	struct topo t;

	CHECK(topo_mesh(&t, 3, 4, 1, 0) == 0, "mesh");
	check_sane(&t, "mesh");
	CHECK(t.n_links == 2 * 4 + 3 * 3, "mesh links %u", t.n_links);
	topo_free(&t);
	CHECK(topo_mesh(&t, 3, 4, 1, 1) == 0, "torus");
	check_sane(&t, "torus");
	CHECK(t.n_links == 24, "torus links %u", t.n_links);
	CHECK(!strcmp(t.sw_name[5], "torus-sw5"), "name %s", t.sw_name[5]);
	topo_free(&t);
	CHECK(topo_mesh(&t, 2, 3, 0, 1) == 0, "torus 2x3");
	check_sane(&t, "torus 2x3");
	CHECK(t.n_links == 3 + 6, "torus 2x3 links %u", t.n_links);
	topo_free(&t);
	CHECK(topo_mesh(&t, 1, 1, 2, 0) == 0 && t.n_links == 0, "1x1");
	topo_free(&t);
	CHECK(topo_mesh(&t, 0, 3, 1, 0) == -1, "mesh 0 rejected");
}

static void test_fattree(void)
{
	struct topo t;
	unsigned i;

	CHECK(topo_fattree2(&t, 6, 3, 4, 2) == 0, "fattree");
	check_sane(&t, "fattree");
	CHECK(t.n_sw == 9 && t.n_links == 36 && t.n_hosts == 24, "ft size");
	CHECK(!strcmp(t.sw_name[5], "ft-leaf5") &&
	      !strcmp(t.sw_name[6], "ft-spine0"), "ft names");
	for (i = 0; i < t.n_links; i++) {
		const struct topo_link *l = &t.links[i];
		unsigned j = l->b - 6;

		CHECK(l->a < 6 && l->b >= 6, "link %u direction", i);
		CHECK(l->pa > 4 && (l->pa - 5) / 2 == j, "leaf port %u", l->pa);
		CHECK((l->pb - 1) / 2 == l->a, "spine port %u", l->pb);
	}
	for (i = 0; i < 6; i++)
		CHECK(topo_sw_link_ends(&t, i) == 6, "leaf %u ends", i);
	topo_free(&t);
	CHECK(topo_fattree2(&t, 2, 200, 60, 1) == -1, "leaf too wide");
	CHECK(topo_fattree2(&t, 100, 100, 100, 1) == 0, "wide tree");
	CHECK(t.sw_ports[0] == 200 && t.sw_ports[100] == 100, "ports %u %u",
	      t.sw_ports[0], t.sw_ports[100]);
	topo_free(&t);
}

/* Director d of a fattree3 only links to leaves and to itself. */
static void check_director_closed(const struct topo *t, unsigned leaves)
{
	unsigned i;

	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];
		const char *a = t->sw_name[l->a], *b = t->sw_name[l->b];
		size_t n = strcspn(a, "-") + 1;

		if (l->a < leaves || l->b < leaves)
			continue;
		CHECK(!strncmp(a, b, n), "link %s - %s crosses directors", a,
		      b);
	}
}

static void test_fattree3(void)
{
	struct topo t;
	unsigned s, i;

	/* 5,832 hosts: 18 directors of 18 line + 9 fabric switches */
	CHECK(topo_fattree3(&t, 18, 18, 9, 18, 18) == 0, "fattree3 5832");
	check_sane(&t, "fattree3 5832");
	CHECK(t.n_sw == 324 + 18 * 27 && t.n_hosts == 5832 &&
	      t.n_links == 11664, "sizes %u %u %u", t.n_sw, t.n_hosts,
	      t.n_links);
	for (s = 0; s < t.n_sw; s++)
		CHECK(topo_sw_link_ends(&t, s) == (s < 324 ? 18u : 36u) &&
		      t.sw_ports[s] == 36, "switch %s: %u link ends",
		      t.sw_name[s], topo_sw_link_ends(&t, s));
	CHECK(!strcmp(t.sw_name[324], "dir0-line0") &&
	      !strcmp(t.sw_name[324 + 18], "dir0-fab0") &&
	      !strcmp(t.sw_name[324 + 27 * 3 + 17], "dir3-line17") &&
	      !strcmp(t.sw_name[t.n_sw - 1], "dir17-fab8"), "names");
	/* leaf 20: port 19 + d to line switch 1 of director d, port 3 */
	for (i = 0; i < t.n_links; i++) {
		const struct topo_link *l = &t.links[i];

		if (l->a == 20 && l->pa == 19 + 5)
			CHECK(!strcmp(t.sw_name[l->b], "dir5-line1") &&
			      l->pb == 3, "leaf 20 up %s[%u]", t.sw_name[l->b],
			      l->pb);
		/* line 2 of dir0 to fab 4, 2nd link: port 18+4*2+2, 2*2+2 */
		if (l->a == 324 + 2 && l->pa == 18 + 4 * 2 + 2)
			CHECK(l->b == 324 + 18 + 4 && l->pb == 2 * 2 + 2,
			      "line-fab link %s[%u]", t.sw_name[l->b], l->pb);
	}
	check_director_closed(&t, 324);
	topo_free(&t);

	/* 11,664 hosts: 18 directors of 36 line + 18 fabric switches */
	CHECK(topo_fattree3(&t, 18, 36, 18, 18, 18) == 0, "fattree3 11664");
	check_sane(&t, "fattree3 11664");
	CHECK(t.n_sw == 1620 && t.n_hosts == 11664 && t.n_links == 23328,
	      "sizes %u %u %u", t.n_sw, t.n_hosts, t.n_links);
	check_director_closed(&t, 648);
	topo_free(&t);

	CHECK(topo_fattree3(&t, 2, 2, 4, 6, 2) == -1 && t.n_sw == 0,
	      "leaves per line not a multiple of fabrics");
	CHECK(topo_fattree3(&t, 0, 2, 1, 2, 2) == -1, "no director");
	CHECK(topo_fattree3(&t, 2, 2, 1, 2, 253) == -1, "leaf too wide");
}

/* Where a switch of topo_ft3join sits: kind 'e', 'a', 'c'; tree 0/1. */
struct ft3j_pos {
	char kind;
	unsigned tree, pod, idx;
};

static int ft3j_pos(const char *name, struct ft3j_pos *q)
{
	char tree;

	if (sscanf(name, "t%c-edge%u-%u", &tree, &q->pod, &q->idx) == 3)
		q->kind = 'e';
	else if (sscanf(name, "t%c-agg%u-%u", &tree, &q->pod, &q->idx) == 3)
		q->kind = 'a';
	else if (sscanf(name, "t%c-core%u", &tree, &q->idx) == 2)
		q->kind = 'c';
	else
		return -1;
	q->tree = tree == 'B';
	return tree == 'A' || tree == 'B' ? 0 : -1;
}

/* One link against the port layout documented in topo.h. */
static void check_ft3j_link(const struct topo *t, unsigned k,
			    enum topo_join_level level,
			    const struct topo_link *l)
{
	struct ft3j_pos a, b;
	unsigned h = k / 2;

	CHECK(!ft3j_pos(t->sw_name[l->a], &a) && !ft3j_pos(t->sw_name[l->b], &b),
	      "names %s %s", t->sw_name[l->a], t->sw_name[l->b]);
	if (a.tree != b.tree) {
		char want = level == TOPO_JOIN_TOP ? 'c' :
			    level == TOPO_JOIN_MIDDLE ? 'a' : 'e';

		CHECK(a.kind == want && b.kind == want && a.idx == b.idx &&
		      (want == 'c' || a.pod == b.pod) &&
		      (want == 'c' || a.idx < (h * h + k - 1 - a.pod) / k) &&
		      l->pa == k + 1 && l->pb == k + 1 &&
		      t->sw_ports[l->a] == k + 1 && t->sw_ports[l->b] == k + 1,
		      "join %s[%u] - %s[%u]", t->sw_name[l->a], l->pa,
		      t->sw_name[l->b], l->pb);
		return;
	}
	if (a.kind == 'e')
		CHECK(b.kind == 'a' && b.pod == a.pod && l->pa == h + b.idx + 1 &&
		      l->pb == a.idx + 1, "edge link %s[%u] - %s[%u]",
		      t->sw_name[l->a], l->pa, t->sw_name[l->b], l->pb);
	else
		CHECK(a.kind == 'a' && b.kind == 'c' &&
		      b.idx / h == a.idx && l->pa == h + b.idx % h + 1 &&
		      l->pb == a.pod + 1, "agg link %s[%u] - %s[%u]",
		      t->sw_name[l->a], l->pa, t->sw_name[l->b], l->pb);
}

static void check_ft3join(unsigned k, enum topo_join_level level)
{
	unsigned h = k / 2, i, joined = 0;
	char last[32];
	struct topo t;

	if (topo_ft3join(&t, k, level)) {
		CHECK(0, "ft3join %u %d failed", k, (int)level);
		return;
	}
	check_sane(&t, "ft3join");
	CHECK(t.n_sw == 5 * k * k / 2 && t.n_hosts == k * k * k / 2 &&
	      t.n_links == k * k * k + k * k / 4, "ft3join %u sizes %u %u %u",
	      k, t.n_sw, t.n_hosts, t.n_links);
	snprintf(last, sizeof(last), "tB-core%u", h * h - 1);
	CHECK(!strcmp(t.sw_name[0], "tA-edge0-0") &&
	      !strcmp(t.host_name[0], "tA-edge0-0-h1") &&
	      !strcmp(t.sw_name[t.n_sw - 1], last), "ft3join names %s %s %s",
	      t.sw_name[0], t.host_name[0], t.sw_name[t.n_sw - 1]);
	for (i = 0; i < t.n_hosts; i++)
		CHECK(t.hosts[i].port <= h && !strncmp(t.host_name[i],
		      t.sw_name[t.hosts[i].sw], 3), "host %s on port %u",
		      t.host_name[i], t.hosts[i].port);
	for (i = 0; i < t.n_links; i++)
		check_ft3j_link(&t, k, level, &t.links[i]);
	for (i = 0; i < t.n_sw; i++) {
		CHECK(t.sw_ports[i] == k || t.sw_ports[i] == k + 1,
		      "%s: %u ports", t.sw_name[i], t.sw_ports[i]);
		CHECK(topo_sw_link_ends(&t, i) + (i % (5 * k * k / 4) <
		      k * h ? h : 0) == t.sw_ports[i], "%s: ports not all used",
		      t.sw_name[i]);
		joined += t.sw_ports[i] == k + 1;
	}
	CHECK(joined == k * k / 2, "ft3join %u: %u joined switches", k,
	      joined);
	topo_free(&t);
}

/*
 * topo_ft3join_alt: the trees exactly as topo_ft3join's (same switches,
 * hosts, tree links and ports), only the join links elsewhere, each end
 * where topo.h says, no switch with two.
 */
static void check_ft3join_alt(unsigned k, enum topo_join_level level)
{
	unsigned h = k / 2, i, n_tree, same = 0;
	unsigned char *seen;
	struct topo t, u;

	if (topo_ft3join_alt(&t, k, level) || topo_ft3join(&u, k, level)) {
		CHECK(0, "ft3join-alt %u %d failed", k, (int)level);
		return;
	}
	check_sane(&t, "ft3join-alt");
	n_tree = u.n_links - h * h;
	CHECK(t.n_sw == u.n_sw && t.n_hosts == u.n_hosts &&
	      t.n_links == u.n_links && !memcmp(t.links, u.links,
	      n_tree * sizeof(*t.links)) && !memcmp(t.hosts, u.hosts,
	      t.n_hosts * sizeof(*t.hosts)), "ft3join-alt %u: trees differ", k);
	seen = calloc(t.n_sw, 1);
	for (i = n_tree; seen && i < t.n_links; i++) {
		const struct topo_link *l = &t.links[i];
		unsigned j = i - n_tree, g = j / h, sl = j % h;
		struct ft3j_pos a, b;

		CHECK(!ft3j_pos(t.sw_name[l->a], &a) &&
		      !ft3j_pos(t.sw_name[l->b], &b) && !a.tree && b.tree,
		      "join %u: %s - %s", j, t.sw_name[l->a], t.sw_name[l->b]);
		if (level == TOPO_JOIN_TOP)
			CHECK(a.kind == 'c' && b.kind == 'c' &&
			      a.idx == g * h + sl && b.idx == sl * h + g,
			      "top join %u: %s - %s", j, t.sw_name[l->a],
			      t.sw_name[l->b]);
		else
			CHECK(a.kind == (level == TOPO_JOIN_MIDDLE ? 'a' : 'e') &&
			      b.kind == a.kind && a.pod == g && a.idx == sl &&
			      b.pod == k - 1 - g && b.idx == (sl + g) % h,
			      "join %u: %s - %s", j, t.sw_name[l->a],
			      t.sw_name[l->b]);
		CHECK(!seen[l->a]++ && !seen[l->b]++ && l->pa == k + 1 &&
		      l->pb == k + 1, "join %u: ports %u %u or a second join",
		      j, l->pa, l->pb);
		same += a.kind == b.kind && a.pod == b.pod && a.idx == b.idx;
	}
	CHECK(seen != NULL, "out of memory");
	for (i = 0; seen && i < t.n_sw; i++)
		CHECK(t.sw_ports[i] == k + seen[i], "%s: %u ports",
		      t.sw_name[i], t.sw_ports[i]);
	CHECK(same < h * h, "ft3join-alt %u %d: wired like ft3join", k,
	      (int)level);
	free(seen);
	topo_free(&t);
	topo_free(&u);
}

static void test_ft3join(void)
{
	enum topo_join_level level;
	unsigned k;
	struct topo t;

	for (k = 4; k <= 10; k += 2) {
		check_ft3join(k, TOPO_JOIN_TOP);
		check_ft3join(k, TOPO_JOIN_MIDDLE);
		check_ft3join(k, TOPO_JOIN_BOTTOM);
		check_ft3join_alt(k, TOPO_JOIN_TOP);
		check_ft3join_alt(k, TOPO_JOIN_MIDDLE);
		check_ft3join_alt(k, TOPO_JOIN_BOTTOM);
	}
	CHECK(topo_ft3join(&t, 44, TOPO_JOIN_MIDDLE) == 0 &&
	      t.n_hosts == 2 * 44 * 44 * 44 / 4, "ft3join 44");
	topo_free(&t);
	CHECK(topo_ft3join(&t, 46, TOPO_JOIN_TOP) == -1 && t.n_sw == 0,
	      "ft3join 46: more nodes than unicast LIDs");
	CHECK(topo_ft3join(&t, 5, TOPO_JOIN_TOP) == -1, "odd k");
	CHECK(topo_ft3join(&t, 2, TOPO_JOIN_TOP) == -1, "k = 2");
	CHECK(topo_ft3join(&t, 4, (enum topo_join_level)7) == -1, "level");
	CHECK(topo_join_level_parse("middle", &level) == 0 &&
	      level == TOPO_JOIN_MIDDLE, "parse middle");
	CHECK(topo_join_level_parse("Middle", &level) == -1, "parse Middle");
}

static int same_links(const struct topo *a, const struct topo *b)
{
	return a->n_links == b->n_links &&
	       !memcmp(a->links, b->links, a->n_links * sizeof(*a->links));
}

static void check_random(unsigned n, unsigned p, unsigned h, unsigned seed)
{
	unsigned s, ends = 0, short_sw = 0;
	struct topo t, u;

	if (topo_random(&t, n, p, h, seed)) {
		CHECK(0, "random %u %u %u %u failed", n, p, h, seed);
		return;
	}
	check_sane(&t, "random");
	for (s = 0; s < n; s++) {
		unsigned e = topo_sw_link_ends(&t, s);

		ends += e;
		short_sw += e < p;
		CHECK(e <= p, "random %u %u seed %u: sw %u has %u ends", n, p,
		      seed, s, e);
	}
	CHECK(ends >= n * p - 1 && short_sw <= 1,
	      "random %u %u seed %u: %u of %u ports used", n, p, seed, ends,
	      n * p);
	CHECK(topo_random(&u, n, p, h, seed) == 0 && same_links(&t, &u),
	      "random %u %u seed %u not reproducible", n, p, seed);
	topo_free(&u);
	topo_free(&t);
}

static void test_random(void)
{
	static const unsigned sizes[] = { 2, 3, 4, 5, 7, 20, 50, 100 };
	unsigned i, p, seed;
	struct topo a, b;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (p = sizes[i] == 2 ? 1 : 2; p <= 10; p++)
			for (seed = 0; seed < 40; seed++)
				check_random(sizes[i], p, 2, seed);
	CHECK(topo_random(&a, 50, 10, 1, 1) == 0 &&
	      topo_random(&b, 50, 10, 1, 2) == 0 && !same_links(&a, &b),
	      "seeds 1 and 2 give the same net");
	topo_free(&a);
	topo_free(&b);
	CHECK(topo_random(&a, 5, 1, 1, 1) == -1, "1 port, 5 switches");
	CHECK(topo_random(&a, 1, 4, 1, 1) == -1, "1 switch");
}

static void test_write(void)
{
	struct topo t;
	char line[512];
	unsigned n_port_lines = 0, n_headers = 0;
	FILE *f = tmpfile();

	CHECK(f != NULL, "tmpfile");
	if (!f)
		return;
	CHECK(topo_fattree2(&t, 3, 2, 2, 1) == 0, "fattree");
	CHECK(topo_write_ibsim(&t, f) == 0, "write");
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		n_port_lines += line[0] == '[';
		n_headers += !strncmp(line, "Switch\t", 7) ||
			     !strncmp(line, "Hca\t1 ", 6);
	}
	CHECK(n_headers == t.n_sw + t.n_hosts, "headers %u", n_headers);
	CHECK(n_port_lines == 2 * (t.n_links + t.n_hosts), "port lines %u",
	      n_port_lines);
	fclose(f);
	topo_free(&t);
	topo_free(&t);	/* twice is safe */
}

int main(void)
{
	test_ring();
	test_mesh();
	test_fattree();
	test_fattree3();
	test_ft3join();
	test_random();
	test_write();
	if (failures)
		fprintf(stderr, "test_topo: %d check(s) failed\n", failures);
	else
		printf("test_topo: all checks passed\n");
	return failures ? 1 : 0;
}
