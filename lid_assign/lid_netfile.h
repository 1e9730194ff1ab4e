/* SPDX-License-Identifier: MIT */
/*
 * Reads the ibsim netfile format (ibnetdiscover-like): node records
 * `Switch N "name"`, `Hca N "name"` / `Ca N "name"`, `Rt N "name"`, each
 * followed by `[port] "peer"[peer port]` lines and ended by a blank line;
 * `switchguid=`, `caguid=`/`hcaguids=`, `rtguid=` set GUID bases (`=X`
 * absolute, `+X` relative to the last absolute base).  Other lines
 * (comments, vendid, width, ...) are ignored, as ibsim does.
 *
 * Node GUIDs follow ibsim 0.10 (sim_net.c): counters start at 0x100000
 * (CAs), 0x200000 (switches), 0 (routers); a switch takes one GUID (all
 * its ports share it), a CA or router with N ports takes N + 1 and its
 * port i has GUID node + i.  ibnetdiscover's explicit port GUIDs,
 * `switchguid=0xNODE(PORT)` and `[i](PORT)` on CA port lines, are kept
 * in the records; lid_netfab.c decides which GUIDs to use.
 *
 * Not supported (an error naming the line): include, module, do,
 * aliases ('@'), node ids holding '#' or '@'.
 */
#ifndef LID_NETFILE_H
#define LID_NETFILE_H

#include <stdint.h>
#include <stdio.h>

enum ln_type {
	LN_CA,
	LN_SWITCH,
	LN_ROUTER,
};

struct ln_cable {
	uint32_t port;		/* local port */
	char *peer;		/* remote node name */
	uint32_t peer_port;
	uint64_t port_guid;	/* explicit "(guid)" after [port], 0: none */
	uint32_t line;
};

struct ln_node {
	char *name;
	enum ln_type type;
	uint32_t n_ports;
	uint64_t guid;		/* node GUID, as ibsim gives it */
	uint64_t port0_guid;	/* switch: explicit switchguid=N(P), 0: none */
	uint32_t line;
	uint32_t n_cables;
	struct ln_cable *cables;
};

struct ln_net {
	char *file;
	uint32_t n_nodes, cap_nodes;
	struct ln_node *nodes;
};

#define LN_ERR_LEN 512

/*
 * Parses f (named file in messages) into net.  Returns 0, or -1 with
 * "FILE:LINE: problem" in err (net is then empty).
 */
int ln_parse(FILE *f, const char *file, struct ln_net *net,
	     char err[LN_ERR_LEN]);
int ln_parse_path(const char *path, struct ln_net *net,
		  char err[LN_ERR_LEN]);
void ln_free(struct ln_net *net);

#endif
