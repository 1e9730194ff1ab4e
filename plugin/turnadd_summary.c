// SPDX-License-Identifier: MIT
#include <inttypes.h>

#include "turnadd_config.h"
#include "turnadd_summary.h"

static const char *mode_name(enum ta_mode mode)
{
	switch (mode) {
	case TA_MODE_TURN_ADDITION:
		return "turn-addition";
	case TA_MODE_NONE_PROHIBITED:
		return "none-prohibited (NOT deadlock-free)";
	case TA_MODE_TURN_PROHIBITION:
		return "turn-prohibition (reference method)";
	default:
		return "unknown";
	}
}

void turnadd_log_options(const struct ta_log *log, const struct ta_options *o,
			 const char *path)
{
	char root[32] = "auto";

	if (o->escape_root_guid)
		snprintf(root, sizeof(root), "0x%016" PRIx64,
			 o->escape_root_guid);
	ta_logf(log, TA_LOG_INFO,
		"%s%s%s: mode %s, seed %" PRIu64 ", escape root %s, traffic %s",
		path ? "options from " :
		"default options (" TURNADD_CONFIG_ENV " unset, no ",
		path ? path : TURNADD_DEFAULT_CONFIG, path ? "" : ")",
		mode_name(o->mode), o->seed, root,
		o->traffic_file ? o->traffic_file : "uniform");
	if (o->mode == TA_MODE_NONE_PROHIBITED)
		ta_logf(log, TA_LOG_ERROR,
			"mode %s is for reference only: routes may deadlock",
			mode_name(o->mode));
}

void turnadd_log_route(const struct ta_log *log, const struct turnadd_graph *og,
		       const struct ta_stats *st, double graph_seconds)
{
	const struct ta_graph *g = og->g;
	char extra[160] = "";
	int n = 0;

	/* only what is unusual gets words */
	if (og->unattached_ports)
		n += snprintf(extra + n, sizeof(extra) - n,
			      ", %u ports not cabled to a switch",
			      og->unattached_ports);
	if (og->skipped_ports && n < (int)sizeof(extra))
		n += snprintf(extra + n, sizeof(extra) - n,
			      ", %u ports without LID", og->skipped_ports);
	if (og->max_lids_per_port > 1 && n < (int)sizeof(extra))
		snprintf(extra + n, sizeof(extra) - n,
			 ", up to %u LIDs a port (LMC)", og->max_lids_per_port);
	ta_logf(log, TA_LOG_INFO,
		"fabric: %u switches (%u connected piece%s), %u inter-switch links, %u LIDs (%u host LIDs on %u ports)%s",
		st->switches, st->pieces, st->pieces == 1 ? "" : "s",
		st->links, st->dests, st->hosts, og->host_ports, extra);

	if (st->escape_root < g->n_sw)
		ta_logf(log, TA_LOG_INFO,
			"turns: %" PRIu64 " considered, %" PRIu64 " allowed, %" PRIu64 " prohibited; escape root switch 0x%016" PRIx64 " (%s)",
			st->turns, st->turns_allowed, st->turns_prohibited,
			g->sw[st->escape_root].guid,
			g->sw[st->escape_root].name ?
			g->sw[st->escape_root].name : "?");
	else
		ta_logf(log, TA_LOG_INFO,
			"turns: %" PRIu64 " considered, %" PRIu64 " allowed, %" PRIu64 " prohibited; no escape root",
			st->turns, st->turns_allowed, st->turns_prohibited);

	if (st->turns_kept || st->prior_discarded)
		ta_logf(log, TA_LOG_INFO,
			"minimal change: %" PRIu64 " turn decisions kept from the previous routing%s",
			st->turns_kept,
			st->prior_discarded ?
			" (previous decisions clashed with the escape tree: all decided anew)" :
			"");
	if (st->turns_kept && !st->traffic_estimated)
		ta_logf(log, TA_LOG_INFO,
			"minimal change: only parts of the fabric went, so every turn kept its decision; %u of %u destinations kept all their routes, the others were rerouted",
			st->dests_kept, st->dests);
	ta_logf(log, TA_LOG_INFO,
		"routes: %" PRIu64 " unreachable (switch, LID) entries, %u destinations routed by the escape rule; graph %.3f s, routing %.3f s",
		st->unreachable, st->dests_fallback, graph_seconds,
		st->seconds);
	if (st->switches_gone || st->dests_gone)
		ta_logf(log, TA_LOG_INFO,
			"gone since the previous routing: %u switch%s and %u LID%s (failed, or cut off from the SM): no longer routed",
			st->switches_gone, st->switches_gone == 1 ? "" : "es",
			st->dests_gone, st->dests_gone == 1 ? "" : "s");
	if (st->switches_new)
		ta_logf(log, TA_LOG_INFO,
			"new since the previous routing: %u switch%s never routed before (added capacity, or down when OpenSM came up): every route chosen afresh, as at a bring-up; LIDs kept",
			st->switches_new, st->switches_new == 1 ? "" : "es");
	/* between pieces of the fabric no route can exist; within one
	 * piece every entry must have one */
	if (st->pieces > 1)
		ta_logf(log, TA_LOG_ERROR,
			"the switches form %u pieces with no link between them: each piece is routed alone, LIDs of one piece are unreachable from the others (%" PRIu64 " (switch, LID) entries without a route)",
			st->pieces, st->unreachable);
	if (st->unreachable && st->pieces <= 1)
		ta_logf(log, TA_LOG_ERROR,
			"%" PRIu64 " (switch, LID) entries have no route although the fabric is connected: those LIDs are unreachable from those switches",
			st->unreachable);
}

void turnadd_log_lft(const struct ta_log *log,
		     const struct turnadd_lft_stats *st, double seconds)
{
	ta_logf(log, TA_LOG_INFO,
		"LFTs: %u switches up to LID %u, %" PRIu64 " of %" PRIu64 " 64-LID blocks differ from the switches' tables; %u switches with only port state changes keep their tables (lft_update changed_blocks); %.3f s",
		st->switches, st->max_lid, st->blocks_changed, st->blocks,
		st->tables_trusted, seconds);
}
