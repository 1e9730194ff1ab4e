// SPDX-License-Identifier: MIT
/* A routed core graph as lftcheck's inputs (bench_export.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_export.h"

static const char *name_of(const char *n)
{
	return n ? n : "?";
}

/* the LID of switch s itself (port 0), 0 if none */
static unsigned sw_lid(const struct ta_graph *g, uint32_t s)
{
	uint32_t d;

	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].sw == s && !g->dest[d].is_host)
			return g->dest[d].lid;
	return 0;
}

static void write_topo(FILE *f, const struct ta_graph *g)
{
	uint32_t s, e, d;

	for (s = 0; s < g->n_sw; s++) {
		unsigned np = 1;

		for (e = 0; e < g->sw[s].n_ends; e++)
			if (g->sw[s].ends[e].port + 1u > np)
				np = g->sw[s].ends[e].port + 1u;
		for (d = 0; d < g->n_dest; d++)
			if (g->dest[d].sw == s && g->dest[d].port + 1u > np)
				np = g->dest[d].port + 1u;
		fprintf(f, "switchguid=0x%llx(%llx)\n",
			(unsigned long long)g->sw[s].guid,
			(unsigned long long)g->sw[s].guid);
		fprintf(f, "Switch\t%u \"S-%016llx\"\t\t# \"%s\" base port 0 lid %u lmc 0\n",
			np - 1, (unsigned long long)g->sw[s].guid,
			name_of(g->sw[s].name), sw_lid(g, s));
		for (e = 0; e < g->sw[s].n_ends; e++) {
			const struct ta_port_ref *r = &g->sw[s].ends[e];
			const struct ta_link *l = &g->links[r->link];
			int far = l->sw[0] == s && l->port[0] == r->port;

			fprintf(f, "[%u]\t\"S-%016llx\"[%u]\t\t# \"%s\" lid %u 4xQDR\n",
				r->port, (unsigned long long)g->sw[r->peer].guid,
				l->port[far ? 1 : 0], name_of(g->sw[r->peer].name),
				sw_lid(g, r->peer));
		}
		for (d = 0; d < g->n_dest; d++) {
			const struct ta_dest *x = &g->dest[d];

			if (x->sw != s || !x->is_host)
				continue;
			fprintf(f, "[%u]\t\"H-%016llx\"[1](%llx) \t\t# \"%s\" lid %u 4xQDR\n",
				x->port, (unsigned long long)x->guid,
				(unsigned long long)x->guid, name_of(x->name),
				x->lid);
		}
		fputc('\n', f);
	}
	for (d = 0; d < g->n_dest; d++) {
		const struct ta_dest *x = &g->dest[d];

		if (!x->is_host)
			continue;
		fprintf(f, "Ca\t1 \"H-%016llx\"\t\t# \"%s\"\n",
			(unsigned long long)x->guid, name_of(x->name));
		fprintf(f, "[1](%llx) \t\"S-%016llx\"[%u]\t\t# lid %u lmc 0 \"%s\" lid %u 4xQDR\n\n",
			(unsigned long long)x->guid,
			(unsigned long long)g->sw[x->sw].guid, x->port, x->lid,
			name_of(g->sw[x->sw].name), sw_lid(g, x->sw));
	}
}

static void write_lfts(FILE *f, const struct ta_graph *g,
		       const struct ta_result *r)
{
	unsigned top = 0;
	uint32_t s, d;

	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid > top)
			top = g->dest[d].lid;
	for (s = 0; s < g->n_sw; s++) {
		unsigned n = 0;

		fprintf(f, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016llx (%s):\n",
			top, sw_lid(g, s), (unsigned long long)g->sw[s].guid,
			name_of(g->sw[s].name));
		for (d = 0; d < g->n_dest; d++) {
			uint8_t p = ta_result_port(r, s, d);

			if (p == TA_NO_PORT)
				continue;
			fprintf(f, "0x%04x %03u\n", g->dest[d].lid, p);
			n++;
		}
		fprintf(f, "%u valid lids dumped\n", n);
	}
}

int bench_export(const struct ta_graph *g, const struct ta_result *r,
		 const char *prefix)
{
	size_t n = strlen(prefix) + 8;
	char *path = malloc(n);
	FILE *f;
	int i;

	if (!path)
		return -1;
	for (i = 0; i < 2; i++) {
		snprintf(path, n, "%s.%s", prefix, i ? "lft" : "topo");
		f = fopen(path, "w");
		if (!f) {
			perror(path);
			free(path);
			return -1;
		}
		if (i)
			write_lfts(f, g, r);
		else
			write_topo(f, g);
		if (fclose(f)) {
			perror(path);
			free(path);
			return -1;
		}
	}
	free(path);
	return 0;
}
