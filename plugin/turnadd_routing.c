// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "turnadd_routing.h"
#include "log_bridge.h"
#include "hop_tables.h"
#include "lft_rows.h"
#include "lft_write.h"
#include "mem_report.h"
#include "turnadd_config.h"
#include "turnadd_summary.h"
#include "vl_caps.h"

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct turnadd_ctx *turnadd_ctx_new(osm_opensm_t *osm)
{
	struct turnadd_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->osm = osm;
	turnadd_log_bridge_init(&ctx->log, &osm->log);
	ta_saved_init(&ctx->saved);
	/* the latest routing's ports are read from OpenSM's tables */
	ctx->saved.lft_rows = 1;
	lft_read_init(&ctx->lft_read);
	turnadd_mcast_init(&ctx->mcast);
	turnadd_sl_init(&ctx->sl);
	return ctx;
}

void turnadd_ctx_release(struct turnadd_ctx *ctx)
{
	if (ctx->have_result)
		ta_result_free(&ctx->result);
	memset(&ctx->result, 0, sizeof(ctx->result));
	ctx->have_result = false;
	turnadd_graph_clear(&ctx->graph);
}

void turnadd_ctx_free(struct turnadd_ctx *ctx)
{
	if (!ctx)
		return;
	turnadd_ctx_release(ctx);
	ta_saved_free(&ctx->saved);
	ta_home_free(&ctx->home);
	ta_fabric_key_free(&ctx->key);
	ta_fabric_key_free(&ctx->last_key);
	lft_read_free(&ctx->lft_read);
	turnadd_mcast_free(&ctx->mcast);
	turnadd_sl_free(&ctx->sl);
	free(ctx);
}

/*
 * How a routing can fail, and what then happens.  At the first routing
 * of this OpenSM (nothing routed by turnadd yet) every failure is one
 * ERROR line and OpenSM falls back to the next engine.  Once turnadd has
 * routed, OpenSM must never push another engine's tables (they may
 * close a channel dependency cycle on the one VL): at a resweep
 *
 *  1. options or traffic file bad, unreadable or missing: no failure;
 *     the last good reading stays in force (turnadd_config.h);
 *  2. escape_root names a switch that is gone: no failure; the previous
 *     or the automatic root is used (ta_root.h);
 *  3. out of memory building the graph, the routing memory (prior),
 *     in the core or writing the tables: fail_or_keep() below;
 *  4. the fabric OpenSM hands over is inconsistent: a switch port cabled
 *     to a switch missing from OpenSM's switch table, a LID claimed by
 *     two ports, two links on one switch port (fabric_graph.c), or more than
 *     2^20 switches or LIDs (ta_engine.c): impossible, since OpenSM's
 *     discovery adds every switch node it links to sw_guid_tbl, its LID
 *     manager hands out each LID once before routing, a port has one
 *     remote port, and unicast LIDs stop at 0xBFFF; should it happen,
 *     fail_or_keep();
 *  5. the core's internal checks (graph not finalized, result size, a
 *     route through a port that is not a cabled switch port, a LID above
 *     the LFT top or a switch without new_lft, which OpenSM allocates for
 *     every switch up to the highest LID before routing): impossible by
 *     construction (tests/unit check the routes of many fabrics);
 *     should it happen, fail_or_keep().
 *
 * fail_or_keep() at a resweep: one ERROR line, and every switch keeps
 * the table it holds (turnadd's last routing), which is deadlock-free:
 * its dependencies are a subset of an acyclic set.  Routes through
 * failed parts stay broken and new parts stay unrouted until the next
 * heavy sweep routes again; the routing memory is left as it was.
 * TURNADD_TEST_FAIL=POINT:N[,POINT:N...] (tests only) makes the N-th
 * routing of this OpenSM fail at POINT (graph, prior, core or tables),
 * so tests/integration/resweep_failures.sh drives 3-5 under ibsim.
 */
static bool test_fail(const struct turnadd_ctx *ctx, const char *point)
{
	const char *v = getenv("TURNADD_TEST_FAIL");
	size_t n = strlen(point);

	/* a comma-separated list of POINT:N */
	while (v && *v) {
		char *end;
		unsigned long at;

		if (!strncmp(v, point, n) && v[n] == ':') {
			at = strtoul(v + n + 1, &end, 10);
			if ((*end == ',' || !*end) && at == ctx->routings)
				return true;
		}
		v = strchr(v, ',');
		if (v)
			v++;
	}
	return false;
}

/*
 * The one ERROR line of a failed routing.  First routing: -1, OpenSM
 * tries the next engine.  Later: 1, the switches keep their tables
 * (ctx->keep_tables; build_lid_matrices returning 1 lets OpenSM fill the
 * min-hop tables itself, ucast_build_fwd_tables then keeps the LFTs).
 */
static int fail_or_keep(struct turnadd_ctx *ctx, const char *what,
			const char *detail)
{
	if (ctx->routed) {
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"%s%s%s: every switch keeps the table of turnadd's last routing (deadlock-free; routes through what failed since stay broken until the next heavy sweep routes again); OpenSM does not fall back",
			what, detail ? " " : "", detail ? detail : "");
		turnadd_ctx_release(ctx);
		ctx->keep_tables = true;
		return 1;
	}
	ta_logf(&ctx->log, TA_LOG_ERROR,
		"%s%s%s: no turnadd routes this sweep, OpenSM falls back to the next engine of routing_engine%s",
		what, detail ? " " : "", detail ? detail : "",
		ctx->osm->no_fallback_routing_engine ?
		" (no_fallback: not to minhop)" : " (minhop last)");
	turnadd_ctx_release(ctx);
	return -1;
}

/* new_lft = the switch's current table, for every switch */
static void keep_tables(struct turnadd_ctx *ctx)
{
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	cl_map_item_t *item;
	unsigned n = 0;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *sw = (osm_switch_t *)item;

		if (!sw->new_lft)
			continue;
		if (sw->lft)
			memcpy(sw->new_lft, sw->lft, sw->lft_size);
		else
			memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
		n++;
	}
	ta_logf(&ctx->log, TA_LOG_INFO,
		"LFTs: %u switches keep their tables (this routing failed)", n);
}

/*
 * OpenSM's min-hop tables, which the multicast manager and the SA read:
 * filled here (hop_tables.h) unless hop_tables is opensm or a hop weights
 * file is configured (then, or if filling fails, 1 makes
 * ucast_mgr_route() call osm_ucast_mgr_build_lid_matrices()).
 */
static int hop_tables(struct turnadd_ctx *ctx, enum ta_hop_tables how)
{
	double t0 = now_seconds();

	if (how == TA_HOPS_OPENSM || ctx->osm->subn.opt.hop_weights_file)
		return 1;
	if (turnadd_hops_fill(&ctx->graph, &ctx->log)) {
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"OpenSM builds the min-hop tables instead");
		return 1;
	}
	ta_logf(&ctx->log, TA_LOG_INFO, "min-hop tables filled in %.3f s",
		now_seconds() - t0);
	return 0;
}

/*
 * vls N > 1: no more layers than the fabric's VLs and OpenSM's
 * SL-to-VL maps carry (vl_caps.h); one line when fewer are used.
 */
static void limit_layers(struct turnadd_ctx *ctx, struct ta_options *opts)
{
	char why[256];
	unsigned n;

	if (opts->vls <= 1)
		return;
	n = turnadd_layers_possible(&ctx->osm->subn, why, sizeof(why));
	if (n >= opts->vls)
		return;
	ta_logf(&ctx->log, TA_LOG_INFO,
		"WARNING: vls %u: routing over %u layer%s: %s",
		opts->vls, n, n == 1 ? "" : "s", why);
	opts->vls = n;
}

/* Computes the routes, then the min-hop tables (see hop_tables()). */
static int build_lid_matrices(void *context)
{
	struct turnadd_ctx *ctx = context;
	struct ta_options opts;
	struct ta_prior_buf prior;
	struct ta_saved_row *rows;
	const char *path;
	double t0, t_graph;
	int ret, read;

	turnadd_mem_probe(&ctx->log, "routing start");
	turnadd_ctx_release(ctx);
	ctx->keep_tables = false;
	ctx->routings++;
	t0 = now_seconds();
	if (turnadd_config_load(&opts, &ctx->log, &path))
		return fail_or_keep(ctx, "cannot load options from", path);
	turnadd_log_options(&ctx->log, &opts, path);
	limit_layers(ctx, &opts);
	ctx->lft_update = opts.lft_update;
	ctx->mcast_opensm = opts.mcast_opensm;

	if (turnadd_graph_build(&ctx->graph, &ctx->osm->subn, &ctx->log) ||
	    test_fail(ctx, "graph")) {
		ta_options_clear(&opts);
		return fail_or_keep(ctx, "cannot build the fabric graph",
				      NULL);
	}
	t_graph = now_seconds() - t0;

	/* this SM's first routing: start from the switches' tables */
	read = lft_read_collect(&ctx->lft_read, &ctx->osm->subn, &ctx->saved,
				&ctx->log);
	if (read < 0) {
		ta_options_clear(&opts);
		return fail_or_keep(ctx, "out of memory", NULL);
	}
	if (read > 0) {
		/* the tables read are the memory now: no routing to return
		 * to is known, and this routing is no restore */
		ta_home_free(&ctx->home);
		ta_fabric_key_free(&ctx->last_key);
	}
	/* without it (out of memory) a restore is minimal change */
	ta_fabric_key_free(&ctx->key);
	if (ta_fabric_key_make(&ctx->key, ctx->graph.g))
		ta_fabric_key_free(&ctx->key);
	rows = turnadd_lft_rows(&ctx->graph);
	if (test_fail(ctx, "prior") || !rows ||
	    ta_saved_prior_rows(&ctx->saved, ctx->graph.g, rows, &prior)) {
		free(rows);
		ta_options_clear(&opts);
		return fail_or_keep(ctx, "out of memory", NULL);
	}
	free(rows);
	if ((read > 0 ?
	     ta_route_adopt(ctx->graph.g, &opts,
			    ta_saved_empty(&ctx->saved) ? NULL : &prior.prior,
			    &ctx->log, &ctx->result) :
	     ta_route_resweep(&ctx->home, &ctx->key, &ctx->last_key,
			      ctx->graph.g, &opts,
			      ta_saved_empty(&ctx->saved) ? NULL :
							    &prior.prior,
			      &ctx->log, &ctx->result)) ||
	    (test_fail(ctx, "core") && (ta_result_free(&ctx->result), 1))) {
		ta_prior_buf_free(&prior);
		ta_options_clear(&opts);
		return fail_or_keep(ctx, "the routing core failed", NULL);
	}
	turnadd_mem_probe(&ctx->log, "routes computed");
	ta_prior_buf_free(&prior);
	ctx->have_result = true;
	turnadd_log_route(&ctx->log, &ctx->graph, &ctx->result.stats,
			  t_graph);
	ret = hop_tables(ctx, opts.hop_tables);
	turnadd_mem_probe(&ctx->log, "min-hop tables filled");
	ta_options_clear(&opts);
	return ret;
}

/* OpenSM's multicast manager, per group: trees over allowed turns */
static ib_api_status_t mcast_build_stree(void *context, osm_mgrp_box_t *mbox)
{
	struct turnadd_ctx *ctx = context;

	return turnadd_mcast_build(&ctx->mcast, &ctx->osm->subn, mbox,
				   &ctx->log);
}

/*
 * With OpenSM's dump files on (log_flags with 0x40, as for
 * opensm-lfts.dump): opensm-turnadd-sl.dump in dump_files_dir, one
 * line per (switch, destination LID) with the path's SL.
 */
static void dump_layers(struct turnadd_ctx *ctx)
{
	char path[1024];
	FILE *f;
	int bad;

	if (!osm_log_is_active(&ctx->osm->log, OSM_LOG_ROUTING))
		return;
	snprintf(path, sizeof(path), "%s/opensm-turnadd-sl.dump",
		 ctx->osm->subn.opt.dump_files_dir);
	f = fopen(path, "w");
	if (!f) {
		ta_logf(&ctx->log, TA_LOG_ERROR, "cannot create %s: %s", path,
			strerror(errno));
		return;
	}
	bad = turnadd_sl_dump(f, ctx->graph.g, &ctx->result);
	if (fclose(f) || bad)
		ta_logf(&ctx->log, TA_LOG_ERROR, "cannot write %s", path);
}

/*
 * The SL of every path of this routing for path_sl (sl_table.h), and
 * the dump.  Out of memory: every path on layer 0 would be wrong, so
 * the table of the previous routing is dropped and path_sl answers
 * OpenSM's SL, with an ERROR line.
 */
static void take_layers(struct turnadd_ctx *ctx)
{
	if (turnadd_sl_take(&ctx->sl, ctx->graph.g, &ctx->result)) {
		turnadd_sl_free(&ctx->sl);
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"out of memory keeping the SL of every path: SA path records carry OpenSM's SL, not the layers (NOT deadlock-free until the next routing)");
	} else if (ctx->sl.layer) {
		ta_logf(&ctx->log, TA_LOG_INFO,
			"SLs: path records carry each path's layer as its SL, SL 0 to %u (opensm.conf: qos TRUE maps SL i to VL i)",
			ctx->sl.layers - 1);
	}
	dump_layers(ctx);
}

static int ucast_build_fwd_tables(void *context)
{
	struct turnadd_ctx *ctx = context;
	struct turnadd_lft_stats st;
	struct ta_saved_row *rows;
	double t0 = now_seconds();

	turnadd_mem_probe(&ctx->log, "forwarding tables start");
	if (ctx->keep_tables) {
		keep_tables(ctx);
		return 0;
	}
	if (!ctx->have_result)
		return fail_or_keep(ctx, "no routes computed", NULL) < 0 ?
		       -1 : (keep_tables(ctx), 0);
	if (test_fail(ctx, "tables") ||
	    turnadd_lft_write(&ctx->graph, &ctx->result, &ctx->log, &st))
		return fail_or_keep(ctx, "cannot write the forwarding tables",
				    NULL) < 0 ? -1 : (keep_tables(ctx), 0);
	/* before lft_read_apply: OpenSM's tables still hold the previous
	 * routing, where the memory finds the homes it keeps */
	rows = turnadd_lft_rows(&ctx->graph);
	if (!rows ||
	    ta_saved_update_rows(&ctx->saved, ctx->graph.g, &ctx->result,
				 rows)) {
		ta_saved_free(&ctx->saved);
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"out of memory saving this routing: the next one starts from scratch");
	}
	free(rows);
	if (ta_home_after(&ctx->home, ctx->graph.g, &ctx->result, &ctx->key,
			  ctx->routings)) {
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"out of memory keeping this routing to return to: a restore is minimal change");
	}
	ta_fabric_key_move(&ctx->last_key, &ctx->key);
	take_layers(ctx);
	if (ctx->lft_update == TA_LFT_CHANGED_BLOCKS)
		turnadd_lft_trust_tables(&ctx->graph, &ctx->osm->subn, &st);
	lft_read_apply(&ctx->lft_read, &ctx->graph, &ctx->osm->subn, &st,
		       &ctx->log);
	turnadd_log_lft(&ctx->log, &st, now_seconds() - t0);
	turnadd_mcast_adopt(&ctx->mcast, &ctx->graph.g, &ctx->result,
			    &ctx->log);
	if (ctx->re)
		ctx->re->mcast_build_stree = ctx->mcast_opensm ? NULL :
					     mcast_build_stree;
	/* OpenSM holds the tables now; the next sweep recomputes */
	turnadd_ctx_release(ctx);
	ctx->routed = true;
	/* the LFT MADs of this many blocks leave about 32 MB of freed
	 * buffers: worth giving back once they are delivered */
	ctx->trim_due = st.blocks_changed >= TURNADD_TRIM_BLOCKS;
	turnadd_log_memory(&ctx->log, &ctx->saved, &ctx->home, &ctx->mcast);
	return 0;
}

/* this sweep's lft_read_on_start (the routing takes the options over) */
static bool read_on_start(struct turnadd_ctx *ctx)
{
	const struct ta_options *o = turnadd_config_current(&ctx->log);

	return o && o->lft_read_on_start;	/* bad file: routing fails */
}

void turnadd_sweep_event(struct turnadd_ctx *ctx, osm_epi_event_id_t id)
{
	switch (id) {
	case OSM_EVENT_ID_HEAVY_SWEEP_DONE:
		lft_read_post(&ctx->lft_read, ctx->osm, read_on_start(ctx), ctx,
			      &ctx->log);
		break;
	case OSM_EVENT_ID_SUBNET_UP:
		turnadd_mcast_report(&ctx->mcast, &ctx->log);
		if (ctx->trim_due)
			turnadd_trim_heap(&ctx->log);
		ctx->trim_due = false;
		break;
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		lft_read_routing_done(&ctx->lft_read, &ctx->osm->subn);
		break;
	default:
		break;
	}
}

/* SA PathRecords (and each port's SMSL): the path's layer as its SL */
static uint8_t path_sl(void *context, uint8_t hint, const ib_net16_t slid,
		       const ib_net16_t dlid)
{
	struct turnadd_ctx *ctx = context;

	return turnadd_sl_get(&ctx->sl, hint, cl_ntoh16(slid),
			      cl_ntoh16(dlid));
}

/* called by OpenSM for each engine instance, before the plugin's delete */
static void destroy(void *context)
{
	turnadd_ctx_release(context);
}

int turnadd_routing_setup(struct osm_routing_engine *re,
			  struct osm_opensm *osm)
{
	struct turnadd_ctx *ctx = re->context;

	(void)osm;
	if (!ctx)
		return -1;
	ctx->re = re;
	re->build_lid_matrices = build_lid_matrices;
	re->ucast_build_fwd_tables = ucast_build_fwd_tables;
	re->mcast_build_stree = mcast_build_stree;
	re->path_sl = path_sl;
	re->destroy = destroy;
	/* OpenSM's defaults for sl2vl and vlarb (qos options map SL i to
	 * VL i); ucast_dump_tables is never called by 3.3.23 */
	return 0;
}
