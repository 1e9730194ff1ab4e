// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: turnadd-lids' topology reader, ln_parse_path(),
 * and on success ln_fabric_build() in both GUID modes (what the tool
 * does next with the parsed file).
 */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz_common.h"
#include "lid_netfab.h"
#include "lid_netfile.h"

static void check_net(const struct ln_net *net)
{
	uint32_t i, j;

	FUZZ_CHECK(net->n_nodes <= net->cap_nodes);
	for (i = 0; i < net->n_nodes; i++) {
		const struct ln_node *n = &net->nodes[i];

		FUZZ_CHECK(n->name != NULL);
		FUZZ_CHECK(n->type == LN_CA || n->type == LN_SWITCH ||
			   n->type == LN_ROUTER);
		FUZZ_CHECK(n->n_cables <= n->n_ports);
		for (j = 0; j < n->n_cables; j++) {
			FUZZ_CHECK(n->cables[j].peer != NULL);
			FUZZ_CHECK(n->cables[j].port <= n->n_ports);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	char err[LN_ERR_LEN];
	struct ln_net net;
	int ret, mode;

	ret = ln_parse_path(path, &net, err);
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(memchr(err, '\0', LN_ERR_LEN) != NULL);
	if (ret) {
		FUZZ_CHECK(err[0] != '\0');
		FUZZ_CHECK(net.n_nodes == 0 && net.nodes == NULL);
		return 0;
	}
	FUZZ_CHECK(err[0] == '\0');
	check_net(&net);
	for (mode = 0; mode < 2; mode++) {
		struct ln_fabric fab;

		memset(&fab, 0, sizeof(fab));
		err[0] = '\0';
		if (ln_fabric_build(&net, mode != 0, &fab, err) == 0)
			ln_fabric_free(&fab);
		else
			FUZZ_CHECK(err[0] != '\0');
		FUZZ_CHECK(memchr(err, '\0', LN_ERR_LEN) != NULL);
	}
	ln_free(&net);
	return 0;
}
