// SPDX-License-Identifier: MIT
/* Traffic file parser and group lookup (format in ta_traffic.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ta_parse.h"
#include "ta_traffic.h"

#define MAX_GROUPS 256u

int ta_traffic_uniform(struct ta_traffic *t)
{
	memset(t, 0, sizeof(*t));
	t->default_weight = 1.0;
	t->w = malloc(sizeof(*t->w));
	if (!t->w)
		return -1;
	t->w[0] = 1.0;
	return 0;
}

void ta_traffic_free(struct ta_traffic *t)
{
	uint32_t i;

	for (i = 0; i < t->n_groups; i++)
		free(t->names[i]);
	for (i = 0; i < t->n_rules; i++)
		free(t->rules[i].prefix);
	free(t->names);
	free(t->rules);
	free(t->w);
	memset(t, 0, sizeof(*t));
}

static int find_group(const struct ta_traffic *t, const char *name)
{
	uint32_t i;

	for (i = 0; i < t->n_groups; i++)
		if (!strcmp(t->names[i], name))
			return (int)i;
	return -1;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

static int add_rule(struct ta_traffic *t, uint32_t group, uint64_t guid,
		    const char *prefix)
{
	struct ta_traffic_rule *r;

	r = realloc(t->rules, (t->n_rules + 1) * sizeof(*r));
	if (!r)
		return -1;
	t->rules = r;
	r = &t->rules[t->n_rules];
	r->group = group;
	r->guid = guid;
	r->prefix = NULL;
	if (prefix && !(r->prefix = strdup(prefix)))
		return -1;
	t->n_rules++;
	return 0;
}

static int parse_group(struct ta_traffic *t, char **tok, int n,
		       const char **why)
{
	int g, k;

	if (n < 4 || (strcmp(tok[2], "guid") && strcmp(tok[2], "prefix"))) {
		*why = "expected 'group NAME guid GUID...' or 'group NAME prefix TEXT'";
		return -1;
	}
	if (!valid_name(tok[1])) {
		*why = "group name must be 1-64 characters of A-Z a-z 0-9 _ - .";
		return -1;
	}
	g = find_group(t, tok[1]);
	if (g < 0) {
		char **nn;

		if (t->n_groups == MAX_GROUPS) {
			*why = "too many groups (at most 256)";
			return -1;
		}
		nn = realloc(t->names, (t->n_groups + 1) * sizeof(*nn));
		if (!nn)
			goto oom;
		t->names = nn;
		if (!(nn[t->n_groups] = strdup(tok[1])))
			goto oom;
		g = (int)t->n_groups++;
	}
	if (!strcmp(tok[2], "prefix")) {
		if (n != 4) {
			*why = "a prefix is one word (no blanks)";
			return -1;
		}
		return add_rule(t, (uint32_t)g, 0, tok[3]) ? (*why = "out of memory", -1) : 0;
	}
	for (k = 3; k < n; k++) {
		uint64_t guid;

		if (ta_parse_u64(tok[k], &guid) || !guid) {
			*why = "bad GUID (expected e.g. 0x0002c90300001234)";
			return -1;
		}
		if (add_rule(t, (uint32_t)g, guid, NULL))
			goto oom;
	}
	return 0;
oom:
	*why = "out of memory";
	return -1;
}

struct weight_line {
	unsigned line_no;
	char a[65], b[65];
	double v;
};

static int parse_weight(char **tok, int n, struct weight_line *wl,
			const char **why)
{
	if (n != 4) {
		*why = "expected 'weight GROUP1 GROUP2 VALUE'";
		return -1;
	}
	if (!valid_name(tok[1]) || !valid_name(tok[2])) {
		*why = "bad group name";
		return -1;
	}
	if (ta_parse_double(tok[3], &wl->v) || wl->v < 0) {
		*why = "weight must be a finite number >= 0";
		return -1;
	}
	strcpy(wl->a, tok[1]);
	strcpy(wl->b, tok[2]);
	return 0;
}

static int parse_lines(struct ta_traffic *t, struct ta_line_reader *r,
		       struct weight_line **wls, uint32_t *n_wl,
		       const struct ta_log *log)
{
	char *tok[TA_MAX_TOKENS];
	uint32_t cap = 0;
	int n;

	while ((n = ta_reader_next(r, tok)) > 0) {
		const char *why = NULL;
		int bad = 0;

		if (!strcmp(tok[0], "group")) {
			bad = parse_group(t, tok, n, &why);
		} else if (!strcmp(tok[0], "weight")) {
			struct weight_line *nw = *wls;

			/* doubling: 256 groups may need 32,896 weight lines */
			if (*n_wl == cap) {
				cap = cap ? 2 * cap : 64;
				nw = realloc(*wls, (size_t)cap * sizeof(*nw));
			}
			if (!nw) {
				why = "out of memory";
				bad = 1;
			} else {
				*wls = nw;
				nw[*n_wl].line_no = r->line_no;
				bad = parse_weight(tok, n, &nw[*n_wl], &why);
				if (!bad)
					(*n_wl)++;
			}
		} else if (!strcmp(tok[0], "default_weight")) {
			if (n != 2 || ta_parse_double(tok[1],
						      &t->default_weight) ||
			    t->default_weight < 0) {
				why = "expected 'default_weight VALUE' with a finite VALUE >= 0";
				bad = 1;
			}
		} else {
			why = "unknown keyword (known: group, weight, default_weight)";
			bad = 1;
		}
		if (bad) {
			ta_logf(log, TA_LOG_ERROR, "%s:%u: %s", r->path,
				r->line_no, why);
			return -1;
		}
	}
	if (n < 0) {
		ta_reader_log_error(r, log);
		return -1;
	}
	return 0;
}

static int build_matrix(struct ta_traffic *t, const struct weight_line *wls,
			uint32_t n_wl, const char *path,
			const struct ta_log *log)
{
	uint32_t n = t->n_groups + 1, i;
	unsigned *given;	/* per cell: weight line that set it, 0 */
	int ret = 0;

	t->w = malloc((size_t)n * n * sizeof(*t->w));
	given = calloc((size_t)n * n, sizeof(*given));
	if (!t->w || !given) {
		free(given);
		ta_logf(log, TA_LOG_ERROR, "%s: out of memory", path);
		return -1;
	}
	for (i = 0; i < n * n; i++)
		t->w[i] = t->default_weight;
	for (i = 0; i < n_wl && !ret; i++) {
		int a = find_group(t, wls[i].a), b = find_group(t, wls[i].b);
		size_t ab = (size_t)a * n + (size_t)b;

		if (a < 0 || b < 0) {
			ta_logf(log, TA_LOG_ERROR,
				"%s:%u: weight names group '%s', which no group line defines",
				path, wls[i].line_no, a < 0 ? wls[i].a : wls[i].b);
			ret = -1;
		} else if (given[ab]) {
			ta_logf(log, TA_LOG_ERROR,
				"%s:%u: weight between '%s' and '%s' already given at line %u",
				path, wls[i].line_no, wls[i].a, wls[i].b,
				given[ab]);
			ret = -1;
		} else {
			t->w[ab] = wls[i].v;
			t->w[(size_t)b * n + (size_t)a] = wls[i].v;
			given[ab] = wls[i].line_no;
			given[(size_t)b * n + (size_t)a] = wls[i].line_no;
		}
	}
	free(given);
	return ret;
}

/*
 * Weights are relative: scaled so the largest is 1.  The turn traffic
 * then sums at most hosts^2 (< 2^32) and its quantisation (ta_turnadd.c)
 * stays far inside int64_t whatever the file says (1e300 and 1e-300
 * alike); weights far below the largest become 0, which is their
 * meaning at that scale.
 */
static void normalise(struct ta_traffic *t)
{
	size_t n = (size_t)(t->n_groups + 1) * (t->n_groups + 1), i;
	double max = 0;

	for (i = 0; i < n; i++)
		if (t->w[i] > max)
			max = t->w[i];
	if (max <= 0)
		return;
	for (i = 0; i < n; i++)
		t->w[i] = t->w[i] >= max ? 1.0 : t->w[i] / max;
}

int ta_traffic_load(struct ta_traffic *t, const char *path,
		    const struct ta_log *log)
{
	struct ta_line_reader r;
	struct weight_line *wls = NULL;
	uint32_t n_wl = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	t->default_weight = 1.0;
	if (ta_reader_open(&r, path)) {
		ta_logf(log, TA_LOG_ERROR, "%s: cannot open traffic file: %s",
			path, strerror(errno));
		return -1;
	}
	ret = parse_lines(t, &r, &wls, &n_wl, log);
	ta_reader_close(&r);
	if (!ret)
		ret = build_matrix(t, wls, n_wl, path, log);
	if (!ret)
		normalise(t);
	free(wls);
	if (ret)
		ta_traffic_free(t);
	return ret;
}

uint32_t ta_traffic_group_of(const struct ta_traffic *t, uint64_t guid,
			     const char *name)
{
	uint32_t i;

	for (i = 0; i < t->n_rules; i++) {
		const struct ta_traffic_rule *r = &t->rules[i];

		if (r->prefix ? (name && !strncmp(name, r->prefix,
						  strlen(r->prefix)))
			      : r->guid == guid)
			return r->group;
	}
	return t->n_groups;
}
