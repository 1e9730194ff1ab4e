// SPDX-License-Identifier: MIT
/* The routes that cross failed switches or cables (lc_through.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_routes.h"
#include "lc_through.h"

int lc_part_parse(const struct lc_fabric *f, const char *spec,
		  struct lc_part *p)
{
	const char *colon = strrchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	unsigned long port = 0;
	char *end;
	unsigned i;

	if (colon) {
		port = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || port == 0) {
			fprintf(stderr, "lftcheck: --through %s: bad port\n",
				spec);
			return -1;
		}
	}
	for (i = 0; i < f->n_nodes; i++) {
		const struct lc_node *n = &f->node[i];

		if (!n->is_switch || !n->desc || strlen(n->desc) != len ||
		    strncmp(n->desc, spec, len))
			continue;
		if (port > n->n_ports || (port && n->port[port].peer < 0) ||
		    (port && !f->node[n->port[port].peer].is_switch)) {
			fprintf(stderr,
				"lftcheck: --through %s: port %lu of %.*s is not cabled to a switch\n",
				spec, port, (int)len, spec);
			return -1;
		}
		p->node = i;
		p->port = (unsigned)port;
		return 0;
	}
	fprintf(stderr, "lftcheck: --through %s: no switch named %.*s\n", spec,
		(int)len, spec);
	return -1;
}

enum { UNKNOWN, CROSSES, CLEAR, ON_PATH };

struct through {
	const struct lc_fabric *f;
	const struct lc_part *parts;
	unsigned n;
	unsigned char *dead;	/* per switch index: a failed switch */
	unsigned char *state;	/* per switch index, for the current LID */
};

/* whether the hop out of switch index sw on port leaves over a failed cable */
static int cable_failed(const struct through *t, unsigned sw, unsigned port)
{
	const struct lc_node *n = &t->f->node[t->f->sw_node[sw]];
	unsigned i;

	for (i = 0; i < t->n; i++) {
		const struct lc_part *p = &t->parts[i];
		const struct lc_node *a = &t->f->node[p->node];

		if (!p->port)
			continue;
		if ((n == a && port == p->port) ||
		    (a->port[p->port].peer == (int)t->f->sw_node[sw] &&
		     a->port[p->port].peer_port == port))
			return 1;
	}
	return 0;
}

/* whether sw's own next hop toward lid is a failed switch or cable */
static int next_failed(const struct through *t, unsigned sw, unsigned lid)
{
	struct lc_step st = lc_step(t->f, sw, lid);

	return st.next_sw >= 0 &&
	       (t->dead[st.next_sw] || cable_failed(t, sw, st.port));
}

/* CROSSES or CLEAR for sw's route toward lid (memoised per LID) */
static unsigned char crosses(struct through *t, unsigned sw, unsigned lid)
{
	struct lc_step st;
	unsigned char r;

	if (t->state[sw] == ON_PATH)
		return CLEAR;	/* a loop: not this check's business */
	if (t->state[sw] != UNKNOWN)
		return t->state[sw];
	t->state[sw] = ON_PATH;
	st = lc_step(t->f, sw, lid);
	if (st.next_sw < 0)
		r = CLEAR;
	else if (next_failed(t, sw, lid))
		r = CROSSES;
	else
		r = crosses(t, (unsigned)st.next_sw, lid);
	t->state[sw] = r;
	return r;
}

/* whether lid goes with the failure (a failed switch's or a host's on one) */
static int lid_gone(const struct through *t, unsigned lid)
{
	const struct lc_fabric *f = t->f;
	int owner = f->lid_node[lid];
	const struct lc_node *n;
	unsigned p;

	if (owner < 0)
		return 1;
	n = &f->node[owner];
	if (n->is_switch)
		return t->dead[n->sw];
	for (p = 1; p <= n->n_ports; p++) {
		int peer = n->port[p].peer;

		if (peer >= 0 && f->node[peer].is_switch &&
		    !t->dead[f->node[peer].sw])
			return 0;
	}
	return 1;
}

int lc_through(const struct lc_fabric *f, const struct lc_part *parts,
	       unsigned n, struct lc_through_report *r)
{
	struct through t = { f, parts, n, NULL, NULL };
	unsigned long long *last_block, *last_hop;
	unsigned char *hit;
	unsigned sw, lid, i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	t.dead = calloc(f->n_switches + 1, 1);
	t.state = calloc(f->n_switches + 1, 1);
	hit = calloc(f->n_switches + 1, 1);
	last_block = malloc((f->n_switches + 1) * sizeof(*last_block));
	last_hop = malloc((f->n_switches + 1) * sizeof(*last_hop));
	if (!t.dead || !t.state || !hit || !last_block || !last_hop)
		goto out;
	for (i = 0; i < n; i++)
		if (!parts[i].port)
			t.dead[f->node[parts[i].node].sw] = 1;
	for (sw = 0; sw < f->n_switches; sw++)
		last_block[sw] = last_hop[sw] = ~0ull;
	for (lid = 1; lid <= f->max_lid; lid++) {
		if (lid_gone(&t, lid))
			continue;
		memset(t.state, UNKNOWN, f->n_switches);
		for (sw = 0; sw < f->n_switches; sw++) {
			if (t.dead[sw] || crosses(&t, sw, lid) != CROSSES)
				continue;
			r->entries++;
			hit[sw] = 1;
			if (lid / 64 != last_block[sw])
				r->blocks++;
			last_block[sw] = lid / 64;
			if (!next_failed(&t, sw, lid))
				continue;
			r->hop_entries++;
			if (lid / 64 != last_hop[sw])
				r->hop_blocks++;
			last_hop[sw] = lid / 64;
		}
	}
	for (sw = 0; sw < f->n_switches; sw++)
		r->switches += hit[sw];
	ret = 0;
out:
	free(t.dead);
	free(t.state);
	free(hit);
	free(last_block);
	free(last_hop);
	return ret;
}
