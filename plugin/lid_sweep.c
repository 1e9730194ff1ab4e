// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <string.h>

#include "lid_sweep.h"
#include "lid_osm_fabric.h"

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
				"port-major LIDs: group %u (rank-%u hosts) is full: port 0x%016" PRIx64 " gets LID %u after all groups",
				p->group, p->rank, p->guid, p->lid);
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
	const struct la_group *sw = r->n_groups > r->n_host_groups ?
				    &r->groups[r->n_host_groups] : NULL;

	ta_logf(log, TA_LOG_INFO,
		"port-major LIDs: %u ports in %u groups (%u host groups LIDs 1-%u, switches %u-%u), %u kept, %u placed, %u overflow, %u failed, %u moved; %s layout; %u guid2lid entries set, %u reserved for absent ports; old LIDs: %u from guid2lid, %u from the ports",
		f->in.n_ports, r->n_groups, r->n_host_groups,
		r->n_host_groups ? r->groups[r->n_host_groups - 1].hi : 0,
		sw ? sw->lo : 0, sw ? sw->hi : 0, r->kept, r->placed,
		r->overflow, r->failed, r->moved,
		r->inherited ? "inherited" : "natural", changed,
		f->in.n_reserved, f->from_db, f->from_wire);
}

void lid_sweep_heavy_done(osm_opensm_t *osm, const struct ta_log *log)
{
	static const char *last_skip;
	osm_lid_mgr_t *mgr = &osm->sm.lid_mgr;
	struct lid_osm_fabric f;
	struct la_result r;
	const char *why;
	uint32_t changed;

	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	why = skip_reason(&osm->subn);
	if (why) {
		CL_PLOCK_RELEASE(&osm->lock);
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
	if (la_assign(&f.in, &r)) {
		CL_PLOCK_RELEASE(&osm->lock);
		lid_osm_fabric_free(&f);
		ta_logf(log, TA_LOG_ERROR,
			"port-major LIDs: cannot compute the order: OpenSM's LID order this sweep");
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
