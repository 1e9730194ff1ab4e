// SPDX-License-Identifier: MIT
/* Rings, meshes and tori. */
#include "topo_build.h"

int topo_ring(struct topo *t, unsigned n_sw, unsigned hosts_per_sw)
{
	unsigned i;

	if (n_sw < 3 || n_sw > TOPO_MAX_SWITCHES ||
	    hosts_per_sw > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	if (topo_build_start(t, n_sw, "ring-sw", n_sw, n_sw * hosts_per_sw) ||
	    topo_build_hosts(t, n_sw, hosts_per_sw))
		return topo_build_fail(t);
	for (i = 0; i < n_sw; i++)
		topo_build_link(t, i, (i + 1) % n_sw);
	return topo_build_finish(t);
}

int topo_mesh(struct topo *t, unsigned x, unsigned y, unsigned hosts_per_sw,
	      int torus)
{
	unsigned long long n = (unsigned long long)x * y;
	unsigned wrap_x = torus && x >= 3, wrap_y = torus && y >= 3;
	unsigned i, j;

	if (!x || !y || n > TOPO_MAX_SWITCHES ||
	    hosts_per_sw > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	if (topo_build_start(t, (unsigned)n, torus ? "torus-sw" : "mesh-sw",
			     2 * (unsigned)n, (unsigned)n * hosts_per_sw) ||
	    topo_build_hosts(t, (unsigned)n, hosts_per_sw))
		return topo_build_fail(t);
	for (j = 0; j < y; j++) {
		for (i = 0; i < x; i++) {
			unsigned s = j * x + i;

			if (i + 1 < x)
				topo_build_link(t, s, s + 1);
			else if (wrap_x)
				topo_build_link(t, s, j * x);
			if (j + 1 < y)
				topo_build_link(t, s, s + x);
			else if (wrap_y)
				topo_build_link(t, s, i);
		}
	}
	return topo_build_finish(t);
}
