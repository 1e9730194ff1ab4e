/* SPDX-License-Identifier: MIT */
/*
 * OpenSM's guid2lid file ($OSM_CACHE_DIR/guid2lid): one entry per port,
 * `0xPORTGUID MINLID MAXLID`, each followed by a blank line as OpenSM
 * writes it (its reader joins non-blank lines into one value, so the
 * blank lines are required).
 */
#ifndef LID_G2L_H
#define LID_G2L_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lid_netfile.h"	/* LN_ERR_LEN */

struct g2l_entry {
	uint64_t guid;
	uint16_t min_lid, max_lid;
	uint32_t line;		/* when read from a file */
};

/*
 * Reads entries (blank lines and '#' comments skipped).  Returns 0, or
 * -1 with "FILE:LINE: problem" in err.
 */
int g2l_read(FILE *f, const char *file, struct g2l_entry **out, size_t *n,
	     char err[LN_ERR_LEN]);
int g2l_read_path(const char *path, struct g2l_entry **out, size_t *n,
		  char err[LN_ERR_LEN]);

/* writes e sorted by LID in OpenSM's format; 0 or -1 (errno) */
int g2l_write(FILE *f, struct g2l_entry *e, size_t n);

#endif
