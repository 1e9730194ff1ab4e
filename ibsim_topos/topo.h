/* SPDX-License-Identifier: MIT */
/*
 * Generated fabric topologies for tests and for the ibsim simulator.
 *
 * A topology is a set of switches (0-based index), inter-switch links
 * and 1-port hosts.  Ports are 1-based.  Every generator puts the hosts
 * of a switch on its lowest ports (1..H, host k on port k) and the
 * inter-switch links on the following ports, in creation order.
 *
 * Every constructor overwrites *t (it need not be initialised) and
 * returns 0, or -1 on bad arguments or out of memory, leaving *t empty
 * (safe to topo_free()).  Names are unique and stable:
 *   ring-sw<i>, mesh-sw<i>, torus-sw<i>, ft-leaf<i>, ft-spine<j>,
 *   dir<d>-line<i>, dir<d>-fab<j>, rnd-sw<i>, tA-edge<p>-<e>,
 *   hx-<c0>-<c1>..., df<g>-s<i>, dfp<g>-leaf<i>, dfp<g>-spine<j>, ...;
 *   the host on port k of switch "S" is "S-h<k>".
 * Switch port counts (sw_ports) are 36 when the used ports fit, else
 * exactly the number of used ports (at most TOPO_MAX_PORTS); the joined
 * fat trees (topo_ft3join) always have exactly the ports they use.
 */
#ifndef TOPO_H
#define TOPO_H

#include <stdint.h>
#include <stdio.h>

#define TOPO_DEFAULT_PORTS 36u
#define TOPO_MAX_PORTS 254u	/* limit of ibsim's netfile parser */

struct topo_link {
	unsigned a, pa, b, pb;	/* switch index & port (1-based) at each end */
};

struct topo_host {
	unsigned sw, port;	/* a 1-port host on switch sw, port */
};

struct topo {
	unsigned n_sw;
	unsigned *sw_ports;	/* port count per switch */
	char **sw_name;
	unsigned n_links;
	struct topo_link *links;
	unsigned n_hosts;
	struct topo_host *hosts;
	char **host_name;
};

/* n_sw >= 3 switches in a ring, switch i linked to i + 1 (mod n_sw). */
int topo_ring(struct topo *t, unsigned n_sw, unsigned hosts_per_sw);

/*
 * x * y grid, switch index i = row * x + column.  With torus != 0 the
 * rows and columns wrap around, but only along a dimension of size >= 3
 * (a wrap of size 2 would duplicate a link, of size 1 be a self loop).
 */
int topo_mesh(struct topo *t, unsigned x, unsigned y, unsigned hosts_per_sw,
	      int torus);

/*
 * Two-level fat tree: switches 0..leaves-1 are leaves, then the spines.
 * Leaf i has hosts_per_leaf hosts and links_per_pair links to every
 * spine; link r to spine j uses leaf port hosts_per_leaf + j *
 * links_per_pair + r + 1 and spine port i * links_per_pair + r + 1.
 */
int topo_fattree2(struct topo *t, unsigned leaves, unsigned spines,
		  unsigned hosts_per_leaf, unsigned links_per_pair);

/*
 * Three-level fat tree of directors, as in the port-major LID paper:
 * leaves (switches 0..L-1, L = lines * per_line, hosts_per_leaf hosts
 * each) and `dirs` directors.  Director d is a two-level folded Clos:
 * `lines` line switches "dir<d>-line<i>" and `fabs` fabric switches
 * "dir<d>-fab<j>" (all switches of director d share the prefix "dir<d>-"),
 * every line switch linked to every fabric switch by per_line / fabs
 * parallel links (per_line must be a multiple of fabs).  Leaf l has one
 * uplink to every director, to its line switch l / per_line, on ports
 * hosts_per_leaf + d + 1; line switch i has leaves i * per_line ... on
 * ports 1..per_line, then its fabric links (fabric j, link r on port
 * per_line + j * links + r + 1); fabric switch j has line switch i, link
 * r on port i * links + r + 1.  Line switches have as many links up as
 * down, so with hosts_per_leaf <= dirs the tree is non-blocking (a
 * rearrangeable Clos at every level).  Switch order: leaves, then per
 * director its line switches and its fabric switches.
 *   5,832 hosts: dirs 18, lines 18, fabs 9, per_line 18, hosts 18
 *   11,664 hosts: dirs 18, lines 36, fabs 18, per_line 18, hosts 18
 */
int topo_fattree3(struct topo *t, unsigned dirs, unsigned lines,
		  unsigned fabs, unsigned per_line, unsigned hosts_per_leaf);

/*
 * Random regular-ish net as in the turn-addition paper: n_sw >= 2
 * switches, each with sw_ports switch-to-switch ports (all used, except
 * one port when n_sw * sw_ports is odd) and hosts_per_sw hosts.  The
 * graph is connected, has no self loops, and may have parallel links.
 * sw_ports >= 2 is needed when n_sw > 2.  Same seed, same net (own PRNG).
 */
int topo_random(struct topo *t, unsigned n_sw, unsigned sw_ports,
		unsigned hosts_per_sw, unsigned seed);

/* Dimensions topo_hyperx accepts (2^16 switches at most anyway). */
#define TOPO_HYPERX_MAX_DIMS 16u

/*
 * HyperX (generalised hypercube): a grid of size[0] x size[1] x ...
 * switches (dims >= 1 dimensions, every size >= 2), every switch linked
 * once to every switch that differs from it in exactly one coordinate;
 * hosts_per_sw hosts on every switch.  Switch index = c0 + size[0] *
 * (c1 + size[1] * (c2 + ...)), named "hx-<c0>-<c1>-...".  Ports: hosts
 * 1..H, then dimension 0's size[0] - 1 links, then dimension 1's, ...;
 * inside dimension d the link to coordinate v (v != the switch's own c)
 * is the (v < c ? v : v - 1)-th.  So every switch uses H + sum(size - 1)
 * ports; sizes all 2 make a hypercube, dims = 1 a complete graph.
 */
int topo_hyperx(struct topo *t, unsigned dims, const unsigned *size,
		unsigned hosts_per_sw);

/*
 * Dragonfly (Kim et al., ISCA 2008): g groups (0: a * h + 1) of a
 * switches "df<grp>-s<i>" (index grp * a + i), the switches of a group
 * linked all to all; every switch has p hosts and h global links.
 * Ports: hosts 1..p; switch j of the group on port p + j + 1 (p + j if
 * j > i); global ports p + a .. p + a - 1 + h.  Global port k = 0 ..
 * a*h - 1 of a group is port p + a + k mod h of its switch k / h.
 * Global links, the "relative" arrangement: with g = a * h + 1 port k of
 * group grp goes to group grp + k + 1 (mod g), on that group's port
 * a*h - 1 - k: one link between every pair of groups.  2 <= g <= a*h + 1;
 * with fewer groups the ports go round by round: in round r (R =
 * a*h / (g - 1) full rounds) port r*(g-1) + d - 1 goes to group grp + d
 * (d = 1 .. g-1; port r*(g-1) + g - d - 1 there); the last q = a*h mod
 * (g - 1) ports of a group go to offsets 1, -1, 2, -2, ... (q / 2 pairs)
 * and, q odd, to the opposite group (g even) or along offset (g - 1) / 2
 * (g odd: one port of the fabric stays free).  So every pair of groups
 * gets R or R + 1 links.
 */
int topo_dragonfly(struct topo *t, unsigned a, unsigned h, unsigned p,
		   unsigned g);

/*
 * Dragonfly+ (Shpiner et al., 2017): groups >= 2 groups, each a two-level
 * fat tree of `leaves` leaves "dfp<grp>-leaf<i>" (hosts_per_leaf hosts
 * each) and `spines` spines "dfp<grp>-spine<j>", every leaf linked once
 * to every spine of its group (leaf port hosts + j + 1, spine port
 * i + 1).  Switch order per group: leaves, then spines.  per_pair global
 * links between every pair of groups, from spine to spine: a group's
 * global link k = 0 .. (groups - 1) * per_pair - 1 is on spine k mod
 * spines, port leaves + k / spines + 1 (round robin: the spines' global
 * link counts differ by at most one); in round r link r * (groups-1) +
 * d - 1 goes to group grp + d (mod groups), where it is link
 * r * (groups-1) + groups - d - 1.
 */
int topo_dfplus(struct topo *t, unsigned groups, unsigned leaves,
		unsigned spines, unsigned hosts_per_leaf, unsigned per_pair);

/* Where topo_ft3join joins its two trees. */
enum topo_join_level {
	TOPO_JOIN_TOP,		/* core i of tree A to core i of tree B */
	TOPO_JOIN_MIDDLE,	/* aggregation switches */
	TOPO_JOIN_BOTTOM,	/* edge switches */
};

/* Unicast LIDs of an InfiniBand subnet (0x0001..0xbfff). */
#define TOPO_MAX_UNICAST_LIDS 49151u

/*
 * Two k-ary 3-level fat trees (k even, >= 4), A and B, joined by k*k/4
 * links at one level, as in the turn-addition paper (section 3.2).  A
 * tree has k pods of k/2 edge switches "tX-edge<p>-<e>" (k/2 hosts each)
 * and k/2 aggregation switches "tX-agg<p>-<a>", and k*k/4 core switches
 * "tX-core<i>"; X is A or B, so every node of tree A, hosts included,
 * starts with "tA-" and of tree B with "tB-".  k^3/4 hosts per tree.
 *   edge (p, e): hosts on ports 1..k/2, agg (p, a) on port k/2 + a + 1
 *   agg (p, a):  edge (p, e) on port e + 1, core a*k/2 + m on k/2 + m + 1
 *   core i:      agg (p, i / (k/2)) of pod p on port p + 1
 * Join link j (j = 0 .. k*k/4 - 1) connects the j-th chosen switch of A
 * to the j-th of B, on port k + 1 of both: top: core j; middle and
 * bottom: slot j / k (aggregation or edge index) of pod j % k, i.e. the
 * first k/4 of every pod when k is a multiple of 4, and evenly spread
 * otherwise.  Switches with a join link have k + 1 ports, the others k.
 * Switch order: tree A's edges (pod-major), aggregation and core
 * switches, then tree B's the same way; so the first is tA-edge0-0.
 * Rejects hosts + switches > TOPO_MAX_UNICAST_LIDS (k > 44).
 */
int topo_ft3join(struct topo *t, unsigned k, enum topo_join_level level);

/*
 * Where join link j ends in a tree: top: core group * k/2 + slot (group
 * = the aggregation index the core links to); middle and bottom:
 * aggregation or edge switch `slot` of pod `group`.
 */
struct topo_join_end {
	unsigned group, slot;
};

/*
 * Ends of join link j (0 .. k*k/4 - 1) in tree `tree` (0 = A, 1 = B).
 * Every switch of a tree must get at most one join link.
 */
typedef struct topo_join_end (*topo_join_end_fn)(unsigned k, unsigned j,
						  enum topo_join_level level,
						  unsigned tree);

/* topo_ft3join with the join links placed by `end`. */
int topo_ft3join_wired(struct topo *t, unsigned k,
		       enum topo_join_level level, topo_join_end_fn end);

/*
 * The same two trees joined differently (topo_ft3join_alt.c), so that no
 * result depends on one wiring: top: core (a, m) of A to core (m, a) of
 * B (a core of A's aggregation index a meets a core of B's index m);
 * middle and bottom: every aggregation (edge) switch of A's first k/2
 * pods, in pod order, to one of B's last k/2 pods in reverse pod order,
 * the slot rotated by the pod: link j = pod j / (k/2) slot j % (k/2) of
 * A to pod k - 1 - j / (k/2) slot (j + j / (k/2)) % (k/2) of B.  So the
 * inter-tree traffic leaves through half the pods of each tree, from
 * other positions in each.
 */
int topo_ft3join_alt(struct topo *t, unsigned k, enum topo_join_level level);

/*
 * topo_ft3join with each tree's join ends at distinct positions drawn
 * by a seeded shuffle (same seed, same wiring; the trees' draws differ).
 * For tests and benchmarks; not reentrant.
 */
int topo_ft3join_rand(struct topo *t, unsigned k, enum topo_join_level level,
		      unsigned seed);

/* "top", "middle", "bottom" -> level; -1 for anything else. */
int topo_join_level_parse(const char *s, enum topo_join_level *level);

/*
 * Writes the turnadd traffic file for topo_ft3join fabrics: groups by
 * the "tA-" / "tB-" prefixes, weight 1 inside a tree, 1/100 between
 * (the paper's turn traffic estimate, section 5.1).
 */
int topo_ft3join_traffic(FILE *f);

/*
 * Hosts absent at bring-up: removes round(n_hosts * permille / 1000)
 * hosts, a seeded random choice (same seed, same hosts); the others keep
 * their ports and names.  0, or -1 (permille > 1000, out of memory).
 */
int topo_drop_hosts(struct topo *t, unsigned permille, uint64_t seed);

/*
 * Removes the switches with gone[s] != 0, their links and hosts; the
 * others keep their order, ports and names.  0, or -1 (out of memory).
 */
int topo_drop_switches(struct topo *t, const unsigned char *gone);

void topo_free(struct topo *t);

/* Writes an ibsim 0.10 netfile: switch records, then host records. */
int topo_write_ibsim(const struct topo *t, FILE *f);

/*
 * Consistency check: indices and ports in range, no port used twice,
 * no self loop, unique non-empty names without the characters " # @
 * (reserved by ibsim).  0 if consistent, -1 otherwise.
 */
int topo_validate(const struct topo *t);

/* 1 if every switch reaches every other over links, else 0. */
int topo_connected(const struct topo *t);

/* Number of inter-switch link ends on switch sw. */
unsigned topo_sw_link_ends(const struct topo *t, unsigned sw);

#endif /* TOPO_H */
