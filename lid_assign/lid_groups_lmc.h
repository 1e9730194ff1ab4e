/* SPDX-License-Identifier: MIT */
/* The number of LID groups with LMC > 0 (lid_groups_lmc.c). */
#ifndef LID_GROUPS_LMC_H
#define LID_GROUPS_LMC_H

#include <stdint.h>

#include "lid_order.h"
#include "ta_spine_sets.h"

/*
 * Blocks per leaf the worst spine's failure rewrites with n_g groups
 * (r ranks, p spines, leaves fully populated); UINT64_MAX on ENOMEM.
 */
uint64_t la_lmc_cost(const struct la_input *in, uint32_t n_g, uint32_t r,
		     uint32_t p, uint32_t leaves);
/* G for a fabric without old host LIDs (r > 1, p > 0) */
uint32_t la_lmc_groups(const struct la_input *in, uint32_t r, uint32_t p,
		       uint32_t leaves);
/* G given the period old host LIDs show (old_period() of lid_groups.c) */
uint32_t la_lmc_keep_old(const struct la_input *in, uint32_t r, uint32_t p,
			 uint32_t leaves, uint32_t old);
/*
 * The spine sets where 2^LMC does not divide p and they save blocks,
 * kept only if old host LIDs show them: 1 (ss filled), 0, -1 ENOMEM.
 * force: 0 as said; 1 + k: the sets for p + k whatever the old LIDs
 * show (la_assign's second try when LIDs would move).
 */
int la_lmc_sets(const struct la_input *in, uint32_t r, uint32_t p,
		uint32_t leaves, struct ta_spine_sets *ss, uint32_t force);

#endif
