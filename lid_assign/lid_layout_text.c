// SPDX-License-Identifier: MIT
/* The one-line account of the layout chosen (lid_order.h). */
#include <stdio.h>

#include "lid_order.h"

int la_layout_describe(const struct la_result *r, char *buf, size_t n)
{
	if (!r->group_major)
		return snprintf(buf, n, "port-major: %s",
				r->layout_why ? r->layout_why :
						"not a Dragonfly+");
	if (r->dfly_classic)
		return snprintf(buf, n,
				"group-major: dragonfly of %u groups (%u routers with hosts, %u without, at most %u a group; %u in-group cables missing, %u group pairs without a global cable), one LID range a group, router-major inside",
				r->dfly_groups, r->dfly_leaves, r->dfly_empty,
				r->dfly_largest, r->dfly_missing,
				r->dfly_pairs_missing);
	return snprintf(buf, n,
			"group-major: Dragonfly+ of %u groups (%u leaves with hosts, %u without, %u spines; %u leaf-spine cables missing%s), one LID range a group, port-major inside",
			r->dfly_groups, r->dfly_leaves, r->dfly_empty,
			r->dfly_spines, r->dfly_missing,
			r->dfly_extra ? ", switches of no group in a group of their own" :
					"");
}
