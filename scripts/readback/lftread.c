// SPDX-License-Identifier: MIT
/*
 * lftread: reads the unicast LFT of every switch of a fabric through
 * directed-route SMPs, and prints them in dump_fts' format.
 *
 *   lftread [-t TIMEOUT_MS] TOPOLOGY
 *
 * TOPOLOGY is ibnetdiscover output of the same fabric (taken from the
 * same attachment point).  Used instead of dump_fts/ibroute, which, in
 * infiniband-diags 44, leave out entries: the LID equal to LinearFDBTop
 * when it starts a new block of 64, and (dump_fts) some entries of
 * switches with more than 128 ports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_fabric.h"
#include "lc_parse.h"
#include "lr_paths.h"
#include "lr_smp.h"

#define LFT_BLOCK 64

static int dump_switch(struct lr_smp *s, const struct lc_node *n,
		       const struct lr_path *p, void *ctx)
{
	uint8_t data[LR_SMP_DATA];
	unsigned top, block, i, valid = 0;
	char dr[4 * (LR_MAX_HOPS + 1) + 1];

	(void)ctx;
	if (lr_smp_get(s, p->port, p->hops, LR_ATTR_SWITCH_INFO, 0, data))
		return -1;
	top = (unsigned)data[6] << 8 | data[7];	/* LinearFDBTop */
	lr_path_format(p, dr, sizeof(dr));
	printf("Unicast lids [0x0-0x%x] of switch DR path %s guid 0x%016llx "
	       "(%s):\n", top, dr, (unsigned long long)n->guid, n->desc);
	for (block = 0; top && block <= top / LFT_BLOCK; block++) {
		if (lr_smp_get(s, p->port, p->hops, LR_ATTR_LFT, block, data))
			return -1;
		for (i = 0; i < LFT_BLOCK; i++) {
			unsigned lid = block * LFT_BLOCK + i;

			if (lid > top || data[i] == 0xff)
				continue;
			printf("0x%04x %03u\n", lid, data[i]);
			valid++;
		}
	}
	printf("%u valid lids dumped\n", valid);
	return 0;
}

int main(int argc, char **argv)
{
	long timeout_ms = 1000;
	struct lc_fabric f;
	char *end;
	int opt, ret;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		puts("lftread (turnadd) " TURNADD_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		puts("usage: lftread [-t TIMEOUT_MS] TOPOLOGY\n"
		     "Prints every switch's LFT, read by directed-route SMPs,\n"
		     "in dump_fts format.  TOPOLOGY: ibnetdiscover output.");
		return 0;
	}
	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			goto usage;
		timeout_ms = strtol(optarg, &end, 10);
		if (*end || timeout_ms <= 0)
			goto usage;
	}
	if (argc - optind != 1)
		goto usage;
	lc_fabric_init(&f);
	if (lc_read_topology(&f, argv[optind])) {
		lc_fabric_free(&f);
		return 2;
	}
	ret = lr_each_switch(&f, (int)timeout_ms, "lftread", dump_switch,
			     NULL) || fflush(stdout);
	lc_fabric_free(&f);
	return ret ? 1 : 0;
usage:
	fprintf(stderr, "usage: lftread [-t TIMEOUT_MS] TOPOLOGY "
		"(or --help, --version)\n");
	return 2;
}
