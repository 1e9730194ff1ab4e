/* SPDX-License-Identifier: MIT */
/*
 * The main() of a tool that reads one table from every switch by
 * directed-route SMPs (lftread, mftread): --version, --help, -t
 * TIMEOUT_MS and the tool's own options, the topology, then one call of
 * the tool's dump function per switch (lr_each_switch()).
 */
#ifndef LR_TOOL_H
#define LR_TOOL_H

#include "lr_paths.h"

struct lr_tool {
	const char *name;	/* in messages: "lftread" */
	const char *args;	/* after the name: "[-t TIMEOUT_MS] TOPOLOGY" */
	const char *help;	/* what --help prints after the usage line */
	const char *opts;	/* getopt letters of the tool's own options */
	/* one of opts with its argument: 0, or -1 if the argument is bad */
	int (*option)(int opt, const char *arg, void *ctx);
	lr_switch_fn dump;	/* called for every switch, with ctx */
};

/*
 * Runs the tool on argv; its exit status: 0 every switch dumped, 1 a
 * read failed, 2 bad usage or a bad topology.  ctx goes to option() and
 * dump().  Messages of the topology reader name the tool (lc_prog_name).
 */
int lr_tool_main(const struct lr_tool *t, int argc, char **argv, void *ctx);

#endif /* LR_TOOL_H */
