/* SPDX-License-Identifier: MIT */
/*
 * Dragonfly (groups of routers cabled all to all, the groups joined by
 * global cables) recognised from the cabling alone (lid_assign/README,
 * "Group-major LIDs on dragonflies").  The groups are found as cliques:
 * a cable between switches u and v is local (inside a group) when u
 * and v have at least t neighbours in common; the groups are the
 * connected components of the local cables, for the lowest t from 1
 * up to the most common neighbours any cable has that passes the
 * checks.  A fabric is a dragonfly when, for that t:
 *
 *   - some switch has hosts;
 *   - there are at least two groups, every group has at least 3
 *     switches and at least half as many as the largest (a router
 *     down leaves its group one smaller);
 *   - every switch is cabled to at least three quarters of the other
 *     switches of its group, or all but one (nearly a clique: an
 *     in-group cable down is counted, missing, not a reason);
 *   - at least three quarters of the group pairs are joined by a
 *     global cable (a dragonfly joins every pair; a global cable or a
 *     router down takes a few pairs away);
 *   - at most a quarter of the global cables (between groups) have
 *     ends that share a neighbour (in a HyperX the lines of the other
 *     dimensions are cliques too; a dragonfly's global cables seldom
 *     close a triangle).
 *
 * Tori and HyperX of three or more switches a dimension have triangles
 * along every dimension (one component, not a clique, where the sizes
 * are equal), along the lines of the larger size (then the cables
 * between those cliques form cliques too) or along one (groups joined
 * as a ring or grid: few pairs joined); fat trees and Dragonfly+ have
 * none (no group of 3).  A HyperX S x 2 (two cliques joined switch to
 * switch) is a dragonfly of two groups (A = S, H = 1) and is taken for
 * one.  Forced (LA_LAYOUT_GROUP_MAJOR): the first t giving two
 * groups or more, none of the checks.  Groups are numbered by the
 * lowest old host LID in them, then by their lowest switch GUID.
 */
#ifndef LID_DF_H
#define LID_DF_H

#include "lid_dfly.h"

/*
 * Fills d for in (d->classic set; d->leaves: routers with hosts,
 * d->empty: routers without, d->spines 0, d->missing: in-group cables
 * missing, d->largest: switches in the largest group, d->pairs_missing:
 * group pairs without a global cable).  0, or -ENOMEM (d then empty).
 */
int la_df_detect(const struct la_input *in, struct la_dfly *d);

#endif
