/* SPDX-License-Identifier: MIT */
/*
 * Forwards the routing core's ta_log messages (and the adapter's own)
 * to OpenSM's log, one line each, prefixed "turnadd: ".
 */
#ifndef OSM_LOG_BRIDGE_H
#define OSM_LOG_BRIDGE_H

#include "turnadd_osm.h"
#include "ta_log.h"

/* makes *tl write to osm_log; osm_log must outlive *tl */
void turnadd_log_bridge_init(struct ta_log *tl, osm_log_t *osm_log);

#endif
