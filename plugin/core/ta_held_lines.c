// SPDX-License-Identifier: MIT
/* A routing's log lines held until it is known whether it is kept. */
#include <stdlib.h>
#include <string.h>

#include "ta_held_lines.h"

static void hold_line(void *ctx, enum ta_log_level level, const char *msg)
{
	struct held_lines *h = ctx;
	char *copy;

	if (h->n == h->cap) {
		uint32_t cap = h->cap ? 2 * h->cap : 16;
		char **l = realloc(h->line, cap * sizeof(*l));
		enum ta_log_level *v;

		if (l)
			h->line = l;
		v = l ? realloc(h->level, cap * sizeof(*v)) : NULL;
		if (v)
			h->level = v;
		if (!l || !v) {
			h->oom = 1;
			return;
		}
		h->cap = cap;
	}
	copy = strdup(msg);
	if (!copy) {
		h->oom = 1;
		return;
	}
	h->level[h->n] = level;
	h->line[h->n++] = copy;
}

/* held lines of a routing for to (NULL: nothing is written) */
const struct ta_log *hold(struct held_lines *h, const struct ta_log *to)
{
	memset(h, 0, sizeof(*h));
	h->to = to;
	h->log.fn = hold_line;
	h->log.ctx = h;
	return to ? &h->log : NULL;
}

/* passes the held lines on (replay) or drops them; frees them */
void release(struct held_lines *h, int replay)
{
	uint32_t i;

	for (i = 0; i < h->n; i++) {
		if (replay)
			ta_logf(h->to, h->level[i], "%s", h->line[i]);
		free(h->line[i]);
	}
	if (replay && h->oom)
		ta_logf(h->to, TA_LOG_INFO,
			"(some lines of this routing were lost: out of memory)");
	free(h->line);
	free(h->level);
	memset(h, 0, sizeof(*h));
}
