// SPDX-License-Identifier: MIT
/* Consistency and connectivity checks of a struct topo. */
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* Marks (sw, port) used; -1 if out of range or already used. */
static int use_port(const struct topo *t, const unsigned *base,
		    unsigned char *used, unsigned sw, unsigned port)
{
	if (sw >= t->n_sw || port < 1 || port > t->sw_ports[sw])
		return -1;
	if (used[base[sw] + port])
		return -1;
	used[base[sw] + port] = 1;
	return 0;
}

static int check_ports(const struct topo *t, const unsigned *base,
		       unsigned char *used)
{
	unsigned i;

	for (i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		if (l->a == l->b || use_port(t, base, used, l->a, l->pa) ||
		    use_port(t, base, used, l->b, l->pb))
			return -1;
	}
	for (i = 0; i < t->n_hosts; i++)
		if (use_port(t, base, used, t->hosts[i].sw, t->hosts[i].port))
			return -1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_names(const struct topo *t)
{
	unsigned n = t->n_sw + t->n_hosts, i;
	char **all = malloc(n * sizeof(*all));
	int ret = 0;

	if (!all)
		return -1;
	for (i = 0; i < t->n_sw; i++)
		all[i] = t->sw_name[i];
	for (i = 0; i < t->n_hosts; i++)
		all[t->n_sw + i] = t->host_name[i];
	for (i = 0; i < n; i++)
		if (!all[i] || !all[i][0] || strpbrk(all[i], "\"#@"))
			ret = -1;
	if (!ret) {
		qsort(all, n, sizeof(*all), cmp_str);
		for (i = 1; i < n; i++)
			if (!strcmp(all[i - 1], all[i]))
				ret = -1;
	}
	free(all);
	return ret;
}

int topo_validate(const struct topo *t)
{
	unsigned *base;
	unsigned char *used;
	unsigned total = 0, s;
	int ret;

	if (!t || !t->n_sw || !t->sw_ports || !t->sw_name ||
	    (t->n_links && !t->links) ||
	    (t->n_hosts && (!t->hosts || !t->host_name)))
		return -1;
	base = malloc(t->n_sw * sizeof(*base));
	if (!base)
		return -1;
	for (s = 0; s < t->n_sw; s++) {
		if (t->sw_ports[s] > TOPO_MAX_PORTS) {
			free(base);
			return -1;
		}
		base[s] = total;
		total += t->sw_ports[s] + 1;
	}
	used = calloc(total, 1);
	ret = used ? check_ports(t, base, used) : -1;
	if (!ret)
		ret = check_names(t);
	free(used);
	free(base);
	return ret;
}

static unsigned find_root(unsigned *parent, unsigned x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

int topo_connected(const struct topo *t)
{
	unsigned *parent, i, groups;

	if (!t || !t->n_sw)
		return 0;
	parent = malloc(t->n_sw * sizeof(*parent));
	if (!parent)
		return 0;
	for (i = 0; i < t->n_sw; i++)
		parent[i] = i;
	groups = t->n_sw;
	for (i = 0; i < t->n_links; i++) {
		unsigned ra, rb;

		if (t->links[i].a >= t->n_sw || t->links[i].b >= t->n_sw)
			continue;
		ra = find_root(parent, t->links[i].a);
		rb = find_root(parent, t->links[i].b);
		if (ra != rb) {
			parent[ra] = rb;
			groups--;
		}
	}
	free(parent);
	return groups == 1;
}

unsigned topo_sw_link_ends(const struct topo *t, unsigned sw)
{
	unsigned i, n = 0;

	for (i = 0; i < t->n_links; i++)
		n += (t->links[i].a == sw) + (t->links[i].b == sw);
	return n;
}
