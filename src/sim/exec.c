/* One warp step: fetch, decode (cached per PC), apply the one-shot
 * regext/regexti prefix state (isa.md 2.6), dispatch to the executors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_tensor.h"
#include "exec_step.h"
#include "exec_vector.h"
#include "overlay.h"

/* The stacks of the Verilog port's crt0 (sp = CSR_LDS + CSR_WID * 1 MiB,
 * found in the official cases/rtl-verilog binaries; docs/run.md, Local
 * memory): warp w >= 1 has 1 KiB at w MiB (warp 0's is inside the window). */
static bool in_port_stack(uint32_t off, unsigned size, const vt_launch *l) {
  uint32_t warp = off / VT_PORT_STACK_STRIDE, in = off % VT_PORT_STACK_STRIDE;
  return l && warp >= 1 && warp < l->warps_per_wg && in + size <= VT_STACK_PER_WARP;
}

/* a local-memory access outside the workgroup's window */
static uint8_t *local_out_of_range(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size,
                                   bool store, vt_error *err) {
  const vt_launch *l = dev->launch;
  vt_err_set(err, VT_ERR_ACCESS,
             "local-memory %s of %u bytes at 0x%08x is outside the workgroup's local memory "
             "[0x%08x, 0x%08x) + [0x%08x, 0x%08x) (ldsSize %u, %u warp stacks of %u bytes)",
             store ? "store" : "load", size, addr, VT_LDS_BASE, VT_LDS_BASE + w->wg->lds_limit,
             VT_PROGRAM_BASE - w->wg->lds_top, VT_PROGRAM_BASE, l ? l->lds_size : 0, l ? l->warps_per_wg : 0,
             VT_STACK_PER_WARP);
  return NULL;
}

/* While several SMs run an epoch: the byte at addr as this SM sees it, in
 * its overlay (made for a store) or in the shared page, which is not
 * allocated then (a page nobody wrote reads as zeros). */
static uint8_t *overlay_page(vt_device *dev, uint32_t addr, bool store) {
  uint32_t vpn = addr >> VT_PAGE_BITS, in = addr & (VT_PAGE_SIZE - 1);
  uint8_t *o = vt_ovl_find(dev->ovl, vpn);
  if (o) return o + in;
  const uint8_t *shared = vt_pages_peek(&dev->mem.global, addr & ~(VT_PAGE_SIZE - 1));
  if (store) {
    o = vt_ovl_add(dev->ovl, vpn, shared);
    return o ? o + in : NULL;
  }
  /* a translation of the zero page is tagged VT_TLB_NOSTORE: never written */
  static const uint8_t zero_page[VT_PAGE_SIZE];
  return (uint8_t *)(shared ? shared : zero_page) + in;
}

/* a data access (checked by the memory checker when on) or an instruction
 * fetch (not: the fetch of an unmapped or misaligned pc is an error anyway,
 * and checking it would evict the warp's data allocation from its cache);
 * inlined into both callers: fetches are as frequent as instructions */
enum { ACC_DATA, ACC_FETCH, ACC_PROBE };
static inline __attribute__((always_inline)) uint8_t *
access(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store, int kind,
       vt_error *err) {
  const bool fetch = kind == ACC_FETCH;
  if (addr & (size - 1)) {
    vt_err_set(err, VT_ERR_MISALIGNED, "misaligned %u-byte %s at 0x%08x", size,
               store ? "store" : "load", addr);
    return NULL;
  }
  bool local = addr - VT_LDS_BASE < VT_ADDR_LDS_SIZE;
  if (dev->cfg.memcheck && !local && kind == ACC_DATA &&
      !vt_memcheck(dev, w, addr, size, store, err))
    return NULL;
  /* while several SMs run an epoch no store runs while reservations exist
   * (the run loop defers them, run.h) */
  if (store && dev->nresv && !dev->ovl) vt_resv_store(dev, w, addr);
  uint32_t vpn = addr >> VT_PAGE_BITS, in = addr & (VT_PAGE_SIZE - 1);
  vt_tlb_entry *e = &w->tlb[vt_tlb_slot(vpn)];
  bool overlay = dev->ovl && !local;
  if (vt_tlb_hit(e->tag, vpn, store, fetch, dev->fetch_exec) && in >= e->lo && in + size <= e->hi) {
    if (store && overlay && kind != ACC_PROBE) vt_ovl_mark(e->page + in, size);
    return e->page + in;
  }
  uint8_t *p;
  uint32_t lo = 0, hi = 0, tag = vpn + 1; /* the accessible bytes of the page, for the cache */
  if (local) {
    uint32_t off = addr - VT_LDS_BASE, top = VT_PROGRAM_BASE - addr;
    bool low = (uint64_t)off + size <= w->wg->lds_limit, high = top <= w->wg->lds_top;
    if (!low && !high && !in_port_stack(off, size, dev->launch))
      return local_out_of_range(dev, w, addr, size, store, err);
    uint32_t page_off = off - in;
    if (high) hi = VT_PAGE_SIZE; /* the top part is whole pages */
    else if (low) hi = w->wg->lds_limit - page_off < VT_PAGE_SIZE ? w->wg->lds_limit - page_off
                                                                  : VT_PAGE_SIZE;
    p = vt_pages_get(&w->wg->lds, addr);
  } else if (dev->mmu) { /* translate (mmu_sim.c): fills e, or faults */
    w->tlb_used |= 1ull << (e - w->tlb);
    return vt_mmu_fill(dev, e, addr, size, store, fetch, err);
  } else {
    if (!vt_mem_extent(&dev->mem, addr, size, &lo, &hi)) {
      vt_err_set(err, VT_ERR_ACCESS, "%s of unmapped address 0x%08x", store ? "store" : "load",
                 addr);
      return NULL;
    }
    if (overlay) {
      p = overlay_page(dev, addr, store);
      if (p && !store && !vt_ovl_find(dev->ovl, vpn)) tag |= VT_TLB_NOSTORE;
    } else {
      p = vt_pages_get(&dev->mem.global, addr);
    }
  }
  if (!p) {
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory at 0x%08x", addr);
    return NULL;
  }
  if (hi > lo) {
    if (local) w->tlb_local = true;
    w->tlb_used |= 1ull << (e - w->tlb);
    e->tag = tag;
    e->lo = (uint16_t)lo;
    e->hi = (uint16_t)hi;
    e->page = p - in;
  }
  if (store && overlay && kind != ACC_PROBE) vt_ovl_mark(p, size); /* a probe writes nothing */
  return p;
}

uint8_t *vt_sim_access(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store,
                       vt_error *err) {
  return access(dev, w, addr, size, store, ACC_DATA, err);
}

const uint8_t *vt_sim_fetch(vt_device *dev, vt_warp *w, uint32_t addr, vt_error *err) {
  return access(dev, w, addr, 4, false, ACC_FETCH, err);
}

bool vt_sim_probe(vt_device *dev, vt_warp *w, uint32_t addr, bool store) {
  if (dev->mmu || (store && dev->nresv)) return false; /* a walk; breaking reservations */
  vt_error ignored;
  return access(dev, w, addr & ~3u, 4, store, ACC_PROBE, &ignored) != NULL;
}

/* LR/SC reservation set = the aligned word. Warps interleave one
 * instruction at a time, so a store by another warp between lr.w and sc.w
 * must make the sc.w fail (RV32A); local-memory words belong to one
 * workgroup. */
int vt_resv_set(vt_device *dev, vt_warp *w, uint64_t addr) {
  if (!w->resv_valid) {
    if (dev->nresv == dev->resv_cap) {
      unsigned cap = dev->resv_cap ? 2 * dev->resv_cap : 16;
      vt_warp **r = realloc(dev->resv, cap * sizeof *r);
      if (!r) return VT_ERR_NOMEM;
      dev->resv = r;
      dev->resv_cap = cap;
    }
    dev->resv[dev->nresv++] = w;
    w->resv_valid = true;
  }
  w->resv_addr = addr & ~(uint64_t)3;
  return VT_OK;
}

void vt_resv_drop(vt_device *dev, vt_warp *w) {
  if (!w->resv_valid) return;
  w->resv_valid = false;
  for (unsigned i = 0; i < dev->nresv; i++)
    if (dev->resv[i] == w) {
      dev->resv[i] = dev->resv[--dev->nresv];
      return;
    }
}

void vt_resv_store(vt_device *dev, const vt_warp *w, uint64_t addr) {
  uint64_t word = addr & ~(uint64_t)3;
  bool local = addr - VT_LDS_BASE < VT_ADDR_LDS_SIZE;
  for (unsigned i = 0; i < dev->nresv;) {
    vt_warp *o = dev->resv[i];
    if (o != w && o->resv_addr == word && (!local || o->wg == w->wg)) {
      o->resv_valid = false;
      dev->resv[i] = dev->resv[--dev->nresv];
    } else {
      i++;
    }
  }
}

/* the Ventus per-lane memory families (one address per lane; v2.02 flat
 * and private, v2025 global, local and 64-bit flat) */
static bool lane_family(const vt_insn_desc *d) {
  return d->amode == VT_AM_FLAT || d->amode == VT_AM_PRIVATE || d->amode == VT_AM_GLOBAL ||
         d->amode == VT_AM_LOCAL || d->amode == VT_AM_FLAT64;
}

/* How many vector registers from rd on an instruction may write, for vtop
 * (warp_get clears [0, vtop) of a recycled warp). Elements past numt are
 * never processed (vreg.h), so an element-wise write through vput stays in
 * rd (or the SEW 64 pair rd, rd+1) whatever LMUL or widening say; whole-
 * register moves write up to 8, a per-lane memory access up to four words
 * (PREFIX_MEMORY width 128, isa2025.md 3.5.3), a whole-register load up to
 * 8, an MMA fragment a group of at most 8 (isa2025.md 3.6.4, docs/isa-table.md
 * Register groups). The other RVV memory forms (segments) keep
 * VT_VWRITE_SPAN. */
uint16_t vt_vwrite_span(const vt_insn_desc *d) {
  if (!d || !(d->flags & VT_F_VEC)) return 0;
  if (d->length == 8) return VT_NUM_VREGS; /* 8-bit register fields elsewhere */
  if (d->sem == VT_SEM_MMA) return 8;
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_VALU: case VT_EX_VMUL: case VT_EX_VDIV: case VT_EX_VFPU: case VT_EX_VSFU:
  case VT_EX_VPERM: case VT_EX_VMASK:
    return 8;
  case VT_EX_VLOAD: case VT_EX_VSTORE:
    if (lane_family(d)) return 4;
    return d->amode == VT_AM_VWHOLE ? 8 : VT_VWRITE_SPAN;
  default:
    return VT_VWRITE_SPAN;
  }
}

static void decode_into(vt_dcache_entry *e, uint32_t word, uint32_t pc, bool avx2) {
  vt_insn *in = &e->in;
  memset(in, 0, sizeof *in); /* no prefix: pfx VT_PFX_NONE, no modifiers */
  vt_insn_id id = vt_decode(word);
  in->word = word;
  in->pc = pc;
  in->id = (uint16_t)id;
  in->d = id == VT_INSN_INVALID ? NULL : vt_isa_insn(id);
  in->rd = in->vs3 = (word >> 7) & 31;
  in->rs1 = (word >> 15) & 31;
  in->rs2 = (word >> 20) & 31;
  in->rs3 = (word >> 27) & 31;
  in->vm = (word >> 25) & 1;
  in->vimm = (int32_t)sext(in->rs1, 5);
  in->uimm = in->rs1;
  if (!in->d) return;
  const vt_insn_desc *d = in->d;
  for (unsigned k = 0; k < d->nops; k++) {
    const vt_operand_desc *od = vt_isa_operand((vt_operand_id)d->ops[k]);
    if (od->kind == VT_OPK_IMM || od->kind == VT_OPK_PCREL || od->kind == VT_OPK_CSR ||
        od->kind == VT_OPK_VTYPE) {
      in->imm = vt_operand_get((vt_operand_id)d->ops[k], word);
      break;
    }
  }
  in->check = vt_v2025_needs_check(d, in->imm);
  vt_insn_derive(in);
  in->fn = vt_exec_choose(in, avx2);
}

/* Decoded form of 'word' at 'pc', from the program-window cache when the
 * cached word still matches (code may be rewritten by stores); outside the
 * program window (or without memory for the cache) decoded into *tmp. */
static const vt_dcache_entry *decode_cached(vt_device *dev, uint32_t pc, uint32_t word,
                                            vt_dcache_entry *tmp) {
  if (pc - VT_PROGRAM_BASE >= VT_ADDR_PROGRAM_SIZE || word == 0 || dev->reference) {
    decode_into(tmp, word, pc, dev->avx2);
    if (dev->reference) tmp->in.fn = NULL; /* the generic path only */
    return tmp;
  }
  uint32_t off = (pc - VT_PROGRAM_BASE) >> 2;
  size_t chunk = off >> 10;
  if (chunk >= dev->dcache_chunks) {
    size_t n = chunk + 1 > 2 * dev->dcache_chunks ? chunk + 1 : 2 * dev->dcache_chunks;
    vt_dcache_entry **c = realloc(dev->dcache, n * sizeof *c);
    if (!c) {
      decode_into(tmp, word, pc, dev->avx2);
      return tmp;
    }
    for (size_t i = dev->dcache_chunks; i < n; i++) c[i] = NULL;
    dev->dcache = c;
    dev->dcache_chunks = n;
  }
  if (!dev->dcache[chunk]) dev->dcache[chunk] = calloc(1024, sizeof(vt_dcache_entry));
  if (!dev->dcache[chunk]) {
    decode_into(tmp, word, pc, dev->avx2);
    return tmp;
  }
  vt_dcache_entry *e = &dev->dcache[chunk][off & 1023];
  if (e->in.word != word) decode_into(e, word, pc, dev->avx2);
  return e;
}

/* The prefix state armed by the previous instruction applies now (isa.md
 * 2.6, isa2025.md 3.5): register extension, the immediate extension of
 * regexti/prefixi, and a new-form prefix's modifiers. PREFIX_MEMORY's ext
 * applies only to the memory instructions it modifies or rejects (C2). */
static void apply_prefix(const vt_warp *w, vt_insn *in) {
  const vt_insn base_copy = *in, *base = &base_copy;
  in->prefixed = true;
  in->check = true;
  in->fn = NULL; /* the generic path, with the gate */
  bool ext = w->ext_valid;
  switch (w->pfx_kind) {
  case VT_PFX_MEM:
    if (vt_pmem_class(base->d) == VT_PMEM_VOID) return; /* no effect at all */
    in->pfx = VT_PFX_MEM;
    in->mspace = w->pm_space;
    in->mwidth = w->pm_width;
    in->mpair = w->pm_pair;
    in->mhint = w->pm_hint;
    break;
  case VT_PFX_MOD: case VT_PFX_MODI:
    in->pfx = w->pfx_kind;
    in->neg = w->pfx_neg;
    in->abs = w->pfx_abs;
    in->pair = w->pfx_pair;
    break;
  default: break;
  }
  if (ext) {
    unsigned x = w->ext;
    in->rd |= (x & 7) << 5;
    in->rs1 |= ((x >> 3) & 7) << 5;
    in->rs2 |= ((x >> 6) & 7) << 5;
    in->rs3 |= ((x >> 9) & 7) << 5;
    in->vs3 = base->rd | (((x >> 9) & 7) << 5);
    vt_insn_derive(in); /* vtop follows rd */
  }
  if (w->exti_valid) {
    /* regexti: signed 11-bit immediate (spec README decision 3) */
    uint32_t v = ((uint32_t)w->exti_hi << 5) | (base->rs1 & 31);
    in->vimm = (int32_t)sext(v, 11);
    in->uimm = v & 0x7ff;
  }
}

/* *dst = *src in 16-byte moves (a plain struct copy becomes rep movs,
 * which costs more than the rest of a cached decode) */
typedef uint64_t vt_insn_chunk __attribute__((vector_size(16), may_alias, aligned(8)));
static inline void insn_copy(vt_insn *dst, const vt_insn *src) {
  _Static_assert(sizeof(vt_insn) % sizeof(vt_insn_chunk) == 0, "vt_insn in 16-byte chunks");
  vt_insn_chunk *d = (vt_insn_chunk *)dst;
  const vt_insn_chunk *s = (const vt_insn_chunk *)src;
  for (size_t k = 0; k < sizeof(vt_insn) / sizeof(vt_insn_chunk); k++) d[k] = s[k];
}

/* The instruction word at pc: vt_sim_fetch with its common case inline
 * (a fetch is not memory-checked and breaks no reservation). */
static inline const uint8_t *fetch(vt_device *dev, vt_warp *w, uint32_t pc, vt_error *err) {
  uint32_t vpn = pc >> VT_PAGE_BITS, in = pc & (VT_PAGE_SIZE - 1);
  const vt_tlb_entry *e = &w->tlb[vt_tlb_slot(vpn)];
  if (vt_tlb_hit(e->tag, vpn, false, true, dev->fetch_exec) && in >= e->lo && in + 4 <= e->hi)
    return e->page + in;
  return vt_sim_fetch(dev, w, pc, err);
}

/* every case but a decode-cache hit: fetch errors, 64-bit instructions,
 * first decodes, code outside the program window, illegal words */
static __attribute__((noinline)) int decode_slow(vt_device *dev, vt_warp *w, vt_insn *in,
                                                 vt_error *err) {
  uint32_t pc = w->pc;
  if (pc & 3) {
    vt_err_set(err, VT_ERR_MISALIGNED, "instruction address 0x%08x is not 4-byte aligned", pc);
    return VT_ERR_MISALIGNED;
  }
  const uint8_t *p = dev->reference ? vt_sim_fetch(dev, w, pc, err) : fetch(dev, w, pc, err);
  if (!p) {
    vt_err_prefix(err, "instruction fetch: ");
    return err ? err->status : VT_ERR_ACCESS;
  }
  uint32_t word = load_le(p, 4);
  if (vt_insn_length(word) == 8) return vt_sim_fetch64(dev, w, word, in, err);
  vt_dcache_entry tmp;
  const vt_dcache_entry *e = decode_cached(dev, pc, word, &tmp);
  if (!e->in.d) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction");
    return VT_ERR_ILLEGAL;
  }
  *in = e->in;
  if (w->ext_armed) apply_prefix(w, in);
  return VT_OK;
}

void vt_dcache_drop(vt_device *dev) {
  for (size_t i = 0; i < dev->dcache_chunks; i++) free(dev->dcache[i]);
  free(dev->dcache);
  dev->dcache = NULL;
  dev->dcache_chunks = 0;
}

int vt_sim_decode(vt_device *dev, vt_warp *w, vt_insn *tmp, const vt_insn **out, vt_error *err) {
  const vt_insn *hit = vt_decode_hit(dev, w);
  *out = tmp;
  if (!hit) return decode_slow(dev, w, tmp, err);
  if (!w->ext_armed) {
    *out = hit; /* immutable until the word at pc changes (decode_cached) */
    return VT_OK;
  }
  insn_copy(tmp, hit);
  apply_prefix(w, tmp);
  return VT_OK;
}

int vt_step_decode(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  const vt_insn *p;
  int rc = vt_sim_decode(dev, w, in, &p, err);
  if (rc == VT_OK && p != in) insn_copy(in, p);
  return rc;
}

void vt_insn_derive(vt_insn *in) {
  unsigned span = vt_vwrite_span(in->d), top = span ? in->rd + span : 0;
  in->vtop = (uint16_t)(top > VT_NUM_VREGS ? VT_NUM_VREGS : top);
  in->counts_vector = (in->d->flags & VT_F_VEC) || in->d->exec_class == VT_EX_VSET;
  in->arms_prefix = in->d->exec_class == VT_EX_REGEXT;
  in->may_defer = in->d->mem == VT_MEM_AMO || in->d->mem == VT_MEM_STORE ||
                  in->d->mem == VT_MEM_COPY || in->d->exec_class == VT_EX_ENDPRG;
}

/* the executor of an instruction, from its unit and element-width rule */
vt_exec_fn vt_executor_of(const vt_insn_desc *d) {
  if (d->sem == VT_SEM_MMA) return vt_exec_mma;
  if (d->ew == VT_EW_LANESEL) return vt_exec_vop64;
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_DMA:
    return vt_exec_dma;
  case VT_EX_VBRANCH: case VT_EX_SIMT: case VT_EX_BARRIER: case VT_EX_ENDPRG:
  case VT_EX_REGEXT: case VT_EX_TENSOR:
    return vt_exec_ventus;
  case VT_EX_FPU: case VT_EX_SFU:
    return vt_exec_fp;
  case VT_EX_VLOAD: case VT_EX_VSTORE:
    /* the Ventus per-lane families need neither mstatus.VS nor vtype */
    return lane_family(d) ? vt_vmem : vt_exec_vector;
  case VT_EX_VALU: case VT_EX_VSFU:
    return d->ew == VT_EW_LANE ? vt_exec_ventus : vt_exec_vector;
  case VT_EX_VSET: case VT_EX_VMUL: case VT_EX_VDIV: case VT_EX_VFPU: case VT_EX_VPERM:
  case VT_EX_VMASK:
    return vt_exec_vector;
  default:
    return vt_exec_scalar;
  }
}

/* the generic path: the isa2025.md gate, then the executor of the row */
int vt_exec_generic(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (in->check) {
    int gate = vt_exec_v2025_check(in, err);
    if (gate != VT_OK) return gate;
  }
  return vt_executor_of(in->d)(dev, w, in, err);
}

int vt_sim_execute(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  int rc = vt_exec_step(dev, w, in, err);
  if (rc == VT_OK)
    dev->ctr[in->counts_vector ? VT_C_vector_instructions : VT_C_scalar_instructions]++;
  return rc;
}
