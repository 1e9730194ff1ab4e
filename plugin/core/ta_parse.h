/* SPDX-License-Identifier: MIT */
/* Line-oriented reading shared by the option and traffic file parsers. */
#ifndef TA_PARSE_H
#define TA_PARSE_H

#include <stdint.h>
#include <stdio.h>

#define TA_MAX_TOKENS 64
#define TA_MAX_LINE 4096	/* characters, the newline not counted */

struct ta_line_reader {
	FILE *f;
	const char *path;
	unsigned line_no;
	char *buf;
	size_t cap;
	const char *error;	/* why ta_reader_next() returned -1 */
};

int ta_reader_open(struct ta_line_reader *r, const char *path);
void ta_reader_close(struct ta_line_reader *r);

/*
 * Next non-empty line split on blanks, '#' starting a comment.  Returns
 * the token count (> 0), 0 at end of file, -1 for a line with more than
 * TA_MAX_TOKENS tokens or TA_MAX_LINE characters, a NUL byte, or a read
 * error; r->error then says which.
 */
int ta_reader_next(struct ta_line_reader *r, char **tok);

/*
 * Logs the error of the last ta_reader_next() that returned -1 as
 * "PATH:LINE: problem" ("PATH: read error: ..." for a failed read).
 */
struct ta_log;
void ta_reader_log_error(const struct ta_line_reader *r,
			 const struct ta_log *log);

/* strict number parsing: the whole token must be the number */
int ta_parse_u64(const char *s, uint64_t *v);
int ta_parse_double(const char *s, double *v);

#endif
