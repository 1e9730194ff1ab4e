/* SPDX-License-Identifier: MIT */
/*
 * The two joined fat trees' traffic file (topogen ft3join-traffic: 1
 * inside a tree, 1/100 between) as the unit tests load it, and which
 * tree a destination belongs to.
 */
#ifndef JOIN_TRAFFIC_H
#define JOIN_TRAFFIC_H

#include <stdint.h>

#include "ta_graph.h"
#include "ta_log.h"
#include "ta_traffic.h"

/*
 * Writes the traffic file to a temporary file and loads it with the
 * engine's parser (log may be NULL); fails the test if either fails.
 */
void join_traffic_load(struct ta_traffic *tr, const struct ta_log *log);

/* 0 for tree A, 1 for tree B (names "tB-..."); fails on a nameless one */
int join_tree_of(const struct ta_graph *g, uint32_t d);

#endif
