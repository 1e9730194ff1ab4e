/* SPDX-License-Identifier: MIT */
/* Line-by-line reading of an input file, with file:line error messages. */
#ifndef LC_INPUT_H
#define LC_INPUT_H

#include <stdio.h>

struct lc_input {
	const char *path;
	FILE *f;
	unsigned line_no;
	char *line;		/* current line, without the newline */
	size_t cap;
};

/*
 * The program reading the input, named at the start of every message
 * ("lftread: PATH:LINE: ..."): each tool's main() sets it, as the tools
 * share these readers.  NULL: the name the program was run as.
 */
extern const char *lc_prog_name;

/* lc_prog_name, or the name the program was run as. */
const char *lc_prog(void);

/* 0 on success; prints a message and returns -1 if it can't open. */
int lc_input_open(struct lc_input *in, const char *path);

/* Reads the next line into in->line: 1, or 0 at end of file, -1 on error. */
int lc_input_next(struct lc_input *in);

void lc_input_close(struct lc_input *in);

/* Prints "PROG: PATH:LINE: message" to stderr and returns -1. */
int lc_input_error(const struct lc_input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same for a given path and line (line 0: "PROG: PATH: ..."). */
int lc_error_at(const char *path, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* LC_INPUT_H */
