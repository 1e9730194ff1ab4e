/* SPDX-License-Identifier: MIT */
/*
 * Escape roots to try where minor traffic flows (ta_turn_class.h).  The
 * escape tree's turns are allowed before any other, so its root decides
 * which way the tree crosses between the parts the minor traffic joins:
 * between two fat trees joined by several links, a tree rooted at a
 * leaf (ta_escape.h's automatic choice) reaches the other fat tree
 * through the joins nearest that leaf, and its down-and-up turns there
 * close the turns the inter-tree routes need at the other joins
 * (measured: two k = 16 trees joined at the middle level on
 * ft3join-alt's wiring, inter-tree throughput 0.22 rooted at a leaf of
 * a joined pod, 0.59 at a join switch).  A root at a switch where the
 * minor traffic turns (a join) puts the tree's crossing there.
 */
#ifndef TA_MINOR_ROOTS_H
#define TA_MINOR_ROOTS_H

#include <stdint.h>

#include "ta_graph.h"

#define TA_MINOR_ROOTS_MAX 16u

/*
 * Up to max (at most TA_MINOR_ROOTS_MAX) switches, most first, by the estimated traffic (w, per turn
 * slot) on their light turns (light[turn] = 1: only minor traffic
 * crosses it), ties to the lower index; switches without light turns
 * and the switch skip are left out.  Returns how many.
 */
uint32_t ta_minor_roots(const struct ta_graph *g, const uint8_t *light,
			const double *w, uint32_t skip, uint32_t *out,
			uint32_t max);

#endif
