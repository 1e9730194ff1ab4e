// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lid_fit.h"
#include "lid_sweep.h"
#include "lid_osm_fabric.h"
#include "turnadd_config.h"

/*
 * When the LID manager will not follow guid2lid this sweep: NULL if it
 * will, else why.
 */
static const char *skip_reason(const osm_subn_t *subn)
{
	if (subn->opt.reassign_lids)
		return "reassign_lids is TRUE: OpenSM assigns LIDs itself; set reassign_lids FALSE for port-major LIDs";
	if (subn->coming_out_of_standby)
		return "coming out of STANDBY: OpenSM reloads or drops guid2lid this sweep; port-major LIDs at the next heavy sweep";
	if (subn->sm_state != IB_SMINFO_STATE_MASTER &&
	    subn->sm_state != IB_SMINFO_STATE_DISCOVERING)
		return "not master";
	return NULL;
}

/* OpenSM's used_lids[]: the LIDs held by guid2lid entries */
static void rebuild_used_lids(osm_lid_mgr_t *mgr, uint8_t lmc)
{
	osm_db_guid_elem_t *e;
	cl_qlist_t guids;
	uint32_t lid;

	cl_qlist_init(&guids);
	if (osm_db_guid2lid_guids(mgr->p_g2l, &guids))
		return;
	memset(mgr->used_lids, 0, sizeof(mgr->used_lids));
	while ((e = (osm_db_guid_elem_t *)cl_qlist_remove_head(&guids)) !=
	       (osm_db_guid_elem_t *)cl_qlist_end(&guids)) {
		uint16_t lo, hi;

		if (!osm_db_guid2lid_get(mgr->p_g2l, e->guid, &lo, &hi))
			for (lid = lo; lid <= hi && lid < lo + (1u << lmc) &&
			     lid <= IB_LID_UCAST_END_HO; lid++)
				mgr->used_lids[lid] = 1;
		free(e);
	}
}

/* writes the new order into guid2lid; returns the entries changed */
static uint32_t apply(osm_lid_mgr_t *mgr, const struct la_input *in,
		      const struct ta_log *log)
{
	uint32_t i, changed = 0;

	for (i = 0; i < in->n_ports; i++) {
		const struct la_port *p = &in->ports[i];
		uint16_t lo = 0, hi = 0, nhi = p->lid + p->n_lids - 1;

		if (p->fate == LA_FAILED) {
			ta_logf(log, TA_LOG_ERROR,
				"port-major LIDs: no LID left for port 0x%016" PRIx64 ": OpenSM decides",
				p->guid);
			continue;
		}
		if (p->fate == LA_OVERFLOW && p->group != LA_NO_GROUP)
			ta_logf(log, TA_LOG_INFO,
				"port-major LIDs: group %u (switch port %u) is full: port 0x%016" PRIx64 " gets LID %u after all groups",
				p->group, p->group + 1, p->guid, p->lid);
		if (!osm_db_guid2lid_get(mgr->p_g2l, p->guid, &lo, &hi) &&
		    lo == p->lid && hi == nhi)
			continue;
		osm_db_guid2lid_set(mgr->p_g2l, p->guid, p->lid, nhi);
		changed++;
	}
	return changed;
}

static void log_summary(const struct ta_log *log,
			const struct lid_osm_fabric *f,
			const struct la_result *r, uint32_t changed)
{
	uint32_t g, guests = 0, sws = 0;
	char why[256];

	la_layout_describe(r, why, sizeof(why));
	ta_logf(log, TA_LOG_INFO, "LID layout: %s", why);
	for (g = 0; g < r->n_groups; g++) {
		guests += r->groups[g].guests;
		sws += r->groups[g].switches;
	}
	ta_logf(log, TA_LOG_INFO,
		"port-major LIDs: %u ports (%u switches) in %u groups, LIDs 1-%u, %u kept, %u placed, %u overflow, %u failed, %u moved; %s layout; %u switch LIDs kept in another group's range; %u guid2lid entries set, %u reserved for absent ports; old LIDs: %u from guid2lid, %u from the ports",
		f->in.n_ports, sws, r->n_groups, r->end ? r->end - 1u : 0,
		r->kept, r->placed, r->overflow, r->failed, r->moved,
		r->inherited ? "inherited" : "natural", guests, changed,
		f->in.n_reserved, f->from_db, f->from_wire);
}

/* the lid_layout option as lid_assign's layout mode */
static enum la_layout_mode layout_mode(enum ta_lid_layout l)
{
	switch (l) {
	case TA_LAYOUT_PORT_MAJOR:
		return LA_LAYOUT_PORT_MAJOR;
	case TA_LAYOUT_GROUP_MAJOR:
		return LA_LAYOUT_GROUP_MAJOR;
	default:
		return LA_LAYOUT_AUTO;
	}
}

/*
 * The lid_order option: NULL when port-major LIDs are wanted, else why
 * not; *layout gets the lid_layout option.  The option file is read
 * here, once for the whole sweep (the routing takes the result over,
 * turnadd_config.h); its problem is logged by the core.
 */
static const char *option_skip_reason(const struct ta_log *log,
				      enum la_layout_mode *layout)
{
	const struct ta_options *o = turnadd_config_sweep(log);

	if (!o)
		return "the options file is bad (see the error above): OpenSM assigns LIDs";
	if (o->lid_order == TA_LID_OPENSM)
		return "lid_order opensm: OpenSM assigns LIDs (it keeps the LIDs of its guid2lid file)";
	*layout = layout_mode(o->lid_layout);
	return NULL;
}

/* the layout a sweep's LIDs follow: 0 port-major, 1 group-major on a
 * Dragonfly+, 2 on a dragonfly; -1 before the first */
static int layout_kind(const struct la_result *r)
{
	return r->group_major ? (r->dfly_classic ? 2 : 1) : 0;
}

/*
 * 1 if r would move LIDs only because the fabric is recognised as
 * another kind than at the previous sweep (a dragonfly that lost
 * several routers no longer looks like one): then no LID changes this
 * sweep (new ports get OpenSM's), and the layout of the LIDs stays the
 * one they follow, so the fabric that comes back finds its LIDs (a
 * change of the lid_layout option moves them, as asked)
 */
static int layout_flips(const struct la_result *r, enum la_layout_mode mode,
			const struct ta_log *log)
{
	static int last = -1;
	static enum la_layout_mode last_mode = LA_LAYOUT_AUTO;
	static const char *const name[] = { "port-major", "group-major",
					    "group-major (dragonfly)" };
	int kind = layout_kind(r);

	if (mode != last_mode)	/* lid_layout changed: as asked */
		last = -1;
	last_mode = mode;
	if (last >= 0 && kind != last && r->moved) {
		ta_logf(log, TA_LOG_INFO,
			"LID layout: %s would move %u LIDs: they keep the %s layout of the previous sweeps; no LID changes this sweep",
			name[kind], r->moved, name[last]);
		return 1;
	}
	last = kind;
	return 0;
}

void lid_sweep_heavy_done(osm_opensm_t *osm, const struct ta_log *log)
{
	static const char *last_skip;
	osm_lid_mgr_t *mgr = &osm->sm.lid_mgr;
	struct lid_osm_fabric f;
	struct la_result r;
	enum la_layout_mode layout = LA_LAYOUT_AUTO;
	const char *why;
	uint32_t changed;
	int ret;

	why = option_skip_reason(log, &layout);
	if (!why) {
		CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
		why = skip_reason(&osm->subn);
		if (why)
			CL_PLOCK_RELEASE(&osm->lock);
	}
	if (why) {
		if (why != last_skip)
			ta_logf(log, TA_LOG_INFO, "port-major LIDs: skipped: %s",
				why);
		last_skip = why;
		return;
	}
	last_skip = NULL;
	if (lid_osm_fabric_build(&f, &osm->subn, mgr->p_g2l)) {
		CL_PLOCK_RELEASE(&osm->lock);
		ta_logf(log, TA_LOG_ERROR,
			"port-major LIDs: out of memory: OpenSM's LID order this sweep");
		return;
	}
	f.in.layout = layout;
	ret = la_assign(&f.in, &r);
	if (ret) {
		CL_PLOCK_RELEASE(&osm->lock);
		lid_osm_fabric_free(&f);
		ta_logf(log, TA_LOG_ERROR,
			"port-major LIDs: cannot compute the order (%s): OpenSM's LID order this sweep",
			ret == -EINVAL ? "invalid fabric" : "out of memory");
		return;
	}
	if (!lid_fit_check(&f.in, &r, log) || layout_flips(&r, layout, log)) {
		CL_PLOCK_RELEASE(&osm->lock);
		la_result_free(&r);
		lid_osm_fabric_free(&f);
		return;
	}
	changed = apply(mgr, &f.in, log);
	if (changed)
		rebuild_used_lids(mgr, osm->subn.opt.lmc);
	CL_PLOCK_RELEASE(&osm->lock);
	log_summary(log, &f, &r, changed);
	la_result_free(&r);
	lid_osm_fabric_free(&f);
}
