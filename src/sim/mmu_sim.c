/* Virtual memory in the simulator (vt/mmu.h, docs/memory.md), the
 * kernel's side: the device's MMU state, the translation-cache miss hook of
 * the access path (exec.c) with its fault messages, a launch's page table,
 * reads without side effects and the timing model's view (step.h). The
 * host's side is mmu_mem.c. With the setting mmu off none of this runs
 * (dev->mmu is NULL) except the plain fallbacks of vt_sim_peek,
 * vt_sim_mapped and vt_sim_zero. */
#include <stdio.h>
#include <stdlib.h>

#include "exec_util.h"
#include "mmu/mmu_internal.h"

#define PAGE VT_SV39_PAGE

int vt_mmu_init(vt_device *dev) {
  vt_mmu *m = calloc(1, sizeof *m);
  if (!m) return -1;
  m->phys = &dev->mem.global;
  m->phys_bytes = dev->cfg.phys_bytes & ~(uint64_t)(PAGE - 1);
  m->gen = &dev->mem.global.gen;
  vt_error err;
  if (vt_frames_init(&m->frames, m->phys_bytes) != 0 ||
      !(m->dflt = vt_aspace_create(m, 0, &err))) {
    vt_frames_destroy(&m->frames);
    free(m);
    return -1;
  }
  m->cur = m->dflt;
  m->run_root = m->dflt->root;
  dev->mmu = m;
  dev->fetch_exec = VT_TLB_EXEC;
  return 0;
}

void vt_mmu_destroy(vt_device *dev) {
  vt_mmu *m = dev->mmu;
  if (!m) return;
  /* the frames go with the device's memory */
  for (vt_aspace *as = m->all, *next; as; as = next) {
    next = as->next;
    free(as->ranges);
    free(as);
  }
  vt_frames_destroy(&m->frames);
  free(m);
  dev->mmu = NULL;
}

bool vt_device_mmu(const vt_device *dev) { return dev && dev->mmu; }

/* ---- faults ---- */
static const char *access_name(vt_mmu_access kind) {
  switch (kind) {
  case VT_MMU_LOAD: return "load";
  case VT_MMU_STORE: return "store";
  case VT_MMU_FETCH: return "fetch";
  default: return "host access";
  }
}

/* what the failing PTE says, for the message */
static void fault_detail(const vt_mmu *m, const vt_mmu_walk *wk, vt_mmu_access kind, char *b,
                         size_t n) {
  uint64_t pte = wk->pte, at = wk->level >= 0 ? wk->pte_addr[wk->nreads ? wk->nreads - 1 : 0] : 0;
  unsigned long long p = (unsigned long long)pte, a = (unsigned long long)at;
  switch (wk->fault) {
  case VT_MMU_NONCANONICAL:
    snprintf(b, n, "bits 63..39 are not all equal to bit 38");
    break;
  case VT_MMU_PTE_RANGE:
    snprintf(b, n, "its PTE would be at physical 0x%llx, beyond physical memory (%llu bytes)",
             (unsigned long long)wk->pte_addr[wk->nreads], (unsigned long long)m->phys_bytes);
    break;
  case VT_MMU_RESERVED:
    snprintf(b, n, "PTE 0x%016llx at physical 0x%llx %s", p, a,
             (pte & VT_PTE_RESERVED) ? "has bits 63..54 set"
             : ((pte & VT_PTE_W) && !(pte & VT_PTE_R)) ? "has W without R"
                                                       : "points to a table but has D, A or U set");
    break;
  case VT_MMU_PERMISSION:
    snprintf(b, n, "leaf PTE 0x%016llx at physical 0x%llx has %s", p, a,
             !(pte & VT_PTE_U) ? "U = 0 (not a user page)"
             : kind == VT_MMU_LOAD ? "R = 0" : kind == VT_MMU_STORE ? "W = 0" : "X = 0");
    break;
  case VT_MMU_MISALIGNED:
    snprintf(b, n, "leaf PTE 0x%016llx at physical 0x%llx maps a %s superpage at PPN 0x%llx, "
             "not a multiple of %u", p, a, wk->level == 2 ? "1 GiB" : "2 MiB",
             (unsigned long long)((pte >> VT_PTE_PPN_SHIFT) & ((1ull << 44) - 1)),
             wk->level == 2 ? 262144u : 512u);
    break;
  case VT_MMU_PHYS_RANGE:
    snprintf(b, n, "it maps physical 0x%llx, beyond physical memory (%llu bytes)",
             (unsigned long long)wk->pa, (unsigned long long)m->phys_bytes);
    break;
  case VT_MMU_ACCESSED:
  case VT_MMU_DIRTY:
    snprintf(b, n, "leaf PTE 0x%016llx at physical 0x%llx (the walk does not set A or D)", p, a);
    break;
  default:
    snprintf(b, n, "PTE 0x%016llx at physical 0x%llx", p, a);
    break;
  }
}

static int fault(vt_device *dev, uint64_t va, unsigned size, vt_mmu_access kind, uint16_t asid,
                 const vt_mmu_walk *wk, vt_error *err) {
  char detail[200], lane[24] = "", level[24] = "";
  fault_detail(dev->mmu, wk, kind, detail, sizeof detail);
  if (dev->cur_lane >= 0) snprintf(lane, sizeof lane, " (lane %d)", dev->cur_lane);
  if (wk->level >= 0) snprintf(level, sizeof level, " at level %d", wk->level);
  vt_err_set(err, VT_ERR_ACCESS, "%s: %u-byte %s at virtual address 0x%08llx%s (ASID %u): %s%s: %s",
             vt_mmu_fault_kind(wk->fault), size, access_name(kind), (unsigned long long)va, lane,
             asid, vt_mmu_fault_name(wk->fault), level, detail);
  return VT_ERR_ACCESS;
}

/* ---- the access path ---- */
/* While several SMs run an epoch (overlay.h, keyed here by physical frame):
 * a PTE as this SM sees it, its own copy of the frame first */
static uint64_t read_pte_overlay(void *ctx, uint64_t pa) {
  const vt_device *dev = ctx;
  const uint8_t *o = pa < dev->mmu->phys_bytes && !(pa & 7)
                         ? vt_ovl_find(dev->ovl, (uint32_t)(pa >> VT_PAGE_BITS))
                         : NULL;
  if (!o) return vt_mmu_read_pte(dev->mmu, pa);
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | o[(pa & (PAGE - 1)) + (unsigned)i];
  return v;
}

/* ... and the byte at physical pa: in the SM's copy of the frame (made for
 * a store) or in the shared frame, which is not allocated then (a frame
 * nobody wrote reads as zeros; *shared is set: no stores through it) */
static uint8_t *overlay_frame(vt_device *dev, uint32_t pa, bool store, bool *shared) {
  uint32_t frame = pa >> VT_PAGE_BITS, in = pa & (VT_PAGE_SIZE - 1);
  uint8_t *o = vt_ovl_find(dev->ovl, frame);
  *shared = false;
  if (o) return o + in;
  const uint8_t *page = vt_pages_peek(dev->mmu->phys, pa - in);
  if (store) {
    o = vt_ovl_add(dev->ovl, frame, page);
    return o ? o + in : NULL;
  }
  static const uint8_t zero_frame[VT_PAGE_SIZE];
  *shared = true;
  return (uint8_t *)(page ? page : zero_frame) + in;
}

uint8_t *vt_mmu_fill(vt_device *dev, vt_tlb_entry *e, uint64_t va, unsigned size, bool store,
                     bool fetch, vt_error *err) {
  vt_mmu *m = dev->mmu;
  vt_mmu_access kind = fetch ? VT_MMU_FETCH : store ? VT_MMU_STORE : VT_MMU_LOAD;
  vt_mmu_walk wk;
  if (dev->ovl)
    vt_sv39_walk(m->run_root, va, kind, m->phys_bytes, read_pte_overlay, dev, &wk);
  else
    vt_mmu_walk_in(m, m->run_root, va, kind, &wk);
  if (wk.fault != VT_MMU_OK) {
    fault(dev, va, size, kind, m->run_asid, &wk, err);
    return NULL;
  }
  bool shared = false;
  uint8_t *p = dev->ovl ? overlay_frame(dev, (uint32_t)wk.pa, store, &shared)
                        : vt_pages_get(m->phys, (uint32_t)wk.pa);
  if (!p) {
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory at 0x%08llx", (unsigned long long)va);
    return NULL;
  }
  /* what the page allows, for later lookups (sim_internal.h, exec.c) */
  uint32_t kinds = 0;
  if (!(wk.pte & VT_PTE_R)) kinds |= VT_TLB_NOLOAD;
  if (!(wk.pte & VT_PTE_W) || !(wk.pte & VT_PTE_D) || shared) kinds |= VT_TLB_NOSTORE;
  if (wk.pte & VT_PTE_X) kinds |= VT_TLB_EXEC;
  e->tag = ((uint32_t)(va >> VT_PAGE_BITS) + 1u) | kinds;
  e->lo = 0;
  e->hi = VT_PAGE_SIZE;
  e->page = p - (va & (VT_PAGE_SIZE - 1));
  if (store && dev->ovl) vt_ovl_mark(p, size);
  return p;
}

uint8_t *vt_sim_access_va(vt_device *dev, vt_warp *w, uint64_t va, unsigned size, bool store,
                          vt_error *err) {
  if (va <= UINT32_MAX) return vt_access(dev, w, (uint32_t)va, size, store, err);
  if (!dev->mmu) {
    vt_err_set(err, VT_ERR_ACCESS, "64-bit address 0x%016llx is outside the 32-bit physical space",
               (unsigned long long)va);
    return NULL;
  }
  if (va & (size - 1)) {
    vt_err_set(err, VT_ERR_MISALIGNED, "misaligned %u-byte %s at 0x%016llx", size,
               store ? "store" : "load", (unsigned long long)va);
    return NULL;
  }
  /* as vt_access: a store breaks other warps' reservations of the word */
  if (store && dev->nresv && !dev->ovl) vt_resv_store(dev, w, va);
  uint32_t vpn = (uint32_t)(va >> VT_PAGE_BITS), in = (uint32_t)(va & (VT_PAGE_SIZE - 1));
  vt_tlb_entry *e = &w->tlb[vt_tlb_slot(vpn)];
  if (vt_sv39_canonical(va) && vt_tlb_hit(e->tag, vpn, store, false, VT_TLB_EXEC)) {
    if (store && dev->ovl) vt_ovl_mark(e->page + in, size);
    return e->page + in;
  }
  w->tlb_used |= 1ull << (e - w->tlb);
  return vt_mmu_fill(dev, e, va, size, store, false, err);
}

int vt_mmu_launch(vt_device *dev, const vt_launch *l, vt_error *err) {
  vt_mmu *m = dev->mmu;
  if (!m) {
    if (!l->ptbr) return VT_OK;
    vt_err_set(err, VT_ERR_CONFIG, "the launch names a page table (ptbr 0x%llx) but the MMU is "
               "off (setting mmu)", (unsigned long long)l->ptbr);
    return VT_ERR_CONFIG;
  }
  uint64_t root = l->ptbr ? l->ptbr : m->cur->root;
  if ((root & (PAGE - 1)) || root >= m->phys_bytes) {
    vt_err_set(err, VT_ERR_CONFIG, "the launch's page-table root 0x%llx is not a page of "
               "physical memory (%llu bytes)", (unsigned long long)root,
               (unsigned long long)m->phys_bytes);
    return VT_ERR_CONFIG;
  }
  m->run_root = root;
  m->run_asid = l->ptbr ? l->asid : m->cur->asid;
  (*m->gen)++; /* no warp keeps a translation of an earlier launch */
  return VT_OK;
}

/* ---- reads without side effects, checks, zeroing ---- */
const uint8_t *vt_sim_peek(vt_device *dev, const vt_warp *w, uint32_t addr) {
  if (addr - VT_ADDR_LDS_BASE < VT_ADDR_LDS_SIZE) return vt_pages_peek(&w->wg->lds, addr);
  if (!dev->mmu) return vt_pages_peek(&dev->mem.global, addr);
  vt_mmu_walk wk;
  vt_mmu_walk_in(dev->mmu, dev->mmu->run_root, addr, VT_MMU_HOST, &wk);
  return wk.fault == VT_MMU_OK ? vt_pages_peek(dev->mmu->phys, (uint32_t)wk.pa) : NULL;
}

bool vt_sim_phys_of(vt_device *dev, uint32_t addr, uint32_t *pa) {
  vt_mmu_walk wk;
  vt_mmu_walk_in(dev->mmu, dev->mmu->run_root, addr, VT_MMU_HOST, &wk);
  if (wk.fault != VT_MMU_OK) return false;
  *pa = (uint32_t)wk.pa;
  return true;
}

bool vt_sim_mapped(vt_device *dev, uint32_t addr, uint32_t n) {
  if (!dev->mmu) return vt_mem_mapped(&dev->mem, addr, n);
  for (uint64_t a = addr & ~(uint64_t)(PAGE - 1); a < (uint64_t)addr + n; a += PAGE) {
    vt_mmu_walk wk;
    vt_mmu_walk_in(dev->mmu, dev->mmu->run_root, a, VT_MMU_HOST, &wk);
    if (wk.fault != VT_MMU_OK) return false;
  }
  return true;
}

void vt_sim_zero(vt_device *dev, uint32_t addr, uint32_t n) {
  vt_mmu *m = dev->mmu;
  if (!m) {
    vt_pages_zero(&dev->mem.global, addr, n);
    return;
  }
  for (uint64_t a = addr, end = (uint64_t)addr + n; a < end;) {
    uint64_t stop = (a | (PAGE - 1)) + 1 < end ? (a | (PAGE - 1)) + 1 : end;
    vt_mmu_walk wk;
    vt_mmu_walk_in(m, m->cur->root, a, VT_MMU_HOST, &wk);
    if (wk.fault == VT_MMU_OK) vt_pages_zero(m->phys, (uint32_t)wk.pa, (uint32_t)(stop - a));
    a = stop;
  }
}

/* ---- the timing model's view (step.h) ---- */
bool vt_step_mmu(const vt_device *dev, uint16_t *asid, uint32_t *epoch) {
  if (!dev->mmu) return false;
  *asid = dev->mmu->run_asid;
  *epoch = dev->mmu->epoch;
  return true;
}

void vt_step_walk(const vt_device *dev, uint64_t va, vt_mmu_access kind, vt_mmu_walk *out) {
  vt_mmu_walk_in(dev->mmu, dev->mmu->run_root, va, kind, out);
}
