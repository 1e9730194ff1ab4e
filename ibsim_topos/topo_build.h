/* SPDX-License-Identifier: MIT */
/*
 * Helpers the generators share to fill a struct topo step by step.
 * While building, t->sw_ports[s] counts the ports used so far on s;
 * topo_build_finish() turns it into the final port count.
 */
#ifndef TOPO_BUILD_H
#define TOPO_BUILD_H

#include "topo.h"

/* Upper bound on switches a generator accepts (keeps sizes in range). */
#define TOPO_MAX_SWITCHES 65536u

/* Allocates n_sw switches named "<prefix><i>", room for max_links links. */
int topo_build_start(struct topo *t, unsigned n_sw, const char *prefix,
		     unsigned max_links, unsigned max_hosts);

/* Renames switch sw to "<prefix><index>". */
int topo_build_name_sw(struct topo *t, unsigned sw, const char *prefix,
		       unsigned index);

/* Adds hosts_per_sw hosts on the next free ports of switches 0..n-1. */
int topo_build_hosts(struct topo *t, unsigned n, unsigned hosts_per_sw);

/* Adds n hosts on the next free ports of switch sw. */
int topo_build_hosts_on(struct topo *t, unsigned sw, unsigned n);

/* Adds a link a <-> b on the next free port of each end. */
int topo_build_link(struct topo *t, unsigned a, unsigned b);

/*
 * Adds a link between port pa of a and port pb of b, ports the caller
 * laid out (after the hosts); each end's used-port count becomes at
 * least that port.
 */
int topo_build_link_at(struct topo *t, unsigned a, unsigned pa, unsigned b,
		       unsigned pb);

/* Fixes the port counts; -1 (and frees *t) if a switch needs too many. */
int topo_build_finish(struct topo *t);

/* Same, but every switch keeps exactly the ports it uses (none: -1). */
int topo_build_finish_exact(struct topo *t);

/* Frees *t and returns -1, for error paths. */
int topo_build_fail(struct topo *t);

/* Empties *t (not yet built) and returns -1, for bad arguments. */
int topo_build_reject(struct topo *t);

#endif /* TOPO_BUILD_H */
