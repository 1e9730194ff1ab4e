// SPDX-License-Identifier: MIT
/*
 * Other ibnetdiscover output formats (the ports report of -p; list
 * formats recognised and refused) and the quirks of infiniband-diags'
 * LFT dumps.  See lc_ibnd.h.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_ibnd.h"
#include "lc_input.h"
#include "lc_parse.h"

/* One end of a line of the ports report. */
struct pr_end {
	char type;		/* 'S', 'H' (CA) or 'R' */
	unsigned lid, port;
	uint64_t guid;
};

/* One line of the ports report. */
struct pr_line {
	struct pr_end a, b;	/* b.type 0: port not connected */
	char *desc_a, *desc_b;
	unsigned line;
};

struct pr_file {
	struct pr_line *l;
	unsigned n, cap;
};

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* "CA"/"SW"/"RT" at *s; 0 if not. */
static char node_type(const char *s)
{
	if (!strncmp(s, "CA", 2) && isspace((unsigned char)s[2]))
		return 'H';
	if (!strncmp(s, "SW", 2) && isspace((unsigned char)s[2]))
		return 'S';
	if (!strncmp(s, "RT", 2) && isspace((unsigned char)s[2]))
		return 'R';
	return 0;
}

/* "TYPE LID PORT 0xGUID" at *s; advances *s.  -1 if not there. */
static int parse_end(const char **s, struct pr_end *e)
{
	const char *p = skip_ws(*s);
	char *end;

	e->type = node_type(p);
	if (!e->type)
		return -1;
	p += 2;
	e->lid = (unsigned)strtoul(p, &end, 10);
	if (end == p)
		return -1;
	p = end;
	e->port = (unsigned)strtoul(p, &end, 10);
	if (end == p || e->port > LC_MAX_PORTS)
		return -1;
	p = skip_ws(end);
	if (strncmp(p, "0x", 2))
		return -1;
	e->guid = strtoull(p, &end, 16);
	if (end == p + 2)
		return -1;
	*s = end;
	return 0;
}

/* The next '...' after *s (copied); NULL if none. */
static char *next_quoted(const char **s)
{
	const char *a = strchr(*s, '\''), *b;
	char *q;

	if (!a || !(b = strchr(a + 1, '\'')))
		return NULL;
	q = strndup(a + 1, (size_t)(b - a - 1));
	*s = b + 1;
	return q;
}

/*
 * "... - TYPE LID PORT GUID" then "( 'a' - 'b' )", or for a port with
 * nothing cabled just " 'a'".
 */
static int parse_ports_line(struct lc_input *in, struct pr_line *pl)
{
	const char *s = in->line, *dash;

	memset(pl, 0, sizeof(*pl));
	pl->line = in->line_no;
	if (parse_end(&s, &pl->a))
		return lc_input_error(in, "not a line of ibnetdiscover -p: "
				      "%.60s", in->line);
	for (dash = strstr(s, " - "); dash; dash = strstr(dash + 1, " - ")) {
		const char *t = dash + 3;

		if (node_type(skip_ws(t)) && !parse_end(&t, &pl->b)) {
			s = t;
			break;
		}
	}
	if (!dash)
		pl->b.type = 0;
	pl->desc_a = next_quoted(&s);
	if (pl->b.type)
		pl->desc_b = next_quoted(&s);
	if (!pl->a.port && pl->a.type != 'S')
		return lc_input_error(in, "port 0 of a CA or router");
	if (pl->b.type && !pl->b.port)
		return lc_input_error(in, "link to port 0");
	return 0;
}

static void pr_free(struct pr_file *pf)
{
	unsigned i;

	for (i = 0; i < pf->n; i++) {
		free(pf->l[i].desc_a);
		free(pf->l[i].desc_b);
	}
	free(pf->l);
}

/* Index of the node of end e, or -1. */
static int find_node(const struct lc_fabric *f, const struct pr_end *e)
{
	char id[24];
	unsigned i;

	snprintf(id, sizeof(id), "%c-%016" PRIx64, e->type, e->guid);
	for (i = 0; i < f->n_nodes; i++)
		if (!strcmp(f->node[i].id, id))
			return (int)i;
	return -1;
}

/* Adds the node of end e (if new) with at least e->port ports. */
static int add_end(struct lc_fabric *f, struct pr_file *pf,
		   const struct pr_end *e, const char *desc, unsigned line)
{
	unsigned i, ports = e->port;
	char id[24];
	struct lc_node *n;

	if (find_node(f, e) >= 0)
		return 0;
	/* the highest port of this node on any line */
	for (i = 0; i < pf->n; i++) {
		const struct pr_line *pl = &pf->l[i];

		if (pl->a.type == e->type && pl->a.guid == e->guid &&
		    pl->a.port > ports)
			ports = pl->a.port;
		if (pl->b.type == e->type && pl->b.guid == e->guid &&
		    pl->b.port > ports)
			ports = pl->b.port;
	}
	if (!ports)
		ports = 1;
	snprintf(id, sizeof(id), "%c-%016" PRIx64, e->type, e->guid);
	n = lc_fabric_add_node(f, e->type == 'S', id, desc, ports, line);
	if (!n)
		return -1;
	n->guid = e->guid;
	return 0;
}

/* Records the link a -> b on a's port and a's LID. */
static int set_end(struct lc_fabric *f, const struct pr_end *a,
		   const struct pr_end *b, unsigned line)
{
	struct lc_node *n = &f->node[find_node(f, a)];
	struct lc_port *p = &n->port[a->port];
	char id[24];

	if (n->is_switch)
		n->port[0].lid = a->lid, n->port[0].line = line;
	else
		p->lid = a->lid;
	if (!b->type || p->peer_id)
		return 0;
	snprintf(id, sizeof(id), "%c-%016" PRIx64, b->type, b->guid);
	p->peer_id = strdup(id);
	if (!p->peer_id)
		return -1;
	p->peer_port = b->port;
	p->line = line;
	return 0;
}

static int build_from_ports(struct lc_fabric *f, struct pr_file *pf)
{
	unsigned i;

	for (i = 0; i < pf->n; i++) {
		struct pr_line *pl = &pf->l[i];

		if (add_end(f, pf, &pl->a, pl->desc_a, pl->line) ||
		    (pl->b.type &&
		     add_end(f, pf, &pl->b, pl->desc_b, pl->line)))
			return -1;
	}
	for (i = 0; i < pf->n; i++) {
		struct pr_line *pl = &pf->l[i];

		if (set_end(f, &pl->a, &pl->b, pl->line) ||
		    (pl->b.type && set_end(f, &pl->b, &pl->a, pl->line)))
			return -1;
	}
	return 0;
}

static int read_ports_report(struct lc_fabric *f, const char *path)
{
	struct pr_file pf = { 0 };
	struct lc_input in;
	int got, ret = -1;

	if (lc_input_open(&in, path))
		return -1;
	while ((got = lc_input_next(&in)) > 0) {
		const char *s = skip_ws(in.line);

		if (!*s || *s == '#')
			continue;
		if (pf.n == pf.cap) {
			unsigned cap = pf.cap ? 2 * pf.cap : 256;
			struct pr_line *l = realloc(pf.l, cap * sizeof(*l));

			if (!l) {
				lc_input_error(&in, "out of memory");
				goto out;
			}
			pf.l = l;
			pf.cap = cap;
		}
		if (parse_ports_line(&in, &pf.l[pf.n++]))
			goto out;
	}
	if (got)
		goto out;
	if (!pf.n) {
		lc_error_at(path, 0, "no nodes in topology");
		goto out;
	}
	if (build_from_ports(f, &pf)) {
		lc_error_at(path, 0, "out of memory");
		goto out;
	}
	ret = lc_fabric_finish(f, path);
out:
	lc_input_close(&in);
	pr_free(&pf);
	return ret;
}

/* "Switch|Ca|Rt : 0x..." of ibnetdiscover -l, -S, -H, -R */
static bool is_list_line(const char *s)
{
	size_t n = strcspn(s, " \t:");

	if (!((n == 6 && !strncmp(s, "Switch", 6)) ||
	      (n == 2 && (!strncmp(s, "Ca", 2) || !strncmp(s, "Rt", 2)))))
		return false;
	s = skip_ws(s + n);
	return *s == ':' && !strncmp(skip_ws(s + 1), "0x", 2);
}

/* 'p': ports report, 'l': a list format, 'd': default, -1: error. */
static int sniff(const char *path)
{
	struct lc_input in;
	int got, kind = 'd';

	if (lc_input_open(&in, path))
		return -1;
	while ((got = lc_input_next(&in)) > 0) {
		const char *s = skip_ws(in.line);
		struct pr_end e;

		if (!*s || *s == '#')
			continue;
		if (parse_end(&s, &e) == 0)
			kind = 'p';
		else if (is_list_line(s))
			kind = 'l';
		break;
	}
	lc_input_close(&in);
	return got < 0 ? -1 : kind;
}

int lc_read_topology_any(struct lc_fabric *f, const char *path)
{
	switch (sniff(path)) {
	case 'p':
		return read_ports_report(f, path);
	case 'l':
		return lc_error_at(path, 0, "a node list (ibnetdiscover -l, "
				   "-S, -H or -R) has no links: use "
				   "ibnetdiscover's default output or -p");
	case 'd':
		return lc_read_topology(f, path);
	}
	return -1;
}

bool lc_ibnd_skip_line(const char *s)
{
	/* -g: "Non-Chassis Nodes", "Chassis N (...)", "... Chassis Nodes" */
	if (!strncmp(s, "Non-Chassis Nodes", 17) || !strncmp(s, "Chassis ", 8) ||
	    strstr(s, "Chassis Nodes"))
		return true;
	/* -s: "DR path slid 0; dlid 0; 0,1 -> new Switch {...} ..." */
	return !strncmp(s, "DR path ", 8) && strstr(s, " -> ");
}

bool lc_diags_skip_lft_line(const char *s, bool *in_mcast)
{
	if (!strncmp(s, "*** WARNING ***", 15))
		return true;	/* dump_lfts: "replaced by dump_fts" */
	if (!strncmp(s, "Multicast mlids", 15)) {
		*in_mcast = true;
		return true;
	}
	if (!strncmp(s, "Unicast lids", 12)) {
		*in_mcast = false;
		return false;
	}
	return *in_mcast;
}

unsigned lc_diags_header_top(const char *header)
{
	const char *p = strstr(header, "-0x");

	return p ? (unsigned)strtoul(p + 3, NULL, 16) : 0;
}

void lc_diags_check_top(const struct lc_fabric *f, const struct lc_node *sw,
			const char *path, unsigned line, unsigned top)
{
	if (!sw || !top || top % 64 || top > f->max_lid ||
	    f->lid_node[top] < 0 || lc_fabric_lft(sw, top) != LC_NO_ENTRY)
		return;
	fprintf(stderr, "lftcheck: %s:%u: warning: no entry for LID 0x%04x "
		"(= LinearFDBTop, first of a 64-LID block) of switch \"%s\": "
		"infiniband-diags 44 dump_lfts/ibroute leave it out; lftread "
		"reads it.  Counted as unrouted.\n", path, line, top, sw->desc);
}
