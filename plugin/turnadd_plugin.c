// SPDX-License-Identifier: MIT
/*
 * The event plugin OpenSM loads for "event_plugin_name turnadd": its
 * only job is to register the "turnadd" routing engine, which
 * "routing_engine turnadd[,fallback...]" then selects.
 */
#include "turnadd_osm.h"
#include "turnadd_routing.h"
#include "lid_sweep.h"
#include "mem_report.h"
#include "turnadd_config.h"

static void *turnadd_create(struct osm_opensm *osm)
{
	external_routing_engine_module_t module = {
		.name = TURNADD_ENGINE_NAME,
		.setup = turnadd_routing_setup,
	};
	struct turnadd_ctx *ctx = turnadd_ctx_new(osm);
	cl_status_t status;

	if (!ctx) {
		osm_log(&osm->log, OSM_LOG_ERROR,
			"turnadd: out of memory: engine not registered\n");
		return NULL;
	}
	/* OpenSM copies the module and keeps ctx as the engine context */
	status = osm_register_external_routing_engine(osm, &module, ctx);
	if (status != CL_SUCCESS) {
		ta_logf(&ctx->log, TA_LOG_ERROR,
			"cannot register routing engine \"%s\" (%s)",
			TURNADD_ENGINE_NAME, CL_STATUS_MSG(status));
		turnadd_ctx_free(ctx);
		return NULL;
	}
	/*
	 * OpenSM loads an event plugin only if its osm_version equals the
	 * running opensm's own version string (osm_epi_construct), so the
	 * version built against is also the version this runs in.
	 */
	ta_logf(&ctx->log, TA_LOG_INFO,
		"version %s running in %s (built for it: OpenSM loads no "
		"plugin built for another version); routing engine \"%s\" "
		"registered", TURNADD_VERSION, OSM_VERSION,
		TURNADD_ENGINE_NAME);
	return ctx;
}

/* OpenSM destroys its routing engines before it calls this */
static void turnadd_delete(void *plugin_data)
{
	turnadd_ctx_free(plugin_data);
	turnadd_config_forget();
}

/*
 * Routing runs from the engine callbacks.  After discovery, before the
 * LID manager: the port-major LID order (lid_sweep.h); the LFT reads of
 * a first master sweep and their end (turnadd_sweep_event).
 */
static void turnadd_report(void *plugin_data, osm_epi_event_id_t event_id,
			   void *event_data)
{
	struct turnadd_ctx *ctx = plugin_data;

	(void)event_data;
	if (!ctx)
		return;
	if (event_id == OSM_EVENT_ID_HEAVY_SWEEP_DONE) {
		turnadd_mem_probe(&ctx->log, "heavy sweep done");
		lid_sweep_heavy_done(ctx->osm, &ctx->log);
		turnadd_mem_probe(&ctx->log, "port-major LIDs done");
	} else if (event_id == OSM_EVENT_ID_HEAVY_SWEEP_START) {
		turnadd_mem_probe(&ctx->log, "heavy sweep start");
	} else if (event_id == OSM_EVENT_ID_SUBNET_UP) {
		turnadd_mem_probe(&ctx->log, "subnet up");
	}
	turnadd_sweep_event(ctx, event_id);
}

/*
 * OpenSM's loader (osm_epi_construct) rejects a plugin whose
 * osm_version differs from the running opensm's, so this is the
 * version string of the headers built against.
 */
osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = turnadd_create,
	.delete = turnadd_delete,
	.report = turnadd_report,
};
