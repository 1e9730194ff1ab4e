// SPDX-License-Identifier: MIT
/* Light turns: only minor traffic crosses them (ta_turn_class.h). */
#include <stdlib.h>
#include <string.h>

#include "ta_flow.h"
#include "ta_intree.h"
#include "ta_turn_class.h"

void ta_classes_free(struct ta_classes *c)
{
	free(c->light);
	free(c->main_sw);
	free(c->has_minor);
	free(c->minor.w);
	free(c->main.w);
	memset(c, 0, sizeof(*c));
}

/* tr's weights: keep the main (minor = 0) or the minor ones */
static double *split_weights(const struct ta_traffic *tr, double max,
			     int minor)
{
	uint32_t n = tr->n_groups + 1, k;
	double *w = malloc((size_t)n * n * sizeof(*w));

	for (k = 0; w && k < n * n; k++) {
		int is_minor = tr->w[k] * TA_MINOR_RATIO < max;

		w[k] = is_minor == minor ? tr->w[k] : 0;
	}
	return w;
}

/*
 * The main traffic's provisional routes (ta_turn_traffic's): the turns
 * it crosses into w_main, the switches it passes per group into main_sw
 */
static int main_routes(struct ta_classes *c, const struct ta_graph *g,
		       const struct ta_traffic *main_tr, const uint32_t *group,
		       const uint32_t *spread, const uint32_t *order,
		       double *w_main)
{
	struct ta_flow f;
	struct ta_intree t;
	uint32_t x, k;

	if (ta_flow_init(&f, g, main_tr, group))
		return -1;
	if (ta_intree_init(&t, g)) {
		ta_flow_free(&f);
		return -1;
	}
	for (x = 0; x < g->n_dest; x++) {
		uint32_t d = order ? order[x] : x;
		uint8_t *m = c->main_sw + (size_t)group[d] * g->n_sw;

		if (!g->dest[d].is_host)
			continue;
		ta_intree_plain(&t, g->dest[d].sw, spread[d]);
		ta_flow_add(&f, g, &t, group[d], w_main, NULL);
		/* f.flow: what each switch of the tree forwards to d */
		for (k = 0; k < t.n_order; k++)
			if (f.flow[t.order[k]] > 0)
				m[t.order[k]] = 1;
	}
	ta_intree_free(&t);
	ta_flow_free(&f);
	return 0;
}

int64_t ta_classes_find(struct ta_classes *c, const struct ta_graph *g,
			const struct ta_traffic *tr, const uint32_t *group,
			const uint32_t *spread, const uint32_t *order,
			const double *w)
{
	uint32_t n = tr->n_groups + 1, k, s, minor = 0;
	double max = 0, *w_main = NULL;
	int64_t cnt = 0;

	memset(c, 0, sizeof(*c));
	for (k = 0; k < n * n; k++)
		if (tr->w[k] > max)
			max = tr->w[k];
	for (k = 0; k < n * n; k++)
		minor += tr->w[k] > 0 && tr->w[k] * TA_MINOR_RATIO < max;
	if (!minor)
		return 0;
	c->n_sw = g->n_sw;
	c->minor = *tr;
	c->minor.w = split_weights(tr, max, 1);
	c->main = *tr;
	c->main.w = split_weights(tr, max, 0);
	w_main = calloc(g->n_turn_slots + 1, sizeof(*w_main));
	c->light = malloc(g->n_turn_slots + 1);
	c->main_sw = calloc((size_t)n * g->n_sw + 1, 1);
	c->has_minor = calloc(n, 1);
	if (!c->minor.w || !c->main.w || !w_main || !c->light ||
	    !c->main_sw || !c->has_minor ||
	    main_routes(c, g, &c->main, group, spread, order, w_main))
		goto oom;
	for (k = 0; k < g->n_turn_slots; k++) {
		c->light[k] = w[k] > 0 && w_main[k] <= 0;
		cnt += c->light[k];
	}
	for (k = 0; k < n; k++)
		for (s = 0; s < g->n_sw; s++)
			if (!c->main_sw[(size_t)k * g->n_sw + s])
				c->has_minor[k] = 1;
	free(w_main);
	return cnt;
oom:
	free(w_main);
	ta_classes_free(c);
	return -1;
}
