/* SPDX-License-Identifier: MIT */
/*
 * The fabric as read back from the simulator: nodes, port wiring, LIDs
 * (from ibnetdiscover) and the linear forwarding table of every switch
 * (from dump_fts / ibroute).  Independent of the routing engine's code.
 */
#ifndef LC_FABRIC_H
#define LC_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#define LC_MAX_LID 0xbfffu	/* last unicast LID */
#define LC_MAX_PORTS 254u
#define LC_NO_ENTRY 255u	/* LFT entry: no route */

struct lc_port {
	int peer;		/* node index, -1: not connected */
	unsigned peer_port;
	char *peer_id;		/* as read; resolved by lc_fabric_finish() */
	unsigned lid, lmc;	/* CA ports; for a switch: port 0 */
	unsigned line;		/* input line that described the port */
};

struct lc_node {
	bool is_switch;
	char *id;		/* ibnetdiscover id: "S-0000000000200005" */
	char *desc;		/* node description (the ibsim name) */
	uint64_t guid;
	unsigned n_ports;
	struct lc_port *port;	/* [0..n_ports] */
	unsigned line;		/* input line of the node header */
	int sw;			/* index among switches, -1 for CAs */
	/* switches only */
	bool has_lft;
	unsigned lft_len;	/* entries known: LIDs 0..lft_len-1 */
	uint8_t *lft;
};

struct lc_fabric {
	unsigned n_nodes, cap_nodes;
	struct lc_node *node;
	/* filled by lc_fabric_finish() */
	unsigned n_switches;
	unsigned *sw_node;	/* node index of each switch */
	unsigned max_lid;
	int *lid_node;		/* owner node of each LID 0..max_lid, or -1 */
	unsigned *lid_port;	/* and its port */
};

void lc_fabric_init(struct lc_fabric *f);
void lc_fabric_free(struct lc_fabric *f);

/* Appends a node (takes copies of id and desc); NULL if out of memory. */
struct lc_node *lc_fabric_add_node(struct lc_fabric *f, bool is_switch,
				   const char *id, const char *desc,
				   unsigned n_ports, unsigned line);

/* The switch with this node GUID, or NULL. */
struct lc_node *lc_fabric_switch_by_guid(struct lc_fabric *f, uint64_t guid);

/* Sets LFT entry lid of switch n (grows the table); -1 if out of memory. */
int lc_fabric_set_lft(struct lc_node *n, unsigned lid, unsigned port);

/* LFT entry of switch n for lid, LC_NO_ENTRY if unknown. */
unsigned lc_fabric_lft(const struct lc_node *n, unsigned lid);

/*
 * Resolves peer ids, checks that both ends of every link agree, builds
 * the switch list and the LID owner table.  Prints "PROG: PATH:LINE:
 * message" for the first problem and returns -1 then.
 */
int lc_fabric_finish(struct lc_fabric *f, const char *path);

/* The node at the other end of (node, port), or NULL. */
const struct lc_node *lc_fabric_peer(const struct lc_fabric *f,
				     const struct lc_node *n, unsigned port);

#endif /* LC_FABRIC_H */
