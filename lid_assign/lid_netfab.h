/* SPDX-License-Identifier: MIT */
/*
 * From a parsed netfile to the input of la_assign(): switches in file
 * order, each switch's port 0, and every cabled CA/router port (a host
 * if its cable leads to a switch, loose if to another CA).  A cable may
 * be written on either end or both; both ends must agree.
 */
#ifndef LID_NETFAB_H
#define LID_NETFAB_H

#include <stdbool.h>

#include "lid_netfile.h"
#include "lid_order.h"

struct ln_fabric {
	struct la_input in;		/* ports, sw_guid owned here */
	uint64_t *sw_guid;
	uint32_t *sw_peers;		/* distinct neighbour switches */
	uint32_t *sw_peer;		/* which (la_input.sw_peer) */
	const char **port_node;		/* [n_ports] node name (in net) */
	uint32_t *port_num;		/* [n_ports] port number on it */
};

/*
 * ibsim_guids: use the GUIDs ibsim gives (ignore explicit port GUIDs);
 * else explicit port GUIDs where the file has them.  Returns 0, or -1
 * with "FILE:LINE: problem" in err.
 */
int ln_fabric_build(const struct ln_net *net, bool ibsim_guids,
		    struct ln_fabric *fab, char err[LN_ERR_LEN]);
void ln_fabric_free(struct ln_fabric *fab);

#endif
