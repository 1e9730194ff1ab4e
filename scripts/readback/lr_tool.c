// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_input.h"
#include "lc_parse.h"
#include "lr_tool.h"

int lr_tool_main(const struct lr_tool *t, int argc, char **argv, void *ctx)
{
	long timeout_ms = 1000;
	struct lc_fabric f;
	char optstring[32];
	char *end;
	int opt, ret;

	lc_prog_name = t->name;
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("%s (turnadd) %s\n", t->name, TURNADD_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: %s %s\n%s\n", t->name, t->args, t->help);
		return 0;
	}
	snprintf(optstring, sizeof(optstring), "t:%s", t->opts ? t->opts : "");
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		if (opt == 't') {
			timeout_ms = strtol(optarg, &end, 10);
			if (*end || timeout_ms <= 0 || timeout_ms > INT_MAX)
				goto usage;
		} else if (opt == '?' || !t->option ||
			   t->option(opt, optarg, ctx)) {
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
	ret = lr_each_switch(&f, (int)timeout_ms, t->name, t->dump, ctx) ||
	      fflush(stdout);
	lc_fabric_free(&f);
	return ret ? 1 : 0;
usage:
	fprintf(stderr, "usage: %s %s (or --help, --version)\n", t->name,
		t->args);
	return 2;
}
