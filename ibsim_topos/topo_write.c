// SPDX-License-Identifier: MIT
/*
 * ibsim netfile writer.  One record per node: a header line
 * `Switch <ports> "<name>"` or `Hca 1 "<name>"`, one line per connected
 * port `[<port>]\t"<peer>"[<peer port>]`, then a blank line.  The
 * trailing comment `# "<peer>" lid 0 4xQDR` follows ibnetdiscover's
 * layout; ibsim reads the link width and speed from it (and warns about
 * every port line without it).
 */
#include <stdlib.h>

#include "topo.h"

struct port_peer {
	const char *name;	/* NULL: port not connected */
	unsigned port;
};

static void set_peer(struct port_peer *pp, unsigned n_ports, unsigned port,
		     const char *name, unsigned peer_port)
{
	if (port >= 1 && port <= n_ports) {
		pp[port].name = name;
		pp[port].port = peer_port;
	}
}

static void fill_switch_peers(const struct topo *t, unsigned sw,
			      struct port_peer *pp)
{
	unsigned n = t->sw_ports[sw], i;

	for (i = 0; i <= n; i++)
		pp[i].name = NULL;
	for (i = 0; i < t->n_hosts; i++)
		if (t->hosts[i].sw == sw)
			set_peer(pp, n, t->hosts[i].port, t->host_name[i], 1);
	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		if (l->a == sw)
			set_peer(pp, n, l->pa, t->sw_name[l->b], l->pb);
		if (l->b == sw)
			set_peer(pp, n, l->pb, t->sw_name[l->a], l->pa);
	}
}

static void write_port(FILE *f, unsigned port, const char *peer,
		       unsigned peer_port)
{
	fprintf(f, "[%u]\t\"%s\"[%u]\t\t# \"%s\" lid 0 4xQDR\n", port, peer,
		peer_port, peer);
}

static int write_switches(const struct topo *t, FILE *f)
{
	struct port_peer *pp;
	unsigned max = 0, s, p;

	for (s = 0; s < t->n_sw; s++)
		if (t->sw_ports[s] > max)
			max = t->sw_ports[s];
	pp = calloc(max + 1, sizeof(*pp));
	if (!pp)
		return -1;
	for (s = 0; s < t->n_sw; s++) {
		fill_switch_peers(t, s, pp);
		fprintf(f, "Switch\t%u \"%s\"\n", t->sw_ports[s],
			t->sw_name[s]);
		for (p = 1; p <= t->sw_ports[s]; p++)
			if (pp[p].name)
				write_port(f, p, pp[p].name, pp[p].port);
		fputc('\n', f);
	}
	free(pp);
	return 0;
}

int topo_write_ibsim(const struct topo *t, FILE *f)
{
	unsigned i;

	if (!t || !f || !t->n_sw || topo_validate(t))
		return -1;
	fprintf(f, "# ibsim netfile: %u switches, %u links, %u hosts\n\n",
		t->n_sw, t->n_links, t->n_hosts);
	if (write_switches(t, f))
		return -1;
	for (i = 0; i < t->n_hosts; i++) {
		const struct topo_host *h = &t->hosts[i];

		fprintf(f, "Hca\t1 \"%s\"\n", t->host_name[i]);
		write_port(f, 1, t->sw_name[h->sw], h->port);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
