/* The fast path of the vector memory executors: when every active lane's
 * bytes lie in one page the warp's translation cache holds, the page is
 * resolved once for the whole warp instead of once per lane (vt_access).
 * Any other case takes the exact per-lane path, so results and error
 * messages do not depend on which path ran (exec_vmem_fast.c). */
#ifndef VT_SIM_FASTMEM_H
#define VT_SIM_FASTMEM_H
#include "exec_util.h"

/* Whether an access may skip the per-lane path: nothing records or
 * intercepts single accesses (trace callback, debugger hook, the timing
 * model's access record) and a store breaks no LR reservation. While an SM
 * writes to its global-memory overlay (run.h) a store must mark the bytes
 * it writes: the unit-stride path does, the per-lane families take the
 * per-lane path (vt_vmem_lanes_fast). Reference mode (setting reference)
 * always takes the per-lane path. Every future condition on individual
 * accesses belongs here. */
static inline bool vt_fastmem_ok(const vt_device *dev, bool store) {
  return !dev->record && !dev->rec_mem && !(store && dev->nresv) && !dev->reference;
}

/* Host pointer to the bytes [lo, hi) (lo < hi) when they lie in one page
 * whose accessible part the warp's translation cache holds, and (with the
 * memory checker on) inside one allocation, which becomes the warp's cached
 * one as the per-lane checks would make it: then every aligned access in
 * the span passes vt_access's checks (loads also take a load-only
 * translation, vt_tlb_tag). NULL otherwise, nothing reported. Alignment is
 * the caller's to check. */
static inline uint8_t *vt_fastmem_span(vt_device *dev, vt_warp *w, uint32_t lo,
                                       uint64_t hi, bool store) {
  uint32_t vpn = lo >> VT_PAGE_BITS, in = lo & (VT_PAGE_SIZE - 1);
  if ((hi - 1) >> VT_PAGE_BITS != vpn) return NULL;
  const vt_tlb_entry *e = &w->tlb[vt_tlb_slot(vpn)];
  uint32_t end = in + (uint32_t)(hi - lo);
  if (vt_tlb_tag(e->tag, store) != vpn + 1 || in < e->lo || end > e->hi) return NULL;
  /* the checker exempts local memory; else the span must be inside the
   * allocation (then each access inside it is) */
  bool local = lo - VT_LDS_BASE < VT_ADDR_LDS_SIZE &&
               (uint32_t)(hi - 1) - VT_LDS_BASE < VT_ADDR_LDS_SIZE;
  if (dev->cfg.memcheck && !local &&
      !(w->mc_gen == dev->allocs.gen && lo >= w->mc_lo && hi <= w->mc_hi) &&
      !vt_memcheck_span(dev, w, lo, (unsigned)(hi - lo)))
    return NULL;
  return e->page + in;
}

/* Lane 'lane' of a Ventus per-lane access at a = vs1[i] + imm: flat a, or
 * private PDS + (a & ~3) * numw * numt + 4 * (tid + i) + (a & 3), a & 3
 * dropped for word accesses (spec README decision 9); lane = tid + i. */
static inline uint32_t vt_lane_addr(uint32_t a, bool is_private, uint32_t pds, uint32_t stride,
                                    uint32_t lane, unsigned size) {
  if (!is_private) return a;
  uint32_t addr = pds + (a & ~3u) * stride + 4u * lane;
  return size != 4 ? addr + (a & 3) : addr;
}

/* RVV unit-stride loads and stores of 'size'-byte elements on the lanes m
 * (m != 0) from x[rs1]; false: not taken, nothing changed. */
bool vt_vmem_unit_fast(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, unsigned size,
                       bool store);
/* The Ventus per-lane families without a prefix (flat vs1[i] + imm and
 * private), on the lanes m; false: not taken, nothing changed. */
bool vt_vmem_lanes_fast(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, bool store);
#endif
