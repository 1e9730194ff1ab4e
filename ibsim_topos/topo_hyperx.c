// SPDX-License-Identifier: MIT
/*
 * HyperX (generalised hypercube): switches at the points of a grid,
 * every switch linked to every switch that differs from it in exactly
 * one coordinate (see topo.h).
 */
#include <stdio.h>

#include "topo_build.h"

struct hx {
	unsigned dims, hosts, n_sw;
	unsigned size[TOPO_HYPERX_MAX_DIMS];
	unsigned stride[TOPO_HYPERX_MAX_DIMS];
	/* first[d]: the last port before dimension d's links */
	unsigned first[TOPO_HYPERX_MAX_DIMS + 1];
};

static unsigned hx_coord(const struct hx *h, unsigned s, unsigned d)
{
	return s / h->stride[d] % h->size[d];
}

/* The port of switch s towards coordinate v (not its own) of dimension d. */
static unsigned hx_port(const struct hx *h, unsigned s, unsigned d,
			unsigned v)
{
	unsigned c = hx_coord(h, s, d);

	return h->first[d] + (v < c ? v : v - 1) + 1;
}

/* "hx-<c0>-<c1>-...": all coordinates but the last form the prefix. */
static int hx_names(struct topo *t, const struct hx *h)
{
	char prefix[16 * TOPO_HYPERX_MAX_DIMS];
	unsigned s, d;
	size_t n;

	for (s = 0; s < h->n_sw; s++) {
		n = (size_t)snprintf(prefix, sizeof(prefix), "hx-");
		for (d = 0; d + 1 < h->dims; d++)
			n += (size_t)snprintf(prefix + n, sizeof(prefix) - n,
					      "%u-", hx_coord(h, s, d));
		if (topo_build_name_sw(t, s, prefix,
				       hx_coord(h, s, h->dims - 1)))
			return -1;
	}
	return 0;
}

static void hx_links(struct topo *t, const struct hx *h)
{
	unsigned s, d, c, v, s2;

	for (s = 0; s < h->n_sw; s++)
		for (d = 0; d < h->dims; d++) {
			c = hx_coord(h, s, d);
			for (v = c + 1; v < h->size[d]; v++) {
				s2 = s + (v - c) * h->stride[d];
				topo_build_link_at(t, s, hx_port(h, s, d, v),
						   s2, hx_port(h, s2, d, c));
			}
		}
}

/* Fills *h from the arguments; -1 if they are out of range. */
static int hx_shape(struct hx *h, unsigned dims, const unsigned *size,
		    unsigned hosts_per_sw)
{
	unsigned long long n = 1;
	unsigned d;

	if (!dims || dims > TOPO_HYPERX_MAX_DIMS || !size)
		return -1;
	h->dims = dims;
	h->hosts = hosts_per_sw;
	h->first[0] = hosts_per_sw;
	for (d = 0; d < dims; d++) {
		if (size[d] < 2 || size[d] > TOPO_MAX_SWITCHES)
			return -1;
		h->size[d] = size[d];
		h->stride[d] = (unsigned)n;
		n *= size[d];
		if (n > TOPO_MAX_SWITCHES)
			return -1;
		h->first[d + 1] = h->first[d] + size[d] - 1;
		if (h->first[d + 1] > TOPO_MAX_PORTS)
			return -1;
	}
	h->n_sw = (unsigned)n;
	return 0;
}

int topo_hyperx(struct topo *t, unsigned dims, const unsigned *size,
		unsigned hosts_per_sw)
{
	unsigned long long n_links;
	struct hx h;

	if (hx_shape(&h, dims, size, hosts_per_sw))
		return topo_build_reject(t);
	n_links = (unsigned long long)h.n_sw * (h.first[dims] - h.hosts) / 2;
	if (topo_build_start(t, h.n_sw, "hx-", (unsigned)n_links,
			     h.n_sw * hosts_per_sw) ||
	    hx_names(t, &h) || topo_build_hosts(t, h.n_sw, hosts_per_sw))
		return topo_build_fail(t);
	hx_links(t, &h);
	return topo_build_finish(t);
}
