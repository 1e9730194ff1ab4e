/* SPDX-License-Identifier: MIT */
/* Single-line parsers of the netfile reader (lid_netfile.c). */
#ifndef LID_NETLINE_H
#define LID_NETLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "lid_netfile.h"

/* what a line at the top level of a netfile is */
enum ln_line_kind {
	LN_LINE_OTHER,		/* ignored, as ibsim does */
	LN_LINE_NODE,		/* Switch / Hca / Ca / Rt header */
	LN_LINE_GUIDBASE,	/* switchguid= / caguid= / hcaguids= / rtguid= */
	LN_LINE_UNSUPPORTED,	/* include / module / do */
};

enum ln_line_kind ln_classify(const char *line, enum ln_type *type);

/* "(hex)" at *s: sets *guid, advances *s; false if none */
bool ln_paren_guid(const char **s, uint64_t *guid);

/*
 * `Switch 36 "name" ...`: port count and name (malloc'd).
 * Returns NULL on success, else the problem.
 */
const char *ln_parse_header(const char *line, uint32_t *n_ports, char **name);

/* `switchguid=0x..(..)`: absolute or relative base, optional port GUID */
const char *ln_parse_guidbase(const char *line, bool *relative,
			      uint64_t *value, uint64_t *port_guid);

/* `[3](guid) "peer"[5] ...`; c->peer malloc'd on success */
const char *ln_parse_cable(const char *line, uint32_t max_port,
			   struct ln_cable *c);

#endif
