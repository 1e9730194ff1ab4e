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
#include "ta_home.h"
#include "ta_saved.h"

/* bytes of g's arrays (names and descriptions not counted) */
size_t turnadd_graph_bytes(const struct ta_graph *g);

/*
 * With TURNADD_MEM_PROBE set in opensm's environment (diagnostics): one
 * INFO line "memory at WHERE" with the process's figures, at each step
 * of a sweep the plugin sees (turnadd_plugin.c, turnadd_routing.c).
 */
void turnadd_mem_probe(const struct ta_log *log, const char *where);

/*
 * After a sweep in which turnadd routed (event SUBNET_UP): gives the
 * heap's free pages back to the kernel (malloc_trim(0)), one INFO line
 * with the resident size before and after and the time taken.  At
 * bring-up OpenSM frees the buffers of every LFT block it sent (600,000
 * on 16,000 hosts, about 300 MB); without this the freed pages stay
 * resident, and the next heavy sweep's allocations (OpenSM's LID manager
 * and switch set-up, the routing) grow the process on top of them.
 * Only free memory is returned: nothing OpenSM or turnadd holds moves.
 * Done when the routing changed at least TURNADD_TRIM_BLOCKS blocks
 * (bring-up, restart, large changes): walking the heap takes time
 * (0.5-2.4 s on 16,000 hosts on a loaded 2-core machine), and a resweep
 * that rewrites a few blocks leaves little to give back.
 */
#define TURNADD_TRIM_BLOCKS 65536u
void turnadd_trim_heap(const struct ta_log *log);

void turnadd_log_memory(const struct ta_log *log, const struct ta_saved *sv,
			const struct ta_home *home,
			const struct turnadd_mcast *mc);

#endif
