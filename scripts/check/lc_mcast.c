// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lc_input.h"
#include "lc_mcast.h"

void lc_mcast_init(struct lc_mcast *m)
{
	memset(m, 0, sizeof(*m));
}

void lc_mcast_free(struct lc_mcast *m)
{
	free(m->mlid);
	free(m->mask);
	free(m->expect_mlid);
	free(m->expect_guid);
	free(m->expect_sw);
	free(m->expect_port);
	memset(m, 0, sizeof(*m));
}

static uint8_t *mask_of(const struct lc_mcast *m, const struct lc_fabric *f,
			unsigned grp, unsigned sw)
{
	return m->mask + ((size_t)grp * f->n_switches + sw) * LC_MC_MASK_BYTES;
}

/* group index of mlid, added if new; -1 if out of memory */
static int group_of(struct lc_mcast *m, const struct lc_fabric *f,
		    unsigned mlid)
{
	size_t per = (size_t)f->n_switches * LC_MC_MASK_BYTES;
	unsigned k;

	for (k = 0; k < m->n_groups; k++)
		if (m->mlid[k] == mlid)
			return (int)k;
	if (m->n_groups == m->cap_groups) {
		unsigned cap = m->cap_groups ? 2 * m->cap_groups : 16;
		unsigned *ml = realloc(m->mlid, cap * sizeof(*ml));
		uint8_t *mk;

		if (!ml)
			return -1;
		m->mlid = ml;
		mk = realloc(m->mask, cap * per + 1);
		if (!mk)
			return -1;
		m->mask = mk;
		m->cap_groups = cap;
	}
	m->mlid[m->n_groups] = mlid;
	memset(m->mask + m->n_groups * per, 0, per);
	return (int)m->n_groups++;
}

static int read_entry(struct lc_mcast *m, const struct lc_fabric *f,
		      struct lc_input *in, const struct lc_node *cur)
{
	char *s = in->line, *end;
	unsigned long mlid, port;
	uint8_t *mask;
	int grp;

	if (!cur)
		return lc_input_error(in, "MFT entry before any switch header");
	mlid = strtoul(s, &end, 16);
	if (end == s || mlid < 0xc000 || mlid > 0xfffe)
		return lc_input_error(in, "bad MLID");
	s = end;
	while (isspace((unsigned char)*s))
		s++;
	if (*s++ != ':')
		return lc_input_error(in, "MFT entry without ':'");
	grp = group_of(m, f, (unsigned)mlid);
	if (grp < 0)
		return lc_input_error(in, "out of memory");
	mask = mask_of(m, f, (unsigned)grp, (unsigned)cur->sw);
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		port = strtoul(s, &end, 0);
		if (end == s || port > cur->n_ports)
			return lc_input_error(in, "bad port for \"%s\"",
					      cur->desc);
		mask[port / 8] |= (uint8_t)(1u << (port % 8));
		s = end;
	}
	return 0;
}

int lc_mcast_read(struct lc_mcast *m, const struct lc_fabric *f,
		  const char *path)
{
	struct lc_input in;
	const struct lc_node *cur = NULL;
	bool skip = false;
	int r, ret = 0;

	if (lc_input_open(&in, path))
		return -1;
	while (!ret && (r = lc_input_next(&in)) > 0) {
		char *s = in.line;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || !strncmp(s, "LID", 3))
			continue;
		if (!strncmp(s, "Switch 0x", 9) || !strncmp(s, "Switch: 0x", 10)) {
			uint64_t guid = strtoull(strstr(s, "0x"), NULL, 16);

			cur = lc_fabric_switch_by_guid((struct lc_fabric *)f,
						       guid);
			skip = !cur;	/* cut off from the read-back */
			m->unknown_switches += skip;
			continue;
		}
		if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2)) {
			if (skip)
				continue;
			in.line = s;
			ret = read_entry(m, f, &in, cur);
			continue;
		}
		ret = lc_input_error(&in, "not an MFT line");
	}
	if (!ret && r < 0)
		ret = -1;
	lc_input_close(&in);
	return ret;
}

int lc_mcast_read_members(struct lc_mcast *m, const char *path)
{
	struct lc_input in;
	int r, ret = 0;

	if (lc_input_open(&in, path))
		return -1;
	while (!ret && (r = lc_input_next(&in)) > 0) {
		char verb[16], mgid[64];
		unsigned long long guid;
		unsigned mlid, k;

		if (sscanf(in.line, "%15s %63s %llx mlid %x", verb, mgid, &guid,
			   &mlid) != 4)
			continue;
		for (k = 0; k < m->n_expect; k++)
			if (m->expect_mlid[k] == mlid &&
			    m->expect_guid[k] == guid)
				break;
		if (!strcmp(verb, "left") && k < m->n_expect) {
			m->n_expect--;
			m->expect_mlid[k] = m->expect_mlid[m->n_expect];
			m->expect_guid[k] = m->expect_guid[m->n_expect];
		} else if (!strcmp(verb, "joined") && k == m->n_expect) {
			if (m->n_expect == m->cap_expect) {
				unsigned cap = m->cap_expect ?
					       2 * m->cap_expect : 64;
				unsigned *ml = realloc(m->expect_mlid,
						       cap * sizeof(*ml));
				uint64_t *g;

				if (ml)
					m->expect_mlid = ml;
				g = ml ? realloc(m->expect_guid,
						 cap * sizeof(*g)) : NULL;
				if (!g) {
					ret = lc_input_error(&in,
							     "out of memory");
					break;
				}
				m->expect_guid = g;
				m->cap_expect = cap;
			}
			m->expect_mlid[m->n_expect] = mlid;
			m->expect_guid[m->n_expect++] = guid;
		}
	}
	if (!ret && r < 0)
		ret = -1;
	lc_input_close(&in);
	return ret;
}

struct flood {
	const struct lc_fabric *f;
	const struct lc_mcast *m;
	struct lc_cdg *cdg;
	struct lc_mc_report *r;
	unsigned grp;
	unsigned *seen;		/* per switch: stamp of the last sender */
	unsigned *got;		/* per (switch, port): deliveries */
	unsigned *qs, *qp;	/* queue: switch, in-port */
	unsigned stamp;
	FILE *detail;
	unsigned detail_left;
};

static void say(struct flood *c, const char *what, unsigned sw, unsigned port)
{
	if (!c->detail || !c->detail_left)
		return;
	c->detail_left--;
	fprintf(c->detail, "mcast 0x%04X: %s at %s[%u]\n",
		c->m->mlid[c->grp], what, c->f->node[c->f->sw_node[sw]].desc,
		port);
}

static bool has_port(const uint8_t *mask, unsigned p)
{
	return mask[p / 8] >> (p % 8) & 1;
}

static bool empty(const uint8_t *mask)
{
	unsigned i;

	for (i = 0; i < LC_MC_MASK_BYTES; i++)
		if (mask[i])
			return false;
	return true;
}

/* a packet from host port (sw, port) through the tables */
static void flood_from(struct flood *c, unsigned sw0, unsigned port0,
		       unsigned *got)
{
	const struct lc_fabric *f = c->f;
	unsigned head = 0, tail = 0;

	c->stamp++;
	c->seen[sw0] = c->stamp;
	c->qs[tail] = sw0;
	c->qp[tail++] = port0;
	while (head < tail) {
		unsigned s = c->qs[head], in = c->qp[head++], p;
		const struct lc_node *n = &f->node[f->sw_node[s]];
		const uint8_t *mask = mask_of(c->m, f, c->grp, s);

		for (p = 1; p <= n->n_ports; p++) {
			const struct lc_node *peer;
			unsigned pp;

			if (p == in || !has_port(mask, p))
				continue;
			peer = lc_fabric_peer(f, n, p);
			if (!peer) {
				c->r->dead_ends++;
				say(c, "entry names an uncabled port", s, p);
				continue;
			}
			if (!peer->is_switch) {
				got[s * (LC_MAX_PORTS + 1) + p]++;
				continue;
			}
			pp = n->port[p].peer_port;
			if (in && f->node[f->sw_node[s]].port[in].peer >= 0) {
				const struct lc_node *from =
					lc_fabric_peer(f, n, in);

				if (from && from->is_switch)
					lc_cdg_add_turn(c->cdg,
						c->cdg->slot_base[from->sw] +
						n->port[in].peer_port, p);
			}
			if (c->seen[peer->sw] == c->stamp) {
				c->r->loops++;
				say(c, "switch reached twice (loop)",
				    (unsigned)peer->sw, pp);
				continue;
			}
			c->seen[peer->sw] = c->stamp;
			if (empty(mask_of(c->m, f, c->grp,
					  (unsigned)peer->sw))) {
				c->r->dead_ends++;
				say(c, "branch ends at a switch without entry",
				    (unsigned)peer->sw, pp);
				continue;
			}
			c->qs[tail] = (unsigned)peer->sw;
			c->qp[tail++] = pp;
		}
	}
}

int lc_mcast_resolve(struct lc_mcast *m, const struct lc_fabric *f,
		     const char *topo)
{
	struct lc_input in;
	const struct lc_node *ca = NULL;
	unsigned k, i;
	int r;

	m->expect_sw = malloc((m->n_expect + 1) * sizeof(*m->expect_sw));
	m->expect_port = malloc((m->n_expect + 1) * sizeof(*m->expect_port));
	if (!m->expect_sw || !m->expect_port)
		return lc_error_at(topo, 0, "out of memory");
	for (k = 0; k < m->n_expect; k++)
		m->expect_sw[k] = -1;
	if (lc_input_open(&in, topo))
		return -1;
	while ((r = lc_input_next(&in)) > 0) {
		const char *s = in.line, *q;
		unsigned long long guid;
		unsigned port;

		if (!strncmp(s, "Ca", 2) || !strncmp(s, "Hca", 3) ||
		    !strncmp(s, "Switch", 6) || !strncmp(s, "Rt", 2)) {
			ca = NULL;
			q = strchr(s, '"');
			if (s[0] == 'S' || s[0] == 'R' || !q)
				continue;
			for (i = 0; i < f->n_nodes; i++)
				if (!strncmp(f->node[i].id, q + 1,
					     strlen(f->node[i].id)) &&
				    q[1 + strlen(f->node[i].id)] == '"')
					ca = &f->node[i];
			continue;
		}
		if (!ca || sscanf(s, "[%u](%llx)", &port, &guid) != 2 ||
		    port > ca->n_ports || ca->port[port].peer < 0 ||
		    !f->node[ca->port[port].peer].is_switch)
			continue;
		for (k = 0; k < m->n_expect; k++)
			if (m->expect_guid[k] == guid) {
				m->expect_sw[k] = f->node[ca->port[port].peer].sw;
				m->expect_port[k] = ca->port[port].peer_port;
			}
	}
	lc_input_close(&in);
	for (k = 0; k < m->n_expect; k++)
		m->expect_gone += m->expect_sw[k] < 0;
	return r < 0 ? -1 : 0;
}

/* marks the joined ports of the group (2) */
static void expected_ports(struct flood *c, uint8_t *member)
{
	unsigned k;

	for (k = 0; k < c->m->n_expect; k++)
		if (c->m->expect_mlid[k] == c->m->mlid[c->grp] &&
		    c->m->expect_sw && c->m->expect_sw[k] >= 0)
			member[(unsigned)c->m->expect_sw[k] *
			       (LC_MAX_PORTS + 1) + c->m->expect_port[k]] |= 2;
}

int lc_mcast_check(const struct lc_mcast *m, const struct lc_fabric *f,
		   struct lc_cdg *cdg, struct lc_mc_report *r, FILE *detail,
		   unsigned max_detail)
{
	size_t nsp = (size_t)f->n_switches * (LC_MAX_PORTS + 1) + 1;
	struct flood c = { .f = f, .m = m, .cdg = cdg, .r = r,
			   .detail = detail, .detail_left = max_detail };
	uint8_t *member = malloc(nsp);
	unsigned *list = malloc(nsp * sizeof(*list));
	unsigned s, p, q, n, k, i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	c.seen = calloc(f->n_switches + 1, sizeof(*c.seen));
	c.got = calloc(nsp, sizeof(*c.got));
	c.qs = malloc((f->n_switches + 1) * sizeof(*c.qs));
	c.qp = malloc((f->n_switches + 1) * sizeof(*c.qp));
	if (!member || !list || !c.seen || !c.got || !c.qs || !c.qp)
		goto out;
	r->groups = m->n_groups;
	for (c.grp = 0; c.grp < m->n_groups; c.grp++) {
		memset(member, 0, nsp);
		/* members: host ports in the tables (1), joined ports (2) */
		for (s = 0; s < f->n_switches; s++) {
			const struct lc_node *n = &f->node[f->sw_node[s]];
			const uint8_t *mask = mask_of(m, f, c.grp, s);

			for (p = 1; p <= n->n_ports; p++) {
				const struct lc_node *peer =
					lc_fabric_peer(f, n, p);

				if (peer && !peer->is_switch &&
				    has_port(mask, p))
					member[s * (LC_MAX_PORTS + 1) + p] = 1;
			}
		}
		expected_ports(&c, member);
		for (q = 0; q < nsp; q++)
			if (member[q] == 2) {
				r->not_in_tree++;
				say(&c, "joined port not in the tables",
				    q / (LC_MAX_PORTS + 1),
				    q % (LC_MAX_PORTS + 1));
			}
		for (q = n = 0; q < nsp; q++)
			if (member[q])
				list[n++] = q;
		if (n < 2) {
			for (s = 0; s < f->n_switches; s++)
				if (!empty(mask_of(m, f, c.grp, s)))
					break;
			if (s < f->n_switches) {
				r->stale++;
				say(&c, "entries of a group with fewer "
				    "than 2 members", s, 0);
			}
		}
		for (k = 0; k < n; k++) {
			q = list[k];
			r->members++;
			for (i = 0; i < n; i++)
				c.got[list[i]] = 0;
			flood_from(&c, q / (LC_MAX_PORTS + 1),
				   q % (LC_MAX_PORTS + 1), c.got);
			for (i = 0; i < n; i++) {
				unsigned t = list[i];

				if (t != q) {
					r->pairs++;
					if (!c.got[t]) {
						r->missed++;
						say(&c, "member not reached",
						    t / (LC_MAX_PORTS + 1),
						    t % (LC_MAX_PORTS + 1));
					}
				}
				if (c.got[t] > (t != q))
					r->duplicates += c.got[t] - (t != q);
			}
		}
	}
	ret = 0;
out:
	free(member);
	free(list);
	free(c.seen);
	free(c.got);
	free(c.qs);
	free(c.qp);
	return ret;
}

int lc_mc_report_ok(const struct lc_mc_report *r)
{
	return !r->missed && !r->duplicates && !r->loops && !r->dead_ends &&
	       !r->not_in_tree && !r->stale;
}
