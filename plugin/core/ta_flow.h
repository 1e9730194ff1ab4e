/* SPDX-License-Identifier: MIT */
/*
 * Traffic along one destination's in-tree: every host sends to the
 * destination what the traffic matrix says (uniform: 1.0 per host
 * pair), and the flow is summed from the farthest switches inward.
 * Adds it to the turns it crosses (the turn-traffic estimate) and to
 * the channels it uses (link loads: how good a routing is).
 */
#ifndef TA_FLOW_H
#define TA_FLOW_H

#include <stdint.h>

#include "ta_graph.h"
#include "ta_intree.h"
#include "ta_traffic.h"

struct ta_flow {
	uint32_t n_g;		/* traffic groups + 1 (ungrouped) */
	uint32_t n_sw;
	double *send;		/* [group of dest * n_sw + s]: what the
				 * hosts of switch s send to one host */
	double *flow;		/* scratch, per switch */
	uint32_t *cnt;		/* [s * n_g + group]: hosts */
	double host_bound;	/* most any host sends or receives */
};

/* group[d] per destination; 0 or -1 (out of memory) */
int ta_flow_init(struct ta_flow *f, const struct ta_graph *g,
		 const struct ta_traffic *tr, const uint32_t *group);
void ta_flow_free(struct ta_flow *f);

/*
 * A lower bound of the busiest channel's load under any routing: the
 * busiest host link, and at every switch the traffic its hosts send to
 * (or receive from) other switches shared evenly over its links.
 */
double ta_flow_bound(const struct ta_flow *f, const struct ta_graph *g);

/*
 * Adds the flow towards a host of traffic group dgroup, routed along t
 * (built for that host's switch), to turn_w[turn] and chan_load[chan];
 * either may be NULL.
 */
void ta_flow_add(const struct ta_flow *f, const struct ta_graph *g,
		 const struct ta_intree *t, uint32_t dgroup, double *turn_w,
		 double *chan_load);

/*
 * Adds the flows towards every host destination d with pick[d] set,
 * routed along a port table (port[s * n_dest + d]: switch s's output
 * towards d, TA_NO_PORT for none), to chan_load.  0, or -1 if out of
 * memory.
 */
int ta_flow_add_ports(const struct ta_flow *f, const struct ta_graph *g,
		      const uint8_t *port, const uint8_t *pick,
		      const uint32_t *group, double *chan_load);

#endif
