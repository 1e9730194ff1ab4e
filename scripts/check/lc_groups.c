// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_groups.h"
#include "lc_hosts.h"
#include "lc_input.h"

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int lc_groups_parse(struct lc_groups *g, const char *arg)
{
	const char *comma = strchr(arg, ',');

	memset(g, 0, sizeof(*g));
	if (!comma || comma == arg || !comma[1] || strchr(comma + 1, ',')) {
		fprintf(stderr, "lftcheck: --groups: '%s': want two non-empty "
			"prefixes PREFIX_A,PREFIX_B\n", arg);
		return -1;
	}
	g->prefix[0] = strndup(arg, (size_t)(comma - arg));
	g->prefix[1] = strdup(comma + 1);
	if (!g->prefix[0] || !g->prefix[1]) {
		fprintf(stderr, "lftcheck: out of memory\n");
		lc_groups_free(g);
		return -1;
	}
	if (starts_with(g->prefix[0], g->prefix[1]) ||
	    starts_with(g->prefix[1], g->prefix[0])) {
		fprintf(stderr, "lftcheck: --groups: '%s': one prefix starts "
			"with the other, a node could be in both groups\n",
			arg);
		lc_groups_free(g);
		return -1;
	}
	return 0;
}

void lc_groups_free(struct lc_groups *g)
{
	free(g->prefix[0]);
	free(g->prefix[1]);
	free(g->node_group);
	memset(g, 0, sizeof(*g));
}

static unsigned char group_of(const struct lc_groups *g, const char *desc)
{
	if (starts_with(desc, g->prefix[0]))
		return 0;
	if (starts_with(desc, g->prefix[1]))
		return 1;
	return LC_NO_GROUP;
}

static unsigned count_join_links(const struct lc_groups *g,
				 const struct lc_fabric *f)
{
	unsigned i, p, n = 0;

	for (i = 0; i < f->n_nodes; i++) {
		const struct lc_node *a = &f->node[i];

		if (!a->is_switch || g->node_group[i] != 0)
			continue;
		for (p = 1; p <= a->n_ports; p++) {
			int peer = a->port[p].peer;

			if (peer >= 0 && f->node[peer].is_switch &&
			    g->node_group[peer] == 1)
				n++;
		}
	}
	return n;
}

/* Every host in a group, counted per group. */
static int check_hosts(struct lc_groups *g, const struct lc_fabric *f,
		       const char *path)
{
	struct lc_hosts hosts;
	unsigned i;
	int ret = 0;

	if (lc_hosts_collect(&hosts, f))
		return lc_error_at(path, 0, "out of memory");
	for (i = 0; i < hosts.n && !ret; i++) {
		const struct lc_node *n = &f->node[hosts.host[i].node];
		unsigned char grp = g->node_group[hosts.host[i].node];

		if (grp == LC_NO_GROUP)
			ret = lc_error_at(path, n->line, "host \"%s\" is in "
					  "neither group of --groups %s,%s",
					  n->desc, g->prefix[0], g->prefix[1]);
		else
			g->hosts[grp]++;
	}
	lc_hosts_free(&hosts);
	return ret;
}

int lc_groups_assign(struct lc_groups *g, const struct lc_fabric *f,
		     const char *topo_path)
{
	unsigned i, k;

	free(g->node_group);
	g->node_group = malloc(f->n_nodes + 1);
	if (!g->node_group)
		return lc_error_at(topo_path, 0, "out of memory");
	for (i = 0; i < f->n_nodes; i++)
		g->node_group[i] = group_of(g, f->node[i].desc);
	g->hosts[0] = g->hosts[1] = 0;
	if (check_hosts(g, f, topo_path))
		return -1;
	for (k = 0; k < 2; k++)
		if (!g->hosts[k])
			return lc_error_at(topo_path, 0, "--groups: no host "
					   "starts with \"%s\"", g->prefix[k]);
	g->join_links = count_join_links(g, f);
	if (!g->join_links)
		return lc_error_at(topo_path, 0, "--groups: no link joins a "
				   "switch of \"%s\" to a switch of \"%s\"",
				   g->prefix[0], g->prefix[1]);
	return 0;
}

void lc_groups_intra(const struct lc_groups *g, struct lc_traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->node_group = g->node_group;
	t->send[0][0] = 1.0;
	t->send[1][1] = 1.0;
}

/*
 * p/n with n the hosts of the sender's own group: the paper has groups
 * of equal size; with unequal ones each host still sends p/n of its own
 * group, so each group in all sends p (one per joining link).
 */
void lc_groups_inter(const struct lc_groups *g, struct lc_traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->node_group = g->node_group;
	t->send[0][1] = (double)g->join_links / g->hosts[0];
	t->send[1][0] = (double)g->join_links / g->hosts[1];
}
