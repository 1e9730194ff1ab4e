// SPDX-License-Identifier: MIT
/* libFuzzer harness: the traffic file parser, ta_traffic_load(). */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "fuzz_log.h"
#include "ta_traffic.h"

static void check_loaded(const struct ta_traffic *t)
{
	uint32_t n = t->n_groups + 1, i, j;

	FUZZ_CHECK(t->n_groups <= 256);
	FUZZ_CHECK(t->w != NULL);
	FUZZ_CHECK(isfinite(t->default_weight) && t->default_weight >= 0);
	for (i = 0; i < t->n_groups; i++) {
		FUZZ_CHECK(t->names[i] && t->names[i][0]);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(t->names[i], t->names[j]) != 0);
	}
	for (i = 0; i < t->n_rules; i++) {
		const struct ta_traffic_rule *r = &t->rules[i];

		FUZZ_CHECK(r->group < t->n_groups);
		FUZZ_CHECK(r->prefix ? r->guid == 0 : r->guid != 0);
		/* the lookup finds a group no later than this rule's */
		if (r->prefix)
			FUZZ_CHECK(ta_traffic_group_of(t, 0, r->prefix) <
				   t->n_groups);
		else
			FUZZ_CHECK(ta_traffic_group_of(t, r->guid, NULL) <
				   t->n_groups);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double w = ta_traffic_weight(t, i, j);

			FUZZ_CHECK(isfinite(w) && w >= 0);
			FUZZ_CHECK(w == ta_traffic_weight(t, j, i));
		}
	FUZZ_CHECK(ta_traffic_group_of(t, 0, NULL) <= t->n_groups);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	struct ta_traffic t;
	int ret;

	fuzz_log_errors = 0;
	ret = ta_traffic_load(&t, path, &fuzz_log);
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(fuzz_log_errors == (ret ? 1u : 0u));
	if (!ret)
		check_loaded(&t);
	else	/* a failed load leaves t empty */
		FUZZ_CHECK(!t.n_groups && !t.n_rules && !t.names &&
			   !t.rules && !t.w);
	ta_traffic_free(&t);
	return 0;
}
