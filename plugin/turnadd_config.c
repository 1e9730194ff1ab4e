// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "turnadd_config.h"

/* the reading of this sweep, from turnadd_config_sweep() */
static struct {
	bool kept;
	int status;
	struct ta_options o;
	const char *path;
} sweep;

static int read_file(struct ta_options *o, const struct ta_log *log,
		     const char **path)
{
	const char *env = getenv(TURNADD_CONFIG_ENV);

	ta_options_init(o);
	*path = NULL;
	if (env && *env)
		*path = env;
	else if (access(TURNADD_DEFAULT_CONFIG, F_OK) == 0)
		*path = TURNADD_DEFAULT_CONFIG;
	else
		return 0;	/* the caller logs that defaults are used */
	if (ta_options_load(o, *path, 0, log)) {
		ta_options_clear(o);
		return -1;
	}
	return 0;
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
	turnadd_config_forget();
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

void turnadd_config_forget(void)
{
	ta_options_clear(&sweep.o);
	sweep.kept = false;
}
