/* SPDX-License-Identifier: MIT */
/* Turns a generated topology (ibsim_topos/topo.h) into the core's graph. */
#ifndef TOPO_GRAPH_H
#define TOPO_GRAPH_H

#include "ta_graph.h"
#include "topo.h"

/* switch LIDs 1..n_sw, then host LIDs in host order; NULL on error */
struct ta_graph *topo_to_graph(const struct topo *t);

#endif
