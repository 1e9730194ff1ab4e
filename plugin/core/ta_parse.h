/* SPDX-License-Identifier: MIT */
/* Line-oriented reading shared by the option and traffic file parsers. */
#ifndef TA_PARSE_H
#define TA_PARSE_H

#include <stdint.h>
#include <stdio.h>

#define TA_MAX_TOKENS 64

struct ta_line_reader {
	FILE *f;
	const char *path;
	unsigned line_no;
	char *buf;
	size_t cap;
};

int ta_reader_open(struct ta_line_reader *r, const char *path);
void ta_reader_close(struct ta_line_reader *r);

/*
 * Next non-empty line split on blanks, '#' starting a comment.  Returns
 * the token count (> 0), 0 at end of file, -1 for a line with more than
 * TA_MAX_TOKENS tokens or a read error.
 */
int ta_reader_next(struct ta_line_reader *r, char **tok);

/* strict number parsing: the whole token must be the number */
int ta_parse_u64(const char *s, uint64_t *v);
int ta_parse_double(const char *s, double *v);

#endif
