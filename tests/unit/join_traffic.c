// SPDX-License-Identifier: MIT
/* The joined trees' traffic file for the unit tests (join_traffic.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join_traffic.h"
#include "topo.h"

void join_traffic_load(struct ta_traffic *tr, const struct ta_log *log)
{
	char path[] = "/tmp/ta-join-traffic-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(topo_ft3join_traffic(f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(ta_traffic_load(tr, path, log), 0);
	unlink(path);
}

int join_tree_of(const struct ta_graph *g, uint32_t d)
{
	ck_assert_ptr_nonnull(g->dest[d].name);
	return !strncmp(g->dest[d].name, "tB-", 3);
}
