// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <unistd.h>

#include "turnadd_config.h"

int turnadd_config_load(struct ta_options *o, const struct ta_log *log,
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
