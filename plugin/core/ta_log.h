/* SPDX-License-Identifier: MIT */
/*
 * Logging hook of the routing core.  The core never includes OpenSM
 * headers; the OpenSM adapter forwards these messages to OSM_LOG, the
 * tests collect or print them.
 */
#ifndef TA_LOG_H
#define TA_LOG_H

enum ta_log_level {
	TA_LOG_ERROR,
	TA_LOG_INFO,
	TA_LOG_VERBOSE,
	TA_LOG_DEBUG,
};

struct ta_log {
	void (*fn)(void *ctx, enum ta_log_level level, const char *msg);
	void *ctx;
};

/* printf-like; a NULL log or NULL fn drops the message */
void ta_logf(const struct ta_log *log, enum ta_log_level level,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
