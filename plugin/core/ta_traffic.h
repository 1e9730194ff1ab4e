/* SPDX-License-Identifier: MIT */
/*
 * Traffic matrix between host groups, read from the traffic file:
 *
 *   group NAME guid 0xPORTGUID [0xPORTGUID ...]
 *   group NAME prefix NODE-DESCRIPTION-PREFIX
 *   weight NAME1 NAME2 VALUE     (both directions; NAME1 may equal NAME2)
 *   default_weight VALUE         (pairs no weight line covers; default 1)
 *
 * A host belongs to the group of the first group line that matches it;
 * hosts matching none are "ungrouped" and use default_weight.
 */
#ifndef TA_TRAFFIC_H
#define TA_TRAFFIC_H

#include <stdint.h>

#include "ta_graph.h"
#include "ta_log.h"

struct ta_traffic_rule {
	uint32_t group;
	uint64_t guid;		/* 0 for a prefix rule */
	char *prefix;
};

struct ta_traffic {
	uint32_t n_groups;
	char **names;
	uint32_t n_rules;
	struct ta_traffic_rule *rules;
	double default_weight;
	double *w;		/* (n_groups+1)^2; index n_groups = ungrouped */
};

/* uniform traffic: no groups, every pair 1.0 */
int ta_traffic_uniform(struct ta_traffic *t);
/* parses path; logs "PATH:LINE: problem" and returns -1 on bad input */
int ta_traffic_load(struct ta_traffic *t, const char *path,
		    const struct ta_log *log);
void ta_traffic_free(struct ta_traffic *t);

/* group index of a host, n_groups when ungrouped */
uint32_t ta_traffic_group_of(const struct ta_traffic *t, uint64_t guid,
			     const char *name);

static inline double ta_traffic_weight(const struct ta_traffic *t,
				       uint32_t from, uint32_t to)
{
	return t->w[from * (t->n_groups + 1) + to];
}

#endif
