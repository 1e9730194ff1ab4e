/* SPDX-License-Identifier: MIT */
/*
 * The routing a fabric returns to: a copy of one routing (every
 * switch's port towards every LID, its turn decisions and escape tree
 * parent), keyed by the fabric it routed (ta_fabric_key.h).  The caller
 * takes one after a routing of the whole fabric (the first routing, and
 * any routing of a fabric that has every part of the kept one) and keeps
 * it through failures.  When a failed switch or link comes back and the
 * fabric is again exactly the kept one (same GUIDs, ports, LIDs), the
 * routing is reinstated as it was: the tables return to what they held
 * before the failure, whatever the failure made the routing do.
 *
 * Memory: one byte per switch and LID (the forwarding tables) plus one
 * per turn slot: 1,620 switches and 13,000 LIDs about 23 MB; 3,072
 * switches and 36,000 LIDs about 120 MB.
 */
#ifndef TA_HOME_H
#define TA_HOME_H

#include <stddef.h>
#include <stdint.h>

#include "ta_engine.h"
#include "ta_fabric_key.h"
#include "ta_saved.h"

struct ta_home_switch {
	uint64_t guid;
	uint32_t n_ports;	/* port numbers 0..n_ports-1 */
	uint8_t *turn;		/* [in_port * n_ports + out_port] */
	uint8_t parent_port;	/* escape tree, TA_NO_PORT if none */
	uint64_t parent_guid;
	uint32_t n_lids;	/* LIDs 0..n_lids-1 */
	uint8_t *port;		/* [lid], TA_NO_PORT if none */
	/* routes over several layers (option vls), else NULL: */
	uint8_t *layer;		/* [lid]: the layer of the path from here */
	uint8_t *turn_layers;	/* [in_port * n_ports + out_port] */
};

struct ta_home {
	struct ta_fabric_key key;
	uint32_t n_sw;
	struct ta_home_switch *sw;	/* sorted by guid */
	uint64_t root_guid;	/* escape root, 0: none */
	int carry;		/* the escape tree is carried at resweeps
				 * (struct ta_prior's escape_carry) */
	unsigned routing;	/* the caller's number of that routing */
	/*
	 * the routing derives from a takeover's (the switches' tables,
	 * routed by another SM through failures it saw): not a bring-up's,
	 * so a failure on a fat tree is compared with from scratch
	 * (ta_restore.h); a routing from scratch clears it
	 */
	int adopted;
	/*
	 * the routing derives from a takeover's, or from any routing since
	 * one (a routing from scratch does not clear it): the new master
	 * never saw the fabric whole, so the routing may be of a fabric
	 * missing parts, and on one VL a failure is not held to it
	 * (ta_fail_relief.c home_ref())
	 */
	int after_takeover;
	/*
	 * off fat trees (and routes over layers, option vls): the
	 * routing's busiest channel under uniform traffic, its permutation
	 * bandwidth and its hosts, measured by ta_home_after()
	 * (ta_restore.h); measured 0: none
	 */
	double peak, perm;
	uint32_t hosts;
	int measured;
};

void ta_home_init(struct ta_home *h);
void ta_home_free(struct ta_home *h);
static inline int ta_home_empty(const struct ta_home *h)
{
	return h->n_sw == 0;
}

/*
 * Replaces h by routing res of g; key is g's key (copied).  0, or -1
 * on allocation failure (h is then empty).
 */
int ta_home_take(struct ta_home *h, const struct ta_graph *g,
		 const struct ta_result *res, const struct ta_fabric_key *key,
		 unsigned routing);

/*
 * Fills res (free with ta_result_free) with h's routing mapped onto g,
 * whose key must equal h's.  Every route is checked on g: it reaches
 * its destination over allowed turns.  0: reinstated; 1: h does not
 * route g completely (res untouched); -1: out of memory.
 */
int ta_home_reinstate(const struct ta_home *h, const struct ta_graph *g,
		      struct ta_result *res);

size_t ta_home_bytes(const struct ta_home *h);

/*
 * h as the prior of a routing of g, a part of h's fabric (g lacks parts
 * of it and has none it lacks): h's turn decisions, escape tree, ports
 * towards every LID and paths' layers mapped onto g, as if the routing
 * before were h's, so a partial restore routed from it gets the routes
 * that a failure of the parts still missing gets from h, whatever came
 * in between.  Nothing counts as gone (the log's "gone since the
 * previous routing": the parts missing were gone before).  0, or -1 on
 * allocation failure (pb is then empty).
 */
int ta_home_prior(const struct ta_home *h, const struct ta_graph *g,
		  struct ta_prior_buf *pb);

/*
 * Walks the routes towards destination d in port ([sw * n_dest + d]):
 * out[s] gets the end switch s leaves by.  1 if every switch reaches
 * d's switch over links of g without a loop and d's switch delivers to
 * d's port, else 0.  mark: per switch scratch.
 */
int ta_dest_walk(const struct ta_graph *g, const uint8_t *port, uint32_t d,
		 uint32_t *out, uint8_t *mark);
/* after ta_dest_walk: the turn slot of s's hop at the next switch,
 * UINT32_MAX where s or the next switch is d's */
uint32_t ta_walk_turn(const struct ta_graph *g, const uint32_t *out,
		      uint32_t d, uint32_t s);

#endif
