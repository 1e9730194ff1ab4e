/* SPDX-License-Identifier: MIT */
/*
 * How many layers (option vls) the fabric can carry: layer i travels
 * with SL i, which every port must map to VL i of its own.  OpenSM
 * programs the SL-to-VL maps only with qos TRUE (opensm.conf), from
 * qos_sl2vl and the per-class qos_ca_sl2vl, qos_sw0_sl2vl,
 * qos_swe_sl2vl, qos_rtr_sl2vl (default 0,1,...,14,7: SL i to VL i),
 * keeping only the VLs a port operates (VL i & (data VLs - 1)); a
 * link operates min(VLCap of its two ports, max_op_vls) (OpenSM's link
 * manager).  So the layers are at most the data VLs of the fabric's
 * narrowest link and the first SLs that every class maps to their own
 * VL; without qos, 1.
 */
#ifndef VL_CAPS_H
#define VL_CAPS_H

#include <stddef.h>

#include "turnadd_osm.h"

/*
 * The layers subn can carry (1 to 15); why gets a short reason where
 * that is fewer than 15 (empty otherwise).
 */
unsigned turnadd_layers_possible(osm_subn_t *subn, char *why, size_t n);

#endif
