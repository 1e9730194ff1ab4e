/* SPDX-License-Identifier: MIT */
/* The host ports (CA ports on a switch) of a fabric, grouped by switch. */
#ifndef LC_HOSTS_H
#define LC_HOSTS_H

#include "lc_fabric.h"

struct lc_host {
	unsigned node, port;	/* the CA port */
	unsigned sw;		/* switch index it is attached to */
};

struct lc_hosts {
	unsigned n;
	struct lc_host *host;	/* hosts with a LID */
	unsigned n_no_lid;	/* CA ports on a switch without a LID */
	unsigned *per_sw;	/* hosts on each switch index */
	unsigned n_src;		/* switches with at least one host */
	unsigned *src;		/* their switch indices */
};

int lc_hosts_collect(struct lc_hosts *h, const struct lc_fabric *f);
void lc_hosts_free(struct lc_hosts *h);

#endif /* LC_HOSTS_H */
