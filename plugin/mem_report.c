// SPDX-License-Identifier: MIT
/* turnadd's kept memory against the process's (see mem_report.h). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mem_report.h"

#define MB (1024.0 * 1024.0)

size_t turnadd_graph_bytes(const struct ta_graph *g)
{
	size_t n;
	uint32_t s;

	if (!g)
		return 0;
	n = sizeof(*g) + (size_t)g->cap_sw * sizeof(*g->sw) +
	    (size_t)g->cap_links * sizeof(*g->links) +
	    (size_t)g->cap_dest * sizeof(*g->dest);
	for (s = 0; s < g->n_sw; s++)
		n += (size_t)g->sw[s].cap_ends * sizeof(*g->sw[s].ends);
	return n;
}

/* kB of a "Name:  N kB" line of /proc/self/status, -1 if unknown */
static long status_kb(const char *name)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	size_t n = strlen(name);
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			if (sscanf(line + n + 1, "%ld", &kb) != 1)
				kb = -1;
			break;
		}
	fclose(f);
	return kb;
}

void turnadd_mem_probe(const struct ta_log *log, const char *where)
{
	struct mallinfo2 mi;

	if (!getenv("TURNADD_MEM_PROBE"))
		return;
	mi = mallinfo2();
	ta_logf(log, TA_LOG_INFO,
		"memory at %s: VmRSS %.1f MB, VmHWM %.1f MB, heap in use %.1f MB, free %.1f MB",
		where, status_kb("VmRSS") / 1024.0, status_kb("VmHWM") / 1024.0,
		(double)(mi.uordblks + mi.hblkhd) / MB,
		(double)mi.fordblks / MB);
}

void turnadd_trim_heap(const struct ta_log *log)
{
	long before = status_kb("VmRSS");
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	malloc_trim(0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ta_logf(log, TA_LOG_INFO,
		"free heap pages given back after the sweep: VmRSS %.1f -> %.1f MB (%.1f ms)",
		before / 1024.0, status_kb("VmRSS") / 1024.0,
		(t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
}

void turnadd_log_memory(const struct ta_log *log, const struct ta_saved *sv,
			const struct ta_home *home,
			const struct turnadd_mcast *mc)
{
	struct mallinfo2 mi = mallinfo2();
	size_t graph = turnadd_graph_bytes(mc->g);

	if (mc->g)
		graph += mc->g->n_turn_slots + mc->g->n_sw *
			 sizeof(*mc->escape_parent) +
			 mc->g->n_links * sizeof(*mc->m.load);
	ta_logf(log, TA_LOG_INFO,
		"memory kept until the next routing: routing memory %.1f MB, routing to return to %.1f MB, multicast graph and turns %.1f MB; opensm VmRSS %.1f MB, VmHWM %.1f MB, heap in use %.1f MB, free %.1f MB",
		ta_saved_bytes(sv) / MB, ta_home_bytes(home) / MB, graph / MB,
		status_kb("VmRSS") / 1024.0, status_kb("VmHWM") / 1024.0,
		(double)(mi.uordblks + mi.hblkhd) / MB,
		(double)mi.fordblks / MB);
}
