/* The device: configuration, memory API, workgroups and their warps (a
 * pool of warps reused by new workgroups), error locations, and the timing
 * model's execution step. The functional run loop is in run.c
 * (run.h). */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec_util.h"
#include "run.h"


vt_device *vt_device_new(const vt_settings *cfg) {
  vt_device *dev = calloc(1, sizeof *dev);
  if (!dev) return NULL;
  if (cfg)
    dev->cfg = *cfg;
  else
    vt_settings_default(&dev->cfg);
  if (dev->cfg.sms == 0) dev->cfg.sms = 1;
  if (dev->cfg.warp_slots == 0) dev->cfg.warp_slots = 1;
  dev->avx2 = vt_exec_avx2() && !dev->cfg.portable_simd;
  vt_mem_init(&dev->mem);
  dev->ctr = dev->scratch;
  dev->cur_lane = -1;
  dev->stats = vt_stats_new();
  if (!dev->stats) {
    free(dev);
    return NULL;
  }
  if (vt_mem_add_region(&dev->mem, VT_PROGRAM_BASE, VT_ADDR_PROGRAM_SIZE) != 0 ||
      (dev->cfg.mmu && vt_mmu_init(dev) != 0)) {
    vt_mem_destroy(&dev->mem);
    vt_stats_free(dev->stats);
    free(dev);
    return NULL;
  }
  return dev;
}

void vt_device_free(vt_device *dev) {
  if (!dev) return;
  vt_workers_free(dev);
  vt_mmu_destroy(dev);
  vt_mem_destroy(&dev->mem);
  vt_stats_free(dev->stats);
  vt_alloc_map_free(&dev->allocs);
  free(dev->dump);
  for (size_t i = 0; i < dev->dcache_chunks; i++) free(dev->dcache[i]);
  free(dev->dcache);
  free(dev->resv);
  for (size_t i = 0; i < dev->npool; i++) {
    free(dev->warp_pool[i]->stack);
    free(dev->warp_pool[i]);
  }
  free(dev->warp_pool);
  for (size_t i = 0; i < dev->nwgpool; i++) free(dev->wg_pool[i]);
  free(dev->wg_pool);
  free(dev->pds.free);
  free(dev);
}

const vt_settings *vt_device_settings(const vt_device *dev) { return &dev->cfg; }

/* the user fixed the shape: oversized workgroups are errors instead of
 * growing the device */
static bool shape_fixed(const vt_settings *s) {
  return vt_settings_explicit(s, VT_S_warp_slots) || vt_settings_explicit(s, VT_S_threads);
}

void vt_device_set_trace(vt_device *dev, vt_trace_fn fn, void *ctx) {
  dev->trace = fn;
  dev->trace_ctx = ctx;
  dev->record = fn || dev->hooks.after;
}

const vt_stats *vt_device_stats(const vt_device *dev) { return dev->stats; }

int vt_mem_map(vt_device *dev, uint32_t base, uint32_t size, vt_error *err) {
  if ((uint64_t)base + size > 0x100000000ull) {
    vt_err_set(err, VT_ERR_ARG, "buffer 0x%08x + 0x%x exceeds the 32-bit address space", base, size);
    return VT_ERR_ARG;
  }
  if (dev->mmu) return vt_mmu_mem_map(dev, base, size, err);
  if (vt_mem_add_region(&dev->mem, base, size) != 0) {
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
    return VT_ERR_NOMEM;
  }
  return VT_OK;
}

int vt_mem_unmap(vt_device *dev, uint32_t base, uint32_t size, vt_error *err) {
  vt_alloc_map_remove(&dev->allocs, base, size);
  if (dev->mmu) return vt_mmu_mem_unmap(dev, base, size, err);
  if (vt_mem_remove_region(&dev->mem, base, size) != 0) {
    vt_err_set(err, VT_ERR_ARG, "no buffer is mapped at 0x%08x (+0x%x)", base, size);
    return VT_ERR_ARG;
  }
  return VT_OK;
}

static int host_copy(vt_device *dev, uint32_t addr, void *buf, size_t n, bool to_dev,
                     vt_error *err) {
  if (dev->mmu && (uint64_t)addr + n <= 0x100000000ull)
    return vt_mmu_host_copy(dev, addr, buf, n, to_dev, err);
  if ((uint64_t)addr + n > 0x100000000ull || !vt_mem_mapped(&dev->mem, addr, (uint32_t)n)) {
    vt_err_set(err, VT_ERR_ACCESS, "host %s of %zu bytes at 0x%08x: not in a mapped buffer",
               to_dev ? "write" : "read", n, addr);
    return VT_ERR_ACCESS;
  }
  uint8_t *b = buf;
  while (n > 0) {
    size_t chunk = VT_PAGE_SIZE - (addr & (VT_PAGE_SIZE - 1));
    if (chunk > n) chunk = n;
    if (to_dev) {
      /* zeros for a page nobody touched: it reads as zeros already (an
       * output buffer's initial contents cost no memory) */
      static const uint8_t zeros[VT_PAGE_SIZE];
      uint8_t *p = vt_pages_peek(&dev->mem.global, addr);
      if (p || memcmp(b, zeros, chunk) != 0) {
        if (!p) p = vt_pages_get(&dev->mem.global, addr);
        if (!p) {
          vt_err_set(err, VT_ERR_NOMEM, "out of host memory");
          return VT_ERR_NOMEM;
        }
        memcpy(p, b, chunk);
      }
    } else {
      const uint8_t *p = vt_pages_peek(&dev->mem.global, addr);
      if (p)
        memcpy(b, p, chunk);
      else
        memset(b, 0, chunk);
    }
    b += chunk;
    addr += (uint32_t)chunk;
    n -= chunk;
  }
  return VT_OK;
}

int vt_mem_write(vt_device *dev, uint32_t addr, const void *src, size_t n, vt_error *err) {
  return host_copy(dev, addr, (void *)src, n, true, err);
}
int vt_mem_read(vt_device *dev, uint32_t addr, void *dst, size_t n, vt_error *err) {
  return host_copy(dev, addr, dst, n, false, err);
}

/* ---------------- launches ---------------- */

/* back to the device's pool (freed when the pool cannot grow) */
static void warp_release(vt_device *dev, vt_warp *w) {
  if (dev->npool == dev->cappool) {
    size_t cap = dev->cappool ? 2 * dev->cappool : 64;
    vt_warp **p = realloc(dev->warp_pool, cap * sizeof *p);
    if (!p) {
      free(w->stack);
      free(w);
      return;
    }
    dev->warp_pool = p;
    dev->cappool = cap;
  }
  dev->warp_pool[dev->npool++] = w;
}

/* a warp with every register and field zero: from the pool, clearing only
 * the vector registers a decoded instruction may have written (vtop), or
 * new. Creating a workgroup zeroed 35 KB per warp before. */
_Static_assert(offsetof(vt_warp, v) == 0 && offsetof(vt_warp, tlb) == sizeof(((vt_warp *)0)->v) &&
                   offsetof(vt_warp, tlb_used) ==
                       offsetof(vt_warp, tlb) + sizeof(((vt_warp *)0)->tlb) &&
                   offsetof(vt_warp, x) == offsetof(vt_warp, tlb_used) + sizeof(uint64_t),
               "warp_get clears the fields from x on");
static vt_warp *warp_get(vt_device *dev) {
  if (!dev || !dev->npool) {
    vt_warp *w = aligned_alloc(64, (sizeof(vt_warp) + 63) & ~(size_t)63);
    if (w) memset(w, 0, sizeof *w);
    if (w && dev) w->tlb_gen = dev->mem.global.gen;
    return w;
  }
  vt_warp *w = dev->warp_pool[--dev->npool];
  vt_simt_entry *stack = w->stack;
  /* reference mode clears every register, so that the differential test
   * checks vtop (vt_vwrite_span) */
  unsigned cap = w->cap, vtop = dev->reference ? VT_NUM_VREGS : w->vtop;
  uint32_t tlb_gen = w->tlb_gen;
  bool tlb_local = w->tlb_local;
  memset(&w->x, 0, sizeof *w - offsetof(vt_warp, x));
  memset(w->v, 0, (size_t)vtop * sizeof w->v[0]);
  w->stack = stack;
  w->cap = cap;
  /* global translations stay valid while the mapping and pages do; local
   * ones belonged to the finished workgroup */
  if (tlb_local || tlb_gen != dev->mem.global.gen) {
    uint64_t used = 0;
    for (uint64_t m = w->tlb_used; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      uint32_t a = (w->tlb[i].tag - 1u) << VT_PAGE_BITS;
      if (tlb_gen != dev->mem.global.gen || a - VT_LDS_BASE < VT_ADDR_LDS_SIZE) w->tlb[i].tag = 0;
      if (w->tlb[i].tag) used |= 1ull << i;
    }
    w->tlb_used = used;
  }
  w->tlb_gen = dev->mem.global.gen;
  return w;
}

/* a workgroup block with room for n warps, all zero (as calloc gives it):
 * the last one a finished workgroup left when it is large enough */
_Static_assert(offsetof(vt_pages, dir) == 0, "wg_get skips the page directory of a pooled block");
static vt_wg *wg_get(vt_device *dev, unsigned n) {
  vt_wg *wg = NULL;
  if (dev && dev->nwgpool) {
    wg = dev->wg_pool[--dev->nwgpool];
    if (wg->capwarps < n) {
      free(wg);
      wg = NULL;
    }
  }
  bool pooled = wg != NULL;
  if (!wg) {
    wg = malloc(sizeof *wg + (size_t)(n ? n : 1) * sizeof(vt_warp *));
    if (!wg) return NULL;
    wg->capwarps = n ? n : 1;
  }
  unsigned cap = wg->capwarps;
  if (pooled) { /* vt_pages_free left its 8 KB page directory all NULL */
    char *dir_end = (char *)&wg->lds + sizeof wg->lds.dir;
    memset(wg, 0, offsetof(vt_wg, lds));
    memset(dir_end, 0, sizeof *wg - (size_t)(dir_end - (char *)wg));
  } else {
    memset(wg, 0, sizeof *wg);
  }
  wg->capwarps = cap;
  wg->warps = (vt_warp **)(wg + 1);
  for (unsigned i = 0; i < n; i++) wg->warps[i] = NULL;
  return wg;
}

static void wg_release(vt_device *dev, vt_wg *wg) {
  if (dev && dev->nwgpool == dev->capwgpool) {
    size_t cap = dev->capwgpool ? 2 * dev->capwgpool : 16;
    vt_wg **p = realloc(dev->wg_pool, cap * sizeof *p);
    if (!p) {
      free(wg);
      return;
    }
    dev->wg_pool = p;
    dev->capwgpool = cap;
  }
  if (dev) dev->wg_pool[dev->nwgpool++] = wg;
  else free(wg);
}

void vt_wg_free(vt_device *dev, vt_wg *wg) {
  if (!wg) return;
  if (dev) vt_pds_release(dev, wg);
  if (dev && dev->warp_end)
    for (unsigned i = 0; i < wg->nwarps; i++)
      if (wg->warps[i]) dev->warp_end(dev->warp_end_ctx, wg->warps[i]);
  for (unsigned i = 0; i < wg->nwarps; i++) {
    if (!wg->warps[i]) continue;
    vt_resv_drop(dev, wg->warps[i]);
    if (dev) {
      warp_release(dev, wg->warps[i]);
    } else {
      free(wg->warps[i]->stack);
      free(wg->warps[i]);
    }
  }
  vt_pages_free(&wg->lds);
  wg_release(dev, wg);
}

vt_wg *vt_wg_new(vt_device *dev, const vt_launch *l, unsigned id, unsigned sm) {
  vt_wg *wg = wg_get(dev, l->warps_per_wg);
  if (!wg) return NULL;
  wg->id = id;
  wg->sm = sm;
  wg->lds_limit = vt_launch_local_bytes(l);
  wg->lds_top = (uint32_t)(((uint64_t)l->lds_size + VT_PAGE_SIZE - 1) & ~(uint64_t)(VT_PAGE_SIZE - 1));
  uint32_t nx = l->num_wg[0], ny = l->num_wg[1];
  wg->gid[0] = (id % (nx * ny)) % nx;
  wg->gid[1] = (id % (nx * ny)) / nx;
  wg->gid[2] = id / (nx * ny);
  wg->nwarps = l->warps_per_wg;
  uint32_t lanes = l->threads_per_warp >= 32 ? 0xffffffffu : (1u << l->threads_per_warp) - 1u;
  uint32_t items = l->wg_threads ? l->wg_threads : l->warps_per_wg * l->threads_per_warp;
  for (unsigned w = 0; w < wg->nwarps; w++) {
    vt_warp *wp = warp_get(dev);
    if (!wp) {
      vt_wg_free(dev, wg); /* no warp holds a reservation yet */
      return NULL;
    }
    wg->warps[w] = wp;
    wp->wg = wg;
    wp->wid = w;
    wp->pc = l->start_pc;
    wp->lane_limit = lanes;
    /* lanes past the workgroup's work-items start inactive; lane_limit
     * stays numt lanes, so vl and VLMAX are unchanged (docs/run.md) */
    uint32_t first = w * l->threads_per_warp;
    wp->mask = items - first >= l->threads_per_warp ? lanes : (1u << (items - first)) - 1u;
    wp->state = WARP_RUNNING;
    wp->vill = true;
    wp->mstatus = VT_MSTATUS_INIT;
    /* launch CSRs: spec README decision 13 */
    WCSR(wp, TID) = w * l->threads_per_warp;
    WCSR(wp, NUMW) = l->warps_per_wg;
    WCSR(wp, NUMT) = l->threads_per_warp;
    WCSR(wp, KNL) = l->knl_addr;
    WCSR(wp, WGID) = id;
    WCSR(wp, WID) = w;
    WCSR(wp, LDS) = VT_LDS_BASE;
    WCSR(wp, PDS) =
        l->pds_base + id * l->warps_per_wg * l->threads_per_warp * l->pds_size;
    WCSR(wp, GIDX) = wg->gid[0];
    WCSR(wp, GIDY) = wg->gid[1];
    WCSR(wp, GIDZ) = wg->gid[2];
    /* the range CSRs' launch values (isa2025.md 2.5, D24) */
    WCSR(wp, GDS) = 0;
    WCSR(wp, GDS_LIMIT) = 0xffffffffu;
    WCSR(wp, LDS_LIMIT) = 0x7fffffffu;
  }
  return wg;
}

/* Fill the location of err with warp w at 'pc' and prefix the message. */
void vt_sim_locate_at(vt_error *err, const vt_warp *w, unsigned sm, vt_device *dev, uint32_t pc) {
  if (!err) return;
  err->has_location = true;
  err->sm = sm;
  err->wg = w->wg->id;
  err->warp = w->wid;
  err->pc = pc;
  err->insn = err->insn_hi = 0;
  /* read the word without side effects (through the launch's page table
   * with the MMU on); a 64-bit instruction's second parcel too
   * (isa2025.md 5.1: 16 hex digits) */
  const uint8_t *p = vt_sim_peek(dev, w, pc);
  char dis[128] = "?", word[24] = "0x00000000";
  if (p && (pc & 3) == 0) {
    err->insn = load_le(p, 4);
    const uint8_t *q = vt_insn_length(err->insn) == 8 ? vt_sim_peek(dev, w, pc + 4) : NULL;
    if (q) {
      err->insn_hi = load_le(q, 4);
      uint64_t insn = (uint64_t)err->insn_hi << 32 | err->insn;
      vt_disasm64(insn, pc, NULL, dis, sizeof dis);
      snprintf(word, sizeof word, "0x%016llx", (unsigned long long)insn);
    } else {
      vt_disasm(err->insn, pc, NULL, dis, sizeof dis);
      snprintf(word, sizeof word, "0x%08x", err->insn);
    }
    for (char *c = dis; *c; c++)
      if (*c == '\t') *c = ' ';
  } else {
    snprintf(word, sizeof word, "0x%08x", err->insn);
  }
  vt_err_prefix(err, "SM %u, workgroup %u, warp %u, pc 0x%08x (%s %s): ", sm, err->wg,
                err->warp, err->pc, word, dis);
}

static void locate(vt_error *err, const vt_warp *w, unsigned sm, vt_device *dev) {
  vt_sim_locate_at(err, w, sm, dev, w->pc);
}

uint32_t vt_launch_local_bytes(const vt_launch *l) {
  if (l->local_bytes) return l->local_bytes;
  uint64_t b = (uint64_t)l->lds_size + (uint64_t)l->warps_per_wg * VT_STACK_PER_WARP;
  return b > VT_ADDR_LDS_SIZE ? VT_ADDR_LDS_SIZE : (uint32_t)b;
}

int vt_launch_check(vt_device *dev, const vt_launch *l, vt_error *err) {
  unsigned t = l->threads_per_warp;
  if (t == 0 || t > 32 || (t & (t - 1)) != 0) {
    vt_err_set(err, VT_ERR_CONFIG, "threads per warp must be a power of two from 1 to 32 (got %u)", t);
    return VT_ERR_CONFIG;
  }
  if (l->warps_per_wg == 0 || l->warps_per_wg > VT_MAX_WG_WARPS) {
    vt_err_set(err, VT_ERR_CONFIG, "warps per workgroup must be 1 to %u (got %u)", VT_MAX_WG_WARPS,
               l->warps_per_wg);
    return VT_ERR_CONFIG;
  }
  if (l->wg_threads && (l->wg_threads > l->warps_per_wg * t ||
                        l->wg_threads <= (l->warps_per_wg - 1) * t)) {
    vt_err_set(err, VT_ERR_CONFIG, "%u work-items per workgroup do not need %u warps of %u threads",
               l->wg_threads, l->warps_per_wg, t);
    return VT_ERR_CONFIG;
  }
  if (l->num_wg[0] == 0 || l->num_wg[1] == 0 || l->num_wg[2] == 0 ||
      (uint64_t)l->num_wg[0] * l->num_wg[1] * l->num_wg[2] > 0xffffffffull) {
    vt_err_set(err, VT_ERR_CONFIG, "bad workgroup count %ux%ux%u", l->num_wg[0], l->num_wg[1],
               l->num_wg[2]);
    return VT_ERR_CONFIG;
  }
  uint64_t local = (uint64_t)l->lds_size + (uint64_t)l->warps_per_wg * VT_STACK_PER_WARP;
  if (l->local_bytes) local = l->local_bytes;
  if (local > dev->cfg.lds_bytes) {
    vt_err_set(err, VT_ERR_CONFIG,
               "a workgroup's local memory (%llu bytes: %s) exceeds the device's %u bytes "
               "(setting lds_bytes)", (unsigned long long)local,
               l->local_bytes ? "the launch's local size" : "ldsSize plus a 1 KiB stack per warp",
               dev->cfg.lds_bytes);
    return VT_ERR_CONFIG;
  }
  if (shape_fixed(&dev->cfg)) {
    if (l->warps_per_wg > dev->cfg.warp_slots) {
      vt_err_set(err, VT_ERR_CONFIG,
                 "a workgroup of %u warps does not fit an SM with %u warp slots (configuration "
                 "fixed by the user)", l->warps_per_wg, dev->cfg.warp_slots);
      return VT_ERR_CONFIG;
    }
    if (l->lds_size > dev->cfg.lds_bytes) {
      vt_err_set(err, VT_ERR_CONFIG,
                 "a workgroup needs %u bytes of local memory, an SM has %u (configuration fixed "
                 "by the user)", l->lds_size, dev->cfg.lds_bytes);
      return VT_ERR_CONFIG;
    }
    if (dev->cfg.threads && t != dev->cfg.threads) {
      vt_err_set(err, VT_ERR_CONFIG,
                 "launch needs %u threads per warp, the device has %u (configuration fixed by "
                 "the user)", t, dev->cfg.threads);
      return VT_ERR_CONFIG;
    }
  }
  return VT_OK;
}

int vt_wg_barrier_check(vt_wg *wg, vt_error *err) {
  unsigned waiting = 0, running = 0, ended = 0;
  for (unsigned i = 0; i < wg->nwarps; i++) {
    int s = wg->warps[i]->state;
    waiting += s == WARP_BARRIER;
    running += s == WARP_RUNNING;
    ended += s == WARP_ENDED;
  }
  if (waiting == 0 || running > 0) return VT_OK;
  if (ended == 0) {
    for (unsigned i = 0; i < wg->nwarps; i++) wg->warps[i]->state = WARP_RUNNING;
    return VT_OK;
  }
  vt_err_set(err, VT_ERR_DEADLOCK,
             "barrier deadlock: %u warp(s) wait at a barrier that %u ended warp(s) will never "
             "reach", waiting, ended);
  return VT_ERR_DEADLOCK;
}

int vt_step_execute(vt_device *dev, vt_warp *w, unsigned s, const vt_insn *in, vt_error *err) {
  vt_wg *wg = w->wg;
  uint32_t pc = w->pc, mask = w->mask;
  dev->ntw = dev->ntm = 0;
  dev->ctr = dev->rows + (size_t)s * VT_C_COUNT;
  dev->cur_sm = s;
  dev->cur_lane = -1;
  int rc = vt_sim_execute(dev, w, in, err);
  if (rc != VT_OK) {
    locate(err, w, s, dev);
    return rc;
  }
  dev->ctr[VT_C_warp_instructions]++;
  dev->ctr[VT_C_thread_instructions] += (unsigned)vt_popcount32(mask);
  /* the event, built only for the trace and the after hook (the hot path has neither) */
#define STEP_EVENT                                                                        \
  {s, wg->id, w->wid, pc, in->word, mask, dev->ntw, dev->ntm, dev->twrites, dev->tmem,      \
   in->d->length, in->word_hi, w}
  if (dev->trace) {
    vt_trace_event ev = STEP_EVENT;
    dev->trace(dev->trace_ctx, &ev);
  }
  if (w->state != WARP_RUNNING) {
    if (w->state == WARP_ENDED) wg->ended++;
    rc = vt_wg_barrier_check(wg, err);
    if (rc) {
      /* report at a waiting warp, at its barrier instruction: a
       * waiting warp's pc already points past the barrier (barrier
       * never branches, so it is pc - 4) */
      for (unsigned k = 0; k < wg->nwarps; k++)
        if (wg->warps[k]->state == WARP_BARRIER) {
          vt_sim_locate_at(err, wg->warps[k], s, dev, wg->warps[k]->pc - 4);
          break;
        }
    }
  }
  if (rc == VT_OK && dev->hooks.after) {
    vt_trace_event ev = STEP_EVENT;
    rc = dev->hooks.after(dev->hooks.ctx, w, &ev, err);
    if (rc != VT_OK) locate(err, w, s, dev);
  }
#undef STEP_EVENT
  return rc;
}
