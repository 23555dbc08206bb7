/* Private areas shared by the workgroups of a launch whose private buffer
 * holds fewer areas than it has workgroups (vt_launch.pds_wg_slots):
 * pocl reserves at most 256 MiB of private memory, 4 KiB per work-item,
 * so past 65,536 work-items the area of workgroup i no longer lies inside
 * it (host-stack.md 2.7 step F). A workgroup takes a free area when it
 * starts and gives it back when it ends; the schedulers start no
 * workgroup while none is free, so resident workgroups never share one.
 * Without pds_wg_slots workgroup i uses area i (formats-and-launch.md 5). */
#include <stdlib.h>

#include "exec_util.h"

int vt_pds_begin(vt_device *dev, const vt_launch *l, vt_error *err) {
  vt_pds_pool *p = &dev->pds;
  p->nfree = 0;
  p->limited = l->pds_wg_slots != 0;
  if (!p->limited) return VT_OK;
  /* more areas than workgroups resident at once are never used: at most
   * one per warp slot of the device */
  unsigned per_sm = dev->cfg.warp_slots > 32 ? dev->cfg.warp_slots : 32;
  uint64_t resident = (uint64_t)dev->cfg.sms * per_sm;
  uint32_t n = l->pds_wg_slots < resident ? l->pds_wg_slots : (uint32_t)resident;
  if (n > p->cap) {
    uint32_t *f = realloc(p->free, n * sizeof *f);
    if (!f) {
      vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
      return VT_ERR_NOMEM;
    }
    p->free = f;
    p->cap = n;
  }
  for (uint32_t i = 0; i < n; i++) p->free[i] = n - 1 - i; /* area 0 on top */
  p->nfree = n;
  return VT_OK;
}

bool vt_pds_available(const vt_device *dev) { return !dev->pds.limited || dev->pds.nfree > 0; }

void vt_pds_bind(vt_device *dev, const vt_launch *l, vt_wg *wg) {
  vt_pds_pool *p = &dev->pds;
  if (!p->limited || p->nfree == 0) return;
  wg->pds_slot = p->free[--p->nfree];
  wg->pds_bound = true;
  uint32_t base = l->pds_base + wg->pds_slot * l->warps_per_wg * l->threads_per_warp * l->pds_size;
  for (unsigned w = 0; w < wg->nwarps; w++) WCSR(wg->warps[w], PDS) = base;
}

void vt_pds_release(vt_device *dev, vt_wg *wg) {
  vt_pds_pool *p = &dev->pds;
  if (!wg->pds_bound || !p->limited || p->nfree >= p->cap) return;
  p->free[p->nfree++] = wg->pds_slot;
  wg->pds_bound = false;
}
