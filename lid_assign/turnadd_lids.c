// SPDX-License-Identifier: MIT
/*
 * turnadd-lids: port-major LIDs for a fabric described by an ibsim /
 * ibnetdiscover-style netfile, written as an OpenSM guid2lid file.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lid_g2l.h"
#include "lid_netfab.h"

struct opts {
	const char *netfile, *existing, *output;
	bool ibsim_guids, verbose;
	struct la_input tune;	/* lmc, sp0_lmc, max_lid, layout */
};

static void usage(FILE *f)
{
	fputs("usage: turnadd-lids [options] NETFILE\n"
	      "Writes port-major LIDs for the fabric in NETFILE (ibsim netfile /\n"
	      "ibnetdiscover format) as an OpenSM guid2lid file.\n"
	      "  -o, --output FILE     write there (default: standard output)\n"
	      "  -e, --existing FILE   guid2lid file whose LIDs stay stable\n"
	      "  -l, --lmc N           LIDs per port 2^N (OpenSM's lmc), default 0\n"
	      "      --sp0-lmc         switch port 0 takes 2^N LIDs too\n"
	      "                        (OpenSM lmc_esp0 TRUE, enhanced port 0)\n"
	      "      --max-lid N       highest LID to give (default 49151)\n"
	      "      --layout MODE     auto (default: group-major on a Dragonfly+),\n"
	      "                        port-major or group-major\n"
	      "      --ibsim-guids     GUIDs as ibsim derives them, ignoring\n"
	      "                        explicit port GUIDs in the file\n"
	      "  -v, --verbose         group ranges and every overflow port\n"
	      "  -h, --help            this text\n"
	      "      --version         print the version\n",
	      f);
}

static int parse_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || end == s || *end || *v > max ? -1 : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "existing", required_argument, NULL, 'e' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "sp0-lmc", no_argument, NULL, 'S' },
		{ "max-lid", required_argument, NULL, 'M' },
		{ "ibsim-guids", no_argument, NULL, 'I' },
		{ "layout", required_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	while ((c = getopt_long(argc, argv, "o:e:l:vh", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'e':
			o->existing = optarg;
			break;
		case 'l':
			if (parse_num(optarg, 7, &v))
				goto bad;
			o->tune.lmc = (uint8_t)v;
			break;
		case 'S':
			o->tune.sp0_lmc = true;
			break;
		case 'M':
			if (parse_num(optarg, LA_MAX_UCAST_LID, &v) || v < 1)
				goto bad;
			o->tune.max_lid = (uint16_t)v;
			break;
		case 'I':
			o->ibsim_guids = true;
			break;
		case 'L':
			if (la_layout_mode_parse(optarg, &o->tune.layout)) {
				fprintf(stderr,
					"turnadd-lids: bad value \"%s\" for --layout (auto, port-major or group-major)\n",
					optarg);
				return -1;
			}
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			puts("turnadd-lids (turnadd) " TURNADD_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return -1;
	}
	o->netfile = argv[optind];
	return 0;
bad:
	fprintf(stderr, "turnadd-lids: bad value \"%s\" for -%c\n", optarg,
		c == 'M' ? 'M' : c);
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* index of the port with guid, by binary search over (guid, index) */
static int64_t find_guid(const uint64_t (*map)[2], uint32_t n, uint64_t guid)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (map[mid][0] == guid)
			return (int64_t)map[mid][1];
		if (map[mid][0] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* old LIDs of present ports; entries of absent ones become reservations */
static int apply_existing(const struct opts *o, struct ln_fabric *fab,
			  struct g2l_entry **absent, size_t *n_absent)
{
	struct la_input *in = &fab->in;
	uint64_t (*map)[2] = calloc(in->n_ports + 1, sizeof(*map));
	struct la_range *res = NULL;
	struct g2l_entry *e = NULL;
	char err[LN_ERR_LEN];
	size_t n = 0, i;
	uint32_t k;

	*n_absent = 0;
	if (!map)
		return -1;
	for (k = 0; k < in->n_ports; k++) {
		map[k][0] = in->ports[k].guid;
		map[k][1] = k;
	}
	qsort(map, in->n_ports, sizeof(*map), cmp_u64);
	for (k = 1; k < in->n_ports; k++)
		if (map[k][0] == map[k - 1][0]) {
			fprintf(stderr, "turnadd-lids: %s: port GUID 0x%016" PRIx64 " appears twice (\"%s\"[%u] and \"%s\"[%u])\n",
				o->netfile, map[k][0],
				fab->port_node[map[k - 1][1]],
				fab->port_num[map[k - 1][1]],
				fab->port_node[map[k][1]],
				fab->port_num[map[k][1]]);
			free(map);
			return -1;
		}
	if (o->existing && g2l_read_path(o->existing, &e, &n, err)) {
		fprintf(stderr, "turnadd-lids: %s\n", err);
		free(map);
		return -1;
	}
	res = calloc(n + 1, sizeof(*res));
	*absent = calloc(n + 1, sizeof(**absent));
	if (!res || !*absent) {
		free(map);
		free(e);
		free(res);
		return -1;
	}
	for (i = 0; i < n; i++) {
		int64_t p = find_guid((const uint64_t (*)[2])map, in->n_ports,
				      e[i].guid);

		if (p >= 0) {
			in->ports[p].old_lid = e[i].min_lid;
			continue;
		}
		res[*n_absent].lo = e[i].min_lid;
		res[*n_absent].hi = e[i].max_lid;
		(*absent)[(*n_absent)++] = e[i];
	}
	in->reserved = res;
	in->n_reserved = (uint32_t)*n_absent;
	free(map);
	free(e);
	return 0;
}

static void report(const struct opts *o, const struct ln_fabric *fab,
		   const struct la_result *r)
{
	uint32_t g, p;
	char why[256];

	la_layout_describe(r, why, sizeof(why));
	fprintf(stderr, "turnadd-lids: LID layout: %s\n", why);
	fprintf(stderr,
		"turnadd-lids: %u ports in %u groups (LIDs 1-%u), %u kept, %u placed, %u overflow, %u failed, %u moved; %s layout%s, top LID %u\n",
		fab->in.n_ports, r->n_groups, r->end ? r->end - 1u : 0,
		r->kept, r->placed, r->overflow, r->failed, r->moved,
		r->inherited ? "inherited" : "natural",
		r->sw_anywhere ? ", switch LIDs kept in any group" : "",
		r->top_lid);
	for (g = 0; o->verbose && g < r->n_groups; g++)
		fprintf(stderr,
			"turnadd-lids: group %u (%s %u): LIDs %u-%u, %u hosts, %u switches, %u guests (%u kept, %u placed, %u overflow)\n",
			g, r->group_major ? "Dragonfly+ group" : "switch port",
			r->group_major ? g : g + 1, r->groups[g].lo, r->groups[g].hi,
			r->groups[g].hosts, r->groups[g].switches,
			r->groups[g].guests, r->groups[g].kept,
			r->groups[g].placed, r->groups[g].overflow);
	for (p = 0; p < fab->in.n_ports; p++) {
		const struct la_port *lp = &fab->in.ports[p];

		if (lp->fate == LA_FAILED ||
		    (lp->fate == LA_OVERFLOW && lp->group != LA_NO_GROUP))
			fprintf(stderr,
				"turnadd-lids: \"%s\"[%u] 0x%016" PRIx64 ": group %u full, %s %u\n",
				fab->port_node[p], fab->port_num[p], lp->guid,
				lp->group, lp->lid ? "LID" : "no LID left",
				lp->lid);
	}
}

static int write_out(const struct opts *o, const struct ln_fabric *fab,
		     const struct g2l_entry *absent, size_t n_absent)
{
	const struct la_input *in = &fab->in;
	struct g2l_entry *e = calloc(in->n_ports + n_absent + 1, sizeof(*e));
	FILE *f = stdout;
	size_t n = 0;
	uint32_t p;
	int ret;

	if (!e)
		return -1;
	for (p = 0; p < in->n_ports; p++)
		if (in->ports[p].lid) {
			e[n].guid = in->ports[p].guid;
			e[n].min_lid = in->ports[p].lid;
			e[n++].max_lid = in->ports[p].lid +
					 in->ports[p].n_lids - 1;
		}
	memcpy(e + n, absent, n_absent * sizeof(*e));
	n += n_absent;
	if (o->output && !(f = fopen(o->output, "w"))) {
		fprintf(stderr, "turnadd-lids: %s: %s\n", o->output,
			strerror(errno));
		free(e);
		return -1;
	}
	ret = g2l_write(f, e, n);
	if (f != stdout && fclose(f))
		ret = -1;
	if (ret)
		fprintf(stderr, "turnadd-lids: %s: write error: %s\n",
			o->output ? o->output : "stdout", strerror(errno));
	free(e);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct g2l_entry *absent = NULL;
	struct ln_fabric fab;
	struct la_result r;
	char err[LN_ERR_LEN];
	struct ln_net net;
	size_t n_absent = 0;
	int ret = 1;

	if (parse_opts(argc, argv, &o))
		return 2;
	if (ln_parse_path(o.netfile, &net, err) ||
	    ln_fabric_build(&net, o.ibsim_guids, &fab, err)) {
		fprintf(stderr, "turnadd-lids: %s\n", err);
		ln_free(&net);
		return 1;
	}
	fab.in.lmc = o.tune.lmc;
	fab.in.sp0_lmc = o.tune.sp0_lmc;
	fab.in.max_lid = o.tune.max_lid;
	fab.in.layout = o.tune.layout;
	if (apply_existing(&o, &fab, &absent, &n_absent))
		goto out;
	ret = la_assign(&fab.in, &r);
	if (ret) {
		fprintf(stderr, "turnadd-lids: %s: %s\n", o.netfile,
			ret == -EINVAL ? "duplicate switch GUIDs" :
					 "out of memory");
		ret = 1;
		goto out;
	}
	report(&o, &fab, &r);
	ret = write_out(&o, &fab, absent, n_absent) ? 1 : r.failed ? 3 : 0;
	la_result_free(&r);
out:
	free((void *)fab.in.reserved);
	free(absent);
	ln_fabric_free(&fab);
	ln_free(&net);
	return ret;
}
