// SPDX-License-Identifier: MIT
/* Reader of unicast LFT dumps (dump_fts / dump_lfts / ibroute output). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lc_ibnd.h"
#include "lc_input.h"
#include "lc_parse.h"

static int read_switch_header(struct lc_input *in, struct lc_fabric *f,
			      struct lc_node **cur)
{
	const char *g = strstr(in->line, " guid 0x");
	uint64_t guid;

	if (!g)
		return lc_input_error(in, "LFT header without \"guid 0x...\"");
	guid = strtoull(g + 6, NULL, 16);
	*cur = lc_fabric_switch_by_guid(f, guid);
	if (!*cur)
		return lc_input_error(in, "switch guid 0x%016llx is not in the "
				      "topology", (unsigned long long)guid);
	if ((*cur)->has_lft)
		return lc_input_error(in, "second LFT for switch \"%s\"",
				      (*cur)->desc);
	(*cur)->has_lft = true;
	return 0;
}

static int read_entry(struct lc_input *in, struct lc_node *cur)
{
	char *s = in->line, *end;
	unsigned long lid, port;

	if (!cur)
		return lc_input_error(in, "LFT entry before any switch header");
	lid = strtoul(s, &end, 16);
	if (end == s || lid > LC_MAX_LID)
		return lc_input_error(in, "bad LID");
	s = end;
	port = strtoul(s, &end, 10);
	if (end == s || !isspace((unsigned char)*s))
		return lc_input_error(in, "LFT entry without a port");
	if (port == LC_NO_ENTRY)
		return 0;
	if (port > cur->n_ports)
		return lc_input_error(in, "port %lu beyond the %u ports of "
				      "\"%s\"", port, cur->n_ports, cur->desc);
	if (lc_fabric_set_lft(cur, (unsigned)lid, (unsigned)port))
		return lc_input_error(in, "out of memory");
	return 0;
}

/* The switch being read and its header (lc_diags_check_top()). */
struct lft_reader {
	struct lc_node *cur;
	unsigned header_line, top;
	bool in_mcast;
};

static int read_line(struct lc_input *in, struct lc_fabric *f,
		     struct lft_reader *r)
{
	struct lc_node **cur = &r->cur;
	char *s = in->line;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#' || lc_diags_skip_lft_line(s, &r->in_mcast))
		return 0;
	if (!strncmp(s, "Unicast lids", 12)) {
		lc_diags_check_top(f, *cur, in->path, r->header_line, r->top);
		r->header_line = in->line_no;
		r->top = lc_diags_header_top(s);
		return read_switch_header(in, f, cur);
	}
	if (!strncmp(s, "0x", 2))
		return read_entry(in, *cur);
	/* column titles and "N valid lids dumped" trailers */
	if (!strncmp(s, "Lid", 3) || !strncmp(s, "Port", 4) ||
	    strstr(s, "lids dumped"))
		return 0;
	return lc_input_error(in, "unexpected line: %.60s", s);
}

int lc_read_lfts(struct lc_fabric *f, const char *path)
{
	struct lft_reader r = { 0 };
	struct lc_input in;
	unsigned i;
	int got;

	if (lc_input_open(&in, path))
		return -1;
	while ((got = lc_input_next(&in)) > 0)
		if (read_line(&in, f, &r))
			break;
	lc_input_close(&in);
	if (got)
		return -1;
	lc_diags_check_top(f, r.cur, path, r.header_line, r.top);
	for (i = 0; i < f->n_switches; i++) {
		const struct lc_node *n = &f->node[f->sw_node[i]];

		if (!n->has_lft)
			return lc_error_at(path, 0, "no LFT for switch \"%s\" "
					   "(guid 0x%016llx)", n->desc,
					   (unsigned long long)n->guid);
	}
	return 0;
}
