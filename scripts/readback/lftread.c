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

#include "lr_smp.h"
#include "lr_tool.h"

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
	static const struct lr_tool tool = {
		.name = "lftread",
		.args = "[-t TIMEOUT_MS] TOPOLOGY",
		.help = "Prints every switch's LFT, read by directed-route SMPs,\n"
			"in dump_fts format.  TOPOLOGY: ibnetdiscover output.\n"
			"  -t TIMEOUT_MS  wait for each SMP answer (default 1000;\n"
			"                 3 tries)\n"
			"Exit 0: every switch read; 1: a read failed; 2: bad usage\n"
			"or topology.  Example (lftread(8)):\n"
			"  ibnetdiscover > topo.txt && lftread topo.txt > lfts.txt",
		.dump = dump_switch,
	};

	return lr_tool_main(&tool, argc, argv, NULL);
}
