/* The simulator's side of debugging (vt/sim_debug.h): the hooks, the
 * resident warps, and reading and writing warp state and memory without
 * side effects on the run (no memory checking, no reservation breaking, no
 * counters). */
#include <stdlib.h>
#include <string.h>

#include "csr.h"
#include "exec_util.h"
#include "util/error.h"

void vt_device_set_hooks(vt_device *dev, const vt_sim_hooks *hooks) {
  if (hooks)
    dev->hooks = *hooks;
  else
    memset(&dev->hooks, 0, sizeof dev->hooks);
  dev->record = dev->trace || dev->hooks.after;
}

void vt_device_set_warp_end(vt_device *dev, vt_warp_end_fn fn, void *ctx) {
  dev->warp_end = fn;
  dev->warp_end_ctx = ctx;
}

const vt_launch *vt_device_launch(const vt_device *dev) { return dev->run ? dev->launch : NULL; }

bool vt_device_progress(const vt_device *dev, vt_run_progress *p) {
  return vt_sim_run_progress(dev, p);
}

size_t vt_device_warps(vt_device *dev, vt_warp **out, size_t max) {
  return vt_sim_resident_warps(dev, out, max);
}

vt_warp *vt_device_find_warp(vt_device *dev, unsigned wg, unsigned warp) {
  size_t n = vt_sim_resident_warps(dev, NULL, 0);
  if (n == 0) return NULL;
  vt_warp **all = malloc(n * sizeof *all);
  if (!all) return NULL;
  n = vt_sim_resident_warps(dev, all, n);
  vt_warp *found = NULL;
  for (size_t i = 0; i < n && !found; i++)
    if (all[i]->wg->id == wg && all[i]->wid == warp) found = all[i];
  free(all);
  return found;
}

void vt_warp_get_info(const vt_warp *w, vt_warp_info *o) {
  memset(o, 0, sizeof *o);
  o->sm = w->wg->sm;
  o->wg = w->wg->id;
  o->warp = w->wid;
  o->warps_per_wg = w->wg->nwarps;
  o->lanes = (unsigned)vt_popcount32(w->lane_limit);
  o->pc = w->pc;
  o->mask = w->mask;
  o->state = w->state == WARP_BARRIER ? VT_WARP_AT_BARRIER
           : w->state == WARP_ENDED   ? VT_WARP_ENDED
                                      : VT_WARP_RUNNING;
  o->simt_depth = w->depth;
  o->instret = w->instret;
  memcpy(o->gid, w->wg->gid, sizeof o->gid);
}

uint32_t vt_warp_get_x(const vt_warp *w, unsigned reg) {
  return reg > 0 && reg < VT_NUM_XREGS ? w->x[reg] : 0;
}
void vt_warp_set_x(vt_warp *w, unsigned reg, uint32_t value) {
  if (reg > 0 && reg < VT_NUM_XREGS) w->x[reg] = value;
}
uint32_t vt_warp_get_v(const vt_warp *w, unsigned reg, unsigned lane) {
  return reg < VT_NUM_VREGS && lane < VT_MAX_LANES ? w->v[reg][lane] : 0;
}
void vt_warp_set_v(vt_warp *w, unsigned reg, unsigned lane, uint32_t value) {
  if (reg < VT_NUM_VREGS && lane < VT_MAX_LANES) w->v[reg][lane] = value;
}
void vt_warp_set_pc(vt_warp *w, uint32_t pc) { w->pc = pc; }

int vt_warp_get_csr(const vt_warp *w, unsigned csr, uint32_t *value) {
  return vt_csr_read(w, csr, value);
}
int vt_warp_set_csr(vt_warp *w, unsigned csr, uint32_t value) {
  return vt_csr_write(w, csr, value);
}

bool vt_warp_simt_entry(const vt_warp *w, unsigned i, vt_simt_info *out) {
  if (i >= w->depth) return false;
  const vt_simt_entry *e = &w->stack[w->depth - 1 - i];
  *out = (vt_simt_info){e->r_pc, e->else_pc, e->else_mask};
  return true;
}

/* ---------------- memory ---------------- */

/* the store and address of one byte: global pages (mapped), or a
 * workgroup's local pages; NULL store: not accessible */
static vt_pages *byte_home(vt_device *dev, const vt_warp *w, vt_mem_space space, unsigned lane,
                           uint32_t addr, uint32_t *where) {
  if (space == VT_SPACE_PRIVATE) {
    if (!w || lane >= (unsigned)vt_popcount32(w->lane_limit)) return NULL;
    /* spec README decision 9, as exec_vmem.c computes it */
    uint32_t stride = WCSR(w, NUMW) * WCSR(w, NUMT);
    addr = WCSR(w, PDS) + (addr & ~3u) * stride + 4u * (WCSR(w, TID) + lane) + (addr & 3u);
    space = VT_SPACE_GLOBAL;
  }
  if (space == VT_SPACE_LOCAL) {
    if (!w) return NULL;
    if (addr < 0x10000000u) addr += VT_LDS_BASE;
    if (addr - VT_LDS_BASE >= 0x10000000u) return NULL;
  }
  *where = addr;
  if (addr - VT_LDS_BASE < 0x10000000u && w) return &w->wg->lds;
  if (dev->mmu) /* the launch's page table: physical memory is the global store */
    return vt_sim_phys_of(dev, addr, where) ? &dev->mem.global : NULL;
  return vt_mem_mapped(&dev->mem, addr, 1) ? &dev->mem.global : NULL;
}

static int debug_mem(vt_device *dev, const vt_warp *w, vt_mem_space space, unsigned lane,
                     uint32_t addr, uint8_t *buf, size_t n, bool write, vt_error *err) {
  for (size_t i = 0; i < n; i++) {
    uint32_t a = addr + (uint32_t)i, where;
    vt_pages *home = byte_home(dev, w, space, lane, a, &where);
    if (!home || (uint64_t)addr + i > 0xffffffffu) {
      static const char *const what[] = {"", "local ", "private "};
      vt_err_set(err, VT_ERR_ACCESS, "cannot access %smemory at 0x%08x", what[space], a);
      return VT_ERR_ACCESS;
    }
    if (write) {
      uint8_t *p = vt_pages_get(home, where);
      if (!p) {
        vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
        return VT_ERR_NOMEM;
      }
      *p = buf[i];
    } else {
      const uint8_t *p = vt_pages_peek(home, where);
      buf[i] = p ? *p : 0;
    }
  }
  return VT_OK;
}

int vt_debug_mem_read(vt_device *dev, const vt_warp *w, vt_mem_space space, unsigned lane,
                      uint32_t addr, void *buf, size_t n, vt_error *err) {
  return debug_mem(dev, w, space, lane, addr, buf, n, false, err);
}

int vt_debug_mem_write(vt_device *dev, vt_warp *w, vt_mem_space space, unsigned lane,
                       uint32_t addr, const void *buf, size_t n, vt_error *err) {
  return debug_mem(dev, w, space, lane, addr, (uint8_t *)buf, n, true, err);
}
