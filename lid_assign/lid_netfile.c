// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lid_netline.h"

/* ibsim 0.10's GUID counters, by node type */
static const uint64_t first_guid[3] = {
	[LN_CA] = 0x100000, [LN_SWITCH] = 0x200000, [LN_ROUTER] = 0,
};

struct parser {
	struct ln_net *net;
	const char *file;
	uint32_t line;
	char *err;
	uint64_t base[3], next[3];	/* absolute base, next GUID */
	uint64_t pending_port0;		/* from switchguid=N(P) */
	struct ln_node *rec;		/* record being read, or NULL */
	uint32_t rec_left;		/* port lines it may still have */
};

static int fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(ps->err, LN_ERR_LEN, "%s:%u: ", ps->file, ps->line);
	va_start(ap, fmt);
	vsnprintf(ps->err + n, LN_ERR_LEN - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* not about one line: "FILE: read error: ..." */
static int read_error(struct parser *ps, int errnum)
{
	snprintf(ps->err, LN_ERR_LEN, "%s: read error: %s", ps->file,
		 strerror(errnum));
	return -1;
}

/* by name, or (name NULL) by node GUID as ibsim checks it */
static const struct ln_node *find_node(const struct ln_net *net,
				       const char *name, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < net->n_nodes; i++) {
		const struct ln_node *n = &net->nodes[i];

		if ((name && !strcmp(n->name, name)) ||
		    (!name && n->guid == guid))
			return n;
	}
	return NULL;
}

static int new_node(struct parser *ps, enum ln_type type, const char *line)
{
	struct ln_net *net = ps->net;
	const struct ln_node *dup;
	struct ln_node *n;
	const char *err;
	uint32_t n_ports;
	char *name = NULL;

	err = ln_parse_header(line, &n_ports, &name);
	if (err)
		return fail(ps, "%s", err);
	dup = find_node(net, name, 0);
	if (dup) {
		fail(ps, "node \"%s\" already defined at line %u", name,
		     dup->line);
		free(name);
		return -1;
	}
	dup = find_node(net, NULL, ps->next[type]);
	if (dup) {
		fail(ps, "GUID 0x%" PRIx64 " of \"%s\" is already node \"%s\" (line %u); ibsim refuses it",
		     ps->next[type], name, dup->name, dup->line);
		free(name);
		return -1;
	}
	if (net->n_nodes == net->cap_nodes) {
		uint32_t cap = net->cap_nodes ? 2 * net->cap_nodes : 64;
		struct ln_node *p = realloc(net->nodes, cap * sizeof(*p));

		if (!p) {
			free(name);
			return fail(ps, "out of memory");
		}
		net->nodes = p;
		net->cap_nodes = cap;
	}
	n = &net->nodes[net->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->type = type;
	n->n_ports = n_ports;
	n->line = ps->line;
	n->guid = ps->next[type];
	ps->next[type] += type == LN_SWITCH ? 1 : n_ports + 1;
	if (type == LN_SWITCH)
		n->port0_guid = ps->pending_port0;
	ps->pending_port0 = 0;
	n->cables = calloc(n_ports, sizeof(*n->cables));
	if (!n->cables)
		return fail(ps, "out of memory");
	ps->rec = n;
	ps->rec_left = n_ports;
	return 0;
}

static int guid_base(struct parser *ps, enum ln_type type, const char *line)
{
	uint64_t value, port_guid;
	bool relative;
	const char *err = ln_parse_guidbase(line, &relative, &value,
					    &port_guid);

	if (err)
		return fail(ps, "%s", err);
	if (!relative)
		ps->base[type] = value;
	ps->next[type] = ps->base[type] + (relative ? value : 0);
	if (type == LN_SWITCH)
		ps->pending_port0 = port_guid;
	return 0;
}

static int cable(struct parser *ps, const char *line)
{
	struct ln_node *n = ps->rec;
	struct ln_cable c;
	const char *err = ln_parse_cable(line, n->n_ports, &c);
	uint32_t i;

	if (err)
		return fail(ps, "%s", err);
	c.line = ps->line;
	for (i = 0; i < n->n_cables; i++)
		if (n->cables[i].port == c.port) {
			free(c.peer);
			return fail(ps, "port %u of \"%s\" already cabled at line %u",
				    c.port, n->name, n->cables[i].line);
		}
	n->cables[n->n_cables++] = c;
	if (!--ps->rec_left)
		ps->rec = NULL;
	return 0;
}

/* a line inside a node record (after its header) */
static int record_line(struct parser *ps, const char *line)
{
	enum ln_type type;

	if (line[0] == '#')
		return 0;
	if (line[0] == '[')
		return cable(ps, line);
	if (line[0] == '@')
		return fail(ps, "port aliases ('@') are not supported");
	/* any other line ends the record and is consumed, as by ibsim */
	ps->rec = NULL;
	if (ln_classify(line, &type) != LN_LINE_OTHER)
		return fail(ps, "the record of the node above must end with a blank line (ibsim would skip this line)");
	return 0;
}

static int top_line(struct parser *ps, const char *line)
{
	enum ln_type type = LN_CA;

	switch (ln_classify(line, &type)) {
	case LN_LINE_NODE:
		return new_node(ps, type, line);
	case LN_LINE_GUIDBASE:
		return guid_base(ps, type, line);
	case LN_LINE_UNSUPPORTED:
		return fail(ps, "include, module and do lines are not supported");
	case LN_LINE_OTHER:
	default:
		return 0;
	}
}

int ln_parse(FILE *f, const char *file, struct ln_net *net,
	     char err[LN_ERR_LEN])
{
	struct parser ps = { .net = net, .file = file, .err = err };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	memset(net, 0, sizeof(*net));
	err[0] = '\0';
	memcpy(ps.base, first_guid, sizeof(ps.base));
	memcpy(ps.next, first_guid, sizeof(ps.next));
	net->file = strdup(file);
	if (!net->file)
		return fail(&ps, "out of memory");
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		ps.line++;
		if ((size_t)len != strlen(line)) {
			ret = fail(&ps, "NUL byte in the line");
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (ps.rec)
			ret = record_line(&ps, line);
		else
			ret = top_line(&ps, line);
	}
	if (!ret && ferror(f))
		ret = read_error(&ps, errno);
	if (!ret && !net->n_nodes) {
		snprintf(err, LN_ERR_LEN,
			 "%s: no Switch, Hca, Ca or Rt record: not a netfile",
			 file);
		ret = -1;
	}
	free(line);
	if (ret)
		ln_free(net);
	return ret;
}

int ln_parse_path(const char *path, struct ln_net *net,
		  char err[LN_ERR_LEN])
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		memset(net, 0, sizeof(*net));
		snprintf(err, LN_ERR_LEN, "%s: cannot open: %s", path,
			 strerror(errno));
		return -1;
	}
	ret = ln_parse(f, path, net, err);
	fclose(f);
	return ret;
}

void ln_free(struct ln_net *net)
{
	uint32_t i, j;

	for (i = 0; i < net->n_nodes; i++) {
		for (j = 0; j < net->nodes[i].n_cables; j++)
			free(net->nodes[i].cables[j].peer);
		free(net->nodes[i].cables);
		free(net->nodes[i].name);
	}
	free(net->nodes);
	free(net->file);
	memset(net, 0, sizeof(*net));
}
