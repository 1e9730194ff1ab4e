// SPDX-License-Identifier: MIT
/* topogen: writes a generated fabric as an ibsim netfile to stdout. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

static const char usage_text[] =
	"usage: topogen [--absent FRACTION [--seed N]] [--partial-pods K] "
	"[--switch-ports N] KIND ARGS...\n"
	"       topogen ring N HOSTS\n"
	"       topogen mesh X Y HOSTS\n"
	"       topogen torus X Y HOSTS\n"
	"       topogen fattree2 LEAVES SPINES HOSTS [LINKS_PER_PAIR]\n"
	"       topogen fattree3 DIRECTORS LINES FABRICS LEAVES_PER_LINE "
	"HOSTS\n"
	"       topogen random N SWITCH_PORTS HOSTS SEED\n"
	"       topogen hyperx D S HOSTS | hyperx S1xS2[xS3...] HOSTS\n"
	"       topogen dragonfly A H P [G]\n"
	"       topogen dfplus GROUPS LEAVES SPINES HOSTS "
	"[GLOBAL_PER_PAIR]\n"
	"       topogen ft3join K top|middle|bottom\n"
	"       topogen ft3join-alt K top|middle|bottom\n"
	"       topogen ft3join-traffic\n"
	"Writes an ibsim netfile to stdout.  HOSTS is the number of hosts\n"
	"per switch (per leaf: fattree2, fattree3, dfplus).  fattree3: leaves\n"
	"with one uplink to every director; a director is LINES line\n"
	"switches (LEAVES_PER_LINE leaves each) fully linked to FABRICS\n"
	"fabric switches, named dir<d>-line<i>, dir<d>-fab<j>.  The papers':\n"
	"  fattree3 18 18 9 18 18    5,832 hosts, 324 leaves, 810 switches\n"
	"  fattree3 18 36 18 18 18   11,664 hosts, 648 leaves, 1,620 "
	"switches\n"
	"ft3join: two K-ary 3-level fat trees (K even, 4..44; K^3/4 hosts "
	"each,\n"
	"names tA-... and tB-...) joined by K*K/4 links between their core,\n"
	"aggregation or edge switches.  ft3join-traffic writes the turnadd\n"
	"traffic file for them (1 inside a tree, 1/100 between).\n"
	"Incomplete fabrics: --absent FRACTION leaves out that fraction of\n"
	"the hosts (0 to 1, a random choice by --seed N, default 1; the\n"
	"others keep their ports).  --partial-pods K (fattree3): every odd\n"
	"pod keeps only its first K leaves.  Oversubscribed leaves:\n"
	"fattree2 with HOSTS > SPINES * LINKS_PER_PAIR.\n"
	"--switch-ports N: every switch declares at least N ports (the\n"
	"product's count: 40, 64), the ports it does not use left free.\n"
	"Larger fabrics: fattree3 20 40 20 20 20 (40-port, 16,000 hosts,\n"
	"2,000 switches); fattree2 64 32 32 (64-port leaf-spine, 2,048\n"
	"hosts); --switch-ports 64 fattree3 32 32 32 32 32 (64-port, half\n"
	"the pods of a full tree: 32,768 hosts, 3,072 switches).\n"
	"ft3join-alt: the same trees, the join links from other positions\n"
	"(top: core (a,m) to core (m,a); middle, bottom: A's first K/2 pods\n"
	"to B's last K/2 pods in reverse order, slots rotated).\n"
	"hyperx: D dimensions of S switches (or sizes S1xS2...), every\n"
	"switch linked to every switch differing in exactly one coordinate,\n"
	"HOSTS hosts each; switches hx-<c0>-<c1>-...\n"
	"  hyperx 2 4 2          16 switches (6 links each), 32 hosts\n"
	"  hyperx 4x3x2 1        24 switches (6 links each), 24 hosts\n"
	"dragonfly: G groups (default A*H+1) of A switches df<g>-s<i>, all\n"
	"to all inside a group, H global links and P hosts a switch.  Global\n"
	"links, relative arrangement: global port k (0..A*H-1, switch k/H)\n"
	"of group g goes to group (g+k+1) mod G, its port A*H-1-k; one link\n"
	"a group pair.  With G < A*H+1 round by round (port r*(G-1)+d-1 to\n"
	"group g+d), the rest spread evenly (pairs get R or R+1 links).\n"
	"  dragonfly 4 2 2       9 groups, 36 switches, 72 hosts\n"
	"  dragonfly 4 2 2 5     5 groups, 2 links a group pair, 40 hosts\n"
	"dfplus: GROUPS groups, each a 2-level fat tree of LEAVES leaves\n"
	"dfp<g>-leaf<i> (HOSTS hosts each) fully linked to SPINES spines\n"
	"dfp<g>-spine<j>; GLOBAL_PER_PAIR (default 1) links between every\n"
	"pair of groups, spine to spine, a group's global link k on spine\n"
	"k mod SPINES (round robin), link r*(GROUPS-1)+d-1 to group g+d.\n"
	"  dfplus 5 4 4 4        40 switches, 80 hosts, 10 global links\n";

static int usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "topogen: %s\n", msg);
	fputs(usage_text, stderr);
	return 2;
}

/* Parses a decimal unsigned; -1 (with a message) if not one. */
static int parse_uint(const char *s, const char *what, unsigned *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || *s == '-' || errno || v > UINT_MAX) {
		fprintf(stderr, "topogen: %s: not a number: '%s'\n", what, s);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

struct generator {
	const char *name;
	unsigned min_args, max_args;	/* after the generator name */
	const char *arg_names[5];
	const char *limits;
};

static const struct generator generators[] = {
	{ "ring", 2, 2, { "N", "HOSTS" }, "N >= 3, HOSTS + 2 <= 254" },
	{ "mesh", 3, 3, { "X", "Y", "HOSTS" },
	  "X, Y >= 1, X * Y <= 65536, HOSTS + 4 <= 254" },
	{ "torus", 3, 3, { "X", "Y", "HOSTS" },
	  "X, Y >= 1, X * Y <= 65536, HOSTS + 4 <= 254" },
	{ "fattree2", 3, 4, { "LEAVES", "SPINES", "HOSTS", "LINKS_PER_PAIR" },
	  "all >= 1 (HOSTS >= 0), HOSTS + SPINES * LINKS <= 254, "
	  "LEAVES * LINKS <= 254" },
	{ "fattree3", 5, 5,
	  { "DIRECTORS", "LINES", "FABRICS", "LEAVES_PER_LINE", "HOSTS" },
	  "all >= 1 (HOSTS >= 0), LEAVES_PER_LINE a multiple of FABRICS, "
	  "HOSTS + DIRECTORS <= 254, 2 * LEAVES_PER_LINE <= 254, "
	  "LINES * LEAVES_PER_LINE / FABRICS <= 254" },
	{ "random", 4, 4, { "N", "SWITCH_PORTS", "HOSTS", "SEED" },
	  "N >= 2, SWITCH_PORTS >= 2 (1 if N = 2), "
	  "HOSTS + SWITCH_PORTS <= 254" },
	{ "hyperx", 2, 3, { "D", "S", "HOSTS" },
	  "1 <= D <= 16, every size S >= 2, S^D (S1 * S2 * ...) <= 65536, "
	  "HOSTS + D * (S - 1) (HOSTS + the sum of Si - 1) <= 254" },
	{ "dragonfly", 3, 4, { "A", "H", "P", "G" },
	  "A, H >= 1, 2 <= G <= A * H + 1, A * G <= 65536, "
	  "P + A - 1 + H <= 254" },
	{ "dfplus", 4, 5,
	  { "GROUPS", "LEAVES", "SPINES", "HOSTS", "GLOBAL_PER_PAIR" },
	  "GROUPS >= 2, LEAVES, SPINES, GLOBAL_PER_PAIR >= 1, "
	  "GROUPS * (LEAVES + SPINES) <= 65536, HOSTS + SPINES <= 254, "
	  "LEAVES + (GROUPS - 1) * GLOBAL_PER_PAIR / SPINES (rounded up) "
	  "<= 254" },
};

/* hyperx's grid: D S, or the sizes S1xS2x... */
struct grid {
	unsigned dims;
	unsigned size[TOPO_HYPERX_MAX_DIMS];
};

/* "4x4x2" -> sizes; -1 (with a message) if not such a list */
static int parse_grid(const char *s, struct grid *gr)
{
	char buf[16];
	size_t n;

	gr->dims = 0;
	for (;;) {
		n = strcspn(s, "x");
		if (n >= sizeof(buf) || gr->dims == TOPO_HYPERX_MAX_DIMS) {
			fprintf(stderr, "topogen: hyperx: sizes: at most %u "
				"numbers S1xS2x...: '%s'\n",
				TOPO_HYPERX_MAX_DIMS, s);
			return -1;
		}
		memcpy(buf, s, n);
		buf[n] = '\0';
		if (parse_uint(buf, "hyperx size", &gr->size[gr->dims++]))
			return -1;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

static int build(struct topo *t, const char *name, const unsigned *v,
		 unsigned n_args, struct grid *gr)
{
	unsigned d;

	if (!strcmp(name, "hyperx") && n_args == 2)
		return topo_hyperx(t, gr->dims, gr->size, v[1]);
	if (!strcmp(name, "hyperx")) {
		if (!v[0] || v[0] > TOPO_HYPERX_MAX_DIMS)
			return -1;
		for (d = 0; d < v[0]; d++)
			gr->size[d] = v[1];
		return topo_hyperx(t, v[0], gr->size, v[2]);
	}
	/* G = 0 would be the library's default: not from the command line */
	if (!strcmp(name, "dragonfly"))
		return n_args > 3 && !v[3] ? -1 :
			topo_dragonfly(t, v[0], v[1], v[2],
				       n_args > 3 ? v[3] : 0);
	if (!strcmp(name, "dfplus"))
		return topo_dfplus(t, v[0], v[1], v[2], v[3],
				   n_args > 4 ? v[4] : 1);
	if (!strcmp(name, "ring"))
		return topo_ring(t, v[0], v[1]);
	if (!strcmp(name, "mesh"))
		return topo_mesh(t, v[0], v[1], v[2], 0);
	if (!strcmp(name, "torus"))
		return topo_mesh(t, v[0], v[1], v[2], 1);
	if (!strcmp(name, "fattree2"))
		return topo_fattree2(t, v[0], v[1], v[2],
				     n_args > 3 ? v[3] : 1);
	if (!strcmp(name, "fattree3"))
		return topo_fattree3(t, v[0], v[1], v[2], v[3], v[4]);
	return topo_random(t, v[0], v[1], v[2], v[3]);
}

/* Writes the command line as a comment, then the netfile; frees *t. */
static int emit(struct topo *t, int argc, char **argv)
{
	int i, ret = 0;

	printf("# generated by: topogen");
	for (i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	putchar('\n');
	if (topo_write_ibsim(t, stdout) || fflush(stdout)) {
		fprintf(stderr, "topogen: write error\n");
		ret = 1;
	}
	topo_free(t);
	return ret;
}

/* topogen ft3join K LEVEL: bad K gets a message saying what is wrong. */
static int cmd_ft3join(int argc, char **argv)
{
	enum topo_join_level level;
	unsigned k;
	struct topo t;

	if (argc != 4)
		return usage("ft3join: expected K and top, middle or bottom");
	if (parse_uint(argv[2], "K", &k))
		return usage(NULL);
	if (topo_join_level_parse(argv[3], &level)) {
		fprintf(stderr, "topogen: ft3join: join level '%s' is not "
			"top, middle or bottom\n", argv[3]);
		return usage(NULL);
	}
	if (k < 4 || k % 2) {
		fprintf(stderr, "topogen: ft3join: K = %u: K must be even and "
			">= 4 (K/2 edge and K/2 aggregation switches a pod)\n",
			k);
		return usage(NULL);
	}
	if (k + 1 > TOPO_MAX_PORTS) {
		fprintf(stderr, "topogen: ft3join: K = %u: a joined switch "
			"needs K + 1 = %u ports, ibsim allows %u\n", k, k + 1,
			TOPO_MAX_PORTS);
		return usage(NULL);
	}
	if ((strcmp(argv[1], "ft3join-alt") ? topo_ft3join :
	     topo_ft3join_alt)(&t, k, level)) {
		fprintf(stderr, "topogen: ft3join: K = %u: %llu hosts and "
			"switches exceed the %u unicast LIDs of a subnet "
			"(K <= 44), or out of memory\n", k,
			(unsigned long long)k * k * k / 2 + 5ull * k * k / 2,
			TOPO_MAX_UNICAST_LIDS);
		return usage(NULL);
	}
	return emit(&t, argc, argv);
}

static int cmd_ft3join_traffic(int argc)
{
	if (argc != 2)
		return usage("ft3join-traffic takes no arguments");
	if (topo_ft3join_traffic(stdout) || fflush(stdout)) {
		fprintf(stderr, "topogen: write error\n");
		return 1;
	}
	return 0;
}

struct shape {
	unsigned absent_permille;	/* hosts left out */
	unsigned seed;
	unsigned pod_keep;		/* --partial-pods K, or ~0u */
	unsigned min_ports;		/* --switch-ports N, or 0 */
};

static int parse_fraction(const char *s, unsigned *permille)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(s, &end);
	if (!*s || *end || errno || !(f >= 0 && f <= 1)) {
		fprintf(stderr, "topogen: --absent: not a fraction from 0 to "
			"1: '%s'\n", s);
		return -1;
	}
	*permille = (unsigned)(f * 1000 + 0.5);
	return 0;
}

/* leading options; returns how many argv words they took, or -1 */
static int parse_shape(int argc, char **argv, struct shape *sh)
{
	int i = 1;

	sh->absent_permille = 0;
	sh->seed = 1;
	sh->pod_keep = ~0u;
	sh->min_ports = 0;
	while (i + 1 < argc && !strncmp(argv[i], "--", 2)) {
		if (!strcmp(argv[i], "--absent")) {
			if (parse_fraction(argv[i + 1], &sh->absent_permille))
				return -1;
		} else if (!strcmp(argv[i], "--seed")) {
			if (parse_uint(argv[i + 1], "--seed", &sh->seed))
				return -1;
		} else if (!strcmp(argv[i], "--partial-pods")) {
			if (parse_uint(argv[i + 1], "--partial-pods",
				       &sh->pod_keep))
				return -1;
		} else if (!strcmp(argv[i], "--switch-ports")) {
			if (parse_uint(argv[i + 1], "--switch-ports",
				       &sh->min_ports))
				return -1;
			if (sh->min_ports > TOPO_MAX_PORTS) {
				fprintf(stderr, "topogen: --switch-ports: at "
					"most %u\n", TOPO_MAX_PORTS);
				return -1;
			}
		} else {
			fprintf(stderr, "topogen: unknown option %s\n",
				argv[i]);
			return -1;
		}
		i += 2;
	}
	return i - 1;
}

/* fattree3 --partial-pods: odd pods keep their first K leaves */
static int partial_pods(struct topo *t, const unsigned *v, unsigned keep)
{
	unsigned per_line = v[3], leaves = v[1] * v[3], l;
	unsigned char *gone = calloc(t->n_sw + 1, 1);
	int ret;

	if (!gone)
		return -1;
	for (l = 0; l < leaves; l++)
		gone[l] = (l / per_line) % 2 && l % per_line >= keep;
	ret = topo_drop_switches(t, gone);
	free(gone);
	return ret;
}

static int reshape(struct topo *t, const struct generator *g,
		   const unsigned *v, const struct shape *sh)
{
	unsigned l;

	if (sh->pod_keep != ~0u && (strcmp(g->name, "fattree3") ||
				    !sh->pod_keep)) {
		fprintf(stderr, "topogen: --partial-pods K: fattree3 only, "
			"K >= 1\n");
		return -1;
	}
	if (sh->pod_keep != ~0u && partial_pods(t, v, sh->pod_keep))
		return -1;
	if (sh->absent_permille &&
	    topo_drop_hosts(t, sh->absent_permille, sh->seed))
		return -1;
	/* --switch-ports: the product's port count, some ports left free */
	for (l = 0; l < t->n_sw; l++)
		if (t->sw_ports[l] < sh->min_ports)
			t->sw_ports[l] = sh->min_ports;
	return 0;
}

int main(int argc, char **argv)
{
	const struct generator *g = NULL;
	unsigned v[5], n_args, i;
	struct grid gr;
	struct shape sh;
	struct topo t;
	int skip;

	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help"))) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		puts("topogen (turnadd) " TURNADD_VERSION);
		return 0;
	}
	skip = parse_shape(argc, argv, &sh);
	if (skip < 0)
		return usage(NULL);
	/* the kind and its arguments follow the options: argv[skip + 1] */
	argv += skip;
	argc -= skip;
	if (argc < 2)
		return usage("missing topology kind");
	if (skip && (!strcmp(argv[1], "ft3join") ||
		     !strcmp(argv[1], "ft3join-traffic")))
		return usage("--absent, --partial-pods and --switch-ports: "
			     "not for ft3join and ft3join-traffic");
	if (!strcmp(argv[1], "ft3join") || !strcmp(argv[1], "ft3join-alt"))
		return cmd_ft3join(argc, argv);
	if (!strcmp(argv[1], "ft3join-traffic"))
		return cmd_ft3join_traffic(argc);
	for (i = 0; i < sizeof(generators) / sizeof(generators[0]); i++)
		if (!strcmp(argv[1], generators[i].name))
			g = &generators[i];
	if (!g) {
		fprintf(stderr, "topogen: unknown topology kind '%s'\n",
			argv[1]);
		return usage(NULL);
	}
	n_args = (unsigned)argc - 2;
	if (n_args < g->min_args || n_args > g->max_args)
		return usage("wrong number of arguments");
	for (i = 0; i < n_args; i++) {
		/* hyperx S1xS2... HOSTS: the first is the grid */
		if (!i && n_args == 2 && !strcmp(g->name, "hyperx")) {
			if (parse_grid(argv[2], &gr))
				return usage(NULL);
			v[0] = gr.dims;
			continue;
		}
		if (parse_uint(argv[i + 2], g->arg_names[i], &v[i]))
			return usage(NULL);
	}
	if (build(&t, g->name, v, n_args, &gr)) {
		fprintf(stderr, "topogen: %s: arguments out of range (%s) or "
			"out of memory\n", g->name, g->limits);
		return usage(NULL);
	}
	if (reshape(&t, g, v, &sh)) {
		topo_free(&t);
		return usage(NULL);
	}
	return emit(&t, argc + skip, argv - skip);
}
