/* SPDX-License-Identifier: MIT */
/*
 * Test-side judge of a set of allowed turns, written without the core's
 * cycle check (ta_cdg.c): builds the channel dependency graph of the
 * turns marked TA_TURN_ALLOWED and removes channels with no incoming
 * dependency (Kahn's algorithm) until none is left, or a cycle remains.
 */
#ifndef TURN_VERIFY_H
#define TURN_VERIFY_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * 1 if the allowed turns of state[] (one entry per turn slot of g, as
 * ta_cdg.state) close a cycle of channels, 0 if not, -1 out of memory.
 */
int turns_cyclic(const struct ta_graph *g, const uint8_t *state);

/* number of turn slots of state[] holding the given state */
uint32_t turns_count(const struct ta_graph *g, const uint8_t *state,
		     uint8_t which);

#endif
