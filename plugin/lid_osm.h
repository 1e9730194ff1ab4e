/* SPDX-License-Identifier: MIT */
/*
 * OpenSM headers for the port-major LID code: turnadd_osm.h (which fixes
 * the include order and structure layout) plus the guid2lid database
 * accessors, which turnadd_osm.h does not include yet.  To be folded
 * into turnadd_osm.h: then this header only includes it.
 */
#ifndef LID_OSM_H
#define LID_OSM_H

#include "turnadd_osm.h"
#include <opensm/osm_db_pack.h>

#endif
