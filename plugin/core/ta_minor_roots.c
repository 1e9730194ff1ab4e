// SPDX-License-Identifier: MIT
/* Escape roots where minor traffic turns (ta_minor_roots.h). */
#include "ta_minor_roots.h"

static double light_weight(const struct ta_graph *g, const uint8_t *light,
			   const double *w, uint32_t s)
{
	uint32_t n = g->sw[s].n_ends, k;
	double sum = 0;

	for (k = 0; k < n * n; k++)
		if (light[g->sw[s].turn_base + k])
			sum += w[g->sw[s].turn_base + k];
	return sum;
}

uint32_t ta_minor_roots(const struct ta_graph *g, const uint8_t *light,
			const double *w, uint32_t skip, uint32_t *out,
			uint32_t max)
{
	double best[TA_MINOR_ROOTS_MAX];
	uint32_t n = 0, s, i;

	if (max > TA_MINOR_ROOTS_MAX)
		max = TA_MINOR_ROOTS_MAX;

	for (s = 0; light && w && max && s < g->n_sw; s++) {
		double x;

		if (s == skip || (x = light_weight(g, light, w, s)) <= 0)
			continue;
		/* insertion into out[0 .. n), most first, stable on ties */
		for (i = n < max ? n : max; i > 0 && best[i - 1] < x; i--) {
			if (i < max) {
				best[i] = best[i - 1];
				out[i] = out[i - 1];
			}
		}
		if (i < max) {
			best[i] = x;
			out[i] = s;
			if (n < max)
				n++;
		}
	}
	return n;
}
