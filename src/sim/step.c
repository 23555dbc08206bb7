/* The step API of src/sim/step.h: what the timing model needs of the
 * functional core, over the simulator's own structures. */
#include "step.h"

#include "exec_util.h"

int vt_step_check(vt_device *dev, const vt_launch *l, vt_error *err) {
  vt_sim_dump_clear(dev);
  dev->rows = NULL; /* no launch open until vt_step_begin */
  return vt_launch_check(dev, l, err);
}

int vt_step_begin(vt_device *dev, const vt_launch *l, const char *name, unsigned nsm, bool timed,
                  bool record_accesses, vt_error *err) {
  int rc = vt_mmu_launch(dev, l, err); /* its page table (setting mmu) */
  if (rc != VT_OK) return rc;
  dev->rows = vt_stats_launch_begin(dev->stats, name, nsm, timed);
  if (!dev->rows) {
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory (statistics)");
    return VT_ERR_NOMEM;
  }
  dev->rows[VT_C_launches] = 1;
  dev->launch = l;
  dev->numt = l->threads_per_warp;
  dev->nresv = 0; /* reservations of an earlier (failed) run are gone */
  dev->rec_mem = record_accesses;
  dev->reference = dev->cfg.reference;
  if (dev->reference) vt_dcache_drop(dev); /* no decode-cache hits */
  return vt_pds_begin(dev, l, err);
}

uint64_t *vt_step_counters(vt_device *dev, unsigned s) {
  return dev->rows + (size_t)s * VT_C_COUNT;
}

int vt_step_poll(vt_device *dev, uint64_t executed, uint64_t done_wg, uint64_t total_wg,
                 vt_error *err) {
  if (!dev->poll) return VT_OK;
  vt_run_progress p = {executed, done_wg, total_wg};
  return dev->poll(dev->poll_ctx, &p, err);
}

void vt_step_end(vt_device *dev, uint64_t host_ns) {
  if (dev->rows) dev->rows[VT_C_host_seconds] += host_ns;
  dev->ctr = dev->scratch;
  dev->rec_mem = false;
}

vt_wg *vt_step_wg_new(vt_device *dev, unsigned id, unsigned sm) {
  vt_wg *wg = vt_wg_new(dev, dev->launch, id, sm);
  if (wg) {
    vt_pds_bind(dev, dev->launch, wg);
    uint64_t *c = vt_step_counters(dev, sm);
    c[VT_C_workgroups]++;
    c[VT_C_warps] += wg->nwarps;
  }
  return wg;
}

bool vt_step_wg_can_start(const vt_device *dev) { return vt_pds_available(dev); }
void vt_step_wg_free(vt_device *dev, vt_wg *wg) { vt_wg_free(dev, wg); }
unsigned vt_step_wg_id(const vt_wg *wg) { return wg->id; }
vt_warp *vt_step_wg_warp(vt_wg *wg, unsigned i) { return wg->warps[i]; }

void vt_step_wg_dump(vt_device *dev, const vt_wg *wg, unsigned sm, int rc) {
  if (vt_sim_dump_wanted(rc)) vt_sim_dump_wg(dev, wg, sm);
}

uint32_t vt_step_pc(const vt_warp *w) { return w->pc; }
bool vt_step_ended(const vt_warp *w) { return w->state == WARP_ENDED; }
uint32_t vt_step_mask(const vt_warp *w) { return w->mask; }
uint32_t vt_step_active(const vt_warp *w) { return w->mask & w->lane_limit; }
uint32_t vt_step_xreg(const vt_warp *w, unsigned r) { return w->x[r]; }
unsigned vt_step_sew(const vt_warp *w) { return w->vill ? 0 : 8u << ((w->vtype >> 3) & 7); }
uint32_t vt_step_vreg(const vt_warp *w, unsigned r, unsigned lane) { return w->v[r][lane]; }

void vt_step_locate(vt_device *dev, const vt_warp *w, unsigned sm, vt_error *err) {
  vt_sim_locate_at(err, w, sm, dev, w->pc);
}

unsigned vt_step_accesses(const vt_device *dev, const vt_trace_mem **out) {
  *out = dev->tmem;
  return dev->ntm;
}
