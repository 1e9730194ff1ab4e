// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lc_hosts.h"

static void add_host(struct lc_hosts *h, const struct lc_fabric *f,
		     unsigned i, unsigned p)
{
	const struct lc_node *n = &f->node[i];
	const struct lc_node *peer = lc_fabric_peer(f, n, p);

	if (!peer || !peer->is_switch)
		return;
	if (!n->port[p].lid) {
		h->n_no_lid++;
		return;
	}
	h->host[h->n++] = (struct lc_host){
		.node = i, .port = p, .sw = (unsigned)peer->sw,
	};
	if (!h->per_sw[peer->sw]++)
		h->src[h->n_src++] = (unsigned)peer->sw;
}

int lc_hosts_collect(struct lc_hosts *h, const struct lc_fabric *f)
{
	unsigned total = 0, i, p;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < f->n_nodes; i++)
		if (!f->node[i].is_switch)
			total += f->node[i].n_ports;
	h->host = malloc((total + 1) * sizeof(*h->host));
	h->per_sw = calloc(f->n_switches + 1, sizeof(*h->per_sw));
	h->src = malloc((f->n_switches + 1) * sizeof(*h->src));
	if (!h->host || !h->per_sw || !h->src) {
		lc_hosts_free(h);
		return -1;
	}
	for (i = 0; i < f->n_nodes; i++)
		if (!f->node[i].is_switch)
			for (p = 1; p <= f->node[i].n_ports; p++)
				add_host(h, f, i, p);
	return 0;
}

void lc_hosts_free(struct lc_hosts *h)
{
	free(h->host);
	free(h->per_sw);
	free(h->src);
	memset(h, 0, sizeof(*h));
}
