/* SPDX-License-Identifier: MIT */
/*
 * Where the engine's options come from: the file named by the
 * environment variable TURNADD_CONFIG, else TURNADD_DEFAULT_CONFIG if
 * that file exists, else the core's defaults.  Read once per heavy
 * sweep, so an edited file takes effect at the next one: the LID hook
 * (lid_sweep.c, at OpenSM's HEAVY_SWEEP_DONE event) reads it and keeps
 * the result, which the routing of the same sweep then takes over, so a
 * bad file is reported once per sweep, not once per reader.  Both run
 * in OpenSM's sweeper thread; nothing here is locked.
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
 * A bad or missing options file or traffic file (one ERROR line naming
 * the file, line and problem) does not stop a turnadd that has read good
 * ones before: the last good options and traffic groups stay in force,
 * and the same ERROR line says so.  Only when this OpenSM never read
 * good files is the reading a failure (the routing then lets OpenSM fall
 * back).  The traffic file is read here, with the options, and handed to
 * the core as o->traffic (ta_engine.h), so it is read once per sweep.
 *
 * Initializes o and fills it with this sweep's options: those kept by
 * turnadd_config_sweep() if it ran since the last call (they are handed
 * over, nothing is read or logged again), else from the files.  Returns
 * 0, or -1 when the files are bad and no last good reading exists (the
 * core logged why, once; o is then cleared).  *path is set to the file
 * (a description naming it and the time of the reading when the last
 * good one is used), or NULL when the defaults apply.  o->traffic is
 * borrowed: valid until the next reading.
 */
int turnadd_config_load(struct ta_options *o, const struct ta_log *log,
			const char **path);

/*
 * Reads the options for this sweep (logging a bad file) and keeps them
 * for the next turnadd_config_load().  Returns them (valid until then),
 * or NULL when the file is bad.
 */
const struct ta_options *turnadd_config_sweep(const struct ta_log *log);

/*
 * This sweep's options without taking them over: those kept by
 * turnadd_config_sweep(), else read (and kept) now.  NULL when the file
 * is bad (logged once).
 */
const struct ta_options *turnadd_config_current(const struct ta_log *log);

/* drops what turnadd_config_sweep() kept */
void turnadd_config_forget_sweep(void);
/* drops that and the last good reading (at plugin unload) */
void turnadd_config_forget(void);

#endif
