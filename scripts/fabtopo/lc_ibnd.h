/* SPDX-License-Identifier: MIT */
/*
 * What administrators already have: the other output formats of
 * ibnetdiscover and the quirks of infiniband-diags' LFT dumps, for
 * lftcheck.
 */
#ifndef LC_IBND_H
#define LC_IBND_H

#include <stdbool.h>

#include "lc_fabric.h"

/*
 * Reads TOPOLOGY in any ibnetdiscover output that describes links: the
 * default format (lc_read_topology(), also with -g, -s, --full) or the
 * ports report of "ibnetdiscover -p" (lines "CA|SW|RT LID PORT GUID
 * WIDTH SPEED - CA|SW|RT LID PORT GUID ( 'desc' - 'desc' )"; one CA
 * node per CA port; no LMC in that format, so LMC 0).  The list formats
 * (-l, -S, -H, -R) have no links: a clear error.  Returns -1 after
 * printing "PROG: PATH:LINE: ..." on bad input.
 */
int lc_read_topology_any(struct lc_fabric *f, const char *path);

/*
 * Lines of ibnetdiscover's default output that carry no node or port
 * (-g chassis headings, -s progress lines): true to skip.
 */
bool lc_ibnd_skip_line(const char *s);

/*
 * Lines of dump_lfts / dump_fts / ibroute output that carry no unicast
 * entry: dump_lfts' "*** WARNING ***" line, and (ibroute -M) multicast
 * sections, from a "Multicast mlids" header to the next "Unicast lids"
 * header.  *in_mcast keeps that state between lines.
 */
bool lc_diags_skip_lft_line(const char *s, bool *in_mcast);

/* TOP of an LFT header "Unicast lids [0x0-0xTOP] ...", 0 if absent. */
unsigned lc_diags_header_top(const char *header);

/*
 * infiniband-diags 44 leaves out the LID equal to LinearFDBTop when it
 * starts a 64-LID block.  Called at the end of a switch's dump, with
 * the line and TOP of its header: prints a warning naming the file,
 * line and LID when that LID is owned by a port and has no entry (it
 * then counts as unrouted).
 */
void lc_diags_check_top(const struct lc_fabric *f, const struct lc_node *sw,
			const char *path, unsigned line, unsigned top);

#endif /* LC_IBND_H */
