/* SPDX-License-Identifier: MIT */
/*
 * The OpenSM headers the adapter uses, in an order that gives the
 * structure layouts of the installed opensm binary.
 *
 * osm_config.h holds the build options of the installed OpenSM (for
 * example ENABLE_OSM_PERF_MGR, which adds a member to osm_opensm_t).
 * osm_opensm.h reaches it only late, through osm_event_plugin.h, after
 * headers that already test those options; so it comes first here.
 * osm_db_pack.h: the guid2lid accessors the port-major LID code uses
 * (lid_sweep.c, lid_osm_fabric.c).
 * Every adapter file includes OpenSM through this header only.
 */
#ifndef TURNADD_OSM_H
#define TURNADD_OSM_H

#include <opensm/osm_config.h>
#include <opensm/osm_db_pack.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_version.h>

#endif
