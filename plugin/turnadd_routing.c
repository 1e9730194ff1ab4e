// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "turnadd_routing.h"
#include "osm_log_bridge.h"
#include "osm_hops.h"
#include "osm_lft.h"
#include "turnadd_config.h"
#include "turnadd_summary.h"

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
	osm_log_bridge_init(&ctx->log, &osm->log);
	ta_saved_init(&ctx->saved);
	lft_read_init(&ctx->lft_read);
	osm_mcast_init(&ctx->mcast);
	return ctx;
}

void turnadd_ctx_release(struct turnadd_ctx *ctx)
{
	if (ctx->have_result)
		ta_result_free(&ctx->result);
	memset(&ctx->result, 0, sizeof(ctx->result));
	ctx->have_result = false;
	osm_graph_clear(&ctx->graph);
}

void turnadd_ctx_free(struct turnadd_ctx *ctx)
{
	if (!ctx)
		return;
	turnadd_ctx_release(ctx);
	ta_saved_free(&ctx->saved);
	lft_read_free(&ctx->lft_read);
	osm_mcast_free(&ctx->mcast);
	free(ctx);
}

/* the one ERROR line of a failed routing; OpenSM then tries the next engine */
static int routing_failed(struct turnadd_ctx *ctx, const char *what,
			  const char *detail)
{
	ta_logf(&ctx->log, TA_LOG_ERROR,
		"%s%s%s: no turnadd routes this sweep, OpenSM falls back to the next engine of routing_engine%s",
		what, detail ? " " : "", detail ? detail : "",
		ctx->osm->no_fallback_routing_engine ?
		" (no_fallback: not to minhop)" : " (minhop last)");
	turnadd_ctx_release(ctx);
	return -1;
}

/*
 * OpenSM's min-hop tables, which the multicast manager and the SA read:
 * filled here (osm_hops.h) unless hop_tables is opensm or a hop weights
 * file is configured (then, or if filling fails, 1 makes
 * ucast_mgr_route() call osm_ucast_mgr_build_lid_matrices()).
 */
static int hop_tables(struct turnadd_ctx *ctx, enum ta_hop_tables how)
{
	double t0 = now_seconds();

	if (how == TA_HOPS_OPENSM || ctx->osm->subn.opt.hop_weights_file)
		return 1;
	if (osm_hops_fill(&ctx->graph, &ctx->log)) {
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"OpenSM builds the min-hop tables instead");
		return 1;
	}
	ta_logf(&ctx->log, TA_LOG_INFO, "min-hop tables filled in %.3f s",
		now_seconds() - t0);
	return 0;
}

/* Computes the routes, then the min-hop tables (see hop_tables()). */
static int build_lid_matrices(void *context)
{
	struct turnadd_ctx *ctx = context;
	struct ta_options opts;
	struct ta_prior_buf prior;
	const char *path;
	double t0, t_graph;
	int ret;

	turnadd_ctx_release(ctx);
	t0 = now_seconds();
	if (turnadd_config_load(&opts, &ctx->log, &path))
		return routing_failed(ctx, "cannot load options from", path);
	turnadd_log_options(&ctx->log, &opts, path);
	ctx->lft_update = opts.lft_update;
	ctx->mcast_opensm = opts.mcast_opensm;

	if (osm_graph_build(&ctx->graph, &ctx->osm->subn, &ctx->log)) {
		ta_options_clear(&opts);
		return routing_failed(ctx, "cannot build the fabric graph",
				      NULL);
	}
	t_graph = now_seconds() - t0;

	/* this SM's first routing: start from the switches' tables */
	if (lft_read_collect(&ctx->lft_read, &ctx->osm->subn, &ctx->saved,
			     &ctx->log) < 0) {
		ta_options_clear(&opts);
		return routing_failed(ctx, "out of memory", NULL);
	}
	if (ta_saved_prior(&ctx->saved, ctx->graph.g, &prior)) {
		ta_options_clear(&opts);
		return routing_failed(ctx, "out of memory", NULL);
	}
	if (ta_route_prior(ctx->graph.g, &opts,
			   ta_saved_empty(&ctx->saved) ? NULL : &prior.prior,
			   &ctx->log, &ctx->result)) {
		ta_prior_buf_free(&prior);
		ta_options_clear(&opts);
		return routing_failed(ctx, "the routing core failed", NULL);
	}
	ta_prior_buf_free(&prior);
	ctx->have_result = true;
	turnadd_log_route(&ctx->log, &ctx->graph, &ctx->result.stats,
			  t_graph);
	ret = hop_tables(ctx, opts.hop_tables);
	ta_options_clear(&opts);
	return ret;
}

/* OpenSM's multicast manager, per group: trees over allowed turns */
static ib_api_status_t mcast_build_stree(void *context, osm_mgrp_box_t *mbox)
{
	struct turnadd_ctx *ctx = context;

	return osm_mcast_build(&ctx->mcast, &ctx->osm->subn, mbox, &ctx->log);
}

static int ucast_build_fwd_tables(void *context)
{
	struct turnadd_ctx *ctx = context;
	struct osm_lft_stats st;
	double t0 = now_seconds();

	if (!ctx->have_result)
		return routing_failed(ctx, "no routes computed", NULL);
	if (osm_lft_write(&ctx->graph, &ctx->result, &ctx->log, &st))
		return routing_failed(ctx, "cannot write the forwarding tables",
				      NULL);
	if (ctx->lft_update == TA_LFT_CHANGED_BLOCKS)
		osm_lft_trust_tables(&ctx->graph, &ctx->osm->subn, &st);
	lft_read_apply(&ctx->lft_read, &ctx->graph, &ctx->osm->subn, &st,
		       &ctx->log);
	turnadd_log_lft(&ctx->log, &st, now_seconds() - t0);
	if (ta_saved_update(&ctx->saved, ctx->graph.g, &ctx->result))
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"out of memory saving this routing: the next one starts from scratch");
	osm_mcast_adopt(&ctx->mcast, &ctx->graph.g, &ctx->result, &ctx->log);
	if (ctx->re)
		ctx->re->mcast_build_stree = ctx->mcast_opensm ? NULL :
					     mcast_build_stree;
	/* OpenSM holds the tables now; the next sweep recomputes */
	turnadd_ctx_release(ctx);
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
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		lft_read_routing_done(&ctx->lft_read, &ctx->osm->subn);
		break;
	default:
		break;
	}
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
	re->destroy = destroy;
	/* one VL, no SL choice: OpenSM's defaults for path_sl, sl2vl,
	 * vlarb; ucast_dump_tables is never called by 3.3.23 */
	return 0;
}
