/* SPDX-License-Identifier: MIT */
/*
 * The fabric as the routing core sees it: switches, inter-switch links
 * (parallel links are separate links) and destinations (one per LID:
 * host ports and switch port 0).  Built by the OpenSM adapter from
 * osm_subn_t, or by tests from generated topologies.
 *
 * Each link l joins (sw a, port pa) and (sw b, port pb) and gives two
 * channels: 2l is a->b, 2l+1 is b->a.
 */
#ifndef TA_GRAPH_H
#define TA_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#define TA_NO_PORT 255u		/* same value as OpenSM's OSM_NO_PATH */
#define TA_MAX_PORTS 255u

struct ta_link {
	uint32_t sw[2];		/* switch index of each end */
	uint8_t port[2];	/* port number on that switch */
	uint32_t end[2];	/* index in that switch's ends[] (after finalize) */
};

/* one link end seen from a switch: the link and the channel leaving */
struct ta_port_ref {
	uint32_t link;
	uint32_t peer;		/* switch at the other end */
	uint32_t out_chan;	/* channel leaving through it (finalize) */
	uint8_t port;		/* local port number */
};

struct ta_switch {
	uint64_t guid;
	char *name;
	uint32_t n_ends;	/* inter-switch link ends */
	struct ta_port_ref *ends;	/* sorted by local port */
	uint32_t cap_ends;
	uint32_t turn_base;	/* index of this switch's first turn */
};

struct ta_dest {
	uint16_t lid;
	uint32_t sw;		/* switch the destination sits on/behind */
	uint8_t port;		/* 0: the switch itself; else port to the host */
	bool is_host;
	uint64_t guid;		/* port GUID (hosts: for traffic groups) */
	char *name;		/* node description, may be NULL */
	int32_t group;		/* traffic group, -1 = default */
};

struct ta_graph {
	uint32_t n_sw, cap_sw;
	struct ta_switch *sw;
	uint32_t n_links, cap_links;
	struct ta_link *links;
	uint32_t n_dest, cap_dest;
	struct ta_dest *dest;
	bool finalized;
	uint32_t n_turn_slots;	/* sum over switches of n_ends^2 */
};

struct ta_graph *ta_graph_new(void);
void ta_graph_free(struct ta_graph *g);

/* returns the new switch index, or -1 on allocation failure */
int ta_graph_add_switch(struct ta_graph *g, uint64_t guid, const char *name);
/* returns the new link index, or -1 (bad switch index, self loop, ENOMEM) */
int ta_graph_add_link(struct ta_graph *g, uint32_t sw_a, uint8_t port_a,
		      uint32_t sw_b, uint8_t port_b);
/* returns the new destination index, or -1 */
int ta_graph_add_dest(struct ta_graph *g, uint16_t lid, uint32_t sw,
		      uint8_t port, bool is_host, uint64_t guid,
		      const char *name);

/* sorts link ends and numbers turns; call once, after all adds */
int ta_graph_finalize(struct ta_graph *g);

/*
 * Hops from switch src over all links: dist[s], UINT32_MAX where not
 * reached; queue: n_sw words of room.  Returns the eccentricity of src.
 */
uint32_t ta_graph_bfs(const struct ta_graph *g, uint32_t src, uint32_t *dist,
		      uint32_t *queue);

static inline uint32_t ta_chan(uint32_t link, uint32_t from_end)
{
	return 2 * link + from_end;
}

/* channel leaving switch s through its link end i */
static inline uint32_t ta_graph_out_chan(const struct ta_graph *g, uint32_t s,
					 uint32_t i)
{
	return g->sw[s].ends[i].out_chan;
}

/* channel entering switch s through its link end i */
static inline uint32_t ta_graph_in_chan(const struct ta_graph *g, uint32_t s,
					uint32_t i)
{
	return ta_graph_out_chan(g, s, i) ^ 1u;
}

/* turn index at switch s from link end i (in) to link end j (out) */
static inline uint32_t ta_turn(const struct ta_graph *g, uint32_t s,
			       uint32_t i, uint32_t j)
{
	return g->sw[s].turn_base + i * g->sw[s].n_ends + j;
}

/* the end of switch s with port number p, UINT32_MAX if none */
static inline uint32_t ta_graph_end_of_port(const struct ta_graph *g,
					    uint32_t s, uint8_t p)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t lo = 0, hi = sw->n_ends;

	while (lo < hi) {	/* ends are sorted by local port */
		uint32_t mid = lo + (hi - lo) / 2;

		if (sw->ends[mid].port == p)
			return mid;
		if (sw->ends[mid].port < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

/*
 * the end of switch s at port p whose link leads to the switch of GUID
 * peer, UINT32_MAX if none
 */
static inline uint32_t ta_graph_end_to(const struct ta_graph *g, uint32_t s,
				       uint8_t p, uint64_t peer)
{
	uint32_t j = ta_graph_end_of_port(g, s, p);

	return j != UINT32_MAX && g->sw[g->sw[s].ends[j].peer].guid == peer ?
		       j : UINT32_MAX;
}

/* end index, at the far switch, of the link behind end j of switch s */
static inline uint32_t ta_graph_far_end(const struct ta_graph *g, uint32_t s,
					uint32_t j)
{
	const struct ta_link *l = &g->links[g->sw[s].ends[j].link];

	return l->end[l->sw[0] == s ? 1 : 0];
}

/* switch v's end of link l (whose other end is another switch) */
static inline uint32_t ta_graph_link_end(const struct ta_graph *g, uint32_t l,
					 uint32_t v)
{
	return g->links[l].sw[0] == v ? g->links[l].end[0] :
					g->links[l].end[1];
}

/*
 * 1 if every link joins switches one level apart, a switch's level being
 * its hops to the nearest switch with hosts: fat trees (complete or not,
 * oversubscribed, several links a pair).  Links within a level
 * (dragonflies, Dragonfly+, tori, random nets, joined trees) make it 0;
 * -1 out of memory.
 */
int ta_graph_layered(const struct ta_graph *g);

#endif
