/* SPDX-License-Identifier: MIT */
/*
 * Writes a routed core graph as the two inputs of scripts/lftcheck: an
 * ibnetdiscover-style topology (PREFIX.topo) and the switches' LFTs in
 * dump_lfts form (PREFIX.lft), so the core's routes can be judged by
 * lftcheck (e.g. --perm, the permutation bandwidth) without a simulator.
 * Switch ids are "S-<guid>", host ids "H-<port guid>".  Returns 0, or -1
 * after printing why.
 */
#ifndef BENCH_EXPORT_H
#define BENCH_EXPORT_H

#include "ta_engine.h"
#include "ta_graph.h"

int bench_export(const struct ta_graph *g, const struct ta_result *r,
		 const char *prefix);

#endif
