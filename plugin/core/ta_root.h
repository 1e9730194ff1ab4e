/* SPDX-License-Identifier: MIT */
/*
 * Which switch roots the escape tree at a routing: the escape_root
 * option, the previous routing's root, or the automatic choice
 * (ta_escape.h).  A configured root that is not a switch of the fabric
 * (it failed, was cut off from the SM or replaced) is no error: the
 * previous routing's root if it is still there, else the automatic
 * choice, roots the tree, and one WARNING line per routing says so.
 * The root that replaces a root gone since the previous routing
 * (configured or automatic) is the first of the automatic ranking
 * (ta_escape_rank_roots) whose tree's turns fit the kept decisions, so
 * nothing is re-decided and only the routes that used the lost switch
 * move; if none of the first few fits, the automatic choice.
 * When the configured root is back while the previous routing used
 * another root, it is only taken again if its tree's turns fit the turn
 * decisions kept from that routing and the routing with it changes no
 * more 64-LID LFT blocks than keeping the current root, the ordinary
 * restore (ta_engine.c routes both ways); otherwise the
 * current root stays (one line says why) and the configured root is
 * taken at the next routing from scratch (an OpenSM start or takeover).
 */
#ifndef TA_ROOT_H
#define TA_ROOT_H

#include <stdint.h>

#include "ta_graph.h"
#include "ta_log.h"

struct ta_root_choice {
	uint64_t guid;		/* root to build with; 0: automatic */
	uint64_t missing;	/* configured root not in g, else 0 */
	uint64_t trial;		/* configured root back: try it first */
	int replace;		/* the previous root is gone (configured or
				 * not): try the automatic ranking's first
				 * switches for a tree that fits the kept
				 * decisions (ta_job_turns.c) */
	int fitted;		/* the root is such a switch */
};

/*
 * want: the escape_root option (0: auto); prev: the previous routing's
 * root (0: none); prev_turns: whether the previous routing's turn
 * decisions are carried over (a trial only makes sense then).
 */
void ta_root_choose(struct ta_root_choice *rc, const struct ta_graph *g,
		    uint64_t want, uint64_t prev, int prev_turns);

/* the WARNING line of a missing configured root; used: the tree's root */
void ta_root_log_missing(const struct ta_root_choice *rc,
			 const struct ta_graph *g, uint32_t used,
			 const struct ta_log *log);

#endif
