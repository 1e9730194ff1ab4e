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
	if (strncmp(p, "0x", 2) || !isxdigit((unsigned char)p[2]))
		return -1;
	e->guid = strtoull(p, &end, 16);
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

/* Nodes by (type, GUID): open addressing, first-appearance order kept. */
struct pr_nodes {
	struct pr_key {
		uint64_t guid;
		char type;	/* 0: free slot */
		unsigned max_port;
		int node;	/* index in the fabric */
		const char *desc;
		unsigned line;
	} *slot;
	unsigned mask;
	unsigned *order;	/* slots in order of first appearance */
	unsigned n;
};

static struct pr_key *pr_lookup(struct pr_nodes *t, const struct pr_end *e,
				bool insert)
{
	uint64_t h = (e->guid ^ (uint64_t)e->type) * 0x9e3779b97f4a7c15ull;
	unsigned i = (unsigned)(h >> 32) & t->mask;

	while (t->slot[i].type) {
		if (t->slot[i].type == e->type && t->slot[i].guid == e->guid)
			return &t->slot[i];
		i = (i + 1) & t->mask;
	}
	if (!insert)
		return NULL;
	t->slot[i].type = e->type;
	t->slot[i].guid = e->guid;
	t->slot[i].node = -1;
	t->order[t->n++] = i;
	return &t->slot[i];
}

static void pr_note(struct pr_nodes *t, const struct pr_end *e,
		    const char *desc, unsigned line)
{
	struct pr_key *k = pr_lookup(t, e, true);

	if (e->port > k->max_port)
		k->max_port = e->port;
	if (!k->desc && desc) {
		k->desc = desc;
		k->line = line;
	}
	if (!k->line)
		k->line = line;
}

/* Records the link a -> b on a's port and a's LID. */
static int set_end(struct lc_fabric *f, struct pr_nodes *t,
		   const struct pr_end *a, const struct pr_end *b,
		   unsigned line)
{
	struct lc_node *n = &f->node[pr_lookup(t, a, false)->node];
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

static int add_nodes(struct lc_fabric *f, struct pr_nodes *t)
{
	unsigned i;

	for (i = 0; i < t->n; i++) {
		struct pr_key *k = &t->slot[t->order[i]];
		char id[24];
		struct lc_node *n;

		snprintf(id, sizeof(id), "%c-%016" PRIx64, k->type, k->guid);
		n = lc_fabric_add_node(f, k->type == 'S', id, k->desc,
				       k->max_port ? k->max_port : 1, k->line);
		if (!n)
			return -1;
		n->guid = k->guid;
		k->node = (int)f->n_nodes - 1;
	}
	return 0;
}

static int build_from_ports(struct lc_fabric *f, struct pr_file *pf)
{
	struct pr_nodes t = { 0 };
	unsigned i, size = 16;
	int ret = -1;

	while (size < 4u * pf->n)
		size *= 2;
	t.slot = calloc(size, sizeof(*t.slot));
	t.order = calloc(2u * pf->n, sizeof(*t.order));
	t.mask = size - 1;
	if (!t.slot || !t.order)
		goto out;
	for (i = 0; i < pf->n; i++) {
		struct pr_line *pl = &pf->l[i];

		pr_note(&t, &pl->a, pl->desc_a, pl->line);
		if (pl->b.type)
			pr_note(&t, &pl->b, pl->desc_b, pl->line);
	}
	if (add_nodes(f, &t))
		goto out;
	for (i = 0; i < pf->n; i++) {
		struct pr_line *pl = &pf->l[i];

		if (set_end(f, &t, &pl->a, &pl->b, pl->line) ||
		    (pl->b.type && set_end(f, &t, &pl->b, &pl->a, pl->line)))
			goto out;
	}
	ret = 0;
out:
	free(t.slot);
	free(t.order);
	return ret;
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
	fprintf(stderr, "%s: %s:%u: warning: no entry for LID 0x%04x "
		"(= LinearFDBTop, first of a 64-LID block) of switch \"%s\": "
		"infiniband-diags 44 dump_lfts/ibroute leave it out; lftread "
		"reads it.  Counted as unrouted.\n", lc_prog(), path, line, top,
		sw->desc);
}
