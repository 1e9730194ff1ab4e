// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_build.h"

/* Names are short: "<prefix><number>" or "<switch name>-h<port>". */
static char *name_printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return NULL;
	return strdup(buf);
}

int topo_build_fail(struct topo *t)
{
	topo_free(t);
	return -1;
}

int topo_build_reject(struct topo *t)
{
	memset(t, 0, sizeof(*t));
	return -1;
}

int topo_build_start(struct topo *t, unsigned n_sw, const char *prefix,
		     unsigned max_links, unsigned max_hosts)
{
	unsigned i;

	memset(t, 0, sizeof(*t));
	if (!n_sw)
		return -1;
	t->sw_ports = calloc(n_sw, sizeof(*t->sw_ports));
	t->sw_name = calloc(n_sw, sizeof(*t->sw_name));
	t->links = calloc(max_links ? max_links : 1, sizeof(*t->links));
	t->hosts = calloc(max_hosts ? max_hosts : 1, sizeof(*t->hosts));
	t->host_name = calloc(max_hosts ? max_hosts : 1,
			      sizeof(*t->host_name));
	if (!t->sw_ports || !t->sw_name || !t->links || !t->hosts ||
	    !t->host_name)
		return topo_build_fail(t);
	t->n_sw = n_sw;
	for (i = 0; i < n_sw; i++)
		if (topo_build_name_sw(t, i, prefix, i))
			return topo_build_fail(t);
	return 0;
}

int topo_build_name_sw(struct topo *t, unsigned sw, const char *prefix,
		       unsigned index)
{
	char *name = name_printf("%s%u", prefix, index);

	if (!name)
		return -1;
	free(t->sw_name[sw]);
	t->sw_name[sw] = name;
	return 0;
}

int topo_build_hosts_on(struct topo *t, unsigned sw, unsigned n)
{
	unsigned k;

	for (k = 0; k < n; k++) {
		struct topo_host *h = &t->hosts[t->n_hosts];
		char *name;

		h->sw = sw;
		h->port = ++t->sw_ports[sw];
		name = name_printf("%s-h%u", t->sw_name[sw], h->port);
		if (!name)
			return -1;
		t->host_name[t->n_hosts++] = name;
	}
	return 0;
}

int topo_build_hosts(struct topo *t, unsigned n, unsigned hosts_per_sw)
{
	unsigned s;

	for (s = 0; s < n; s++)
		if (topo_build_hosts_on(t, s, hosts_per_sw))
			return -1;
	return 0;
}

int topo_build_link(struct topo *t, unsigned a, unsigned b)
{
	struct topo_link *l = &t->links[t->n_links++];

	l->a = a;
	l->pa = ++t->sw_ports[a];
	l->b = b;
	l->pb = ++t->sw_ports[b];
	return 0;
}

int topo_build_link_at(struct topo *t, unsigned a, unsigned pa, unsigned b,
		       unsigned pb)
{
	struct topo_link *l = &t->links[t->n_links++];

	l->a = a;
	l->pa = pa;
	l->b = b;
	l->pb = pb;
	if (t->sw_ports[a] < pa)
		t->sw_ports[a] = pa;
	if (t->sw_ports[b] < pb)
		t->sw_ports[b] = pb;
	return 0;
}

int topo_build_finish_exact(struct topo *t)
{
	unsigned s;

	for (s = 0; s < t->n_sw; s++)
		if (!t->sw_ports[s] || t->sw_ports[s] > TOPO_MAX_PORTS)
			return topo_build_fail(t);
	return 0;
}

int topo_build_finish(struct topo *t)
{
	unsigned s;

	for (s = 0; s < t->n_sw; s++)
		if (t->sw_ports[s] <= TOPO_DEFAULT_PORTS)
			t->sw_ports[s] = TOPO_DEFAULT_PORTS;
	return topo_build_finish_exact(t);
}
