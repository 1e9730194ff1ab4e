/* SPDX-License-Identifier: MIT */
/* The common main() tail of the Check unit tests. */
#ifndef RUN_SUITE_H
#define RUN_SUITE_H

#include <check.h>
#include <stdlib.h>

/* runs every test of s, frees it; EXIT_SUCCESS if none failed */
static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
