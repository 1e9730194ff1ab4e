// SPDX-License-Identifier: MIT
/*
 * madtally: counts the LFT SubnSet MADs logged by libmadcount.so per
 * switch, resolving each directed route against a topology.
 *
 *   madtally [-l LOCAL_GUID] TOPOLOGY MADLOG
 *
 * TOPOLOGY is ibnetdiscover output taken from the node where OpenSM runs
 * (its "# Initiated from node GUID" line names the start of the directed
 * routes; -l overrides it), after the MADs were sent, so the routes are
 * those of the fabric OpenSM swept.  MADLOG holds the lines of
 * libmadcount.so (see madcount_preload.c) of one phase.
 *
 * Prints CSV on stdout, one row per switch of the topology in its order:
 *   switch,guid,lft_mads,blocks,mft_mads
 * (blocks: distinct 64-LID blocks written; mft_mads: MulticastForwarding
 * Table Sets, logged after "mft "), then a row "(unresolved)"
 * if some route or LID did not lead to a switch of the topology.
 * Exit 0, or 2 on bad usage or input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_fabric.h"
#include "lc_input.h"
#include "lc_parse.h"

#define MT_MAX_BLOCKS ((LC_MAX_LID + 1) / 64)
#define MT_MAX_HOPS 63

struct tally {
	unsigned long *mads;	/* per switch index */
	unsigned long *blocks;
	unsigned long *mft;	/* MFT Sets per switch index */
	uint8_t *seen;		/* per switch: bitmap of blocks written */
	unsigned long unresolved;
};

#define MT_SEEN_BYTES (MT_MAX_BLOCKS / 8)

/* The GUID on the "# Initiated from node GUID" line, 0 if none. */
static uint64_t initiator_guid(const char *path)
{
	static const char key[] = "# Initiated from node ";
	struct lc_input in;
	uint64_t guid = 0;

	if (lc_input_open(&in, path))
		return 0;
	while (!guid && lc_input_next(&in) > 0)
		if (!strncmp(in.line, key, sizeof(key) - 1))
			guid = strtoull(in.line + sizeof(key) - 1, NULL, 16);
	lc_input_close(&in);
	return guid;
}

static int find_node(const struct lc_fabric *f, uint64_t guid)
{
	unsigned i;

	for (i = 0; i < f->n_nodes; i++)
		if (f->node[i].guid == guid)
			return (int)i;
	return -1;
}

/* Switch index at the end of the route "0,p1,...,pN" from node local. */
static int resolve_dr(const struct lc_fabric *f, int local, unsigned hops,
		      const char *route)
{
	const struct lc_node *n = &f->node[local];
	const char *s = route;
	unsigned i;
	char *end;

	if (strtoul(s, &end, 10) != 0)
		return -1;
	for (i = 1; i <= hops; i++) {
		unsigned long port;

		if (*end != ',')
			return -1;
		port = strtoul(end + 1, &end, 10);
		if (port < 1 || port > n->n_ports ||
		    !(n = lc_fabric_peer(f, n, (unsigned)port)))
			return -1;
	}
	if (*end)
		return -1;
	return n->is_switch ? n->sw : -1;
}

static int resolve_lid(const struct lc_fabric *f, unsigned long lid)
{
	int owner;

	if (lid > f->max_lid)
		return -1;
	owner = f->lid_node[lid];
	return owner >= 0 && f->node[owner].is_switch ? f->node[owner].sw : -1;
}

static void count(struct tally *t, int sw, unsigned long block)
{
	uint8_t *bits;

	if (sw < 0 || block >= MT_MAX_BLOCKS) {
		t->unresolved++;
		return;
	}
	t->mads[sw]++;
	bits = t->seen + (size_t)sw * MT_SEEN_BYTES;
	if (!(bits[block / 8] & 1u << (block % 8))) {
		bits[block / 8] |= (uint8_t)(1u << (block % 8));
		t->blocks[sw]++;
	}
}

/* One log line: "<block> D <hops> <route>" or "<block> L <dlid>". */
static int tally_line(struct tally *t, const struct lc_fabric *f, int local,
		      struct lc_input *in)
{
	unsigned long block, hops, lid;
	char kind, route[4 * (MT_MAX_HOPS + 1) + 1];

	if (!strncmp(in->line, "mft ", 4)) {
		const char *s = in->line + 4;
		int sw = -1;

		if (sscanf(s, "%lu %c", &block, &kind) == 2 && kind == 'D' &&
		    sscanf(s, "%*u D %lu %256s", &hops, route) == 2 &&
		    hops <= MT_MAX_HOPS)
			sw = resolve_dr(f, local, (unsigned)hops, route);
		else if (sscanf(s, "%lu %c", &block, &kind) == 2 &&
			 kind == 'L' && sscanf(s, "%*u L %lu", &lid) == 1)
			sw = resolve_lid(f, lid);
		else
			return lc_input_error(in, "not a madcount line");
		if (sw < 0)
			t->unresolved++;
		else
			t->mft[sw]++;
		return 0;
	}
	if (sscanf(in->line, "%lu %c", &block, &kind) != 2)
		return lc_input_error(in, "not a madcount line");
	if (kind == 'D' && sscanf(in->line, "%*u D %lu %256s", &hops,
				  route) == 2 && hops <= MT_MAX_HOPS) {
		count(t, resolve_dr(f, local, (unsigned)hops, route), block);
		return 0;
	}
	if (kind == 'L' && sscanf(in->line, "%*u L %lu", &lid) == 1) {
		count(t, resolve_lid(f, lid), block);
		return 0;
	}
	return lc_input_error(in, "not a madcount line");
}

static void print_csv(const struct tally *t, const struct lc_fabric *f)
{
	unsigned s;

	printf("switch,guid,lft_mads,blocks,mft_mads\n");
	for (s = 0; s < f->n_switches; s++) {
		const struct lc_node *n = &f->node[f->sw_node[s]];

		printf("%s,0x%016llx,%lu,%lu,%lu\n", n->desc,
		       (unsigned long long)n->guid, t->mads[s], t->blocks[s],
		       t->mft[s]);
	}
	if (t->unresolved)
		printf("(unresolved),,%lu,,\n", t->unresolved);
}

static int run(const struct lc_fabric *f, int local, const char *log_path)
{
	unsigned n = f->n_switches + 1;
	struct tally t = { 0 };
	struct lc_input in;
	int ret = 2, got;

	t.mads = calloc(n, sizeof(*t.mads));
	t.blocks = calloc(n, sizeof(*t.blocks));
	t.seen = calloc(n, MT_SEEN_BYTES);
	t.mft = calloc(n, sizeof(*t.mft));
	if (!t.mads || !t.blocks || !t.seen || !t.mft) {
		fprintf(stderr, "madtally: out of memory\n");
		goto out;
	}
	if (lc_input_open(&in, log_path))
		goto out;
	while ((got = lc_input_next(&in)) > 0)
		if (in.line[0] && tally_line(&t, f, local, &in))
			break;
	lc_input_close(&in);
	if (got)
		goto out;
	print_csv(&t, f);
	ret = fflush(stdout) ? 2 : 0;
out:
	free(t.mads);
	free(t.blocks);
	free(t.mft);
	free(t.seen);
	return ret;
}

int main(int argc, char **argv)
{
	uint64_t local_guid = 0;
	struct lc_fabric f;
	int opt, local, ret;
	char *end;

	lc_prog_name = "madtally";
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		puts("madtally (turnadd) " TURNADD_VERSION);
		return 0;
	}
	while ((opt = getopt(argc, argv, "l:")) != -1) {
		if (opt != 'l')
			goto usage;
		local_guid = strtoull(optarg, &end, 16);
		if (!*optarg || *end)
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	if (!local_guid)
		local_guid = initiator_guid(argv[optind]);
	lc_fabric_init(&f);
	if (lc_read_topology(&f, argv[optind])) {
		lc_fabric_free(&f);
		return 2;
	}
	local = find_node(&f, local_guid);
	if (local < 0) {
		fprintf(stderr, "madtally: start node 0x%016llx not in %s "
			"(no \"# Initiated from node\" line? use -l)\n",
			(unsigned long long)local_guid, argv[optind]);
		lc_fabric_free(&f);
		return 2;
	}
	ret = run(&f, local, argv[optind + 1]);
	lc_fabric_free(&f);
	return ret;
usage:
	fprintf(stderr, "usage: madtally [-l LOCAL_GUID] TOPOLOGY MADLOG\n");
	return 2;
}
