/* SPDX-License-Identifier: MIT */
/*
 * Port-major LIDs inside OpenSM's sweep.  Called from the event
 * plugin's report() on OSM_EVENT_ID_HEAVY_SWEEP_DONE: do_sweep() reports
 * it after discovery and before osm_lid_mgr_process_sm/subnet(), without
 * holding OpenSM's lock.  Writes the order into the guid2lid domain
 * (and used_lids), which the LID manager then follows for every port.
 * Does nothing (logs once why) when the option lid_order is opensm, when
 * the options file is bad, or when OpenSM will not follow guid2lid.
 */
#ifndef LID_SWEEP_H
#define LID_SWEEP_H

#include "turnadd_osm.h"
#include "ta_log.h"

void lid_sweep_heavy_done(osm_opensm_t *osm, const struct ta_log *log);

#endif
