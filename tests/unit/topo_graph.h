/* SPDX-License-Identifier: MIT */
/* Turns a generated topology (ibsim_topos/topo.h) into the core's graph. */
#ifndef TOPO_GRAPH_H
#define TOPO_GRAPH_H

#include "ta_graph.h"
#include "topo.h"

/* switch LIDs 1..n_sw, then host LIDs in host order; NULL on error */
struct ta_graph *topo_to_graph(const struct topo *t);

#define TOPO_KEEP_ALL (~0u)

/*
 * The graph with switch `gone` (TOPO_KEEP_ALL: none) and its links and
 * LIDs left out, as OpenSM sees the fabric once that switch died.  LIDs:
 * port-major by hand, with R ranks (host ports 1..R): the host on port
 * r + 1 of switch s at 1 + 64 * r + s, the LID of switch s in group
 * s mod R at 1 + 64 * (s mod R) + 32 + s / R (needs n_sw <= 32).
 * GUIDs are stable.
 */
struct ta_graph *topo_to_graph_port_major(const struct topo *t,
					  unsigned gone);

/*
 * The graph with switch `gone` (TOPO_KEEP_ALL: none) left out, LIDs as
 * topo_to_graph() numbers them in the whole fabric (a LID stays the
 * same whichever switch is gone); NULL on error.
 */
struct ta_graph *topo_to_graph_without(const struct topo *t, unsigned gone);
/* the same without switches a and b */
struct ta_graph *topo_to_graph_without2(const struct topo *t, unsigned a,
					unsigned b);

#endif
