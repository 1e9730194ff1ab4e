/* SPDX-License-Identifier: MIT */
/*
 * Shared by the libFuzzer harnesses: the parsers take a path, so each
 * input is written to one memfd per process and the parser opens it as
 * /proc/self/fd/N (a fresh open file description, offset 0, each time).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0)) {
		perror("ftruncate");
		abort();
	}
	while (done < size) {
		ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);

		if (w <= 0) {
			perror("pwrite");
			abort();
		}
		done += (size_t)w;
	}
	return path;
}

/* a broken invariant: report it and abort, so libFuzzer keeps the input */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

#endif
