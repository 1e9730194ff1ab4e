// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lid_netfab.h"

/* what one node port is cabled to */
struct end {
	int32_t node;		/* -1: nothing */
	uint32_t port;
	uint32_t line;		/* where it was written */
	uint64_t guid;		/* explicit port GUID seen for this port */
};

struct builder {
	const struct ln_net *net;
	char *err;
	uint32_t *index;	/* node indices sorted by name */
	struct end **ends;	/* [node][port] */
};

static int failf(struct builder *b, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int failf(struct builder *b, uint32_t line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(b->err, LN_ERR_LEN, "%s:%u: ", b->net->file, line);

	va_start(ap, fmt);
	vsnprintf(b->err + n, LN_ERR_LEN - n, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct ln_net *sort_net;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(sort_net->nodes[*(const uint32_t *)a].name,
		      sort_net->nodes[*(const uint32_t *)b].name);
}

static int32_t lookup(const struct builder *b, const char *name)
{
	uint32_t lo = 0, hi = b->net->n_nodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, b->net->nodes[b->index[mid]].name);

		if (!c)
			return (int32_t)b->index[mid];
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* records that (n, p) is cabled to (m, q), as written at line */
static int set_end(struct builder *b, uint32_t n, uint32_t p, uint32_t m,
		   uint32_t q, uint32_t line)
{
	struct end *e = &b->ends[n][p];
	const struct ln_node *nodes = b->net->nodes;

	if (e->node >= 0 && ((uint32_t)e->node != m || e->port != q))
		return failf(b, line,
			     "\"%s\"[%u] cabled to \"%s\"[%u], but line %u cables it to \"%s\"[%u]",
			     nodes[n].name, p, nodes[m].name, q, e->line,
			     nodes[e->node].name, e->port);
	e->node = (int32_t)m;
	e->port = q;
	e->line = line;
	return 0;
}

static int add_cables(struct builder *b)
{
	const struct ln_net *net = b->net;
	uint32_t n, i;

	for (n = 0; n < net->n_nodes; n++) {
		const struct ln_node *node = &net->nodes[n];

		for (i = 0; i < node->n_cables; i++) {
			const struct ln_cable *c = &node->cables[i];
			int32_t m = lookup(b, c->peer);

			if (m < 0)
				return failf(b, c->line, "unknown node \"%s\"",
					     c->peer);
			if ((uint32_t)m == n)
				return failf(b, c->line,
					     "\"%s\" is cabled to itself",
					     node->name);
			if (c->peer_port > net->nodes[m].n_ports)
				return failf(b, c->line,
					     "\"%s\" has no port %u (%u ports, line %u)",
					     c->peer, c->peer_port,
					     net->nodes[m].n_ports,
					     net->nodes[m].line);
			b->ends[n][c->port].guid = c->port_guid;
			if (set_end(b, n, c->port, (uint32_t)m, c->peer_port,
				    c->line) ||
			    set_end(b, (uint32_t)m, c->peer_port, n, c->port,
				    c->line))
				return -1;
		}
	}
	return 0;
}

static int alloc_builder(struct builder *b)
{
	const struct ln_net *net = b->net;
	uint32_t n;

	b->index = malloc((net->n_nodes + 1) * sizeof(*b->index));
	b->ends = calloc(net->n_nodes + 1, sizeof(*b->ends));
	if (!b->index || !b->ends)
		return -1;
	for (n = 0; n < net->n_nodes; n++) {
		uint32_t p;

		b->index[n] = n;
		b->ends[n] = calloc(net->nodes[n].n_ports + 1,
				    sizeof(**b->ends));
		if (!b->ends[n])
			return -1;
		for (p = 0; p <= net->nodes[n].n_ports; p++)
			b->ends[n][p].node = -1;
	}
	sort_net = net;
	qsort(b->index, net->n_nodes, sizeof(*b->index), cmp_name);
	return 0;
}

static void free_builder(struct builder *b)
{
	uint32_t n;

	if (b->ends)
		for (n = 0; n < b->net->n_nodes; n++)
			free(b->ends[n]);
	free(b->ends);
	free(b->index);
}

static int alloc_fabric(const struct ln_net *net, struct ln_fabric *fab)
{
	uint32_t n, max_ports = 0;

	for (n = 0; n < net->n_nodes; n++)
		max_ports += net->nodes[n].type == LN_SWITCH ? 1 :
			     net->nodes[n].n_ports;
	fab->sw_guid = calloc(net->n_nodes + 1, sizeof(*fab->sw_guid));
	fab->in.ports = calloc(max_ports + 1, sizeof(*fab->in.ports));
	fab->port_node = calloc(max_ports + 1, sizeof(*fab->port_node));
	fab->port_num = calloc(max_ports + 1, sizeof(*fab->port_num));
	if (!fab->sw_guid || !fab->in.ports || !fab->port_node ||
	    !fab->port_num)
		return -1;
	fab->in.sw_guid = fab->sw_guid;
	return 0;
}

static struct la_port *add_port(struct ln_fabric *fab, const char *node,
				uint32_t num, uint64_t guid, enum la_kind kind)
{
	struct la_port *p = &fab->in.ports[fab->in.n_ports];

	fab->port_node[fab->in.n_ports] = node;
	fab->port_num[fab->in.n_ports++] = num;
	p->guid = guid;
	p->kind = kind;
	return p;
}

static void fill_ports(const struct builder *b, bool ibsim_guids,
		       struct ln_fabric *fab, uint32_t *sw_index)
{
	const struct ln_net *net = b->net;
	uint32_t n, p;

	for (n = 0; n < net->n_nodes; n++) {
		const struct ln_node *node = &net->nodes[n];
		uint64_t guid = node->guid;

		if (node->type != LN_SWITCH)
			continue;
		if (!ibsim_guids && node->port0_guid)
			guid = node->port0_guid;
		sw_index[n] = fab->in.n_sw;
		fab->sw_guid[fab->in.n_sw] = node->guid;
		add_port(fab, node->name, 0, guid, LA_SWITCH)->sw =
			fab->in.n_sw++;
	}
	for (n = 0; n < net->n_nodes; n++) {
		const struct ln_node *node = &net->nodes[n];

		if (node->type == LN_SWITCH)
			continue;
		for (p = 1; p <= node->n_ports; p++) {
			const struct end *e = &b->ends[n][p];
			uint64_t guid = node->guid + p;
			struct la_port *lp;

			if (e->node < 0)
				continue;	/* not cabled: no LID */
			if (!ibsim_guids && e->guid)
				guid = e->guid;
			if (net->nodes[e->node].type != LN_SWITCH) {
				add_port(fab, node->name, p, guid, LA_LOOSE);
				continue;
			}
			lp = add_port(fab, node->name, p, guid, LA_HOST);
			lp->sw = sw_index[e->node];
			lp->sw_port = (uint8_t)e->port;
		}
	}
}

/* those neighbours, switch by switch (la_input.sw_peer) */
static int list_peers(const struct builder *b, struct ln_fabric *fab,
		      const uint32_t *sw_index)
{
	const struct ln_net *net = b->net;
	uint32_t *at, n, p, q, i, sum = 0;

	at = calloc(fab->in.n_sw + 1, sizeof(*at));
	for (i = 0; at && i < fab->in.n_sw; i++) {
		at[i] = sum;
		sum += fab->sw_peers[i];
	}
	fab->sw_peer = at ? calloc((size_t)sum + 1, sizeof(*fab->sw_peer)) :
			    NULL;
	if (!fab->sw_peer) {
		free(at);
		return -1;
	}
	for (n = 0; n < net->n_nodes; n++) {
		if (net->nodes[n].type != LN_SWITCH)
			continue;
		for (p = 1; p <= net->nodes[n].n_ports; p++) {
			int32_t m = b->ends[n][p].node;

			if (m < 0 || (uint32_t)m == n ||
			    net->nodes[m].type != LN_SWITCH)
				continue;
			for (q = 1; q < p && b->ends[n][q].node != m; q++)
				;
			if (q == p)
				fab->sw_peer[at[sw_index[n]]++] = sw_index[m];
		}
	}
	free(at);
	fab->in.sw_peer = fab->sw_peer;
	return 0;
}

/* distinct neighbour switches of every switch (la_input.sw_peers) */
static int count_peers(const struct builder *b, struct ln_fabric *fab,
		       const uint32_t *sw_index)
{
	const struct ln_net *net = b->net;
	uint32_t n, p, q;

	fab->sw_peers = calloc(fab->in.n_sw + 1, sizeof(*fab->sw_peers));
	if (!fab->sw_peers)
		return -1;
	for (n = 0; n < net->n_nodes; n++) {
		if (net->nodes[n].type != LN_SWITCH)
			continue;
		for (p = 1; p <= net->nodes[n].n_ports; p++) {
			int32_t m = b->ends[n][p].node;

			if (m < 0 || (uint32_t)m == n ||
			    net->nodes[m].type != LN_SWITCH)
				continue;
			for (q = 1; q < p && b->ends[n][q].node != m; q++)
				;
			fab->sw_peers[sw_index[n]] += q == p;
		}
	}
	fab->in.sw_peers = fab->sw_peers;
	return list_peers(b, fab, sw_index);
}

int ln_fabric_build(const struct ln_net *net, bool ibsim_guids,
		    struct ln_fabric *fab, char err[LN_ERR_LEN])
{
	struct builder b = { .net = net, .err = err };
	uint32_t *sw_index = NULL;
	int ret = -1;

	memset(fab, 0, sizeof(*fab));
	err[0] = '\0';
	sw_index = calloc(net->n_nodes + 1, sizeof(*sw_index));
	if (!sw_index || alloc_builder(&b) || alloc_fabric(net, fab)) {
		snprintf(err, LN_ERR_LEN, "%s: out of memory", net->file);
		goto out;
	}
	if (add_cables(&b))
		goto out;
	fill_ports(&b, ibsim_guids, fab, sw_index);
	if (count_peers(&b, fab, sw_index)) {
		snprintf(err, LN_ERR_LEN, "%s: out of memory", net->file);
		goto out;
	}
	ret = 0;
out:
	free(sw_index);
	free_builder(&b);
	if (ret)
		ln_fabric_free(fab);
	return ret;
}

void ln_fabric_free(struct ln_fabric *fab)
{
	free(fab->sw_guid);
	free(fab->sw_peers);
	free(fab->sw_peer);
	free(fab->in.ports);
	free(fab->port_node);
	free(fab->port_num);
	memset(fab, 0, sizeof(*fab));
}
