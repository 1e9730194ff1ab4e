// SPDX-License-Identifier: MIT
/*
 * libmadcount.so: an LD_PRELOAD library for opensm that logs every
 * SubnSet(LinearForwardingTable) MAD it sends, outside the routing engine
 * and faster than ibsim -v.
 *
 * It wraps libibumad's umad_send() (libosmvendor calls it through the
 * PLT, so the preloaded definition wins), decodes the SMP and, when the
 * send succeeded, appends one line per LFT Set to the file named by
 * MADCOUNT_LOG:
 *
 *   <block> D <hops> 0,<p1>,...,<pN>    directed route (class 0x81)
 *   <block> L <dlid>                    LID routed (class 0x01)
 *
 * Only method Set (0x02) of attribute 0x0019 counts; Get and GetResp do
 * not.  SubnSet(MulticastForwardingTable, 0x001B) MADs are logged too,
 * as the same line after "mft " (with the attribute modifier, block
 * and position, as first number).  Each line is one write() to an O_APPEND file, so lines of
 * concurrent senders never interleave.  Without MADCOUNT_LOG the library
 * only forwards the call.  OpenSM 3.3.23 sends LFT blocks by directed
 * route with permissive LIDs; madtally maps the routes to switches.
 *
 * Fault injection for tests: with MADCOUNT_SPOIL_LFT_GET=N, the N-th
 * SubnGet(LinearForwardingTable) this process sends (counting from 1)
 * goes out with attribute modifier 0xffff, a block no switch has, so
 * the answer carries an error status instead of the block (as a lost or
 * refused MAD would leave the block unread).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <infiniband/umad.h>

#define MC_CLASS_SM_LID 0x01
#define MC_CLASS_SM_DR 0x81
#define MC_METHOD_GET 0x01
#define MC_METHOD_SET 0x02
#define MC_ATTR_LFT 0x0019
#define MC_ATTR_MFT 0x001B
#define MC_MAD_SIZE 256
#define MC_DR_INITIAL_PATH 128	/* DR SMP: offset of the initial path */
#define MC_MAX_HOPS 63

typedef int (*umad_send_fn)(int portid, int agentid, void *umad, int length,
			    int timeout_ms, int retries);

static umad_send_fn real_umad_send;
static int log_fd = -1;
static unsigned long spoil_get;		/* 0: none */
static unsigned long lft_gets;		/* LFT Gets seen */
static pthread_mutex_t gets_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void mc_init(void)
{
	const char *path = getenv("MADCOUNT_LOG");

	const char *spoil = getenv("MADCOUNT_SPOIL_LFT_GET");

	real_umad_send = (umad_send_fn)dlsym(RTLD_NEXT, "umad_send");
	if (spoil && *spoil)
		spoil_get = strtoul(spoil, NULL, 10);
	if (path && *path)
		log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      0644);
}

static unsigned get16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static unsigned long get32(const uint8_t *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
	       (unsigned long)p[2] << 8 | p[3];
}

/* Formats the log line of an LFT Set; 0 if the MAD is not one. */
static int mc_format(void *umad, const uint8_t *mad, char *buf, size_t size)
{
	const char *pre;
	unsigned hops, i;
	size_t used;
	int n;

	if (mad[3] != MC_METHOD_SET)
		return 0;
	if (get16(mad + 16) == MC_ATTR_LFT)
		pre = "";
	else if (get16(mad + 16) == MC_ATTR_MFT)
		pre = "mft ";
	else
		return 0;
	if (mad[1] == MC_CLASS_SM_LID) {
		const ib_mad_addr_t *addr = umad_get_mad_addr(umad);

		n = snprintf(buf, size, "%s%lu L %u\n", pre, get32(mad + 20),
			     (unsigned)ntohs(addr->lid));
		return n > 0 && (size_t)n < size ? n : 0;
	}
	if (mad[1] != MC_CLASS_SM_DR)
		return 0;
	hops = mad[7] > MC_MAX_HOPS ? MC_MAX_HOPS : mad[7];
	n = snprintf(buf, size, "%s%lu D %u 0", pre, get32(mad + 20), hops);
	if (n < 0 || (size_t)n >= size)
		return 0;
	used = (size_t)n;
	for (i = 1; i <= hops; i++) {
		n = snprintf(buf + used, size - used, ",%u",
			     mad[MC_DR_INITIAL_PATH + i]);
		if (n < 0 || (size_t)n >= size - used)
			return 0;
		used += (size_t)n;
	}
	if (used + 1 >= size)
		return 0;
	buf[used++] = '\n';
	return (int)used;
}

/* MADCOUNT_SPOIL_LFT_GET: the N-th LFT Get asks for block 0xffff */
static void mc_spoil(uint8_t *mad)
{
	int hit;

	if (mad[3] != MC_METHOD_GET || get16(mad + 16) != MC_ATTR_LFT)
		return;
	pthread_mutex_lock(&gets_lock);
	hit = ++lft_gets == spoil_get;
	pthread_mutex_unlock(&gets_lock);
	if (hit) {
		mad[20] = mad[21] = 0;
		mad[22] = mad[23] = 0xff;
	}
}

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	char line[4 * (MC_MAX_HOPS + 1) + 64];
	int ret, n = 0;

	pthread_once(&init_once, mc_init);
	if (!real_umad_send) {
		errno = ENOSYS;
		return -1;
	}
	if (spoil_get && umad && length >= MC_MAD_SIZE)
		mc_spoil(umad_get_mad(umad));
	if (log_fd >= 0 && umad && length >= MC_MAD_SIZE)
		n = mc_format(umad, umad_get_mad(umad), line, sizeof(line));
	ret = real_umad_send(portid, agentid, umad, length, timeout_ms,
			     retries);
	if (ret == 0 && n > 0 && write(log_fd, line, (size_t)n) != n) {
		/* a lost line would make the count wrong: say so once */
		static int warned;

		if (!warned) {
			warned = 1;
			fprintf(stderr, "madcount: write to MADCOUNT_LOG "
				"failed\n");
		}
	}
	return ret;
}
