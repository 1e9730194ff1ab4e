// SPDX-License-Identifier: MIT
#include <string.h>

#include "log_bridge.h"

static osm_log_level_t bridge_level(enum ta_log_level level)
{
	switch (level) {
	case TA_LOG_ERROR:
		return OSM_LOG_ERROR;
	case TA_LOG_INFO:
		return OSM_LOG_INFO;
	case TA_LOG_VERBOSE:
		return OSM_LOG_VERBOSE;
	case TA_LOG_DEBUG:
	default:
		return OSM_LOG_DEBUG;
	}
}

static void bridge_write(void *ctx, enum ta_log_level level, const char *msg)
{
	osm_log_t *log = ctx;
	osm_log_level_t lvl = bridge_level(level);
	size_t len = strlen(msg);
	const char *eol = (len && msg[len - 1] == '\n') ? "" : "\n";

	if (!osm_log_is_active(log, lvl))
		return;
	osm_log(log, lvl, "turnadd: %s%s", msg, eol);
}

void turnadd_log_bridge_init(struct ta_log *tl, osm_log_t *osm_log)
{
	tl->fn = bridge_write;
	tl->ctx = osm_log;
}
