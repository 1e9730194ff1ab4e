/* SPDX-License-Identifier: MIT */
/*
 * Link loads and throughput of the routes in the LFTs, the turn-addition
 * paper's metric (section 5.1): every link direction has capacity 1.0,
 * each host sends a given total spread evenly over its destination
 * hosts (and over the 2^LMC LIDs of each), and throughput = 1 / (load of
 * the most loaded link direction).  Host links count in both directions:
 * a host's link into the fabric carries what it sends, the switch port
 * toward it what it receives.  For the uniform pattern (every host sends
 * 1.0 over all other hosts) the host links carry 1.0, so throughput <= 1.
 *
 * Computed per destination LID, never per pair: the routes to one LID
 * form a tree over the switches, so each switch forwards the sum of its
 * own hosts' traffic and what its children forward to it, O(LIDs x
 * switches) in all.
 */
#ifndef LC_LOAD_H
#define LC_LOAD_H

#include "lc_fabric.h"

#define LC_MAX_GROUPS 2u
#define LC_NO_GROUP 255u

/*
 * A traffic pattern over host groups: a host of group g sends send[g][h]
 * in total, spread evenly over the hosts of group h other than itself
 * (nothing if there are none).  node_group[i] is the group of node i
 * (LC_NO_GROUP: neither sends nor receives); NULL puts every host in
 * group 0.
 */
struct lc_traffic {
	const unsigned char *node_group;
	double send[LC_MAX_GROUPS][LC_MAX_GROUPS];
};

/* Every host sends 1.0 spread evenly over all other hosts. */
void lc_traffic_uniform(struct lc_traffic *t);

struct lc_load_report {
	unsigned hosts;
	double max_load;	/* most loaded link direction */
	double throughput;	/* 1 / max_load; 1 if nothing is sent */
	int max_sw;		/* switch index of that link; -1: host link */
	unsigned max_port;	/* its output port */
	unsigned links_at_max;	/* switch output ports at max_load */
	double sent;		/* all traffic sent */
	double lost;		/* of that, not delivered */
};

/* Fills r for traffic t on f; -1 if out of memory. */
int lc_load_compute(const struct lc_fabric *f, const struct lc_traffic *t,
		    struct lc_load_report *r);

#endif /* LC_LOAD_H */
