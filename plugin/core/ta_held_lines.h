/* SPDX-License-Identifier: MIT */
/*
 * The log lines of a routing that may be discarded (ta_restore.c and
 * the ways of ta_fail.h route several ways and keep one): held until
 * the one kept is known, then passed on (replay) or dropped.
 */
#ifndef TA_HELD_LINES_H
#define TA_HELD_LINES_H

#include <stdint.h>

#include "ta_log.h"

/*
 * The lines of a routing that may be discarded: held until the one kept
 * is known, then passed on (replay) or dropped.
 */
struct held_lines {
	struct ta_log log;	/* what the routing writes to */
	const struct ta_log *to;
	char **line;
	enum ta_log_level *level;
	uint32_t n, cap;
	int oom;
};

/* held lines of a routing for to (NULL: nothing is written) */
const struct ta_log *hold(struct held_lines *h, const struct ta_log *to);

/* passes the held lines on (replay) or drops them; frees them */
void release(struct held_lines *h, int replay);

#endif
