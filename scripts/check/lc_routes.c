// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "lc_routes.h"

enum { UNSEEN, ON_PATH, DONE };

int lc_walker_init(struct lc_walker *w, const struct lc_fabric *f)
{
	unsigned n = f->n_switches ? f->n_switches : 1;

	w->f = f;
	w->out = calloc(n, sizeof(*w->out));
	w->state = calloc(n, sizeof(*w->state));
	w->path = calloc(n, sizeof(*w->path));
	if (!w->out || !w->state || !w->path) {
		lc_walker_free(w);
		return -1;
	}
	return 0;
}

void lc_walker_free(struct lc_walker *w)
{
	free(w->out);
	free(w->state);
	free(w->path);
	memset(w, 0, sizeof(*w));
}

struct lc_step lc_step(const struct lc_fabric *f, unsigned sw, unsigned lid)
{
	const struct lc_node *n = &f->node[f->sw_node[sw]];
	struct lc_step st = { .fail = LC_DELIVERED, .next_sw = -1 };
	const struct lc_node *peer;
	unsigned port = lc_fabric_lft(n, lid);
	int owner = lid <= f->max_lid ? f->lid_node[lid] : -1;

	st.port = port;
	if (port == LC_NO_ENTRY) {
		st.fail = LC_NO_ROUTE;
	} else if (port == 0) {
		if (owner != (int)f->sw_node[sw])
			st.fail = LC_WRONG_SWITCH;
	} else if (!(peer = lc_fabric_peer(f, n, port))) {
		st.fail = LC_DEAD_PORT;
	} else if (peer->is_switch) {
		st.next_sw = peer->sw;
	} else if (owner < 0 || &f->node[owner] != peer ||
		   f->lid_port[lid] != n->port[port].peer_port) {
		st.fail = LC_WRONG_NODE;
	}
	return st;
}

/* Walks from sw until a known outcome, then fills the walked path. */
static void walk_from(struct lc_walker *w, unsigned sw, unsigned lid)
{
	struct lc_outcome end = { 0 };
	unsigned len = 0, cur = sw;

	for (;;) {
		struct lc_step st;

		if (w->state[cur] == DONE) {
			end = w->out[cur];
			break;
		}
		if (w->state[cur] == ON_PATH) {
			end.fail = LC_LOOP;
			end.at = cur;
			break;
		}
		w->state[cur] = ON_PATH;
		w->path[len++] = cur;
		st = lc_step(w->f, cur, lid);
		if (st.next_sw < 0) {
			end.fail = st.fail;
			end.at = cur;
			end.hops = 0;
			/* cur's own outcome, then predecessors from it */
			w->out[cur] = end;
			w->state[cur] = DONE;
			len--;
			break;
		}
		cur = (unsigned)st.next_sw;
	}
	while (len--) {
		unsigned s = w->path[len];

		if (end.fail == LC_DELIVERED)
			end.hops++;
		w->out[s] = end;
		w->state[s] = DONE;
	}
}

void lc_walk_lid(struct lc_walker *w, unsigned lid)
{
	unsigned s;

	memset(w->state, UNSEEN, w->f->n_switches);
	for (s = 0; s < w->f->n_switches; s++)
		if (w->state[s] == UNSEEN)
			walk_from(w, s, lid);
}

const char *lc_fail_name(enum lc_fail fail)
{
	static const char *const names[LC_N_FAILS] = {
		[LC_DELIVERED] = "delivered",
		[LC_NO_ROUTE] = "no LFT entry",
		[LC_DEAD_PORT] = "LFT port not connected",
		[LC_WRONG_NODE] = "delivered to the wrong node",
		[LC_WRONG_SWITCH] = "sent to port 0 of the wrong switch",
		[LC_LOOP] = "forwarding loop",
	};

	return fail < LC_N_FAILS ? names[fail] : "?";
}
