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

/*
 * The node we are attached to (its index in f, by the NodeInfo GUID read
 * over 0 hops) and the port we leave it through.  -1 if the SMP fails or
 * the GUID is not in f (message naming prog printed).
 */
int lr_find_local(struct lr_smp *s, const struct lc_fabric *f,
		  const char *prog, unsigned *node, unsigned *port);

/* "0,p1,p2,..." as ibroute -D takes it. */
void lr_path_format(const struct lr_path *p, char *buf, size_t size);

#endif /* LR_PATHS_H */
