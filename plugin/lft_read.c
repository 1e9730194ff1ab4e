// SPDX-License-Identifier: MIT
/* Reading the switches' LFTs before an SM's first routing (lft_read.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lft_read.h"

#define LFT_BLOCK IB_SMP_DATA_SIZE	/* LIDs in one LFT MAD */
/*
 * What an unanswered block holds: port 254 for all 64 LIDs.  A switch
 * that really holds that block is taken as unanswered: its whole table
 * is then pushed, which is what OpenSM would do anyway.
 */
#define LFT_READ_MARK 0xFE

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void lft_read_init(struct lft_read *lr)
{
	memset(lr, 0, sizeof(*lr));
}

static void forget(struct lft_read *lr)
{
	free(lr->sw);
	lr->sw = NULL;
	lr->n_sw = 0;
	lr->n_empty = 0;
	lr->n_gone = 0;
	lr->blocks = 0;
	lr->pending = false;
	lr->collected = false;
}

void lft_read_free(struct lft_read *lr)
{
	forget(lr);
}

static int cmp_guid(const void *a, const void *b)
{
	const struct lft_read_switch *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static struct lft_read_switch *find(const struct lft_read *lr, uint64_t guid)
{
	struct lft_read_switch key = { .guid = guid };

	if (!lr->n_sw)
		return NULL;
	return bsearch(&key, lr->sw, lr->n_sw, sizeof(key), cmp_guid);
}

static uint64_t sw_guid(const osm_switch_t *sw)
{
	return cl_ntoh64(osm_node_get_node_guid(sw->p_node));
}

static uint16_t sw_top(const osm_switch_t *sw)
{
	return cl_ntoh16(sw->switch_info.lin_top);
}

/* a master's resweep: nothing to read, nothing to say */
static const char no_first_sweep[] = "";

/* NULL if this sweep is one to read in, else why not ("" to say nothing) */
static const char *skip_reason(const osm_opensm_t *osm, bool enabled,
			       const void *engine_ctx)
{
	const struct osm_routing_engine *re;

	if (!enabled)
		return "lft_read_on_start no: a new master rewrites every LFT block";
	if (osm->subn.sm_state != IB_SMINFO_STATE_DISCOVERING &&
	    !osm->subn.first_time_master_sweep)
		return no_first_sweep;
	for (re = osm->routing_engine_list; re; re = re->next)
		if (re->context == engine_ctx)
			return NULL;
	return "turnadd is not in routing_engine";
}

/* makes sw->lft hold at least the blocks up to top; 0 or -1 */
static int make_room(osm_switch_t *sw, uint16_t top)
{
	uint32_t need = ((uint32_t)top / LFT_BLOCK + 1) * LFT_BLOCK;
	uint8_t *p;

	if (sw->lft && sw->lft_size >= need)
		return 0;
	/* OpenSM grows and frees this buffer with realloc() and free() */
	p = realloc(sw->lft, need);
	if (!p)
		return -1;
	memset(p + sw->lft_size, OSM_NO_PATH, need - sw->lft_size);
	sw->lft = p;
	sw->lft_size = (uint16_t)need;
	return 0;
}

/* posts the Gets of one switch; false if one could not be posted */
static bool post_switch(osm_sm_t *sm, osm_switch_t *sw, uint16_t top,
			uint64_t *blocks)
{
	osm_physp_t *p0 = osm_node_get_physp_ptr(sw->p_node, 0);
	osm_madw_context_t c;
	uint32_t b, n = top / LFT_BLOCK + 1;

	if (!p0 || make_room(sw, top))
		return false;
	memset(sw->lft, LFT_READ_MARK, (size_t)n * LFT_BLOCK);
	memset(&c, 0, sizeof(c));
	c.lft_context.node_guid = osm_node_get_node_guid(sw->p_node);
	c.lft_context.set_method = FALSE;
	for (b = 0; b < n; b++) {
		if (osm_req_get(sm, osm_physp_get_dr_path_ptr(p0),
				IB_MAD_ATTR_LIN_FWD_TBL, cl_hton32(b), TRUE, 0,
				0, CL_DISP_MSGID_NONE, &c) != IB_SUCCESS)
			return false;
		(*blocks)++;
	}
	return true;
}

void lft_read_post(struct lft_read *lr, osm_opensm_t *osm, bool enabled,
		   const void *engine_ctx, const struct ta_log *log)
{
	osm_subn_t *subn = &osm->subn;
	cl_map_item_t *it;
	const char *why;
	uint32_t n, failed = 0;

	forget(lr);
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	why = skip_reason(osm, enabled, engine_ctx);
	if (why) {
		CL_PLOCK_RELEASE(&osm->lock);
		if (*why && why != lr->last_skip)
			ta_logf(log, TA_LOG_INFO, "LFT read: skipped: %s", why);
		lr->last_skip = why;
		return;
	}
	lr->last_skip = NULL;
	n = cl_qmap_count(&subn->sw_guid_tbl);
	lr->sw = calloc(n + 1, sizeof(*lr->sw));
	if (!lr->sw) {
		CL_PLOCK_RELEASE(&osm->lock);
		ta_logf(log, TA_LOG_ERROR,
			"LFT read: out of memory: every LFT block is pushed");
		return;
	}
	lr->t_post = now_seconds();
	for (it = cl_qmap_head(&subn->sw_guid_tbl);
	     it != cl_qmap_end(&subn->sw_guid_tbl); it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		struct lft_read_switch *r = &lr->sw[lr->n_sw];

		/* not found this sweep: the drop manager removes it next */
		if (!sw->p_node->discovery_count) {
			lr->n_gone++;
			continue;
		}
		r->guid = sw_guid(sw);
		r->top = sw_top(sw);
		if (!r->top) {	/* reset or new: no table to read */
			lr->n_empty++;
			continue;
		}
		r->ok = post_switch(&osm->sm, sw, r->top, &lr->blocks);
		failed += !r->ok;
		lr->n_sw++;
	}
	CL_PLOCK_RELEASE(&osm->lock);
	qsort(lr->sw, lr->n_sw, sizeof(*lr->sw), cmp_guid);
	lr->pending = true;
	ta_logf(log, TA_LOG_INFO,
		"LFT read: first routing of this SM: %" PRIu64 " LFT blocks asked from %u switches; %u switches with LinearFDBTop 0 (nothing to read), %u known but not found in this sweep%s",
		lr->blocks, lr->n_sw, lr->n_empty, lr->n_gone,
		failed ? "; some Gets could not be posted (those switches get their whole table)" :
			 "");
}

static bool is_mark(const uint8_t *block)
{
	uint32_t i;

	for (i = 0; i < LFT_BLOCK; i++)
		if (block[i] != LFT_READ_MARK)
			return false;
	return true;
}

/* true if every block up to r->top came back; else resets the blocks */
static bool check_switch(osm_switch_t *sw, const struct lft_read_switch *r)
{
	uint32_t b, n = r->top / LFT_BLOCK + 1;
	bool ok = r->ok;

	if (!sw->lft || sw->lft_size < n * LFT_BLOCK)
		return false;
	for (b = 0; b < n; b++)
		if (is_mark(sw->lft + b * LFT_BLOCK)) {
			/* never let the mark into new_lft (turnadd_lft_write
			 * copies entries of LIDs no port holds) */
			memset(sw->lft + b * LFT_BLOCK, OSM_NO_PATH,
			       LFT_BLOCK);
			ok = false;
		}
	/* above LinearFDBTop the switch holds nothing valid */
	memset(sw->lft + r->top + 1, OSM_NO_PATH,
	       sw->lft_size - (r->top + 1u));
	return ok;
}

static int seed(const struct lft_read *lr, osm_subn_t *subn,
		struct ta_saved *sv)
{
	struct ta_saved_table *t = calloc(lr->n_sw + 1, sizeof(*t));
	uint32_t i, n = 0;
	int ret;

	if (!t)
		return -1;
	for (i = 0; i < lr->n_sw; i++) {
		const struct lft_read_switch *r = &lr->sw[i];
		osm_switch_t *sw;

		if (!r->ok)
			continue;
		sw = osm_get_switch_by_guid(subn, cl_hton64(r->guid));
		if (!sw)
			continue;
		t[n].guid = r->guid;
		t[n].port = sw->lft;
		t[n].n_lids = r->top + 1u;
		n++;
	}
	ret = ta_saved_seed(sv, t, n);
	free(t);
	return ret;
}

int lft_read_collect(struct lft_read *lr, osm_subn_t *subn,
		     struct ta_saved *sv, const struct ta_log *log)
{
	uint32_t i, ok = 0;
	bool seeded = false;
	double secs = now_seconds() - lr->t_post;

	lr->collected = false;
	if (!lr->pending)
		return 0;
	lr->pending = false;
	if (!subn->first_time_master_sweep) {
		ta_logf(log, TA_LOG_INFO,
			"LFT read: tables read in an earlier sweep are not used");
		forget(lr);
		return 0;
	}
	for (i = 0; i < lr->n_sw; i++) {
		struct lft_read_switch *r = &lr->sw[i];
		osm_switch_t *sw = osm_get_switch_by_guid(subn,
							  cl_hton64(r->guid));

		r->ok = sw && check_switch(sw, r);
		if (r->ok)
			ok++;
		else
			ta_logf(log, TA_LOG_INFO,
				"LFT read: switch 0x%016" PRIx64 " did not answer for every block up to LinearFDBTop %u: its whole table is pushed",
				r->guid, r->top);
	}
	if (ok && (ta_saved_empty(sv) || subn->coming_out_of_standby)) {
		if (seed(lr, subn, sv)) {
			ta_logf(log, TA_LOG_ERROR,
				"LFT read: out of memory: every LFT block is pushed, routes from scratch");
			ta_saved_free(sv);
			forget(lr);
			return -1;
		}
		seeded = true;
	}
	ta_logf(log, TA_LOG_INFO,
		"LFT read: %u of %u switches answered every block (%" PRIu64 " Gets, answers in %.3f s after posting)%s",
		ok, lr->n_sw, lr->blocks, secs,
		seeded ? "; routes start from those tables" : "");
	lr->collected = ok > 0;
	return (int)ok;
}

/* blocks of sw up to its max_lid_ho whose new entries differ */
static uint32_t differing_blocks(const osm_switch_t *sw)
{
	uint32_t b, n = sw->max_lid_ho / LFT_BLOCK + 1, d = 0;

	for (b = 0; b < n; b++)
		d += memcmp(sw->new_lft + b * LFT_BLOCK,
			    sw->lft + b * LFT_BLOCK, LFT_BLOCK) != 0;
	return d;
}

void lft_read_apply(struct lft_read *lr, const struct turnadd_graph *og,
		    osm_subn_t *subn, struct turnadd_lft_stats *st,
		    const struct ta_log *log)
{
	uint32_t s, trusted = 0, whole = 0;

	if (!lr->collected)
		return;
	lr->collected = false;
	for (s = 0; s < og->g->n_sw; s++) {
		osm_switch_t *sw = og->sw[s];
		const struct lft_read_switch *r = find(lr, og->g->sw[s].guid);
		uint32_t lid, before;

		if (!r || !r->ok || !sw->lft || !sw->new_lft) {
			if (!sw->need_update)
				sw->need_update = 1;
			whole++;
			continue;
		}
		/* entries above the top read are not valid in the switch */
		before = differing_blocks(sw);
		for (lid = r->top + 1u; lid <= sw->max_lid_ho; lid++)
			if (sw->lft[lid] == sw->new_lft[lid])
				sw->lft[lid] = (uint8_t)~sw->new_lft[lid];
		st->blocks_changed += differing_blocks(sw) - before;
		sw->need_update = 0;
		trusted++;
	}
	/*
	 * osm_qos_setup() runs before the mark is put back.  It still
	 * rewrites every port's SL-to-VL and VL arbitration tables: the
	 * discovery of this first master sweep, run with the subnet-wide
	 * mark set, marked every active port (osm_pi_rcv_update_self()).
	 * With use_optimized_slvl a switch's SL-to-VL tables follow its
	 * switch-wide mark, which the trusted switches lost above: the
	 * subnet-wide mark is kept then.
	 */
	if (subn->opt.qos && subn->opt.use_optimized_slvl) {
		ta_logf(log, TA_LOG_INFO,
			"LFT read: qos and use_optimized_slvl are on: OpenSM rewrites every LFT block of this first master sweep (its QoS setup keys a switch's SL-to-VL tables to the mark that also rewrites its LFT)");
	} else if (trusted && subn->need_update) {
		lr->saved_need_update = subn->need_update;
		subn->need_update = 0;
		lr->restore = true;
	}
	ta_logf(log, TA_LOG_INFO,
		"LFT read: %u switches get only the blocks that differ from what they hold, %u their whole table",
		trusted, whole);
}

void lft_read_routing_done(struct lft_read *lr, osm_subn_t *subn)
{
	if (!lr->restore)
		return;
	lr->restore = false;
	if (!subn->need_update)
		subn->need_update = lr->saved_need_update;
}
