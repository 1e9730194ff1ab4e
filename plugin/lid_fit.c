// SPDX-License-Identifier: MIT
/* Port-major LIDs against the unicast LID space (see lid_fit.h). */
#include <stdlib.h>

#include "lid_fit.h"

#define BLOCK 64u

/* LIDs the groups need, each rounded up to whole blocks (a lower bound:
 * the layout also keeps room for the absent hosts of a group's ranks) */
static uint32_t padded_need(const struct la_input *in, uint32_t n_groups,
			    uint32_t *plain)
{
	uint32_t *cnt = calloc(n_groups + 1, sizeof(*cnt)), i, g, sum = 0;

	*plain = 0;
	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];
		uint32_t n = p->n_lids ? p->n_lids : 1;

		*plain += n;
		if (cnt && p->group < n_groups)
			cnt[p->group] += n;
		else
			sum += n;	/* loose ports: after the groups */
	}
	for (g = 0; cnt && g < n_groups; g++)
		sum += (cnt[g] + BLOCK - 1) / BLOCK * BLOCK;
	free(cnt);
	return sum;
}

int lid_fit_check(const struct la_input *in, const struct la_result *r,
		  const struct ta_log *log)
{
	static uint32_t last_failed, last_space;
	uint32_t space = in->max_lid ? in->max_lid : 0xbfffu, plain, need;

	if (!r->failed) {
		last_failed = 0;
		return 1;
	}
	if (r->failed == last_failed && space == last_space)
		return 0;
	last_failed = r->failed;
	last_space = space;
	need = padded_need(in, r->n_groups, &plain);
	ta_logf(log, TA_LOG_ERROR,
		"port-major LIDs do not fit the unicast LID space: %u ports need %u LIDs, at least %u in %u groups padded to whole 64-LID blocks, but LIDs end at %u (%s); %u ports would get none: OpenSM assigns the LIDs in its own order (routing stays complete and deadlock-free; a spine failure then rewrites more LFT blocks)",
		in->n_ports, plain, need, r->n_groups, space,
		space < 0xbfffu ? "the lowest LinearFDBCap of the switches" :
				  "0xBFFF, the last unicast LID",
		r->failed);
	return 0;
}
