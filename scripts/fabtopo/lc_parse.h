/* SPDX-License-Identifier: MIT */
/* Readers of the two inputs of lftcheck. */
#ifndef LC_PARSE_H
#define LC_PARSE_H

#include "lc_fabric.h"

/*
 * Reads an ibnetdiscover topology (default output format): node headers
 * `Switch|Ca|Rt <ports> "<id>" # "<desc>" ... lid <L> lmc <M>`, port lines
 * `[<p>](<guid>) "<peer id>"[<peer port>](<guid>) # lid <L> lmc <M> ...`
 * (LID and LMC of CA ports in the comment), `switchguid=`/`caguid=`
 * lines, comments and blank lines.  Then completes the fabric with
 * lc_fabric_finish().  Prints "PROG: PATH:LINE: ..." (lc_input.h) and
 * returns -1 on bad input.
 */
int lc_read_topology(struct lc_fabric *f, const char *path);

/*
 * Reads unicast LFT dumps of lftread, dump_fts/dump_lfts or ibroute: a header
 * `Unicast lids [...] of switch ... guid 0x<GUID> (...):` per switch, then
 * lines `0x<LID> <port> ...`.  Every switch of f must appear once.
 */
int lc_read_lfts(struct lc_fabric *f, const char *path);

#endif /* LC_PARSE_H */
