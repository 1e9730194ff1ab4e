/* SPDX-License-Identifier: MIT */
/*
 * Directed-route SubnGet() through libibumad (under umad2sim: against
 * the simulator).  Directed routes do not depend on the forwarding tables
 * being read.
 */
#ifndef LR_SMP_H
#define LR_SMP_H

#include <stdint.h>

#define LR_MAX_HOPS 63
#define LR_SMP_DATA 64

#define LR_ATTR_NODE_INFO 0x0011
#define LR_ATTR_SWITCH_INFO 0x0012
#define LR_ATTR_LFT 0x0019

/* MAD fields are big-endian: put/get 16, 32 and 64 bits at p. */
static inline void lr_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void lr_put32(uint8_t *p, uint32_t v)
{
	lr_put16(p, (uint16_t)(v >> 16));
	lr_put16(p + 2, (uint16_t)v);
}

static inline void lr_put64(uint8_t *p, uint64_t v)
{
	lr_put32(p, (uint32_t)(v >> 32));
	lr_put32(p + 4, (uint32_t)v);
}

static inline uint16_t lr_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t lr_get32(const uint8_t *p)
{
	return (uint32_t)lr_get16(p) << 16 | lr_get16(p + 2);
}

static inline uint64_t lr_get64(const uint8_t *p)
{
	return (uint64_t)lr_get32(p) << 32 | lr_get32(p + 4);
}

struct lr_smp {
	int port_id;
	int agent;
	void *umad;
	uint32_t tid;
	int timeout_ms;
};

/* Opens the first umad port; -1 (message printed) on failure. */
int lr_smp_open(struct lr_smp *s, int timeout_ms);
void lr_smp_close(struct lr_smp *s);

/*
 * SubnGet(attr, mod) along the directed route path[1..hops] (out port at
 * each hop; path[0] is unused).  Copies the 64 attribute bytes to data.
 * 0 on success, -1 on timeout or error status (message printed).
 */
int lr_smp_get(struct lr_smp *s, const uint8_t *path, unsigned hops,
	       uint16_t attr, uint32_t mod, uint8_t data[LR_SMP_DATA]);

#endif /* LR_SMP_H */
