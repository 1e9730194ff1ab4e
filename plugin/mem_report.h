/* SPDX-License-Identifier: MIT */
/*
 * One INFO line after each routing on what turnadd keeps until the next
 * one (its routing memory and the multicast state over the latest
 * routing's graph) next to the whole process's memory (VmRSS and VmHWM
 * from /proc/self/status, the heap in use and free from mallinfo2), so
 * that a peak of OpenSM's memory can be laid to its owner from the log.
 */
#ifndef MEM_REPORT_H
#define MEM_REPORT_H

#include "mcast_trees.h"
#include "ta_log.h"
#include "ta_saved.h"

/* bytes of g's arrays (names and descriptions not counted) */
size_t osm_graph_bytes(const struct ta_graph *g);

/*
 * With TURNADD_MEM_PROBE set in opensm's environment (diagnostics): one
 * INFO line "memory at WHERE" with the process's figures, at each step
 * of a sweep the plugin sees (turnadd_plugin.c, turnadd_routing.c).
 */
void turnadd_mem_probe(const struct ta_log *log, const char *where);

void turnadd_log_memory(const struct ta_log *log, const struct ta_saved *sv,
			const struct osm_mcast *mc);

#endif
