// SPDX-License-Identifier: MIT
/* Routing memory between sweeps (see ta_saved.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_cdg.h"
#include "ta_escape.h"
#include "ta_saved.h"

void ta_saved_init(struct ta_saved *sv)
{
	memset(sv, 0, sizeof(*sv));
}

static void free_switches(struct ta_saved_switch *sw, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		free(sw[i].turn);
		free(sw[i].home);
		free(sw[i].last);
		free(sw[i].away_lid);
		free(sw[i].away_port);
		free(sw[i].layer);
		free(sw[i].turn_layers);
	}
	free(sw);
}

void ta_saved_free(struct ta_saved *sv)
{
	int lft_rows = sv->lft_rows;

	free_switches(sv->sw, sv->n_sw);
	free(sv->routed);
	free(sv->seen);
	ta_saved_init(sv);
	sv->lft_rows = lft_rows;
}

int ta_saved_empty(const struct ta_saved *sv)
{
	return sv->n_sw == 0;
}

static const struct ta_saved_switch *find(const struct ta_saved *sv,
					  uint64_t guid)
{
	uint32_t lo = 0, hi = sv->n_sw;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (sv->sw[mid].guid == guid)
			return &sv->sw[mid];
		if (sv->sw[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static uint8_t saved_turn(const struct ta_saved_switch *ss, uint8_t in,
			  uint8_t out)
{
	if (!ss || in >= ss->n_ports || out >= ss->n_ports)
		return TA_TURN_UNDECIDED;
	return ss->turn[in * ss->n_ports + out];
}

/* the latest routing's port; row: the switch's table (lft_rows) */
static uint8_t saved_last(const struct ta_saved *sv,
			  const struct ta_saved_switch *ss,
			  const struct ta_saved_row *row, uint32_t lid)
{
	if (!ss || lid >= ss->n_lids)
		return TA_NO_PORT;
	if (ss->last)
		return ss->last[lid];
	/* only the latest routing's destinations hold its ports */
	if (lid >= sv->n_lids || !sv->routed[lid] || !row || !row->port ||
	    lid >= row->n_lids)
		return TA_NO_PORT;
	return row->port[lid];
}

static uint8_t saved_home(const struct ta_saved *sv,
			  const struct ta_saved_switch *ss,
			  const struct ta_saved_row *row, uint32_t lid)
{
	uint32_t lo = 0, hi;

	if (!ss || lid >= ss->n_lids)
		return TA_NO_PORT;
	if (ss->home)
		return ss->home[lid];
	hi = ss->n_away;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ss->away_lid[mid] == lid)
			return ss->away_port[mid];
		if (ss->away_lid[mid] < lid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return saved_last(sv, ss, row, lid);
}

/* the latest routing's layer of the path to lid, TA_NO_LAYER if none */
static uint8_t saved_layer(const struct ta_saved_switch *ss, uint32_t lid)
{
	if (!ss || lid >= ss->n_lids)
		return TA_NO_LAYER;
	return ss->layer ? ss->layer[lid] : 0;
}

/* the layers that allowed turn in -> out, none if unknown */
static uint8_t saved_turn_layers(const struct ta_saved_switch *ss, uint8_t in,
				 uint8_t out)
{
	if (!ss || !ss->turn_layers || in >= ss->n_ports ||
	    out >= ss->n_ports)
		return 0;
	return ss->turn_layers[in * ss->n_ports + out];
}

/* 1 if a switch of sv has a path off layer 0 */
static int layers_saved(const struct ta_saved *sv)
{
	uint32_t i;

	for (i = 0; i < sv->n_sw; i++)
		if (sv->sw[i].layer)
			return 1;
	return 0;
}

/* 1 if a switch of sv has its layers' turns */
static int turn_layers_saved(const struct ta_saved *sv)
{
	uint32_t i;

	for (i = 0; i < sv->n_sw; i++)
		if (sv->sw[i].turn_layers)
			return 1;
	return 0;
}

/* the last routing's LIDs that are no destination of g; -1: ENOMEM */
static int64_t dests_gone(const struct ta_saved *sv, const struct ta_graph *g)
{
	uint8_t *seen = calloc(sv->n_lids + 1, 1);
	uint32_t d, lid, gone = 0;

	if (!seen)
		return -1;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid < sv->n_lids)
			seen[g->dest[d].lid] = 1;
	for (lid = 0; lid < sv->n_lids; lid++)
		gone += sv->routed[lid] && !seen[lid];
	free(seen);
	return gone;
}

/* the end of s that leads to its saved tree parent, TA_NO_END if none */
static uint32_t saved_parent(const struct ta_saved_switch *ss,
			     const struct ta_graph *g, uint32_t s)
{
	if (!ss || ss->parent_port == TA_NO_PORT)
		return TA_NO_END;
	return ta_graph_end_to(g, s, ss->parent_port, ss->parent_guid);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int was_seen(const struct ta_saved *sv, uint64_t guid)
{
	return sv->n_seen && bsearch(&guid, sv->seen, sv->n_seen,
				     sizeof(*sv->seen), cmp_u64);
}

/* g's switches never routed before */
static uint32_t switches_new(const struct ta_saved *sv,
			     const struct ta_graph *g)
{
	uint32_t s, n = 0;

	for (s = 0; s < g->n_sw; s++)
		n += !was_seen(sv, g->sw[s].guid);
	return n;
}

/* adds g's switches to sv->seen; -1 on allocation failure */
static int add_seen(struct ta_saved *sv, const struct ta_graph *g)
{
	uint32_t n = switches_new(sv, g), s, k = sv->n_seen;
	uint64_t *seen;

	if (!n)
		return 0;
	seen = realloc(sv->seen, ((size_t)k + n) * sizeof(*seen));
	if (!seen)
		return -1;
	sv->seen = seen;
	for (s = 0; s < g->n_sw; s++)
		if (!bsearch(&g->sw[s].guid, seen, sv->n_seen, sizeof(*seen),
			     cmp_u64))
			seen[k++] = g->sw[s].guid;
	qsort(seen, k, sizeof(*seen), cmp_u64);
	sv->n_seen = k;
	return 0;
}

/* 1 if g has a switch the last routing did not have */
static int switches_joined(const struct ta_saved *sv, const struct ta_graph *g)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++)
		if (!find(sv, g->sw[s].guid))
			return 1;
	return 0;
}

/*
 * ss, or NULL where its routes are no memory: a settling switch while
 * switches still join (grew) is routed afresh
 */
static const struct ta_saved_switch *
routes_of(const struct ta_saved_switch *ss, int grew)
{
	return ss && ss->settling && grew ? NULL : ss;
}

int ta_saved_prior(const struct ta_saved *sv, const struct ta_graph *g,
		   struct ta_prior_buf *pb)
{
	return ta_saved_prior_rows(sv, g, NULL, pb);
}

/* 1 if a switch of g has a home that differs from its last port */
static int homes_away(const struct ta_saved *sv, const struct ta_graph *g)
{
	uint32_t s;

	for (s = 0; s < g->n_sw; s++) {
		const struct ta_saved_switch *ss = find(sv, g->sw[s].guid);

		if (ss && (ss->home || ss->n_away))
			return 1;
	}
	return 0;
}

int ta_saved_prior_rows(const struct ta_saved *sv, const struct ta_graph *g,
			const struct ta_saved_row *rows,
			struct ta_prior_buf *pb)
{
	uint32_t s, i, j, d, kept = 0;
	int64_t gone;
	uint8_t *home, *fresh;
	int grew;

	memset(pb, 0, sizeof(*pb));
	if (ta_saved_empty(sv))
		return 0;
	grew = switches_joined(sv, g);
	pb->prior.switches_new = switches_new(sv, g);
	gone = dests_gone(sv, g);
	pb->turn_state = malloc(g->n_turn_slots + 1);
	pb->last_port = malloc((size_t)g->n_sw * g->n_dest + 1);
	/* homes equal the last ports everywhere (no failure in effect):
	 * one array serves as both */
	if (homes_away(sv, g))
		pb->home_port = malloc((size_t)g->n_sw * g->n_dest + 1);
	home = pb->home_port ? pb->home_port : pb->last_port;
	pb->escape_parent = malloc((g->n_sw + 1) * sizeof(*pb->escape_parent));
	fresh = calloc(g->n_sw + 1, 1);
	if (layers_saved(sv))
		pb->layer = malloc((size_t)g->n_sw * g->n_dest + 1);
	if (turn_layers_saved(sv))
		pb->turn_layers = malloc(g->n_turn_slots + 1);
	if (gone < 0 || !pb->turn_state || !home || !pb->last_port ||
	    !pb->escape_parent || !fresh ||
	    (layers_saved(sv) && !pb->layer) ||
	    (turn_layers_saved(sv) && !pb->turn_layers)) {
		free(fresh);
		ta_prior_buf_free(pb);
		return -1;
	}
	/* settling switches while switches join: routes and turns afresh */
	for (s = 0; s < g->n_sw && grew; s++) {
		const struct ta_saved_switch *ss = find(sv, g->sw[s].guid);

		fresh[s] = ss && !routes_of(ss, grew);
	}
	pb->prior.dests_gone = (uint32_t)gone;
	for (s = 0; s < g->n_sw; s++) {
		const struct ta_switch *sw = &g->sw[s];
		const struct ta_saved_switch *ss = find(sv, sw->guid);
		const struct ta_saved_switch *rs =
			pb->prior.switches_new || fresh[s] ? NULL : ss;
		const struct ta_saved_row *row = rows ? &rows[s] : NULL;

		kept += ss != NULL;
		pb->escape_parent[s] = saved_parent(ss, g, s);
		for (i = 0; i < sw->n_ends && pb->turn_layers; i++)
			for (j = 0; j < sw->n_ends; j++)
				pb->turn_layers[ta_turn(g, s, i, j)] =
					fresh[s] ? 0 :
					saved_turn_layers(ss, sw->ends[i].port,
							  sw->ends[j].port);
		for (i = 0; i < sw->n_ends; i++)
			for (j = 0; j < sw->n_ends; j++)
				pb->turn_state[ta_turn(g, s, i, j)] =
					fresh[s] ||
					fresh[sw->ends[i].peer] ||
					fresh[sw->ends[j].peer] ?
					TA_TURN_UNDECIDED :
					saved_turn(ss, sw->ends[i].port,
						   sw->ends[j].port);
		for (d = 0; d < g->n_dest; d++) {
			size_t k = (size_t)s * g->n_dest + d;

			pb->last_port[k] = saved_last(sv, rs, row,
						      g->dest[d].lid);
			if (pb->home_port)
				pb->home_port[k] = saved_home(sv, rs, row,
							      g->dest[d].lid);
			if (pb->layer)
				pb->layer[k] = saved_layer(rs, g->dest[d].lid);
		}
	}
	free(fresh);
	pb->prior.switches_gone = sv->n_sw - kept;
	ta_prior_buf_link(pb, sv->escape_root_guid, sv->escape_carry);
	return 0;
}

void ta_prior_buf_link(struct ta_prior_buf *pb, uint64_t escape_root_guid,
		       int escape_carry)
{
	pb->prior.turn_state = pb->turn_state;
	pb->prior.home_port = pb->home_port ? pb->home_port : pb->last_port;
	pb->prior.last_port = pb->last_port;
	pb->prior.escape_root_guid = escape_root_guid;
	pb->prior.escape_parent = pb->escape_parent;
	pb->prior.escape_carry = escape_carry;
	pb->prior.layer = pb->layer;
	pb->prior.turn_layers = pb->turn_layers;
}

void ta_prior_buf_free(struct ta_prior_buf *pb)
{
	free(pb->turn_state);
	free(pb->home_port);
	free(pb->last_port);
	free(pb->escape_parent);
	free(pb->layer);
	free(pb->turn_layers);
	memset(pb, 0, sizeof(*pb));
}

static int cmp_guid(const void *a, const void *b)
{
	const struct ta_saved_switch *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* scratch rows of one switch while recording */
struct record_buf {
	uint8_t *home, *last;
};

/* keeps home where it differs from last: as away entries, or whole */
static int record_homes(struct ta_saved_switch *ns, const uint8_t *home,
			const uint8_t *last)
{
	uint32_t lid, n = 0, k = 0;

	for (lid = 0; lid < ns->n_lids; lid++)
		n += home[lid] != last[lid];
	if (!n)
		return 0;
	/* an away entry takes 3 bytes, a whole row 1 byte per LID */
	if ((uint64_t)n * 3 >= ns->n_lids) {
		ns->home = malloc(ns->n_lids);
		if (!ns->home)
			return -1;
		memcpy(ns->home, home, ns->n_lids);
		return 0;
	}
	ns->away_lid = malloc(n * sizeof(*ns->away_lid));
	ns->away_port = malloc(n);
	if (!ns->away_lid || !ns->away_port)
		return -1;
	for (lid = 0; lid < ns->n_lids; lid++)
		if (home[lid] != last[lid]) {
			ns->away_lid[k] = (uint16_t)lid;
			ns->away_port[k++] = home[lid];
		}
	ns->n_away = n;
	return 0;
}

/* the layers of s's paths where one is off layer 0, else none kept */
static int record_layers(struct ta_saved_switch *ns, const struct ta_graph *g,
			 const struct ta_result *res, uint32_t s)
{
	const uint8_t *l = res->layer ? res->layer + (size_t)s * res->n_dest :
					NULL;
	uint32_t d;

	for (d = 0; l && d < g->n_dest && !l[d]; d++)
		;
	if (!l || d == g->n_dest)
		return 0;
	ns->layer = calloc(ns->n_lids, 1);
	if (!ns->layer)
		return -1;
	for (d = 0; d < g->n_dest; d++)
		ns->layer[g->dest[d].lid] = l[d];
	return 0;
}

/*
 * the new record of switch s: the homes of the record homes (NULL: none)
 * kept, new routes added; row: s's table, still holding the previous
 * routing (lft_rows); settling: struct ta_saved_switch's
 */
static int record_switch(const struct ta_saved *sv,
			 const struct ta_saved_switch *homes,
			 const struct ta_saved_row *row,
			 const struct ta_graph *g, const struct ta_result *res,
			 uint32_t s, uint32_t n_lids, uint8_t settling,
			 struct record_buf *rb, struct ta_saved_switch *ns)
{
	const struct ta_switch *sw = &g->sw[s];
	uint32_t i, j, d, np = 1;

	for (i = 0; i < sw->n_ends; i++)
		if (sw->ends[i].port + 1u > np)
			np = sw->ends[i].port + 1u;
	ns->guid = sw->guid;
	ns->n_ports = np;
	/* new after the first routing, or still settling while switches join */
	ns->settling = settling;
	ns->parent_port = TA_NO_PORT;
	ns->parent_guid = 0;
	if (res->escape_parent && res->escape_parent[s] != TA_NO_END) {
		const struct ta_port_ref *r = &sw->ends[res->escape_parent[s]];

		ns->parent_port = r->port;
		ns->parent_guid = g->sw[r->peer].guid;
	}
	ns->n_lids = n_lids;
	ns->turn = malloc((size_t)np * np);
	if (!ns->turn)
		return -1;
	memset(ns->turn, TA_TURN_UNDECIDED, (size_t)np * np);
	for (i = 0; i < sw->n_ends; i++)
		for (j = 0; j < sw->n_ends; j++)
			ns->turn[sw->ends[i].port * np + sw->ends[j].port] =
				res->turn_state[ta_turn(g, s, i, j)];
	if (res->turn_layers) {
		ns->turn_layers = calloc((size_t)np * np, 1);
		if (!ns->turn_layers)
			return -1;
		for (i = 0; i < sw->n_ends; i++)
			for (j = 0; j < sw->n_ends; j++)
				ns->turn_layers[sw->ends[i].port * np +
						sw->ends[j].port] =
					res->turn_layers[ta_turn(g, s, i, j)];
	}
	memset(rb->last, TA_NO_PORT, n_lids);
	for (d = 0; d < n_lids; d++)
		rb->home[d] = saved_home(sv, homes, row, d);
	for (d = 0; d < g->n_dest; d++) {
		uint16_t lid = g->dest[d].lid;

		rb->last[lid] = ta_result_port(res, s, d);
		if (rb->home[lid] == TA_NO_PORT)
			rb->home[lid] = rb->last[lid];
	}
	if (record_layers(ns, g, res, s))
		return -1;
	if (!sv->lft_rows) {
		ns->last = malloc(n_lids);
		if (!ns->last)
			return -1;
		memcpy(ns->last, rb->last, n_lids);
	}
	return record_homes(ns, rb->home, rb->last);
}

int ta_saved_seed(struct ta_saved *sv, const struct ta_saved_table *t,
		  uint32_t n)
{
	struct ta_saved_switch *nsw;
	uint32_t i;

	ta_saved_free(sv);
	nsw = calloc(n + 1, sizeof(*nsw));
	if (!nsw)
		return -1;
	for (i = 0; i < n; i++) {
		/* n_ports 0: every turn reads as undecided (saved_turn) */
		nsw[i].guid = t[i].guid;
		nsw[i].n_lids = t[i].n_lids;
		nsw[i].parent_port = TA_NO_PORT;
		nsw[i].last = malloc(t[i].n_lids + 1);
		if (!nsw[i].last) {
			free_switches(nsw, i + 1);
			return -1;
		}
		/* what the switch holds is both its home and its last port
		 * (home NULL, no away entry: home is last) */
		memcpy(nsw[i].last, t[i].port, t[i].n_lids);
	}
	qsort(nsw, n, sizeof(*nsw), cmp_guid);
	sv->sw = nsw;
	sv->n_sw = n;
	sv->seen = malloc(((size_t)n + 1) * sizeof(*sv->seen));
	if (!sv->seen) {
		ta_saved_free(sv);
		return -1;
	}
	for (i = 0; i < n; i++)
		sv->seen[i] = nsw[i].guid;
	sv->n_seen = n;
	return 0;
}

int ta_saved_update(struct ta_saved *sv, const struct ta_graph *g,
		    const struct ta_result *res)
{
	return ta_saved_update_rows(sv, g, res, NULL);
}

/* the largest n_lids of sv's records, at least n */
static uint32_t max_lids(const struct ta_saved *sv, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < sv->n_sw; i++)
		if (sv->sw[i].n_lids > n)
			n = sv->sw[i].n_lids;
	return n;
}

int ta_saved_update_rows(struct ta_saved *sv, const struct ta_graph *g,
			 const struct ta_result *res,
			 const struct ta_saved_row *rows)
{
	struct ta_saved_switch *nsw = calloc(g->n_sw + 1, sizeof(*nsw));
	struct record_buf rb = { NULL, NULL };
	uint32_t n_lids = 1, s, d, top;
	uint8_t *routed;
	int grew, afresh;

	if (!nsw || (sv->lft_rows && !rows && !ta_saved_empty(sv)))
		goto fail;
	grew = !ta_saved_empty(sv) && switches_joined(sv, g);
	/*
	 * no home carried where switches are new, nor where res becomes
	 * the routing to return to (ta_home.h): a takeover's routing (the
	 * homes seeded from the tables the standby read are the old
	 * master's routes), or a resweep's that is not missing a part of
	 * that routing's fabric.  Kept, older homes pull every route a
	 * later failure displaces back towards them.
	 */
	afresh = (grew && switches_new(sv, g)) || res->stats.takeover ||
		 res->stats.home_new;
	for (d = 0; d < g->n_dest; d++)
		if (g->dest[d].lid + 1u > n_lids)
			n_lids = g->dest[d].lid + 1u;
	top = max_lids(sv, n_lids);
	rb.home = malloc(top);
	rb.last = malloc(top);
	if (!rb.home || !rb.last)
		goto fail;
	for (s = 0; s < g->n_sw; s++) {
		const struct ta_saved_switch *old = find(sv, g->sw[s].guid);
		uint32_t nl = n_lids;
		uint8_t settling;

		if (old && old->n_lids > nl)
			nl = old->n_lids;
		/* new after the first routing, or settling while switches join */
		settling = !ta_saved_empty(sv) &&
			   (!old || (old->settling && grew));
		if (record_switch(sv, afresh ? NULL : routes_of(old, grew),
				  rows ? &rows[s] : NULL, g, res, s, nl,
				  settling, &rb, &nsw[s])) {
			free_switches(nsw, s + 1);
			nsw = NULL;
			goto fail;
		}
	}
	free(rb.home);
	free(rb.last);
	rb.home = rb.last = NULL;
	qsort(nsw, g->n_sw, sizeof(*nsw), cmp_guid);
	routed = calloc(n_lids, 1);
	if (!routed) {
		free_switches(nsw, g->n_sw);
		nsw = NULL;
		goto fail;
	}
	for (d = 0; d < g->n_dest; d++)
		routed[g->dest[d].lid] = 1;
	free_switches(sv->sw, sv->n_sw);
	free(sv->routed);
	sv->sw = nsw;
	sv->n_sw = g->n_sw;
	sv->routed = routed;
	sv->n_lids = n_lids;
	sv->escape_root_guid = res->stats.escape_root < g->n_sw ?
				       g->sw[res->stats.escape_root].guid : 0;
	/* a tree that is not turn addition's own is carried on */
	sv->escape_carry = res->escape_parent &&
			   (res->stats.tp_kept || res->stats.root_moved ||
			    res->stats.cut_tree ||
			    res->stats.tree_carried || res->stats.home_carry);
	if (add_seen(sv, g)) {
		ta_saved_free(sv);
		return -1;
	}
	return 0;
fail:
	free(nsw);
	free(rb.home);
	free(rb.last);
	ta_saved_free(sv);
	return -1;
}

size_t ta_saved_bytes(const struct ta_saved *sv)
{
	size_t n = (size_t)sv->n_sw * sizeof(*sv->sw) + sv->n_lids +
		   (size_t)sv->n_seen * sizeof(*sv->seen);
	uint32_t i;

	for (i = 0; i < sv->n_sw; i++) {
		const struct ta_saved_switch *ss = &sv->sw[i];

		n += (size_t)ss->n_ports * ss->n_ports +
		     (ss->last ? ss->n_lids : 0) +
		     (ss->home ? ss->n_lids : 0) +
		     (ss->layer ? ss->n_lids : 0) +
		     (ss->turn_layers ? (size_t)ss->n_ports * ss->n_ports : 0) +
		     (size_t)ss->n_away * (sizeof(*ss->away_lid) + 1);
	}
	return n;
}
