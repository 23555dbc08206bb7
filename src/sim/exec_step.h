/* The two halves of a warp step as the run loop inlines them: the decode
 * cache's hit, and the execution with its bookkeeping (prefix state, pc,
 * instret, the vector/scalar counters). Misses and everything else are in
 * exec.c (vt_sim_decode, vt_exec_generic). */
#ifndef VT_SIM_EXEC_STEP_H
#define VT_SIM_EXEC_STEP_H
#include "exec_util.h"

/* a decode-cache chunk holds the 1024 instructions of one page (the
 * program window starts on a page, include/vt/addrmap.def) */
_Static_assert(VT_PAGE_SIZE / 4 == 1024, "decode-cache chunks are pages");

/* whether two translation-cache entries are the same (tag, range, page) */
static inline bool vt_tlb_same(const vt_tlb_entry *a, const vt_tlb_entry *b) {
  return a->tag == b->tag && a->lo == b->lo && a->hi == b->hi && a->page == b->page;
}

/* The decode cache's instruction at the warp's pc, decoded as it executes
 * without a prefix, when the pc's page is in the warp's translation cache
 * and the entry holds the word there (only 4-byte instructions are cached;
 * reference mode never fills the cache, so never hits); NULL otherwise.
 * The page of the last hit is remembered in the warp (fm_*): while its
 * translation entry is unchanged, a pc in its accessible bytes needs
 * neither the lookup nor the window checks again, only the word's
 * comparison (code may be rewritten, tests/unit/test_sim_smc.c). */
static inline const vt_insn *vt_decode_hit(vt_device *dev, vt_warp *w) {
  uint32_t pc = w->pc, vpn = pc >> VT_PAGE_BITS, at = pc & (VT_PAGE_SIZE - 1);
  const vt_dcache_entry *e;
  uint32_t word;
  if (vpn + 1 == w->fm_key && !(pc & 3) && at >= w->fm_entry.lo && at + 4 <= w->fm_entry.hi &&
      w->fm_dev == dev && vt_tlb_same(w->fm_slot, &w->fm_entry)) {
    e = &w->fm_chunk[at >> 2];
    word = load_le(w->fm_entry.page + at, 4);
    return e->in.word == word && e->in.d ? &e->in : NULL;
  }
  uint32_t off = (pc - VT_PROGRAM_BASE) >> 2;
  size_t chunk = off >> 10;
  const vt_tlb_entry *t = &w->tlb[vt_tlb_slot(vpn)];
  if (!(pc & 3) && vt_tlb_hit(t->tag, vpn, false, true, dev->fetch_exec) && at >= t->lo &&
      at + 4 <= t->hi && pc - VT_PROGRAM_BASE < VT_ADDR_PROGRAM_SIZE &&
      chunk < dev->dcache_chunks && dev->dcache[chunk]) {
    e = &dev->dcache[chunk][off & 1023];
    word = load_le(t->page + at, 4);
    if (e->in.word != word || !e->in.d) return NULL;
    w->fm_key = vpn + 1;
    w->fm_dev = dev;
    w->fm_slot = t;
    w->fm_entry = *t;
    w->fm_chunk = dev->dcache[chunk];
    return &e->in;
  }
  return NULL;
}

/* The isa2025.md gate and the row's executor: the path of an instruction
 * without a chosen executor, and of every one in reference mode. */
int vt_exec_generic(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);

/* vt_sim_execute (exec_util.h) but for the vector/scalar instruction
 * counters, which the caller keeps */
static inline int vt_exec_step(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  bool was_armed = w->ext_armed;
  /* the vector registers it may write lie below vtop (vt_vwrite_span) */
  if (in->vtop > w->vtop) w->vtop = in->vtop;
  w->npc = w->pc + in->d->length;
  /* the executor decode chose (none in reference mode: decode_cached) */
  int rc = in->fn ? in->fn(dev, w, in, err) : vt_exec_generic(dev, w, in, err);
  if (rc != VT_OK) return rc;
  /* a prefix is consumed by the next instruction; a new prefix re-arms */
  if (in->arms_prefix) {
    w->ext_armed = true;
  } else if (was_armed) {
    w->ext_valid = false;
    w->exti_valid = false;
    w->ext_armed = false;
    w->pfx_kind = VT_PFX_NONE;
  }
  w->pc = w->npc;
  w->instret++;
  w->cycle++;
  return VT_OK;
}
#endif
