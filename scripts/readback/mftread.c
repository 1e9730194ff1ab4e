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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lr_smp.h"
#include "lr_tool.h"

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

/* -m MAX_MLID: ctx is the unsigned dump_switch() reads */
static int mlid_option(int opt, const char *arg, void *ctx)
{
	unsigned long max_mlid;
	char *end;

	if (opt != 'm')
		return -1;
	max_mlid = strtoul(arg, &end, 0);
	if (*end || max_mlid < MLID_BASE || max_mlid > 0xfffe)
		return -1;
	*(unsigned *)ctx = (unsigned)max_mlid;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct lr_tool tool = {
		.name = "mftread",
		.args = "[-t TIMEOUT_MS] [-m MAX_MLID] TOPOLOGY",
		.help = "Prints every switch's MFT, read by directed-route SMPs,\n"
			"in opensm.mcfdbs format (lftcheck --mfts reads it).\n"
			"TOPOLOGY: ibnetdiscover output.\n"
			"  -t TIMEOUT_MS  wait for each SMP answer (default 1000;\n"
			"                 3 tries)\n"
			"  -m MAX_MLID    read blocks up to this MLID only (e.g.\n"
			"                 0xC07F; default: the switch's\n"
			"                 MulticastFDBCap)\n"
			"Exit 0: every switch read; 1: a read failed; 2: bad usage\n"
			"or topology.  Example:\n"
			"  ibnetdiscover > topo.txt && mftread topo.txt > mfts.txt",
		.opts = "m:",
		.option = mlid_option,
		.dump = dump_switch,
	};
	unsigned max_mlid = 0;

	return lr_tool_main(&tool, argc, argv, &max_mlid);
}
