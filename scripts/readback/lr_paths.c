// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lr_paths.h"

/* The node we are attached to, and the port we leave it through. */
static int find_local(struct lr_smp *s, const struct lc_fabric *f,
		      const char *prog, unsigned *node, unsigned *port)
{
	uint8_t data[LR_SMP_DATA], path[1] = { 0 };
	uint64_t guid;
	unsigned i;

	if (lr_smp_get(s, path, 0, LR_ATTR_NODE_INFO, 0, data))
		return -1;
	guid = lr_get64(data + 12);	/* NodeGUID */
	for (i = 0; i < f->n_nodes; i++)
		if (f->node[i].guid == guid) {
			*node = i;
			*port = data[36];	/* LocalPortNum */
			return 0;
		}
	fprintf(stderr, "%s: local node guid 0x%016llx is not in the "
		"topology\n", prog, (unsigned long long)guid);
	return -1;
}

/* Marks switch t reached from path `from` plus one hop out of `port`. */
static int reach(struct lr_path *paths, unsigned *queue, unsigned *tail,
		 const struct lr_path *from, unsigned t, unsigned port)
{
	struct lr_path *p = &paths[t];

	if (p->reached || from->hops >= LR_MAX_HOPS)
		return 0;
	*p = *from;
	p->reached = true;
	p->port[++p->hops] = (uint8_t)port;
	queue[(*tail)++] = t;
	return 1;
}

int lr_paths_build(const struct lc_fabric *f, unsigned local,
		   unsigned local_port, struct lr_path *paths)
{
	const struct lc_node *ln = &f->node[local];
	unsigned *queue = malloc((f->n_switches + 1) * sizeof(*queue));
	unsigned head = 0, tail = 0, s;
	struct lr_path start = { .reached = true };
	int ret = 0;

	if (!queue)
		return -1;
	memset(paths, 0, f->n_switches * sizeof(*paths));
	if (ln->is_switch) {
		paths[ln->sw] = start;
		queue[tail++] = (unsigned)ln->sw;
	} else {
		const struct lc_node *peer = lc_fabric_peer(f, ln, local_port);

		if (peer && peer->is_switch)
			reach(paths, queue, &tail, &start, (unsigned)peer->sw,
			      local_port);
	}
	while (head < tail) {
		unsigned sw = queue[head++], p;
		const struct lc_node *n = &f->node[f->sw_node[sw]];

		for (p = 1; p <= n->n_ports; p++) {
			const struct lc_node *peer = lc_fabric_peer(f, n, p);

			if (peer && peer->is_switch)
				reach(paths, queue, &tail, &paths[sw],
				      (unsigned)peer->sw, p);
		}
	}
	for (s = 0; s < f->n_switches; s++)
		if (!paths[s].reached) {
			fprintf(stderr, "lftread: no directed route to switch "
				"\"%s\"\n", f->node[f->sw_node[s]].desc);
			ret = -1;
		}
	free(queue);
	return ret;
}

void lr_path_format(const struct lr_path *p, char *buf, size_t size)
{
	size_t used;
	unsigned i;

	used = (size_t)snprintf(buf, size, "0");
	for (i = 1; i <= p->hops && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, ",%u",
					 p->port[i]);
}

int lr_each_switch(const struct lc_fabric *f, int timeout_ms,
		   const char *prog, lr_switch_fn each, void *ctx)
{
	struct lr_path *paths = calloc(f->n_switches + 1, sizeof(*paths));
	unsigned local = 0, local_port = 0, sw;
	struct lr_smp s;
	int ret = -1;

	if (!paths) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	if (lr_smp_open(&s, timeout_ms) ||
	    find_local(&s, f, prog, &local, &local_port) ||
	    lr_paths_build(f, local, local_port, paths))
		goto out;
	for (sw = 0; sw < f->n_switches; sw++)
		if (each(&s, &f->node[f->sw_node[sw]], &paths[sw], ctx))
			goto out;
	ret = 0;
out:
	lr_smp_close(&s);
	free(paths);
	return ret;
}
