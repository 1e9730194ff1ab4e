// SPDX-License-Identifier: MIT
/* Tokenised line reading and strict number parsing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ta_log.h"
#include "ta_parse.h"

/* the messages below spell the limits out */
_Static_assert(TA_MAX_LINE == 4096 && TA_MAX_TOKENS == 64,
	       "update the reader's error messages");

int ta_reader_open(struct ta_line_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->f = fopen(path, "r");
	return r->f ? 0 : -1;
}

void ta_reader_close(struct ta_line_reader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->buf);
	r->f = NULL;
	r->buf = NULL;
}

int ta_reader_next(struct ta_line_reader *r, char **tok)
{
	for (;;) {
		ssize_t len = getline(&r->buf, &r->cap, r->f);
		char *p, *hash;
		int n = 0;

		if (len < 0) {
			if (!ferror(r->f))
				return 0;
			r->error = strerror(errno);
			r->line_no = 0;	/* not about a line */
			return -1;
		}
		r->line_no++;
		if ((size_t)len != strlen(r->buf)) {
			r->error = "NUL byte in the line";
			return -1;
		}
		if (len && r->buf[len - 1] == '\n')
			len--;
		if (len > TA_MAX_LINE) {
			r->error = "line longer than 4096 characters";
			return -1;
		}
		hash = strchr(r->buf, '#');
		if (hash)
			*hash = '\0';
		p = r->buf;
		for (;;) {
			while (*p && isspace((unsigned char)*p))
				p++;
			if (!*p)
				break;
			if (n == TA_MAX_TOKENS) {
				r->error = "more than 64 words on the line";
				return -1;
			}
			tok[n++] = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			if (*p)
				*p++ = '\0';
		}
		if (n)
			return n;
	}
}

void ta_reader_log_error(const struct ta_line_reader *r,
			 const struct ta_log *log)
{
	if (!r->line_no)
		ta_logf(log, TA_LOG_ERROR, "%s: read error: %s", r->path,
			r->error);
	else
		ta_logf(log, TA_LOG_ERROR, "%s:%u: %s", r->path, r->line_no,
			r->error);
}

int ta_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int ta_parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (!*s)
		return -1;
	errno = 0;
	x = strtod(s, &end);
	/*
	 * A value too small for a normal double (4.9e-324, 1e-400) is
	 * legal: strtod says ERANGE and gives the subnormal or 0, which is
	 * what it means.  Too large (1e400) is not finite: rejected.
	 */
	if (errno == ERANGE && isfinite(x) && fabs(x) <= DBL_MIN)
		errno = 0;
	if (errno || *end || !isfinite(x))
		return -1;
	*v = x;
	return 0;
}
