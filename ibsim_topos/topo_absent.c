// SPDX-License-Identifier: MIT
/*
 * Incomplete fabrics: hosts absent at bring-up (a seeded random choice)
 * and leaves missing from pods.  The ports they would use stay free, so
 * the present hosts keep the port numbers of the complete fabric.
 */
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "topo_prng.h"

int topo_drop_hosts(struct topo *t, unsigned permille, uint64_t seed)
{
	unsigned n = t->n_hosts, k, i, kept = 0;
	unsigned *idx;
	unsigned char *absent;
	struct topo_prng r;

	if (permille > 1000)
		return -1;
	k = (unsigned)(((unsigned long long)n * permille + 500) / 1000);
	idx = malloc((n + 1) * sizeof(*idx));
	absent = calloc(n + 1, 1);
	if (!idx || !absent) {
		free(idx);
		free(absent);
		return -1;
	}
	for (i = 0; i < n; i++)
		idx[i] = i;
	/* the first k of a seeded Fisher-Yates shuffle go */
	topo_prng_seed(&r, seed);
	for (i = 0; i < k; i++) {
		unsigned j = i + topo_prng_below(&r, n - i), x = idx[i];

		idx[i] = idx[j];
		idx[j] = x;
		absent[idx[i]] = 1;
	}
	free(idx);
	for (i = 0; i < n; i++) {
		if (absent[i]) {
			free(t->host_name[i]);
			continue;
		}
		t->hosts[kept] = t->hosts[i];
		t->host_name[kept++] = t->host_name[i];
	}
	t->n_hosts = kept;
	free(absent);
	return 0;
}

int topo_drop_switches(struct topo *t, const unsigned char *gone)
{
	unsigned *map = malloc((t->n_sw + 1) * sizeof(*map));
	unsigned i, n = 0;

	if (!map)
		return -1;
	for (i = 0; i < t->n_sw; i++) {
		if (gone[i]) {
			free(t->sw_name[i]);
			map[i] = ~0u;
			continue;
		}
		map[i] = n;
		t->sw_name[n] = t->sw_name[i];
		t->sw_ports[n++] = t->sw_ports[i];
	}
	t->n_sw = n;
	for (i = n = 0; i < t->n_links; i++) {
		struct topo_link l = t->links[i];

		if (map[l.a] == ~0u || map[l.b] == ~0u)
			continue;
		l.a = map[l.a];
		l.b = map[l.b];
		t->links[n++] = l;
	}
	t->n_links = n;
	for (i = n = 0; i < t->n_hosts; i++) {
		if (map[t->hosts[i].sw] == ~0u) {
			free(t->host_name[i]);
			continue;
		}
		t->hosts[n] = t->hosts[i];
		t->hosts[n].sw = map[t->hosts[i].sw];
		t->host_name[n++] = t->host_name[i];
	}
	t->n_hosts = n;
	free(map);
	return 0;
}
