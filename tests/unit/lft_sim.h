/* SPDX-License-Identifier: MIT */
/*
 * The switches' forwarding tables as OpenSM keeps them (p_sw->lft), for
 * driving the routing memory with lft_rows set (ta_saved.h) without
 * OpenSM: a table per switch GUID; a switch new to the fabric starts
 * with every entry OSM_NO_PATH; writing a routing sets its destinations'
 * entries and leaves the others as they were (plugin/lft_write.c does
 * the same); a switch gone from the fabric is forgotten.
 */
#ifndef LFT_SIM_H
#define LFT_SIM_H

#include <stdint.h>

#include "ta_engine.h"
#include "ta_graph.h"
#include "ta_saved.h"

struct lft_sim {
	uint32_t n_sw;
	uint64_t *guid;
	uint8_t **row;		/* [n_lids] each */
	uint32_t n_lids;
	struct ta_saved_row *rows;	/* of the latest lft_sim_rows */
};

void lft_sim_init(struct lft_sim *t, uint32_t n_lids);
void lft_sim_free(struct lft_sim *t);

/*
 * The tables of g's switches, as rows[s] for g's switch s (valid until
 * the next call); tables of switches g lacks are dropped.  NULL: ENOMEM.
 */
const struct ta_saved_row *lft_sim_rows(struct lft_sim *t,
					const struct ta_graph *g);

/* writes the routing r of g (call lft_sim_rows for g first) */
void lft_sim_write(struct lft_sim *t, const struct ta_graph *g,
		   const struct ta_result *r);

#endif
