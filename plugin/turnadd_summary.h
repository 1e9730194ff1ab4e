/* SPDX-License-Identifier: MIT */
/*
 * The few INFO lines a routing leaves in OpenSM's log: what the graph
 * held, what the core computed and what went into the switches.
 */
#ifndef TURNADD_SUMMARY_H
#define TURNADD_SUMMARY_H

#include "fabric_graph.h"
#include "lft_write.h"
#include "ta_engine.h"
#include "ta_log.h"

void turnadd_log_options(const struct ta_log *log, const struct ta_options *o,
			 const char *path);
void turnadd_log_route(const struct ta_log *log, const struct turnadd_graph *og,
		       const struct ta_stats *st, double graph_seconds);
void turnadd_log_lft(const struct ta_log *log,
		     const struct turnadd_lft_stats *st, double seconds);

#endif
