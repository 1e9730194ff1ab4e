// SPDX-License-Identifier: MIT
/* Reader of ibnetdiscover's topology output. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lc_ibnd.h"
#include "lc_input.h"
#include "lc_parse.h"

struct topo_reader {
	struct lc_input in;
	struct lc_fabric *f;
	struct lc_node *cur;	/* node whose port lines follow */
	uint64_t pending_guid;	/* from a preceding switchguid=/caguid= */
};

static char *skip_space(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Cuts the "..." at *s (after spaces); NULL if there is none. */
static char *cut_quoted(char **s)
{
	char *start = skip_space(*s), *end;

	if (*start != '"')
		return NULL;
	end = strchr(start + 1, '"');
	if (!end)
		return NULL;
	*end = '\0';
	*s = end + 1;
	return start + 1;
}

/* Parses "[<n>]" at *s; -1 if not there. */
static long cut_bracket_num(char **s)
{
	char *end;
	long v;

	if (**s != '[')
		return -1;
	v = strtol(*s + 1, &end, 10);
	if (end == *s + 1 || *end != ']' || v < 0)
		return -1;
	*s = end + 1;
	return v;
}

/* Skips "(<hex>)" at *s if present. */
static void skip_paren(char **s)
{
	char *end;

	if (**s == '(' && (end = strchr(*s, ')')))
		*s = end + 1;
}

/* Value after the word "key " in s, or 0 if absent. */
static unsigned find_value(const char *s, const char *key)
{
	size_t n = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if ((p == s || isspace((unsigned char)p[-1])) &&
		    isspace((unsigned char)p[n]))
			return (unsigned)strtoul(p + n, NULL, 0);
		p += n;
	}
	return 0;
}

static uint64_t guid_from_id(const char *id)
{
	if ((id[0] == 'S' || id[0] == 'H' || id[0] == 'R') && id[1] == '-')
		return strtoull(id + 2, NULL, 16);
	return 0;
}

static int read_header(struct topo_reader *r, char *line, bool is_switch)
{
	char *s = line, *id, *desc = NULL, *comment;
	unsigned long n_ports;

	while (*s && !isspace((unsigned char)*s))
		s++;
	n_ports = strtoul(s, &s, 10);
	if (!n_ports || n_ports > LC_MAX_PORTS)
		return lc_input_error(&r->in, "bad port count in node header");
	id = cut_quoted(&s);
	if (!id || !*id)
		return lc_input_error(&r->in, "node header without \"id\"");
	comment = strchr(s, '#');
	if (comment) {
		s = comment + 1;
		desc = cut_quoted(&s);
		if (!desc)
			s = comment + 1;
	}
	r->cur = lc_fabric_add_node(r->f, is_switch, id, desc,
				    (unsigned)n_ports, r->in.line_no);
	if (!r->cur)
		return lc_input_error(&r->in, "out of memory");
	r->cur->guid = r->pending_guid ? r->pending_guid : guid_from_id(id);
	r->pending_guid = 0;
	if (is_switch && comment) {
		r->cur->port[0].lid = find_value(s, "lid");
		r->cur->port[0].lmc = find_value(s, "lmc");
		r->cur->port[0].line = r->in.line_no;
	}
	return 0;
}

static int read_port(struct topo_reader *r, char *line)
{
	char *s = line, *peer, *comment;
	struct lc_port *lp;
	long port, peer_port;

	if (!r->cur)
		return lc_input_error(&r->in, "port line before any node");
	port = cut_bracket_num(&s);
	if (port < 1 || (unsigned long)port > r->cur->n_ports)
		return lc_input_error(&r->in, "bad port number (node has %u "
				      "ports)", r->cur->n_ports);
	skip_paren(&s);
	peer = cut_quoted(&s);
	if (!peer || !*peer)
		return lc_input_error(&r->in, "port line without \"peer\"");
	peer_port = cut_bracket_num(&s);
	if (peer_port < 1 || peer_port > (long)LC_MAX_PORTS)
		return lc_input_error(&r->in, "bad peer port number");
	lp = &r->cur->port[port];
	if (lp->peer_id)
		return lc_input_error(&r->in, "port %ld described twice", port);
	lp->peer_id = strdup(peer);
	if (!lp->peer_id)
		return lc_input_error(&r->in, "out of memory");
	lp->peer_port = (unsigned)peer_port;
	lp->line = r->in.line_no;
	comment = strchr(s, '#');
	if (!r->cur->is_switch && comment) {
		/* "# lid L lmc M "peer desc" lid X ...": stop at the quote */
		char *q = strchr(comment, '"');

		if (q)
			*q = '\0';
		lp->lid = find_value(comment + 1, "lid");
		lp->lmc = find_value(comment + 1, "lmc");
	}
	return 0;
}

static int read_line(struct topo_reader *r)
{
	char *line = skip_space(r->in.line);

	if (!*line || *line == '#' || lc_ibnd_skip_line(line))
		return 0;
	if (!strncmp(line, "switchguid=", 11) || !strncmp(line, "caguid=", 7) ||
	    !strncmp(line, "rtguid=", 7)) {
		r->pending_guid = strtoull(strchr(line, '=') + 1, NULL, 0);
		return 0;
	}
	if (!strncmp(line, "vendid=", 7) || !strncmp(line, "devid=", 6) ||
	    !strncmp(line, "sysimgguid=", 11))
		return 0;
	if (!strncmp(line, "Switch", 6) && isspace((unsigned char)line[6]))
		return read_header(r, line, true);
	if ((!strncmp(line, "Ca", 2) || !strncmp(line, "Rt", 2)) &&
	    isspace((unsigned char)line[2]))
		return read_header(r, line, false);
	if (*line == '[')
		return read_port(r, line);
	return lc_input_error(&r->in, "unexpected line: %.60s", line);
}

int lc_read_topology(struct lc_fabric *f, const char *path)
{
	struct topo_reader r = { .f = f };
	int ret, got;

	if (lc_input_open(&r.in, path))
		return -1;
	while ((got = lc_input_next(&r.in)) > 0)
		if (read_line(&r))
			break;
	ret = got;	/* 0: whole file read; 1: stopped at a bad line */
	lc_input_close(&r.in);
	if (ret)
		return -1;
	if (!f->n_nodes)
		return lc_error_at(path, 0, "no nodes in topology");
	return lc_fabric_finish(f, path);
}
