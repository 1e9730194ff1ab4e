// SPDX-License-Identifier: MIT
/* The engine's option file: "key value" lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_engine.h"
#include "ta_parse.h"

void ta_options_init(struct ta_options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = TA_MODE_TURN_ADDITION;
	o->lft_read_on_start = true;
	o->tp_candidate = true;
	o->tp_orders = TA_TP_ORDERS_DEFAULT;
	o->failure_compare = true;
	o->vls = 1;
}

void ta_options_clear(struct ta_options *o)
{
	free(o->traffic_file);
	ta_options_init(o);
}

static int set_option(struct ta_options *o, char **tok, int n,
		      const char **why)
{
	uint64_t v;

	if (n != 2) {
		*why = "expected exactly one value after the option name";
		return -1;
	}
	if (!strcmp(tok[0], "traffic_file")) {
		char *p = strdup(tok[1]);

		if (!p) {
			*why = "out of memory";
			return -1;
		}
		free(o->traffic_file);
		o->traffic_file = p;
	} else if (!strcmp(tok[0], "seed")) {
		if (ta_parse_u64(tok[1], &v)) {
			*why = "seed must be a non-negative integer";
			return -1;
		}
		o->seed = v;
	} else if (!strcmp(tok[0], "escape_root")) {
		if (!strcmp(tok[1], "auto")) {
			o->escape_root_guid = 0;
		} else if (ta_parse_u64(tok[1], &v) || !v) {
			*why = "escape_root must be 'auto' or a switch GUID such as 0x0002c90000000001";
			return -1;
		} else {
			o->escape_root_guid = v;
		}
	} else if (!strcmp(tok[0], "mode")) {
		if (!strcmp(tok[1], "turn_addition"))
			o->mode = TA_MODE_TURN_ADDITION;
		else if (!strcmp(tok[1], "no_prohibition"))
			o->mode = TA_MODE_NONE_PROHIBITED;
		else if (!strcmp(tok[1], "turn_prohibition"))
			o->mode = TA_MODE_TURN_PROHIBITION;
		else {
			*why = "mode must be turn_addition, turn_prohibition or no_prohibition";
			return -1;
		}
	} else if (!strcmp(tok[0], "lid_order")) {
		if (!strcmp(tok[1], "port_major"))
			o->lid_order = TA_LID_PORT_MAJOR;
		else if (!strcmp(tok[1], "opensm"))
			o->lid_order = TA_LID_OPENSM;
		else {
			*why = "lid_order must be port_major or opensm";
			return -1;
		}
	} else if (!strcmp(tok[0], "lid_layout")) {
		if (!strcmp(tok[1], "auto"))
			o->lid_layout = TA_LAYOUT_AUTO;
		else if (!strcmp(tok[1], "port-major"))
			o->lid_layout = TA_LAYOUT_PORT_MAJOR;
		else if (!strcmp(tok[1], "group-major"))
			o->lid_layout = TA_LAYOUT_GROUP_MAJOR;
		else {
			*why = "lid_layout must be auto, port-major or group-major";
			return -1;
		}
	} else if (!strcmp(tok[0], "lft_update")) {
		if (!strcmp(tok[1], "changed_blocks"))
			o->lft_update = TA_LFT_CHANGED_BLOCKS;
		else if (!strcmp(tok[1], "opensm"))
			o->lft_update = TA_LFT_OPENSM;
		else {
			*why = "lft_update must be changed_blocks or opensm";
			return -1;
		}
	} else if (!strcmp(tok[0], "hop_tables")) {
		if (!strcmp(tok[1], "turnadd"))
			o->hop_tables = TA_HOPS_TURNADD;
		else if (!strcmp(tok[1], "opensm"))
			o->hop_tables = TA_HOPS_OPENSM;
		else {
			*why = "hop_tables must be turnadd or opensm";
			return -1;
		}
	} else if (!strcmp(tok[0], "lft_read_on_start")) {
		if (!strcmp(tok[1], "yes"))
			o->lft_read_on_start = true;
		else if (!strcmp(tok[1], "no"))
			o->lft_read_on_start = false;
		else {
			*why = "lft_read_on_start must be yes or no";
			return -1;
		}
	} else if (!strcmp(tok[0], "mcast_trees")) {
		if (!strcmp(tok[1], "turnadd"))
			o->mcast_opensm = false;
		else if (!strcmp(tok[1], "opensm"))
			o->mcast_opensm = true;
		else {
			*why = "mcast_trees must be turnadd or opensm";
			return -1;
		}
	} else if (!strcmp(tok[0], "tp_candidate")) {
		if (!strcmp(tok[1], "yes"))
			o->tp_candidate = true;
		else if (!strcmp(tok[1], "no"))
			o->tp_candidate = false;
		else {
			*why = "tp_candidate must be yes or no";
			return -1;
		}
	} else if (!strcmp(tok[0], "tp_orders")) {
		if (ta_parse_u64(tok[1], &v) || v < 1 || v > TA_TP_ORDERS_MAX) {
			*why = "tp_orders must be an integer from 1 to 16 (Turn-Prohibition removal orders tried)";
			return -1;
		}
		o->tp_orders = (unsigned)v;
	} else if (!strcmp(tok[0], "failure_routes")) {
		o->failure_nexthop = !strcmp(tok[1], "nexthop");
		if (!strcmp(tok[1], "compared") || o->failure_nexthop)
			o->failure_compare = true;
		else if (!strcmp(tok[1], "minimal"))
			o->failure_compare = false;
		else {
			*why = "failure_routes must be compared, minimal or nexthop";
			return -1;
		}
	} else if (!strcmp(tok[0], "vls")) {
		if (ta_parse_u64(tok[1], &v) || v < 1 || v > TA_MAX_LAYERS) {
			*why = "vls must be an integer from 1 to 8 (the layers, each on its own virtual lane)";
			return -1;
		}
		o->vls = (unsigned)v;
	} else if (!strcmp(tok[0], "experiment")) {
		if (!strcmp(tok[1], "none"))
			o->experiment = 0;
		else if (!strcmp(tok[1], "no_tree_first"))
			o->experiment |= TA_EXP_NO_TREE_FIRST;
		else if (!strcmp(tok[1], "flat_weights"))
			o->experiment |= TA_EXP_FLAT_WEIGHTS;
		else if (!strcmp(tok[1], "index_choice"))
			o->experiment |= TA_EXP_INDEX_CHOICE;
		else if (!strcmp(tok[1], "hop_choice"))
			o->experiment |= TA_EXP_HOP_CHOICE;
		else if (!strcmp(tok[1], "no_repair"))
			o->experiment |= TA_EXP_NO_REPAIR;
		else {
			*why = "experiment must be none, no_tree_first, flat_weights, index_choice, hop_choice or no_repair";
			return -1;
		}
	} else {
		*why = "unknown option (known: traffic_file, seed, escape_root, mode, lid_order, lid_layout, lft_update, hop_tables, lft_read_on_start, mcast_trees, tp_candidate, tp_orders, failure_routes, vls, experiment)";
		return -1;
	}
	return 0;
}

int ta_options_load(struct ta_options *o, const char *path, int missing_ok,
		    const struct ta_log *log)
{
	struct ta_line_reader r;
	char *tok[TA_MAX_TOKENS];
	int n, ret = 0;

	if (ta_reader_open(&r, path)) {
		if (missing_ok && errno == ENOENT)
			return 0;
		ta_logf(log, TA_LOG_ERROR, "%s: cannot open: %s", path,
			strerror(errno));
		return -1;
	}
	while ((n = ta_reader_next(&r, tok)) > 0) {
		const char *why = NULL;

		if (set_option(o, tok, n, &why)) {
			ta_logf(log, TA_LOG_ERROR, "%s:%u: %s: %s", path,
				r.line_no, tok[0], why);
			ret = -1;
			break;
		}
	}
	if (n < 0) {
		ta_reader_log_error(&r, log);
		ret = -1;
	}
	ta_reader_close(&r);
	return ret;
}
