// SPDX-License-Identifier: MIT
/*
 * mcjoin: makes host ports join (or leave) a multicast group by real SA
 * requests (SubnAdmSet / SubnAdmDelete of MCMemberRecord) from this
 * node's umad port (under ibsim: preload umad2sim), on behalf of every
 * port GUID read from GUIDFILE ("-": standard input; one GUID a line,
 * '#' starts a comment).  The SA port may join for other ports (proxy
 * join) when they share a P_Key, so one client can join a whole fabric.
 *
 *   mcjoin [-t TIMEOUT_MS] [-l] [-c] [-q QKEY] [-p PKEY] MGID GUIDFILE
 *
 * -c creates the group with the first join (Q_Key, P_Key, TClass 0,
 * SL 0, FlowLabel 0); -l leaves instead of joining.  Prints one line
 * per port: "joined|left MGID 0xGUID mlid 0xMLID" or "failed ...
 * status 0xSTATUS".  Exit 0 if every request succeeded, 1 if some
 * failed, 2 on bad usage or no SA.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "lr_smp.h"

#define MAD_SIZE 256
#define SA_CLASS 0x03
#define SA_QKEY 0x80010000u
#define METHOD_SET 0x02
#define METHOD_DELETE 0x15
#define ATTR_MCMEMBER 0x0038
#define GID_PREFIX 0xfe80000000000000ull

/* MAD and SA header offsets; the record starts at OFF_DATA */
enum {
	OFF_BASE_VERSION = 0, OFF_CLASS = 1, OFF_CLASS_VERSION = 2,
	OFF_METHOD = 3, OFF_STATUS = 4, OFF_TID = 8, OFF_ATTR_ID = 16,
	OFF_COMP_MASK = 48, OFF_DATA = 56,
};

/* MCMemberRecord fields (offsets in the record) and component bits */
enum {
	MCR_MGID = 0, MCR_PORT_GID = 16, MCR_QKEY = 32, MCR_MLID = 36,
	MCR_TCLASS = 39, MCR_PKEY = 40, MCR_SL_FLOW = 44, MCR_JOIN = 48,
};
#define CM_MGID (1ull << 0)
#define CM_PORT_GID (1ull << 1)
#define CM_QKEY (1ull << 2)
#define CM_TCLASS (1ull << 6)
#define CM_PKEY (1ull << 7)
#define CM_SL (1ull << 12)
#define CM_FLOW (1ull << 13)
#define CM_JOIN (1ull << 16)

struct client {
	int port_id, agent, timeout_ms;
	void *umad;
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint32_t tid;
};

struct request {
	uint8_t mgid[16];
	uint64_t guid;
	int leave, create;
	uint32_t qkey;
	uint16_t pkey;
};

static int client_open(struct client *c, int timeout_ms)
{
	umad_port_t port;

	memset(c, 0, sizeof(*c));
	c->port_id = -1;
	c->timeout_ms = timeout_ms;
	if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) {
		fprintf(stderr, "mcjoin: no umad port (under ibsim, preload "
			"umad2sim)\n");
		return -1;
	}
	c->sm_lid = (uint16_t)port.sm_lid;
	c->sm_sl = (uint8_t)port.sm_sl;
	umad_release_port(&port);
	if (!c->sm_lid) {
		fprintf(stderr, "mcjoin: the port knows no SM LID yet\n");
		return -1;
	}
	c->port_id = umad_open_port(NULL, 0);
	if (c->port_id < 0) {
		fprintf(stderr, "mcjoin: cannot open the umad port: %s\n",
			strerror(-c->port_id));
		return -1;
	}
	c->agent = umad_register(c->port_id, SA_CLASS, 2, 0, NULL);
	c->umad = umad_alloc(1, umad_size() + MAD_SIZE);
	if (c->agent < 0 || !c->umad) {
		fprintf(stderr, "mcjoin: cannot register an SA agent\n");
		return -1;
	}
	return 0;
}

static void client_close(struct client *c)
{
	if (c->port_id >= 0)
		umad_close_port(c->port_id);
	umad_free(c->umad);
	umad_done();
}

static void build(struct client *c, const struct request *r)
{
	uint8_t *mad = umad_get_mad(c->umad), *rec = mad + OFF_DATA;
	uint64_t mask = CM_MGID | CM_PORT_GID | CM_JOIN;

	memset(c->umad, 0, umad_size() + MAD_SIZE);
	mad[OFF_BASE_VERSION] = 1;
	mad[OFF_CLASS] = SA_CLASS;
	mad[OFF_CLASS_VERSION] = 2;
	mad[OFF_METHOD] = r->leave ? METHOD_DELETE : METHOD_SET;
	lr_put32(mad + OFF_TID + 4, ++c->tid);
	lr_put16(mad + OFF_ATTR_ID, ATTR_MCMEMBER);
	memcpy(rec + MCR_MGID, r->mgid, 16);
	lr_put64(rec + MCR_PORT_GID, GID_PREFIX);
	lr_put64(rec + MCR_PORT_GID + 8, r->guid);
	rec[MCR_JOIN] = 0x01;	/* full member */
	if (r->create) {
		lr_put32(rec + MCR_QKEY, r->qkey);
		lr_put16(rec + MCR_PKEY, r->pkey);
		rec[MCR_TCLASS] = 0;
		lr_put32(rec + MCR_SL_FLOW, 0);	/* SL 0, flow label 0 */
		mask |= CM_QKEY | CM_PKEY | CM_TCLASS | CM_SL | CM_FLOW;
	}
	lr_put32(mad + OFF_COMP_MASK, (uint32_t)(mask >> 32));
	lr_put32(mad + OFF_COMP_MASK + 4, (uint32_t)mask);
	umad_set_addr(c->umad, c->sm_lid, 1, c->sm_sl, (int)SA_QKEY);
}

/* 0 and the MAD status (*status, *mlid) of the answer; -1: none */
static int request(struct client *c, const struct request *r,
		   uint16_t *status, uint16_t *mlid)
{
	const uint8_t *mad = umad_get_mad(c->umad);
	int attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		build(c, r);
		if (umad_send(c->port_id, c->agent, c->umad, MAD_SIZE,
			      c->timeout_ms, 0) < 0) {
			fprintf(stderr, "mcjoin: umad_send: %s\n",
				strerror(errno));
			return -1;
		}
		for (;;) {
			int len = MAD_SIZE;

			if (umad_recv(c->port_id, c->umad, &len,
				      c->timeout_ms) < 0 ||
			    umad_status(c->umad))
				break;	/* timeout: send again */
			if (lr_get32(mad + OFF_TID + 4) != c->tid ||
			    !(mad[OFF_METHOD] & 0x80))
				continue;	/* a late answer */
			*status = lr_get16(mad + OFF_STATUS);
			*mlid = lr_get16(mad + OFF_DATA + MCR_MLID);
			return 0;
		}
	}
	return -1;
}

static int parse_guid(const char *s, uint64_t *guid)
{
	char *end;

	errno = 0;
	*guid = strtoull(s, &end, 0);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	return errno || end == s || (*end && *end != '#') ? -1 : 0;
}

static int run(struct client *c, struct request *r, const char *mgid_text,
	       FILE *in, const char *path)
{
	char line[256];
	unsigned lineno = 0, ok = 0, bad = 0;

	while (fgets(line, sizeof(line), in)) {
		char *p = line;
		uint16_t status = 0, mlid = 0;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (parse_guid(p, &r->guid)) {
			fprintf(stderr, "mcjoin: %s:%u: not a port GUID\n",
				path, lineno);
			return 2;
		}
		if (request(c, r, &status, &mlid)) {
			printf("failed %s 0x%016" PRIx64 " no answer\n",
			       mgid_text, r->guid);
			bad++;
			continue;
		}
		if (status) {
			printf("failed %s 0x%016" PRIx64 " status 0x%04x\n",
			       mgid_text, r->guid, status);
			bad++;
			continue;
		}
		printf("%s %s 0x%016" PRIx64 " mlid 0x%04x\n",
		       r->leave ? "left" : "joined", mgid_text, r->guid, mlid);
		r->create = 0;	/* the group exists now */
		ok++;
	}
	fprintf(stderr, "mcjoin: %s %s: %u ok, %u failed\n",
		r->leave ? "leave" : "join", mgid_text, ok, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct request r = { .qkey = 0x0b1b, .pkey = 0xffff };
	long timeout_ms = 1000;
	struct client c;
	FILE *in;
	char *end;
	int opt, ret;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		puts("mcjoin (turnadd) " TURNADD_VERSION);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		puts("usage: mcjoin [-t TIMEOUT_MS] [-l | -c] [-q QKEY] "
		     "[-p PKEY] MGID GUIDFILE|-\n"
		     "Joins (or with -l leaves) every port GUID of GUIDFILE to "
		     "the\nmulticast group MGID by SA MCMemberRecord requests; "
		     "-c creates it.");
		return 0;
	}
	while ((opt = getopt(argc, argv, "t:lcq:p:")) != -1) {
		switch (opt) {
		case 't':
			timeout_ms = strtol(optarg, &end, 10);
			if (*end || timeout_ms <= 0)
				goto usage;
			break;
		case 'l':
			r.leave = 1;
			break;
		case 'c':
			r.create = 1;
			break;
		case 'q':
			r.qkey = (uint32_t)strtoul(optarg, &end, 0);
			if (*end)
				goto usage;
			break;
		case 'p':
			r.pkey = (uint16_t)strtoul(optarg, &end, 0);
			if (*end)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2 || r.leave + r.create > 1)
		goto usage;
	if (inet_pton(AF_INET6, argv[optind], r.mgid) != 1 ||
	    r.mgid[0] != 0xff) {
		fprintf(stderr, "mcjoin: bad MGID '%s' (ff..:...)\n",
			argv[optind]);
		return 2;
	}
	in = strcmp(argv[optind + 1], "-") ? fopen(argv[optind + 1], "r") :
	     stdin;
	if (!in) {
		fprintf(stderr, "mcjoin: %s: %s\n", argv[optind + 1],
			strerror(errno));
		return 2;
	}
	if (client_open(&c, (int)timeout_ms)) {
		client_close(&c);
		return 2;
	}
	ret = run(&c, &r, argv[optind], in, argv[optind + 1]);
	client_close(&c);
	if (in != stdin)
		fclose(in);
	return ret;
usage:
	fprintf(stderr, "usage: mcjoin [-t TIMEOUT_MS] [-l | -c] [-q QKEY] "
		"[-p PKEY] MGID GUIDFILE|- (or --help, --version)\n");
	return 2;
}
