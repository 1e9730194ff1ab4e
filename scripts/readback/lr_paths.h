/* SPDX-License-Identifier: MIT */
/* Directed routes from the local node to every switch of a fabric. */
#ifndef LR_PATHS_H
#define LR_PATHS_H

#include <stdint.h>

#include "lc_fabric.h"
#include "lr_smp.h"

struct lr_path {
	unsigned hops;			/* 0: not reachable (or local) */
	bool reached;
	uint8_t port[LR_MAX_HOPS + 1];	/* port[1..hops]: out ports */
};

/*
 * Breadth-first directed routes from node `local` (leaving a CA through
 * local_port) to every switch; paths[] is indexed by switch index.
 * -1 if some switch is unreachable within LR_MAX_HOPS (message printed).
 */
int lr_paths_build(const struct lc_fabric *f, unsigned local,
		   unsigned local_port, struct lr_path *paths);

/* What lr_each_switch() calls for every switch; nonzero stops it. */
typedef int (*lr_switch_fn)(struct lr_smp *s, const struct lc_node *n,
			    const struct lr_path *p, void *ctx);

/*
 * Opens the first umad port, finds the node it belongs to in f (by the
 * NodeGUID read over 0 hops), builds the directed routes from there and
 * calls each() for every switch in f's order.  0, or -1 on a failure or
 * a nonzero each() (messages naming prog printed).
 */
int lr_each_switch(const struct lc_fabric *f, int timeout_ms,
		   const char *prog, lr_switch_fn each, void *ctx);

/* "0,p1,p2,..." as ibroute -D takes it. */
void lr_path_format(const struct lr_path *p, char *buf, size_t size);

#endif /* LR_PATHS_H */
