// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "turnadd_config.h"
#include "ta_traffic.h"

/* the last good reading: options and the traffic groups of their file */
static struct {
	bool have;
	struct ta_options o;	/* o.traffic points at tr when a file is set */
	struct ta_traffic tr;
	bool has_tr;
	const char *path;	/* NULL: the defaults */
	char when[16];		/* HH:MM:SS UTC of the reading */
} good;

/* the reading of this sweep, from turnadd_config_sweep() */
static struct {
	bool kept;
	int status;
	struct ta_options o;
	const char *path;
} sweep;

/* "PATH (last good reading ...)" while the last good reading is used */
static char stale_path[512];

/*
 * While a last good reading exists, every ERROR line of a new reading
 * (the parser's "FILE:LINE: problem") also says that it stays in force,
 * so that the admin reads the problem and its consequence in one line.
 */
struct keep_note {
	const struct ta_log *to;
	const char *note;
};

static void note_write(void *ctx, enum ta_log_level level, const char *msg)
{
	const struct keep_note *k = ctx;

	if (level == TA_LOG_ERROR && k->note)
		ta_logf(k->to, level, "%s%s", msg, k->note);
	else
		ta_logf(k->to, level, "%s", msg);
}

static void forget_good(void)
{
	ta_options_clear(&good.o);
	if (good.has_tr)
		ta_traffic_free(&good.tr);
	good.has_tr = false;
	good.have = false;
}

/* a copy of the last good options (traffic groups borrowed from good) */
static int copy_good(struct ta_options *o)
{
	*o = good.o;
	if (good.o.traffic_file &&
	    !(o->traffic_file = strdup(good.o.traffic_file))) {
		ta_options_init(o);
		return -1;
	}
	return 0;
}

static void keep_reading(struct ta_options *o, const char *path,
			 struct ta_traffic *tr, bool has_tr)
{
	time_t t = time(NULL);
	struct tm tm;

	forget_good();
	good.o = *o;		/* moved: traffic_file is good's now */
	ta_options_init(o);
	good.tr = *tr;
	good.has_tr = has_tr;
	good.o.traffic = has_tr ? &good.tr : NULL;
	good.path = path;
	good.have = true;
	if (gmtime_r(&t, &tm))
		strftime(good.when, sizeof(good.when), "%H:%M:%S", &tm);
	else
		strcpy(good.when, "?");
}

/*
 * Reads the options file and the traffic file it names.  A good
 * reading becomes the last good one.  A bad one (either file missing,
 * unreadable or malformed: one ERROR line from the parser) leaves the
 * last good reading in force if there is one; only without one (this
 * OpenSM never read good files) is it a failure, and the routing then
 * lets OpenSM fall back.  A missing TURNADD_DEFAULT_CONFIG is no
 * problem: the defaults apply.
 */
static int read_file(struct ta_options *o, const struct ta_log *log,
		     const char **path)
{
	const char *env = getenv(TURNADD_CONFIG_ENV);
	char note[160];
	struct keep_note kn = { .to = log, .note = NULL };
	struct ta_log klog = { .fn = note_write, .ctx = &kn };
	struct ta_traffic tr;
	struct ta_options n;
	const char *p = NULL;
	bool has_tr = false;
	int bad = 0;

	ta_options_init(o);
	ta_options_init(&n);
	memset(&tr, 0, sizeof(tr));
	if (good.have) {
		snprintf(note, sizeof(note),
			 " (turnadd keeps routing with the last good options and traffic groups, read at %s UTC)",
			 good.when);
		kn.note = note;
	}
	if (env && *env)
		p = env;
	else if (access(TURNADD_DEFAULT_CONFIG, F_OK) == 0)
		p = TURNADD_DEFAULT_CONFIG;
	if (p && ta_options_load(&n, p, 0, &klog))
		bad = 1;
	if (!bad && n.traffic_file) {
		if (ta_traffic_load(&tr, n.traffic_file, &klog))
			bad = 1;
		else
			has_tr = true;
	}
	if (!bad) {
		keep_reading(&n, p, &tr, has_tr);
		*path = p;
		return copy_good(o);
	}
	ta_options_clear(&n);
	if (!good.have) {
		*path = p;
		return -1;
	}
	snprintf(stale_path, sizeof(stale_path),
		 "%s (the last good reading, %s UTC: this sweep's is bad)",
		 good.path ? good.path : "defaults", good.when);
	*path = stale_path;
	return copy_good(o);
}

int turnadd_config_load(struct ta_options *o, const struct ta_log *log,
			const char **path)
{
	if (!sweep.kept)
		return read_file(o, log, path);
	*o = sweep.o;		/* ownership of traffic_file moves too */
	*path = sweep.path;
	sweep.kept = false;
	ta_options_init(&sweep.o);
	return sweep.status;
}

const struct ta_options *turnadd_config_sweep(const struct ta_log *log)
{
	turnadd_config_forget_sweep();
	sweep.status = read_file(&sweep.o, log, &sweep.path);
	sweep.kept = true;
	return sweep.status ? NULL : &sweep.o;
}

const struct ta_options *turnadd_config_current(const struct ta_log *log)
{
	if (!sweep.kept)
		return turnadd_config_sweep(log);
	return sweep.status ? NULL : &sweep.o;
}

void turnadd_config_forget_sweep(void)
{
	ta_options_clear(&sweep.o);
	sweep.kept = false;
}

void turnadd_config_forget(void)
{
	turnadd_config_forget_sweep();
	forget_good();
}
