// SPDX-License-Identifier: MIT
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* program_invocation_short_name */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lc_input.h"

const char *lc_prog_name;

const char *lc_prog(void)
{
	return lc_prog_name ? lc_prog_name : program_invocation_short_name;
}

int lc_input_open(struct lc_input *in, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->f = fopen(path, "r");
	if (!in->f) {
		fprintf(stderr, "%s: %s: %s\n", lc_prog(), path,
			strerror(errno));
		return -1;
	}
	return 0;
}

int lc_input_next(struct lc_input *in)
{
	ssize_t n = getline(&in->line, &in->cap, in->f);

	if (n < 0) {
		if (ferror(in->f))
			return lc_input_error(in, "read error");
		return 0;
	}
	in->line_no++;
	while (n > 0 && (in->line[n - 1] == '\n' || in->line[n - 1] == '\r'))
		in->line[--n] = '\0';
	return 1;
}

void lc_input_close(struct lc_input *in)
{
	if (in->f)
		fclose(in->f);
	free(in->line);
	memset(in, 0, sizeof(*in));
}

static int verror_at(const char *path, unsigned line, const char *fmt,
		     va_list ap)
{
	if (line)
		fprintf(stderr, "%s: %s:%u: ", lc_prog(), path, line);
	else
		fprintf(stderr, "%s: %s: ", lc_prog(), path);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return -1;
}

int lc_error_at(const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(path, line, fmt, ap);
	va_end(ap);
	return -1;
}

int lc_input_error(const struct lc_input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(in->path, in->line_no, fmt, ap);
	va_end(ap);
	return -1;
}
