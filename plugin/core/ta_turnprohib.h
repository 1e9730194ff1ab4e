/* SPDX-License-Identifier: MIT */
/*
 * Turn prohibition (TP), the reference method the turn-addition paper
 * compares against (its sections 2.3.2 and 5.1; mode turn_prohibition):
 * take the switch with the least turn traffic summed over its turns
 * between links still present, prohibit all those turns, remove the
 * switch and its links; repeat until no switch is left; allow every
 * other turn.
 *
 * To keep every switch reachable, only switches whose removal leaves
 * their piece of the remaining switch graph in one piece (no cut
 * vertex; a connected graph always has one) are taken; ties go to the
 * lower switch index.  Turn weights are compared quantised (1e-6, as
 * turn addition does), so equal traffic ties exactly.
 *
 * Why every switch then reaches every switch over allowed turns: let
 * rank(s) be the step that removed s.  A turn a -> s -> b is prohibited
 * exactly when both a and b outlive s, so the allowed routes are those
 * that never go to a lower rank and then back up (up*, then down*, with
 * up meaning a later rank).  The switches of rank >= rank(s) stay
 * connected, so s has a neighbour of higher rank unless it is the last
 * of its piece: climbing from any switch reaches the last switch, and
 * descending the same way reaches any other.
 *
 * The same climb gives the escape tree of this mode (see ta_intree.h):
 * each switch's parent is a neighbour of higher rank (the one nearest
 * the last switch, ties to the lower index), the last switch of each
 * piece is its root.  At every switch at most one tree neighbour (the
 * parent) outlives it, so every turn between two tree links is allowed
 * and the escape rule of the route trees keeps every destination
 * reachable from every switch of its piece.
 */
#ifndef TA_TURNPROHIB_H
#define TA_TURNPROHIB_H

#include <stdint.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_log.h"

/*
 * Decides every turn of c (U-turns stay TA_TURN_USELESS) by turn
 * prohibition, with w[turn] the turn traffic (NULL: all zero).
 * order, if not NULL, receives the switches in removal order
 * (g->n_sw entries).  esc receives the escape tree described above
 * (free with ta_escape_free).  Checks the result with the full cycle
 * check.  Returns 0; -1 when out of memory; -2 if the allowed turns
 * hold a cycle (cannot happen; logged as an internal error).
 */
int ta_turnprohib_decide(struct ta_cdg *c, const double *w, uint32_t *order,
			 struct ta_escape *esc, const struct ta_log *log);

/*
 * The same with removal order vary: 0 is the order above; vary > 0
 * weighs each switch's turn traffic by a factor from 1 to 1.2 drawn
 * from its GUID and vary (the same for the same fabric and vary), so
 * switches of about equal traffic leave in another order.  Everything
 * said above holds for every order.
 */
int ta_turnprohib_decide_varied(struct ta_cdg *c, const double *w,
				uint32_t vary, uint32_t *order,
				struct ta_escape *esc, const struct ta_log *log);

#endif
