// SPDX-License-Identifier: MIT
/* An escape tree that reaches the far traffic group through every cut link. */
#include <stdlib.h>
#include <string.h>

#include "ta_cut_tree.h"

struct cut_work {
	const struct ta_graph *g;
	const double *w;
	struct ta_escape *e;
	uint32_t *height;	/* hops to the nearest switch with hosts */
	uint32_t *label;	/* group of that switch */
	uint8_t *far;
	uint8_t *in;		/* in the tree */
	uint32_t *above;	/* tree neighbours higher than the switch */
	uint32_t *above_cls;	/* class of the first of them */
	uint32_t *cls;		/* far switches at least class_h high:
				 * connected piece among those; else none */
	uint32_t *holder;	/* per class: the cut end holding it */
	uint8_t *hung;		/* far switch hung from a cut link */
	uint32_t *children;
	uint32_t *queue;
	uint32_t *dist;
};

/* height and label of every switch: BFS from all switches with hosts */
static void measure(struct cut_work *c, const uint32_t *group)
{
	const struct ta_graph *g = c->g;
	uint32_t head = 0, tail = 0, s, d;

	for (s = 0; s < g->n_sw; s++) {
		c->height[s] = UINT32_MAX;
		c->label[s] = UINT32_MAX;
	}
	for (d = 0; d < g->n_dest; d++) {
		s = g->dest[d].sw;
		if (!g->dest[d].is_host || c->height[s] == 0)
			continue;
		c->height[s] = 0;
		c->label[s] = group[d];
		c->queue[tail++] = s;
	}
	while (head < tail) {
		uint32_t u = c->queue[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (c->height[v] != UINT32_MAX)
				continue;
			c->height[v] = c->height[u] + 1;
			c->label[v] = c->label[u];
			c->queue[tail++] = v;
		}
	}
}

/* v joins the tree below the switch at its end j */
static void attach(struct cut_work *c, uint32_t v, uint32_t j)
{
	uint32_t p = c->g->sw[v].ends[j].peer;

	c->e->parent_end[v] = j;
	c->e->level[v] = c->e->level[p] + 1;
	c->in[v] = 1;
	c->children[p]++;
	if (c->height[v] > c->height[p] && !c->above[p]++)
		c->above_cls[p] = c->cls[v];
	else if (c->height[p] > c->height[v] && !c->above[v]++)
		c->above_cls[v] = c->cls[p];
	if (c->hung[p] && c->height[v] > c->height[p] &&
	    c->cls[v] != UINT32_MAX)
		c->holder[c->cls[v]] = p;
}

/*
 * May v hang from p?  Not where p, a far switch, would get tree
 * neighbours above it of two classes (or a second one without a class):
 * the tree's turns at p would go down and up again between them; nor
 * where p hangs from a cut link and another such switch holds v's class.
 */
static int keeps_updown(const struct cut_work *c, uint32_t v, uint32_t p)
{
	uint32_t h;

	if (!c->far[p] || c->height[v] <= c->height[p])
		return 1;
	if (c->above[p] &&
	    (c->cls[v] == UINT32_MAX || c->cls[v] != c->above_cls[p]))
		return 0;
	/* a cut end holds a class no other cut end holds */
	h = c->cls[v] == UINT32_MAX ? UINT32_MAX : c->holder[c->cls[v]];
	return !c->hung[p] || h == UINT32_MAX || h == p;
}

static double pair_weight(const struct cut_work *c, uint32_t p, uint32_t in)
{
	const struct ta_graph *g = c->g;
	uint32_t up = c->e->parent_end[p];

	if (!c->w || up == TA_NO_END)
		return 0;
	return c->w[ta_turn(g, p, in, up)] + c->w[ta_turn(g, p, up, in)];
}

enum grow_mode {
	GROW_NEAR,	/* BFS parents, heaviest turn, then most children */
	GROW_FAR,	/* BFS parents kept up-and-down, fewest children */
	GROW_FAR_ANY,	/* any parent kept up-and-down, fewest children */
	GROW_BENT,	/* any tree neighbour, fewest above it */
};

/* is p (with n_p as the mode counts it, turn weight w) better */
static int better_parent(enum grow_mode m, uint32_t n_p, double w,
			 uint32_t best_n, double best_w)
{
	if (m == GROW_NEAR)
		return w > best_w || (w == best_w && n_p > best_n);
	return n_p < best_n || (n_p == best_n && w > best_w);
}

/*
 * One pass over the switches in queue[0..n) (BFS order, c->dist): each
 * one out of the tree takes the best parent the mode allows.  Returns
 * how many joined.
 */
static uint32_t grow_pass(struct cut_work *c, uint32_t n, enum grow_mode m)
{
	const struct ta_graph *g = c->g;
	uint32_t k, joined = 0;

	for (k = 0; k < n; k++) {
		uint32_t v = c->queue[k], j, best = TA_NO_END, best_n = 0;
		double best_w = 0;

		if (c->in[v])
			continue;
		for (j = 0; j < g->sw[v].n_ends; j++) {
			const struct ta_port_ref *r = &g->sw[v].ends[j];
			const struct ta_link *l = &g->links[r->link];
			uint32_t p = r->peer, n_p;
			double w;

			if (!c->in[p] ||
			    (m != GROW_BENT && c->far[p] != c->far[v]) ||
			    ((m == GROW_NEAR || m == GROW_FAR) &&
			     c->dist[p] + 1 != c->dist[v]) ||
			    ((m == GROW_FAR || m == GROW_FAR_ANY) &&
			     !keeps_updown(c, v, p)))
				continue;
			n_p = m == GROW_BENT ? c->above[p] : c->children[p];
			w = pair_weight(c, p, l->end[l->sw[0] == p ? 0 : 1]);
			if (best == TA_NO_END ||
			    better_parent(m, n_p, w, best_n, best_w)) {
				best = j;
				best_w = w;
				best_n = n_p;
			}
		}
		if (best == TA_NO_END)
			continue;
		attach(c, v, best);
		joined++;
	}
	return joined;
}

/* switches of one side in BFS order from the tree so far (queue, dist) */
static uint32_t order_side(struct cut_work *c, uint8_t side)
{
	const struct ta_graph *g = c->g;
	uint32_t head = 0, tail = 0, s;

	for (s = 0; s < g->n_sw; s++) {
		c->dist[s] = UINT32_MAX;
		if (c->in[s] && c->far[s] == side) {
			c->dist[s] = 0;
			c->queue[tail++] = s;
		}
	}
	while (head < tail) {
		uint32_t u = c->queue[head++], j;

		for (j = 0; j < g->sw[u].n_ends; j++) {
			uint32_t v = g->sw[u].ends[j].peer;

			if (c->dist[v] != UINT32_MAX || c->far[v] != side)
				continue;
			c->dist[v] = c->dist[u] + 1;
			c->queue[tail++] = v;
		}
	}
	return tail;
}

/*
 * Classes of the far switches at least class_h high (one more than the
 * lowest far switch at a cut link): the connected pieces they form among
 * themselves.  Traffic that climbs from a cut link into one class can
 * reach every switch of it on the fabric's own up-and-down turns, so two
 * cut links whose far ends hold switches of one class would close a
 * cycle through the near side.
 */
static void far_classes(struct cut_work *c)
{
	const struct ta_graph *g = c->g;
	uint32_t s, j, class_h = UINT32_MAX, n_cls = 0;

	for (s = 0; s < g->n_sw; s++) {
		c->cls[s] = UINT32_MAX;
		c->holder[s] = UINT32_MAX;
		for (j = 0; c->far[s] && j < g->sw[s].n_ends; j++)
			if (!c->far[g->sw[s].ends[j].peer] &&
			    c->height[s] + 1 < class_h)
				class_h = c->height[s] + 1;
	}
	for (s = 0; s < g->n_sw; s++) {
		uint32_t head = 0, tail = 0;

		if (!c->far[s] || c->height[s] < class_h ||
		    c->cls[s] != UINT32_MAX)
			continue;
		c->cls[s] = n_cls;
		c->queue[tail++] = s;
		while (head < tail) {
			uint32_t u = c->queue[head++];

			for (j = 0; j < g->sw[u].n_ends; j++) {
				uint32_t v = g->sw[u].ends[j].peer;

				if (!c->far[v] || c->height[v] < class_h ||
				    c->cls[v] != UINT32_MAX)
					continue;
				c->cls[v] = n_cls;
				c->queue[tail++] = v;
			}
		}
		n_cls++;
	}
}

/* every far switch at the end of a cut link hangs from it */
static void hang_cut_ends(struct cut_work *c)
{
	const struct ta_graph *g = c->g;
	uint32_t s, j;

	for (s = 0; s < g->n_sw; s++) {
		if (!c->far[s] || c->in[s])
			continue;
		for (j = 0; j < g->sw[s].n_ends; j++) {
			uint32_t p = g->sw[s].ends[j].peer;

			if (!c->far[p] && c->in[p]) {
				attach(c, s, j);
				c->hung[s] = 1;
				break;
			}
		}
	}
}

int ta_escape_build_cut(struct ta_escape *e, const struct ta_graph *g,
			const double *turn_weight, const uint32_t *group,
			uint32_t root, uint32_t *n_bent)
{
	uint32_t n = g->n_sw ? g->n_sw : 1, s, side, cnt, n_far = 0, joined;
	struct cut_work c = { .g = g, .w = turn_weight, .e = e };
	int ret = -1;

	memset(e, 0, sizeof(*e));
	*n_bent = 0;
	c.height = malloc(n * sizeof(*c.height));
	c.label = malloc(n * sizeof(*c.label));
	c.far = calloc(n, 1);
	c.in = calloc(n, 1);
	c.above = calloc(n, sizeof(*c.above));
	c.above_cls = calloc(n, sizeof(*c.above_cls));
	c.cls = malloc(n * sizeof(*c.cls));
	c.holder = malloc(n * sizeof(*c.holder));
	c.hung = calloc(n, 1);
	c.children = calloc(n, sizeof(*c.children));
	c.queue = malloc(n * sizeof(*c.queue));
	c.dist = malloc(n * sizeof(*c.dist));
	e->parent_end = malloc(n * sizeof(*e->parent_end));
	e->piece = calloc(n, sizeof(*e->piece));
	e->level = malloc(n * sizeof(*e->level));
	if (!c.height || !c.label || !c.far || !c.in || !c.above ||
	    !c.above_cls || !c.cls || !c.holder || !c.hung ||
	    !c.children || !c.queue || !c.dist || !e->parent_end ||
	    !e->piece || !e->level)
		goto out;
	ret = 1;
	if (root >= g->n_sw)
		goto out;
	measure(&c, group);
	for (s = 0; s < g->n_sw; s++) {
		e->parent_end[s] = TA_NO_END;
		c.far[s] = c.label[s] != c.label[root];
		n_far += c.far[s];
	}
	if (!n_far || c.label[root] == UINT32_MAX)
		goto out;
	c.in[root] = 1;
	e->level[root] = 0;
	/* the near side as a BFS tree, then the far side from the cut */
	far_classes(&c);
	cnt = order_side(&c, 0);
	grow_pass(&c, cnt, GROW_NEAR);
	hang_cut_ends(&c);
	cnt = order_side(&c, 1);
	grow_pass(&c, cnt, GROW_FAR);
	while (grow_pass(&c, cnt, GROW_FAR_ANY))
		;
	/* what the rule leaves out joins anyway, a down-and-up turn each */
	for (;;) {
		for (side = 0; side < 2; side++) {
			cnt = order_side(&c, (uint8_t)side);
			while (grow_pass(&c, cnt, GROW_FAR_ANY))
				;
		}
		for (side = 0, joined = 0; side < 2 && !joined; side++) {
			cnt = order_side(&c, (uint8_t)side);
			joined = grow_pass(&c, cnt, GROW_BENT);
		}
		if (!joined)
			break;
		*n_bent += joined;
	}
	for (s = 0; s < g->n_sw; s++)
		if (!c.in[s])
			goto out;	/* not connected */
	e->root = root;
	e->n_pieces = 1;
	ret = 0;
out:
	if (ret)
		ta_escape_free(e);
	free(c.height);
	free(c.label);
	free(c.far);
	free(c.in);
	free(c.above);
	free(c.above_cls);
	free(c.cls);
	free(c.holder);
	free(c.hung);
	free(c.children);
	free(c.queue);
	free(c.dist);
	return ret;
}
