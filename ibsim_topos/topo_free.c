// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "topo.h"

void topo_free(struct topo *t)
{
	unsigned i;

	if (!t)
		return;
	if (t->sw_name)
		for (i = 0; i < t->n_sw; i++)
			free(t->sw_name[i]);
	if (t->host_name)
		for (i = 0; i < t->n_hosts; i++)
			free(t->host_name[i]);
	free(t->sw_name);
	free(t->host_name);
	free(t->sw_ports);
	free(t->links);
	free(t->hosts);
	memset(t, 0, sizeof(*t));
}
