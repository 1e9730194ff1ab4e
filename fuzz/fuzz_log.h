/* SPDX-License-Identifier: MIT */
/*
 * Shared by the harnesses of the core's file parsers (fuzz_options.c,
 * fuzz_traffic.c): a log sink that checks every message and counts the
 * ERROR lines, so a harness can hold the parser to its contract (a
 * failed load logs exactly one ERROR line, a successful one none).
 */
#ifndef FUZZ_LOG_H
#define FUZZ_LOG_H

#include <string.h>

#include "fuzz_common.h"
#include "ta_log.h"

static unsigned fuzz_log_errors;	/* ERROR lines since the last reset */

static inline void fuzz_log_fn(void *ctx, enum ta_log_level level,
			       const char *msg)
{
	(void)ctx;
	FUZZ_CHECK(msg != NULL);
	FUZZ_CHECK(strlen(msg) < 1024);
	if (level == TA_LOG_ERROR)
		fuzz_log_errors++;
}

static const struct ta_log fuzz_log = { .fn = fuzz_log_fn };

#endif /* FUZZ_LOG_H */
