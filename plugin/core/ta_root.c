// SPDX-License-Identifier: MIT
/* Escape-root choice across routings (see ta_root.h). */
#include <inttypes.h>

#include "ta_root.h"

static int has_switch(const struct ta_graph *g, uint64_t guid)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		if (g->sw[s].guid == guid)
			return 1;
	return 0;
}

void ta_root_choose(struct ta_root_choice *rc, const struct ta_graph *g,
		    uint64_t want, uint64_t prev, int prev_turns)
{
	rc->guid = 0;
	rc->missing = 0;
	rc->trial = 0;
	rc->fitted = 0;
	rc->replace = 0;
	if (prev && !has_switch(g, prev)) {
		prev = 0;
		rc->replace = prev_turns;
	}
	if (!want) {
		rc->guid = prev;
		return;
	}
	if (!has_switch(g, want)) {
		rc->missing = want;
		rc->guid = prev;
		return;
	}
	if (!prev || prev == want || !prev_turns) {
		rc->guid = want;
		return;
	}
	rc->guid = prev;
	rc->trial = want;
}

static const char *name_of(const struct ta_graph *g, uint32_t s)
{
	return s < g->n_sw && g->sw[s].name ? g->sw[s].name : "?";
}

void ta_root_log_missing(const struct ta_root_choice *rc,
			 const struct ta_graph *g, uint32_t used,
			 const struct ta_log *log)
{
	if (!rc->missing || used >= g->n_sw)
		return;
	ta_logf(log, TA_LOG_INFO,
		"WARNING: escape_root 0x%016" PRIx64 " is not a switch of this fabric (failed, cut off from the SM or replaced): the escape tree is rooted at 0x%016" PRIx64 " (%s), %s, and the resweep keeps every other decision",
		rc->missing, g->sw[used].guid, name_of(g, used),
		rc->fitted ? "the automatic choice among the central switches whose tree fits the kept turn decisions" :
		rc->guid ? "the root of the previous routing" :
		"the automatic choice");
}
