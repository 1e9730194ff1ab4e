// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: turnadd-lids' reader of OpenSM's guid2lid file,
 * g2l_read_path(); on success the entries are written back with
 * g2l_write() and read again, which must give the same set.
 */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz_common.h"
#include "lid_g2l.h"

static int cmp_entry(const void *a, const void *b)
{
	const struct g2l_entry *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->min_lid != y->min_lid)
		return (int)x->min_lid - (int)y->min_lid;
	return (int)x->max_lid - (int)y->max_lid;
}

static void round_trip(struct g2l_entry *e, size_t n)
{
	char err[LN_ERR_LEN], *buf = NULL;
	size_t len = 0, n2 = 0, i;
	struct g2l_entry *e2 = NULL;
	FILE *f = open_memstream(&buf, &len);

	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(g2l_write(f, e, n) == 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	FUZZ_CHECK(f != NULL);
	if (g2l_read(f, "round-trip", &e2, &n2, err)) {
		fprintf(stderr, "re-reading written entries: %s\n", err);
		abort();
	}
	fclose(f);
	FUZZ_CHECK(n2 == n);
	qsort(e, n, sizeof(*e), cmp_entry);
	qsort(e2, n2, sizeof(*e2), cmp_entry);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(cmp_entry(&e[i], &e2[i]) == 0);
	free(e2);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	char err[LN_ERR_LEN];
	struct g2l_entry *e = NULL;
	size_t n = 0;
	int ret;

	err[0] = '\0';
	ret = g2l_read_path(path, &e, &n, err);
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(memchr(err, '\0', LN_ERR_LEN) != NULL);
	if (ret) {
		FUZZ_CHECK(err[0] != '\0');
		return 0;
	}
	if (n)	/* (fmemopen() refuses a zero size) */
		round_trip(e, n);
	free(e);
	return 0;
}
