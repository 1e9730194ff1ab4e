// SPDX-License-Identifier: MIT
/* libFuzzer harness: the option file parser, ta_options_load(). */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz_log.h"
#include "ta_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	struct ta_options o;
	int ret;

	ta_options_init(&o);
	fuzz_log_errors = 0;
	ret = ta_options_load(&o, path, 0, &fuzz_log);
	/* failure: exactly one error line; success: none */
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(fuzz_log_errors == (ret ? 1u : 0u));
	if (!ret) {
		FUZZ_CHECK(o.mode == TA_MODE_TURN_ADDITION ||
			   o.mode == TA_MODE_NONE_PROHIBITED ||
			   o.mode == TA_MODE_TURN_PROHIBITION);
		if (o.traffic_file)
			FUZZ_CHECK(o.traffic_file[0] != '\0');
	}
	ta_options_clear(&o);
	return 0;
}
