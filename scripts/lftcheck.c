// SPDX-License-Identifier: MIT
/*
 * lftcheck: checks the unicast routes a subnet manager put into the
 * switches, independently of the routing engine that computed them.
 *
 *   lftcheck [-n MAX_DETAIL] [-t] TOPOLOGY LFTS
 *
 * TOPOLOGY is ibnetdiscover output, LFTS the output of lftread (same
 * format as dump_fts -n, ibroute; those tools miss some entries, see
 * lftread.c).  Exit status: 0 if every host
 * reaches every host and switch LID and the channel dependency graph is
 * acyclic, 1 if not, 2 on bad usage or input.  -t (--throughput) also
 * prints the papers' throughput of the routes (see lc_load.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_check.h"
#include "lc_load.h"
#include "lc_parse.h"

static const char usage_text[] =
	"usage: lftcheck [-n MAX_DETAIL] [-t] TOPOLOGY LFTS\n"
	"  TOPOLOGY  ibnetdiscover output (with LIDs)\n"
	"  LFTS      lftread output (dump_fts -n / ibroute format)\n"
	"  -n N      print at most N lines about unreachable routes "
	"(default 10)\n"
	"  -t, --throughput  also print throughput=1/(max link load) for\n"
	"            uniform all-to-all traffic, and that link\n"
	"Exit 0: all reachable and CDG acyclic; 1: not; 2: bad input.\n";

static void print_cycle(const struct lc_fabric *f, const struct lc_report *r)
{
	unsigned i;

	printf("cdg=CYCLE len=%u:", r->cycle_len);
	for (i = 0; i <= r->cycle_len; i++) {
		unsigned slot = r->cycle[i % r->cycle_len];
		unsigned sw = lc_cdg_slot_sw(&r->cdg, slot);

		printf("%s%s[%u]", i ? "->" : " ", f->node[f->sw_node[sw]].desc,
		       lc_cdg_slot_port(&r->cdg, slot));
	}
	putchar('\n');
}

static void print_report(const struct lc_fabric *f, const struct lc_report *r)
{
	double mean = r->hop_pairs ? (double)r->hop_sum / r->hop_pairs : 0;

	printf("hosts=%u switches=%u host_pairs=%llu "
	       "unreachable_host_pairs=%llu unreachable_host_to_switch=%llu\n",
	       r->hosts, r->switches, r->host_pairs, r->unreachable_host_pairs,
	       r->unreachable_host_to_switch);
	if (r->hosts_without_lid || r->switches_without_lid)
		printf("hosts_without_lid=%u switches_without_lid=%u\n",
		       r->hosts_without_lid, r->switches_without_lid);
	printf("max_sw_hops=%u mean_sw_hops=%.3f\n", r->max_hops, mean);
	printf("cdg_channels=%u cdg_edges=%lu ", lc_cdg_channels(&r->cdg),
	       lc_cdg_edges(&r->cdg));
	if (r->cdg_result)
		print_cycle(f, r);
	else
		printf("cdg=acyclic\n");
	printf("verdict=%s\n", lc_report_ok(r) ? "OK" : "FAIL");
}

/*
 * throughput=T max_link_load=L max_link=SW[P] links_at_max=N, and
 * undelivered=U (share of the traffic not delivered) if there is some.
 */
static int print_throughput(const struct lc_fabric *f)
{
	struct lc_load_report lr;

	if (lc_load_compute(f, &lr))
		return -1;
	printf("throughput=%.4f max_link_load=%.4f max_link=", lr.throughput,
	       lr.max_load);
	if (lr.max_sw >= 0)
		printf("%s[%u]", f->node[f->sw_node[lr.max_sw]].desc,
		       lr.max_port);
	else
		printf("host-link");
	printf(" links_at_max=%u", lr.links_at_max);
	if (lr.lost > 0 && lr.hosts)
		printf(" undelivered=%.6f", lr.lost / lr.hosts);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "throughput", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int throughput = 0;
	unsigned long max_detail = 10;
	struct lc_fabric f;
	struct lc_report r;
	char *end;
	int opt, ok;

	while ((opt = getopt_long(argc, argv, "hn:t", long_opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			throughput = 1;
			break;
		case 'n':
			max_detail = strtoul(optarg, &end, 10);
			if (!*optarg || *end) {
				fprintf(stderr, "lftcheck: bad -n '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return 2;
	}
	lc_fabric_init(&f);
	if (lc_read_topology(&f, argv[optind]) ||
	    lc_read_lfts(&f, argv[optind + 1])) {
		lc_fabric_free(&f);
		return 2;
	}
	if (lc_check(&f, &r, stdout, (unsigned)max_detail)) {
		fprintf(stderr, "lftcheck: out of memory\n");
		lc_fabric_free(&f);
		return 2;
	}
	print_report(&f, &r);
	ok = lc_report_ok(&r);
	if (throughput && print_throughput(&f)) {
		fprintf(stderr, "lftcheck: out of memory\n");
		lc_report_free(&r);
		lc_fabric_free(&f);
		return 2;
	}
	lc_report_free(&r);
	lc_fabric_free(&f);
	return ok ? 0 : 1;
}
