// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/umad.h>

#include "lr_smp.h"

#define MAD_SIZE 256
#define SMI_DIRECT_CLASS 0x81
#define METHOD_GET 0x01
#define PERMISSIVE_LID 0xffff
#define STATUS_DIRECTION 0x8000

/* Offsets in a directed-route SMP. */
enum {
	OFF_BASE_VERSION = 0,
	OFF_CLASS = 1,
	OFF_CLASS_VERSION = 2,
	OFF_METHOD = 3,
	OFF_STATUS = 4,
	OFF_HOP_PTR = 6,
	OFF_HOP_COUNT = 7,
	OFF_TID = 8,
	OFF_ATTR_ID = 16,
	OFF_ATTR_MOD = 20,
	OFF_DR_SLID = 32,
	OFF_DR_DLID = 34,
	OFF_DATA = 64,
	OFF_INITIAL_PATH = 128,
};

int lr_smp_open(struct lr_smp *s, int timeout_ms)
{
	memset(s, 0, sizeof(*s));
	s->timeout_ms = timeout_ms;
	s->port_id = -1;
	if (umad_init() < 0) {
		fprintf(stderr, "lftread: umad_init failed\n");
		return -1;
	}
	s->port_id = umad_open_port(NULL, 0);
	if (s->port_id < 0) {
		fprintf(stderr, "lftread: cannot open a umad port: %s "
			"(under ibsim, preload umad2sim)\n",
			strerror(-s->port_id));
		return -1;
	}
	s->agent = umad_register(s->port_id, SMI_DIRECT_CLASS, 1, 0, NULL);
	s->umad = umad_alloc(1, umad_size() + MAD_SIZE);
	if (s->agent < 0 || !s->umad) {
		fprintf(stderr, "lftread: cannot register an SMI agent\n");
		return -1;
	}
	return 0;
}

void lr_smp_close(struct lr_smp *s)
{
	if (s->port_id >= 0)
		umad_close_port(s->port_id);
	umad_free(s->umad);
	umad_done();
	memset(s, 0, sizeof(*s));
	s->port_id = -1;
}

static void build_get(struct lr_smp *s, const uint8_t *path, unsigned hops,
		      uint16_t attr, uint32_t mod)
{
	uint8_t *mad = umad_get_mad(s->umad);

	memset(s->umad, 0, umad_size() + MAD_SIZE);
	mad[OFF_BASE_VERSION] = 1;
	mad[OFF_CLASS] = SMI_DIRECT_CLASS;
	mad[OFF_CLASS_VERSION] = 1;
	mad[OFF_METHOD] = METHOD_GET;
	mad[OFF_HOP_COUNT] = (uint8_t)hops;
	/* the transport puts its agent number in TID bits 32-47 */
	lr_put32(mad + OFF_TID + 4, ++s->tid);
	lr_put16(mad + OFF_ATTR_ID, attr);
	lr_put32(mad + OFF_ATTR_MOD, mod);
	lr_put16(mad + OFF_DR_SLID, PERMISSIVE_LID);
	lr_put16(mad + OFF_DR_DLID, PERMISSIVE_LID);
	memcpy(mad + OFF_INITIAL_PATH + 1, path + 1, hops);
	umad_set_addr(s->umad, PERMISSIVE_LID, 0, 0, 0);
}

/* Waits for the response to the last request; 0, or -1 on timeout. */
static int await_response(struct lr_smp *s)
{
	const uint8_t *mad = umad_get_mad(s->umad);

	for (;;) {
		int len = MAD_SIZE;
		int r = umad_recv(s->port_id, s->umad, &len, s->timeout_ms);

		if (r < 0)
			return -1;
		if (umad_status(s->umad))
			return -1;
		if (lr_get32(mad + OFF_TID + 4) == s->tid &&
		    mad[OFF_METHOD] & 0x80)
			return 0;
		/* a late answer to an earlier, retried request: skip */
	}
}

int lr_smp_get(struct lr_smp *s, const uint8_t *path, unsigned hops,
	       uint16_t attr, uint32_t mod, uint8_t data[LR_SMP_DATA])
{
	const uint8_t *mad = umad_get_mad(s->umad);
	int attempt;

	if (hops > LR_MAX_HOPS)
		return -1;
	for (attempt = 0; attempt < 3; attempt++) {
		uint16_t status;

		build_get(s, path, hops, attr, mod);
		if (umad_send(s->port_id, s->agent, s->umad, MAD_SIZE,
			      s->timeout_ms, 0) < 0) {
			fprintf(stderr, "lftread: umad_send: %s\n",
				strerror(errno));
			return -1;
		}
		if (await_response(s))
			continue;
		status = lr_get16(mad + OFF_STATUS) & ~STATUS_DIRECTION;
		if (status) {
			fprintf(stderr, "lftread: SubnGet(0x%04x, %u) over %u "
				"hops: MAD status 0x%04x\n", attr, mod, hops,
				status);
			return -1;
		}
		memcpy(data, mad + OFF_DATA, LR_SMP_DATA);
		return 0;
	}
	fprintf(stderr, "lftread: SubnGet(0x%04x, %u) over %u hops: no "
		"answer after 3 tries\n", attr, mod, hops);
	return -1;
}
