// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lid_g2l.h"
#include "lid_order.h"

static int bad(char *err, const char *file, uint32_t line, const char *what)
{
	snprintf(err, LN_ERR_LEN, "%s:%u: %s", file, line, what);
	return -1;
}

/* "0xGUID MIN MAX": NULL, or the problem */
static const char *parse_entry(const char *s, struct g2l_entry *e)
{
	unsigned long long guid;
	unsigned long lo, hi;
	char *end;

	errno = 0;
	guid = strtoull(s, &end, 0);
	if (end == s || errno || !guid || !isspace((unsigned char)*end))
		return "expected a port GUID and two LIDs";
	s = end;
	lo = strtoul(s, &end, 0);
	if (end == s)
		return "expected MINLID after the GUID";
	s = end;
	hi = strtoul(s, &end, 0);
	if (end == s)
		return "expected MAXLID after MINLID";
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return "trailing characters after MAXLID";
	if (!lo || hi < lo || hi > LA_MAX_UCAST_LID)
		return "LID range must be 1 <= MINLID <= MAXLID <= 49151";
	e->guid = guid;
	e->min_lid = (uint16_t)lo;
	e->max_lid = (uint16_t)hi;
	return NULL;
}

static int cmp_guid(const void *a, const void *b)
{
	const struct g2l_entry *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int check_unique(struct g2l_entry *e, size_t n, const char *file,
			char *err)
{
	size_t i;

	if (n < 2)
		return 0;	/* nothing to compare (and e may be NULL) */
	qsort(e, n, sizeof(*e), cmp_guid);
	for (i = 1; i < n; i++)
		if (e[i].guid == e[i - 1].guid) {
			uint32_t l = e[i].line > e[i - 1].line ?
				     e[i].line : e[i - 1].line;

			snprintf(err, LN_ERR_LEN,
				 "%s:%u: GUID 0x%016" PRIx64 " appears twice",
				 file, l, e[i].guid);
			return -1;
		}
	return 0;
}

int g2l_read(FILE *f, const char *file, struct g2l_entry **out, size_t *n,
	     char err[LN_ERR_LEN])
{
	struct g2l_entry *v = NULL, e;
	size_t cnt = 0, cap = 0, lcap = 0;
	char *line = NULL, *s;
	uint32_t lineno = 0;
	ssize_t len;
	int ret = 0;

	while (!ret && (len = getline(&line, &lcap, f)) >= 0) {
		const char *what;

		lineno++;
		if ((size_t)len != strlen(line)) {
			ret = bad(err, file, lineno, "NUL byte in the line");
			break;
		}
		for (s = line; isspace((unsigned char)*s); s++)
			;
		if (!*s || *s == '#')
			continue;
		what = parse_entry(s, &e);
		if (what) {
			ret = bad(err, file, lineno, what);
			break;
		}
		e.line = lineno;
		if (cnt == cap) {
			struct g2l_entry *p;

			cap = cap ? 2 * cap : 256;
			p = realloc(v, cap * sizeof(*v));
			if (!p) {
				ret = bad(err, file, lineno, "out of memory");
				break;
			}
			v = p;
		}
		v[cnt++] = e;
	}
	free(line);
	if (!ret && ferror(f)) {
		snprintf(err, LN_ERR_LEN, "%s: read error: %s", file,
			 strerror(errno));
		ret = -1;
	}
	if (!ret)
		ret = check_unique(v, cnt, file, err);
	if (ret) {
		free(v);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

int g2l_read_path(const char *path, struct g2l_entry **out, size_t *n,
		  char err[LN_ERR_LEN])
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		snprintf(err, LN_ERR_LEN, "%s: cannot open: %s", path,
			 strerror(errno));
		return -1;
	}
	ret = g2l_read(f, path, out, n, err);
	fclose(f);
	return ret;
}

static int cmp_lid(const void *a, const void *b)
{
	const struct g2l_entry *x = a, *y = b;

	if (x->min_lid != y->min_lid)
		return (int)x->min_lid - (int)y->min_lid;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

int g2l_write(FILE *f, struct g2l_entry *e, size_t n)
{
	size_t i;

	qsort(e, n, sizeof(*e), cmp_lid);
	for (i = 0; i < n; i++)
		if (fprintf(f, "0x%016" PRIx64 " %u %u\n\n", e[i].guid,
			    e[i].min_lid, e[i].max_lid) < 0)
			return -1;
	return fflush(f) ? -1 : 0;
}
