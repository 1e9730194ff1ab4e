// SPDX-License-Identifier: MIT
/*
 * mftread: reads the multicast forwarding table of every switch of a
 * fabric through directed-route SMPs (SubnGet of SwitchInfo, then of
 * MulticastForwardingTable for each 32-MLID block and 16-port
 * position), and prints them in OpenSM's opensm.mcfdbs format, which
 * lftcheck --mfts reads.
 *
 *   mftread [-t TIMEOUT_MS] [-m MAX_MLID] TOPOLOGY
 *
 * TOPOLOGY is ibnetdiscover output of the same fabric (taken from the
 * same attachment point).  Blocks up to the switch's MulticastFDBCap
 * are read, or up to MAX_MLID (e.g. 0xC07F) to save MADs.  Directed
 * routes do not depend on the tables being read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_fabric.h"
#include "lc_parse.h"
#include "lr_paths.h"
#include "lr_smp.h"

#define ATTR_MFT 0x001B
#define MLID_BASE 0xC000u
#define BLOCK 32u		/* MLIDs in one MFT block */

static int dump_switch(struct lr_smp *s, const struct lc_node *n,
		       const struct lr_path *p, void *ctx)
{
	unsigned max_mlid = *(const unsigned *)ctx;
	uint8_t data[LR_SMP_DATA];
	unsigned cap, blocks, positions, b, pos, i, j;
	uint16_t *mask;
	bool header = false;

	if (lr_smp_get(s, p->port, p->hops, LR_ATTR_SWITCH_INFO, 0, data))
		return -1;
	cap = (unsigned)data[4] << 8 | data[5];	/* MulticastFDBCap */
	if (max_mlid >= MLID_BASE && max_mlid - MLID_BASE + 1 < cap)
		cap = max_mlid - MLID_BASE + 1;
	blocks = (cap + BLOCK - 1) / BLOCK;
	positions = n->n_ports / 16 + 1;
	mask = calloc((size_t)blocks * BLOCK * positions + 1, sizeof(*mask));
	if (!mask)
		return -1;
	for (b = 0; b < blocks; b++)
		for (pos = 0; pos < positions; pos++) {
			if (lr_smp_get(s, p->port, p->hops, ATTR_MFT,
				       b | pos << 28, data)) {
				free(mask);
				return -1;
			}
			for (i = 0; i < BLOCK; i++)
				mask[(b * BLOCK + i) * positions + pos] =
					(uint16_t)(data[2 * i] << 8 |
						   data[2 * i + 1]);
		}
	for (i = 0; i < blocks * BLOCK; i++) {
		bool first = true;

		for (pos = 0; pos < positions; pos++)
			for (j = 0; j < 16; j++) {
				if (!(mask[i * positions + pos] >> j & 1))
					continue;
				if (!header) {
					printf("\nSwitch 0x%016llx\n"
					       "LID    : Out Port(s)\n",
					       (unsigned long long)n->guid);
					header = true;
				}
				if (first)
					printf("0x%04X :", MLID_BASE + i);
				first = false;
				printf(" 0x%03X ", pos * 16 + j);
			}
		if (!first)
			putchar('\n');
	}
	free(mask);
	return 0;
}

int main(int argc, char **argv)
{
	long timeout_ms = 1000;
	unsigned long max_mlid = 0;
	unsigned mlid_cap;
	struct lc_fabric f;
	char *end;
	int opt, ret;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		puts("mftread (turnadd) " TURNADD_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		puts("usage: mftread [-t TIMEOUT_MS] [-m MAX_MLID] TOPOLOGY\n"
		     "Prints every switch's MFT, read by directed-route SMPs,\n"
		     "in opensm.mcfdbs format.  TOPOLOGY: ibnetdiscover output.");
		return 0;
	}
	while ((opt = getopt(argc, argv, "t:m:")) != -1) {
		if (opt == 't') {
			timeout_ms = strtol(optarg, &end, 10);
			if (*end || timeout_ms <= 0)
				goto usage;
		} else if (opt == 'm') {
			max_mlid = strtoul(optarg, &end, 0);
			if (*end || max_mlid < MLID_BASE || max_mlid > 0xfffe)
				goto usage;
		} else {
			goto usage;
		}
	}
	if (argc - optind != 1)
		goto usage;
	lc_fabric_init(&f);
	if (lc_read_topology(&f, argv[optind])) {
		lc_fabric_free(&f);
		return 2;
	}
	mlid_cap = (unsigned)max_mlid;
	ret = lr_each_switch(&f, (int)timeout_ms, "mftread", dump_switch,
			     &mlid_cap) || fflush(stdout);
	lc_fabric_free(&f);
	return ret ? 1 : 0;
usage:
	fprintf(stderr, "usage: mftread [-t TIMEOUT_MS] [-m MAX_MLID] "
		"TOPOLOGY (or --help, --version)\n");
	return 2;
}
