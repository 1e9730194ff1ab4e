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
