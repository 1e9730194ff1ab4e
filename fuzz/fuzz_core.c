// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the whole routing core, not only its parsers.
 * Each input is decoded into a small connected fabric (2-10 switches,
 * 0-3 hosts each, a random spanning tree plus extra and parallel
 * links), options (mode, seed, escape root: one of the switches, or a
 * GUID no switch has) and a traffic file (groups by name prefix and by
 * GUID, weights drawn from 0, 4.9e-324, 1e-300, 1e-10, 0.5, 1, 1e300,
 * DBL_MAX, default weight likewise).  It then routes three times as
 * OpenSM's sweeps would: bring-up; a resweep after one switch or link
 * failed (the escape root among the candidates), with the routing memory
 * of the first (ta_saved.h); a resweep after the part came back.  Every
 * routing must succeed; its routes are walked independently
 * (tests/unit/route_verify.c): in turn-addition and turn-prohibition
 * modes the channel dependency graph is acyclic, and every host pair
 * and host-to-switch route of a connected fabric is reachable.
 */
#define _GNU_SOURCE
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "route_verify.h"
#include "ta_engine.h"
#include "ta_saved.h"

#define MAX_SW 10u
#define MAX_LINKS 24u

struct fab {
	unsigned n_sw, hosts[MAX_SW], n_links;
	unsigned a[MAX_LINKS], b[MAX_LINKS];
};

struct bytes {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct bytes *in, unsigned mod)
{
	unsigned v = 0;

	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return mod ? v % mod : v;
}

static unsigned n_errors;

static void on_log(void *ctx, enum ta_log_level level, const char *msg)
{
	(void)ctx;
	FUZZ_CHECK(msg != NULL);
	if (level == TA_LOG_ERROR) {
		n_errors++;
		if (getenv("FUZZ_CORE_VERBOSE"))
			fprintf(stderr, "core: %s\n", msg);
	}
}

static const struct ta_log fuzz_log = { .fn = on_log };

/*
 * The graph of f without switch `gone_sw` and link `gone_link` (either
 * may be out of range: nothing left out).  Ports are given in link
 * order, so they stay the same when a part is left out; GUIDs and LIDs
 * are fixed per switch and host.
 */
static struct ta_graph *build(const struct fab *f, unsigned gone_sw,
			      unsigned gone_link, int *connected)
{
	struct ta_graph *g = ta_graph_new();
	unsigned port[MAX_SW], idx[MAX_SW], s, h, l, n = 0;
	unsigned comp[MAX_SW], changed = 1;
	char name[32];

	FUZZ_CHECK(g != NULL);
	for (s = 0; s < f->n_sw; s++) {
		port[s] = 1 + f->hosts[s];
		idx[s] = ~0u;
		if (s == gone_sw)
			continue;
		snprintf(name, sizeof(name), "sw%u", s);
		idx[s] = n++;
		FUZZ_CHECK(ta_graph_add_switch(g, 0x1000 + s, name) ==
			   (int)idx[s]);
		comp[s] = s;
	}
	for (l = 0; l < f->n_links; l++) {
		unsigned a = f->a[l], b = f->b[l];
		unsigned pa = port[a]++, pb = port[b]++;

		if (a == gone_sw || b == gone_sw || l == gone_link)
			continue;
		FUZZ_CHECK(ta_graph_add_link(g, idx[a], (uint8_t)pa, idx[b],
					     (uint8_t)pb) >= 0);
	}
	for (s = 0; s < f->n_sw; s++) {
		if (s == gone_sw)
			continue;
		FUZZ_CHECK(ta_graph_add_dest(g, (uint16_t)(1 + s), idx[s], 0,
					     false, 0x1000 + s, NULL) >= 0);
		for (h = 0; h < f->hosts[s]; h++) {
			snprintf(name, sizeof(name), "h%u-%u", s, h);
			FUZZ_CHECK(ta_graph_add_dest(g,
					(uint16_t)(64 + 4 * s + h), idx[s],
					(uint8_t)(1 + h), true,
					0x2000 + 4 * s + h, name) >= 0);
		}
	}
	FUZZ_CHECK(ta_graph_finalize(g) == 0);
	/* connected? (labels of the switches left, by repeated relaxation) */
	while (changed) {
		changed = 0;
		for (l = 0; l < f->n_links; l++) {
			unsigned a = f->a[l], b = f->b[l], m;

			if (a == gone_sw || b == gone_sw || l == gone_link)
				continue;
			m = comp[a] < comp[b] ? comp[a] : comp[b];
			if (comp[a] != m || comp[b] != m) {
				comp[a] = comp[b] = m;
				changed = 1;
			}
		}
	}
	*connected = 1;
	for (s = 0; s < f->n_sw; s++)
		if (s != gone_sw && comp[s] != (gone_sw == 0 ? 1u : 0u))
			*connected = 0;
	return g;
}

static const char *const weights[] = {
	"0", "4.9e-324", "1e-300", "1e-10", "0.5", "1", "1e300",
	"1.7976931348623157e308",
};

/* the traffic file: up to 4 groups, weights from the table above */
static size_t traffic_text(struct bytes *in, const struct fab *f, char *buf,
			   size_t cap)
{
	unsigned n_g = take(in, 5), i, j;
	size_t len = 0;

	for (i = 0; i < n_g; i++) {
		unsigned s = take(in, f->n_sw);

		if (take(in, 2))
			len += snprintf(buf + len, cap - len,
					"group g%u prefix h%u\n", i, s);
		else
			len += snprintf(buf + len, cap - len,
					"group g%u guid 0x%x 0x%x\n", i,
					0x2000 + 4 * s, 0x2000 + 4 * s + 1);
	}
	for (i = 0; i < n_g; i++)
		for (j = i; j < n_g; j++)
			if (take(in, 2))
				len += snprintf(buf + len, cap - len,
						"weight g%u g%u %s\n", i, j,
						weights[take(in, 8)]);
	len += snprintf(buf + len, cap - len, "default_weight %s\n",
			weights[take(in, 8)]);
	return len;
}

static void check(const struct ta_graph *g, const struct ta_options *o,
		  const struct ta_result *r, int connected)
{
	struct verify_report rep;

	FUZZ_CHECK(r->n_sw == g->n_sw && r->n_dest == g->n_dest);
	FUZZ_CHECK(verify_routes(g, r, &rep) == 0);
	if (o->mode == TA_MODE_NONE_PROHIBITED)
		return;
	FUZZ_CHECK(!rep.cdg_cyclic);
	if (connected) {
		FUZZ_CHECK(rep.unreachable_host_pairs == 0);
		FUZZ_CHECK(rep.unreachable_host_to_switch == 0);
	}
}

/* routes g with the memory sv, checks, records the routing in sv */
static void route(struct ta_saved *sv, const struct ta_graph *g,
		  const struct ta_options *o, int connected)
{
	struct ta_prior_buf pb;
	struct ta_result r;
	unsigned errors = n_errors;

	FUZZ_CHECK(ta_saved_prior(sv, g, &pb) == 0);
	FUZZ_CHECK(ta_route_prior(g, o, ta_saved_empty(sv) ? NULL : &pb.prior,
				  &fuzz_log, &r) == 0);
	/* a routing that succeeds logs no ERROR (pieces aside) */
	FUZZ_CHECK(!connected || n_errors == errors);
	check(g, o, &r, connected);
	FUZZ_CHECK(ta_saved_update(sv, g, &r) == 0);
	ta_result_free(&r);
	ta_prior_buf_free(&pb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes in = { data, size };
	struct fab f;
	struct ta_options o;
	struct ta_saved sv;
	struct ta_graph *g;
	static char text[4096];
	unsigned s, extra, gone_sw = ~0u, gone_link = ~0u, what, root;
	int connected;

	memset(&f, 0, sizeof(f));
	f.n_sw = 2 + take(&in, MAX_SW - 1);
	for (s = 0; s < f.n_sw; s++)
		f.hosts[s] = take(&in, 4);
	for (s = 1; s < f.n_sw; s++) {	/* spanning tree */
		f.a[f.n_links] = s;
		f.b[f.n_links++] = take(&in, s);
	}
	extra = take(&in, MAX_LINKS - f.n_links + 1);
	while (extra--) {
		unsigned a = take(&in, f.n_sw), b = take(&in, f.n_sw);

		if (a != b) {
			f.a[f.n_links] = a;
			f.b[f.n_links++] = b;
		}
	}
	ta_options_init(&o);
	what = take(&in, 0);
	o.mode = what % 8 == 7 ? TA_MODE_NONE_PROHIBITED :
		 what % 8 == 6 ? TA_MODE_TURN_PROHIBITION :
				 TA_MODE_TURN_ADDITION;
	o.seed = take(&in, 4);
	root = take(&in, f.n_sw + 2);
	if (root < f.n_sw)
		o.escape_root_guid = 0x1000 + root;
	else if (root == f.n_sw)
		o.escape_root_guid = 0xdead;	/* no such switch */
	/* what fails at the resweep: the root, another switch or a link */
	what = take(&in, 3);
	if (what == 0 && root < f.n_sw)
		gone_sw = root;
	else if (what == 1)
		gone_sw = take(&in, f.n_sw);
	else
		gone_link = take(&in, f.n_links);
	if (take(&in, 2)) {
		size_t len = traffic_text(&in, &f, text, sizeof(text));

		o.traffic_file = strdup(fuzz_input_path((const uint8_t *)text,
							len));
		FUZZ_CHECK(o.traffic_file != NULL);
	}

	ta_saved_init(&sv);
	g = build(&f, ~0u, ~0u, &connected);
	FUZZ_CHECK(connected);
	route(&sv, g, &o, 1);
	ta_graph_free(g);
	g = build(&f, gone_sw, gone_link, &connected);
	if (g->n_sw)
		route(&sv, g, &o, connected);
	ta_graph_free(g);
	g = build(&f, ~0u, ~0u, &connected);
	route(&sv, g, &o, 1);
	ta_graph_free(g);
	ta_saved_free(&sv);
	ta_options_clear(&o);
	return 0;
}
