// SPDX-License-Identifier: MIT
/* Reader of the SL of every route (lc_sl.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lc_input.h"
#include "lc_sl.h"

void lc_sl_free(struct lc_sl *t)
{
	free(t->sl);
	memset(t, 0, sizeof(*t));
}

/* switch index of guid, -1 if none; *hint: the last one found */
static int switch_of(const struct lc_fabric *f, uint64_t guid, int *hint)
{
	unsigned i;

	if (*hint >= 0 && f->node[f->sw_node[*hint]].guid == guid)
		return *hint;
	for (i = 0; i < f->n_switches; i++)
		if (f->node[f->sw_node[i]].guid == guid)
			return *hint = (int)i;
	return -1;
}

/* one "0xGUID DLID SL" line; -1 if malformed (printed) */
static int read_line(struct lc_input *in, const struct lc_fabric *f,
		     struct lc_sl *t, int *hint)
{
	char *s = in->line, *end;
	unsigned long long guid;
	unsigned long lid, sl;
	int sw;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return 0;
	guid = strtoull(s, &end, 16);
	if (strncmp(s, "0x", 2) || end == s + 2 || !isspace((unsigned char)*end))
		return lc_input_error(in, "want \"0x<switch GUID> <dlid> <sl>\"");
	s = end;
	lid = strtoul(s, &end, 10);
	if (end == s || !isspace((unsigned char)*end))
		return lc_input_error(in, "bad destination LID");
	s = end;
	sl = strtoul(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || sl >= LC_SL_MAX)
		return lc_input_error(in, "bad SL (0 to %u)", LC_SL_MAX - 1);
	t->lines++;
	sw = switch_of(f, guid, hint);
	if (sw < 0 || lid >= t->n_lids) {
		t->unknown++;
		return 0;
	}
	t->sl[(size_t)sw * t->n_lids + lid] = (uint8_t)sl;
	if (sl + 1 > t->n_sls)
		t->n_sls = (unsigned)sl + 1;
	return 0;
}

int lc_sl_read(struct lc_sl *t, const struct lc_fabric *f, const char *path)
{
	struct lc_input in;
	int hint = -1, r, ret = 0;

	memset(t, 0, sizeof(*t));
	t->n_sw = f->n_switches;
	t->n_lids = f->max_lid + 1;
	t->n_sls = 1;
	t->sl = malloc((size_t)t->n_sw * t->n_lids + 1);
	if (!t->sl)
		return lc_error_at(path, 0, "out of memory");
	memset(t->sl, LC_SL_UNSET, (size_t)t->n_sw * t->n_lids);
	if (lc_input_open(&in, path)) {
		lc_sl_free(t);
		return -1;
	}
	while ((r = lc_input_next(&in)) > 0 && !ret)
		ret = read_line(&in, f, t, &hint);
	lc_input_close(&in);
	if (r < 0 || ret) {
		lc_sl_free(t);
		return -1;
	}
	return 0;
}
