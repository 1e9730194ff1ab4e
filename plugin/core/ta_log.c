// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>

#include "ta_log.h"

void ta_logf(const struct ta_log *log, enum ta_log_level level,
	     const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!log || !log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log->fn(log->ctx, level, buf);
}
