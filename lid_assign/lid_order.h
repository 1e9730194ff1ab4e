/* SPDX-License-Identifier: MIT */
/*
 * Port-major LID order (see lid_assign/README): which LID every end port
 * of a fabric gets so that the destinations the routing core sends
 * through one spine form one contiguous LID range.
 *
 * The routing core (plugin/core/ta_engine.c, make_spread) picks among n
 * equal next hops candidate (spread mod n), where the spread of a host
 * LID is its switch port number - 1 and that of a switch's own LID is
 * the switch's index in node GUID order among all switches (with LMC
 * > 0: times 2^LMC, plus the LID's offset in the port's run).  Group r
 * here holds the hosts on switch port r + 1 of every switch and, after
 * them, the switches whose index is r mod R (R: the number of groups,
 * the highest switch port number a host is cabled to); fewer groups on
 * fat trees (lid_groups.c, lid_groups_lmc.c).
 *
 * On a Dragonfly+ (recognised from sw_peer, lid_dfly.h) the groups are
 * the Dragonfly+ groups instead, each port-major inside ("group-major").
 *
 * The fabric is described abstractly (no OpenSM header here): switches
 * by node GUID, end ports by port GUID with the switch and switch port
 * they hang on, optional existing LIDs.  la_assign() fills each port's
 * LID; it never logs, the caller reports from the result.
 */
#ifndef LID_ORDER_H
#define LID_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LA_BLOCK 64u			/* LIDs per LFT block */
#define LA_MAX_UCAST_LID 0xBFFFu
#define LA_NO_GROUP UINT32_MAX

enum la_kind {
	LA_HOST,	/* CA/router port cabled to a switch port */
	LA_SWITCH,	/* switch port 0 */
	LA_LOOSE,	/* end port not cabled to a switch: placed at the end */
};

enum la_fate {
	LA_FAILED,	/* no free LID left: lid is 0 */
	LA_KEPT,	/* keeps old_lid */
	LA_PLACED,	/* new LID inside its group's range */
	LA_OVERFLOW,	/* group full (or loose): new LID after all groups */
};

struct la_port {
	/* input */
	uint64_t guid;		/* port GUID */
	enum la_kind kind;
	uint32_t sw;		/* LA_HOST: switch cabled to; LA_SWITCH: own
				 * (index into la_input.sw_guid) */
	uint8_t sw_port;	/* LA_HOST: port number on that switch, >= 1 */
	uint16_t old_lid;	/* existing base LID, 0: none */
	bool old_weak;		/* old_lid only seen on the wire, not
				 * persisted: yields to persisted LIDs */
	/* output */
	uint32_t group;		/* LA_NO_GROUP for loose ports */
	uint32_t rank;		/* the core's spread: LA_HOST sw_port - 1,
				 * LA_SWITCH its index in GUID order */
	uint16_t lid;		/* base LID (0: failed) */
	uint8_t n_lids;		/* lid .. lid + n_lids - 1 */
	enum la_fate fate;
};

struct la_range {
	uint16_t lo, hi;
};

/* the order of the groups (lid_assign/README, "Group-major LIDs") */
enum la_layout_mode {
	LA_LAYOUT_AUTO,		/* group-major on a recognised Dragonfly+ */
	LA_LAYOUT_PORT_MAJOR,	/* port-major over the whole fabric */
	LA_LAYOUT_GROUP_MAJOR,	/* group-major wherever the leaf-spine
				 * cabling has two groups or more */
};

/* "auto", "port-major" or "group-major": 0, else -1 */
int la_layout_mode_parse(const char *s, enum la_layout_mode *m);

struct la_input {
	uint32_t n_sw;
	const uint64_t *sw_guid;	/* [n_sw] node GUIDs of all switches
					 * (any order, no duplicates) */
	uint32_t n_ports;
	struct la_port *ports;		/* outputs are written here */
	uint32_t n_reserved;
	const struct la_range *reserved; /* LIDs held by absent ports */
	const uint32_t *sw_peers;	/* [n_sw] distinct neighbour
					 * switches of each, or NULL:
					 * period unknown (see
					 * lid_groups.c) */
	const uint32_t *sw_peer;	/* those neighbours, switch by
					 * switch in index order
					 * (sw_peers[i] each), or NULL:
					 * unknown (chunks on 2-level
					 * trees only, lid_chunks.h) */
	uint8_t lmc;			/* 0..7 */
	bool sp0_lmc;			/* switch port 0 takes 2^lmc LIDs too */
	uint16_t max_lid;		/* 0: LA_MAX_UCAST_LID */
	enum la_layout_mode layout;	/* 0: auto */
};

struct la_group {
	uint16_t lo, hi;		/* range; hi < lo: empty */
	uint32_t hosts, switches;	/* members (switches: by rank) */
	uint32_t kept, placed, overflow;
	uint32_t guests;		/* switch LIDs of other groups kept
					 * inside this range */
};

struct la_result {
	uint32_t n_groups;		/* R, or the leaves' period when less
					 * (1 for a fabric of switches) */
	struct la_group *groups;
	uint16_t end;			/* first LID after the last group */
	bool inherited;			/* layout taken over from old LIDs */
	bool sw_anywhere;		/* old LIDs port-major: a switch LID
					 * is kept inside any group */
	uint32_t kept, placed, overflow, failed;
	uint32_t moved;			/* had an old LID, got another */
	uint32_t loose;			/* ports not cabled to a switch */
	uint16_t top_lid;		/* highest LID given */
	/* group-major (a Dragonfly+, lid_dfly.h): one group a Dragonfly+
	 * group, port-major inside; else port-major and why */
	bool group_major;
	uint32_t dfly_groups, dfly_leaves, dfly_empty, dfly_spines;
	uint32_t dfly_missing;		/* leaf-spine cables missing */
	uint32_t dfly_extra;		/* forced: switches of no group */
	const char *layout_why;		/* port-major: why (static text) */
	/* group-major on a dragonfly (lid_df.h): dfly_leaves routers with
	 * hosts, dfly_empty without, dfly_missing in-group cables missing */
	bool dfly_classic;
	uint32_t dfly_largest;		/* routers in the largest group */
	uint32_t dfly_pairs_missing;	/* group pairs not joined */
};

/*
 * Computes every port's LID.  Returns 0, -EINVAL for a bad input (switch
 * index out of range, a host on switch port 0, duplicate switch GUIDs,
 * lmc > 7) or -ENOMEM.  res is freed with
 * la_result_free() after a 0 return.
 */
int la_assign(struct la_input *in, struct la_result *res);
void la_result_free(struct la_result *res);

/*
 * Which layout res has and why, in one line ("group-major: Dragonfly+
 * of 17 groups (...)" or "port-major: not a Dragonfly+ (why)"), as
 * snprintf() into buf
 */
int la_layout_describe(const struct la_result *res, char *buf, size_t n);

#endif
