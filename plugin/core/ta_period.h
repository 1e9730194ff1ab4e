/* SPDX-License-Identifier: MIT */
/*
 * The leaves' period: the number of neighbour switches that every
 * switch with hosts has, when they all have the same number (a fat
 * tree's leaves: its spines or directors), else 0; also 0 unless some
 * switch has no host (only tree-like fabrics have leaves).  The route choice
 * sends host rank r through neighbour r mod period at every leaf
 * (ta_engine.c), and lid_assign groups ranks by the same period, so
 * the LIDs one spine carries stay together on oversubscribed leaves.
 */
#ifndef TA_PERIOD_H
#define TA_PERIOD_H

#include <stdint.h>

#include "ta_graph.h"

/* 0 for none (no host, or switches with hosts differ) */
uint32_t ta_graph_leaf_period(const struct ta_graph *g);

#endif
