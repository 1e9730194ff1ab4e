/* SPDX-License-Identifier: MIT */
/*
 * Where the engine's options come from: the file named by the
 * environment variable TURNADD_CONFIG, else TURNADD_DEFAULT_CONFIG if
 * that file exists, else the core's defaults.  Read at every routing,
 * so an edited file takes effect at the next heavy sweep.
 */
#ifndef TURNADD_CONFIG_H
#define TURNADD_CONFIG_H

#include "ta_engine.h"
#include "ta_log.h"

#define TURNADD_CONFIG_ENV "TURNADD_CONFIG"
#ifndef TURNADD_DEFAULT_CONFIG
#define TURNADD_DEFAULT_CONFIG "/etc/opensm/turnadd.conf"
#endif

/*
 * Initializes o and fills it from the config file, if any.  Returns 0,
 * or -1 after the core logged the problem (o is then cleared).  *path
 * is set to the file read, or NULL when the defaults are used.
 */
int turnadd_config_load(struct ta_options *o, const struct ta_log *log,
			const char **path);

#endif
