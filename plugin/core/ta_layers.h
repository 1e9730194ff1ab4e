/* SPDX-License-Identifier: MIT */
/*
 * Layers: routes over several virtual lanes (option vls N).  An LFT
 * forwards by destination LID only, so each destination's routes stay
 * one in-tree; the layer (the SL, hence the VL, a path travels on) is
 * chosen per (source switch, destination) path.  Each layer has its own
 * set of allowed turns, acyclic, and a path is put on a layer only if
 * every turn along it is allowed there: every layer's channel
 * dependencies are then acyclic, and since a packet keeps its layer
 * from source to destination, the union is deadlock-free when layer i
 * travels on VL i.
 *
 * Layer 0 is the one-layer routing's turn set (escape tree, turn
 * addition) and carries the escape rule, multicast and every route
 * where the layered routing does not pay off.  Layer i > 0 decides its
 * turns by turn addition too, from nothing allowed: first the turns
 * that no layer below allows, heaviest first under the traffic
 * estimate, then every other turn, heaviest first; each is allowed
 * unless it closes a cycle among layer i's allowed turns.  Turns are
 * decided one by one (not in pairs as in layer 0): acyclicity is all a
 * layer needs, and the two directions of a pair need not share it.
 */
#ifndef TA_LAYERS_H
#define TA_LAYERS_H

#include <stdint.h>

#include "ta_graph.h"

/*
 * turn_layers[k] for every turn slot: the layers that allow turn k (bit
 * i: layer i), layer 0 from state0 (enum ta_turn_state, allowed there),
 * layers 1 .. n_layers - 1 decided as above under the weights w (per
 * turn slot); prev (per turn slot, or NULL): a previous routing's
 * turn_layers, whose turns each layer takes first (a resweep: the
 * layers stay what they were where the fabric lets them).  visits, if
 * given, gets the cycle checks' work added.  Returns 0, or -1 when out
 * of memory.
 */
int ta_layers_decide(const struct ta_graph *g, const uint8_t *state0,
		     const double *w, const uint8_t *prev, unsigned n_layers,
		     uint8_t *turn_layers, uint64_t *visits);

/*
 * The layer a path takes among mask (its allowed layers, not empty):
 * prev if it is among them (minimal change: a resweep keeps a path's
 * layer where it still may), else the lowest.  prev: a layer, or
 * anything above TA_MAX_LAYERS for none.
 */
static inline uint8_t ta_layer_pick(uint8_t mask, uint8_t prev)
{
	if (prev < 8 && (mask >> prev & 1u))
		return prev;
	return mask ? (uint8_t)__builtin_ctz(mask) : 0;
}

/*
 * A routing from scratch taken at a resweep (ta_fail_layers.c): every path
 * (layer[sw * n_dest + d], along port, same layout) whose previous
 * layer prev[] (TA_NO_LAYER: none) allows every turn of its route in
 * turn_layers takes that layer again (ta_layer_pick), so its SL stays.
 * Returns how many paths it moved.
 */
uint64_t ta_layers_repick(const struct ta_graph *g, const uint8_t *port,
			  const uint8_t *turn_layers, const uint8_t *prev,
			  uint8_t *layer);

/*
 * 1 if the turns of layer `layer` (bit layer of turn_layers) close a
 * cycle of channels, else 0; -1 when out of memory.  For checks: the
 * decisions never let them.
 */
int ta_layers_cyclic(const struct ta_graph *g, const uint8_t *turn_layers,
		     unsigned layer);

#endif
