// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_fabric.h"
#include "lc_input.h"

void lc_fabric_init(struct lc_fabric *f)
{
	memset(f, 0, sizeof(*f));
}

void lc_fabric_free(struct lc_fabric *f)
{
	unsigned i, p;

	for (i = 0; i < f->n_nodes; i++) {
		struct lc_node *n = &f->node[i];

		for (p = 0; p <= n->n_ports; p++)
			free(n->port[p].peer_id);
		free(n->port);
		free(n->id);
		free(n->desc);
		free(n->lft);
	}
	free(f->node);
	free(f->sw_node);
	free(f->lid_node);
	free(f->lid_port);
	memset(f, 0, sizeof(*f));
}

struct lc_node *lc_fabric_add_node(struct lc_fabric *f, bool is_switch,
				   const char *id, const char *desc,
				   unsigned n_ports, unsigned line)
{
	struct lc_node *n;
	unsigned p;

	if (f->n_nodes == f->cap_nodes) {
		unsigned cap = f->cap_nodes ? 2 * f->cap_nodes : 64;
		struct lc_node *nn = realloc(f->node, cap * sizeof(*nn));

		if (!nn)
			return NULL;
		f->node = nn;
		f->cap_nodes = cap;
	}
	n = &f->node[f->n_nodes];
	memset(n, 0, sizeof(*n));
	n->is_switch = is_switch;
	n->n_ports = n_ports;
	n->line = line;
	n->sw = -1;
	n->id = strdup(id);
	n->desc = strdup(desc && *desc ? desc : id);
	n->port = calloc(n_ports + 1, sizeof(*n->port));
	if (!n->id || !n->desc || !n->port) {
		free(n->id);
		free(n->desc);
		free(n->port);
		return NULL;
	}
	for (p = 0; p <= n_ports; p++)
		n->port[p].peer = -1;
	f->n_nodes++;
	return n;
}

struct lc_node *lc_fabric_switch_by_guid(struct lc_fabric *f, uint64_t guid)
{
	unsigned i;

	for (i = 0; i < f->n_switches; i++) {
		struct lc_node *n = &f->node[f->sw_node[i]];

		if (n->guid == guid)
			return n;
	}
	return NULL;
}

int lc_fabric_set_lft(struct lc_node *n, unsigned lid, unsigned port)
{
	if (lid >= n->lft_len) {
		unsigned len = n->lft_len ? n->lft_len : 256;
		uint8_t *t;

		while (len <= lid)
			len *= 2;
		t = realloc(n->lft, len);
		if (!t)
			return -1;
		memset(t + n->lft_len, LC_NO_ENTRY, len - n->lft_len);
		n->lft = t;
		n->lft_len = len;
	}
	n->lft[lid] = (uint8_t)port;
	return 0;
}

unsigned lc_fabric_lft(const struct lc_node *n, unsigned lid)
{
	return lid < n->lft_len ? n->lft[lid] : LC_NO_ENTRY;
}

const struct lc_node *lc_fabric_peer(const struct lc_fabric *f,
				     const struct lc_node *n, unsigned port)
{
	if (port > n->n_ports || n->port[port].peer < 0)
		return NULL;
	return &f->node[n->port[port].peer];
}

/* ---- lc_fabric_finish() ---- */

static const struct lc_fabric *sort_fabric;

static int cmp_node_id(const void *a, const void *b)
{
	const unsigned *x = a, *y = b;

	return strcmp(sort_fabric->node[*x].id, sort_fabric->node[*y].id);
}

static int find_node(const struct lc_fabric *f, const unsigned *sorted,
		     const char *id)
{
	unsigned lo = 0, hi = f->n_nodes;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = strcmp(f->node[sorted[mid]].id, id);

		if (!c)
			return (int)sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int resolve_port(struct lc_fabric *f, const unsigned *sorted,
			unsigned i, unsigned p, const char *path)
{
	struct lc_port *lp = &f->node[i].port[p];
	struct lc_port *rp;
	struct lc_node *r;
	int peer = find_node(f, sorted, lp->peer_id);

	if (peer < 0)
		return lc_error_at(path, lp->line, "port %u: unknown peer node "
				   "\"%s\"", p, lp->peer_id);
	r = &f->node[peer];
	if (lp->peer_port < 1 || lp->peer_port > r->n_ports)
		return lc_error_at(path, lp->line, "port %u: peer \"%s\" has "
				   "no port %u", p, r->id, lp->peer_port);
	if (peer == (int)i && lp->peer_port == p)
		return lc_error_at(path, lp->line, "port %u linked to itself",
				   p);
	rp = &r->port[lp->peer_port];
	if (rp->peer_id && (strcmp(rp->peer_id, f->node[i].id) ||
			    rp->peer_port != p))
		return lc_error_at(path, lp->line, "port %u links to \"%s\" "
				   "port %u, but line %u links that port "
				   "elsewhere", p, r->id, lp->peer_port,
				   rp->line);
	lp->peer = peer;
	rp->peer = (int)i;
	rp->peer_port = p;
	return 0;
}

static int resolve_peers(struct lc_fabric *f, const char *path)
{
	unsigned *sorted = malloc((f->n_nodes + 1) * sizeof(*sorted));
	unsigned i, p;
	int ret = 0;

	if (!sorted)
		return lc_error_at(path, 0, "out of memory");
	for (i = 0; i < f->n_nodes; i++)
		sorted[i] = i;
	sort_fabric = f;
	qsort(sorted, f->n_nodes, sizeof(*sorted), cmp_node_id);
	for (i = 1; i < f->n_nodes && !ret; i++)
		if (!strcmp(f->node[sorted[i]].id, f->node[sorted[i - 1]].id))
			ret = lc_error_at(path, f->node[sorted[i]].line,
					  "node \"%s\" described twice",
					  f->node[sorted[i]].id);
	for (i = 0; i < f->n_nodes && !ret; i++)
		for (p = 1; p <= f->node[i].n_ports && !ret; p++)
			if (f->node[i].port[p].peer_id)
				ret = resolve_port(f, sorted, i, p, path);
	free(sorted);
	return ret;
}

static int claim_lids(struct lc_fabric *f, unsigned i, unsigned p,
		      const char *path)
{
	const struct lc_port *lp = &f->node[i].port[p];
	unsigned n = lp->lmc < 8 ? 1u << lp->lmc : 0, l;

	if (!lp->lid)
		return 0;
	if (!n || lp->lid + n - 1 > LC_MAX_LID)
		return lc_error_at(path, lp->line, "LID %u (LMC %u) out of "
				   "range", lp->lid, lp->lmc);
	for (l = lp->lid; l < lp->lid + n; l++) {
		if (f->lid_node[l] >= 0)
			return lc_error_at(path, lp->line, "LID %u used twice",
					   l);
		f->lid_node[l] = (int)i;
		f->lid_port[l] = p;
	}
	return 0;
}

static int build_lid_table(struct lc_fabric *f, const char *path)
{
	unsigned i, p, l;

	f->max_lid = 0;
	for (i = 0; i < f->n_nodes; i++)
		for (p = 0; p <= f->node[i].n_ports; p++) {
			const struct lc_port *lp = &f->node[i].port[p];
			unsigned top = lp->lid + (lp->lmc < 8 ?
						  (1u << lp->lmc) - 1 : 0);

			if (lp->lid && top <= LC_MAX_LID && top > f->max_lid)
				f->max_lid = top;
		}
	f->lid_node = malloc((f->max_lid + 1) * sizeof(*f->lid_node));
	f->lid_port = calloc(f->max_lid + 1, sizeof(*f->lid_port));
	if (!f->lid_node || !f->lid_port)
		return lc_error_at(path, 0, "out of memory");
	for (l = 0; l <= f->max_lid; l++)
		f->lid_node[l] = -1;
	for (i = 0; i < f->n_nodes; i++)
		for (p = 0; p <= f->node[i].n_ports; p++)
			if ((f->node[i].is_switch ? p == 0 : p > 0) &&
			    claim_lids(f, i, p, path))
				return -1;
	return 0;
}

int lc_fabric_finish(struct lc_fabric *f, const char *path)
{
	unsigned i;

	if (resolve_peers(f, path))
		return -1;
	f->sw_node = malloc((f->n_nodes + 1) * sizeof(*f->sw_node));
	if (!f->sw_node)
		return lc_error_at(path, 0, "out of memory");
	f->n_switches = 0;
	for (i = 0; i < f->n_nodes; i++)
		if (f->node[i].is_switch) {
			f->node[i].sw = (int)f->n_switches;
			f->sw_node[f->n_switches++] = i;
		}
	return build_lid_table(f, path);
}
