/* Helpers shared by the instruction executors: the decoded instruction with
 * register extension applied, memory access with checks, trace records. */
#ifndef VT_SIM_EXEC_UTIL_H
#define VT_SIM_EXEC_UTIL_H
#include <string.h>

#include "insn.h"
#include "overlay.h"
#include "sim_internal.h"

/* PREFIX_MEMORY's relation to the next instruction (isa2025.md 3.5.3): (a)
 * a memory instruction it modifies, (b) one it cannot modify, (c) any other
 * instruction (the prefix has no effect). */
enum { VT_PMEM_MODIFIES, VT_PMEM_ILLEGAL, VT_PMEM_VOID };
int vt_pmem_class(const vt_insn_desc *d);

/* A warp instruction is decoded (vt_step_decode) and executed
 * (vt_step_execute, step.h); vt_sim_execute is the execution proper
 * (it sets w->pc to w->npc: pc + length unless the executor jumps; the
 * caller adds the location to an error).
 * exec_v2025.c: fetch and decode the 64-bit instruction whose first parcel
 * is 'first' at w->pc; stop a v2025 row whose execution is not implemented. */
int vt_sim_fetch64(vt_device *dev, vt_warp *w, uint32_t first, vt_insn *in, vt_error *err);
/* The checks of isa2025.md that precede any executor: prefix placement and
 * modifiers, odd pair registers, 6-bit shift amounts (exec_v2025.c); only
 * for an instruction whose 'check' is set. vt_v2025_needs_check tells it
 * from the row and the decoded immediate (cached with the decode). */
int vt_exec_v2025_check(const vt_insn *in, vt_error *err);
bool vt_v2025_needs_check(const vt_insn_desc *d, int32_t imm);
/* regext, regexti, PREFIX, PREFIXI, PREFIX_MEMORY: arm the warp's prefix
 * state for the next instruction (isa.md 2.6, isa2025.md 3.5). */
int vt_exec_prefix(vt_warp *w, const vt_insn *in, vt_error *err);
int vt_sim_execute(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
/* The warp's next instruction for the functional run loop: *out is the
 * decode cache's entry itself when no prefix applies (no copy), else tmp,
 * decoded there (vt_step_decode copies). */
int vt_sim_decode(vt_device *dev, vt_warp *w, vt_insn *tmp, const vt_insn **out, vt_error *err);
/* The executor of a row (the generic dispatch), and the one decode picks
 * for an instruction without a prefix: a specialised one for the common
 * shapes (exec_fast.c; the AVX2 variant of its lane loops with avx2), else
 * the row's (NULL: the generic path). */
vt_exec_fn vt_executor_of(const vt_insn_desc *d);
vt_exec_fn vt_exec_choose(const vt_insn *in, bool avx2);
/* whether the host runs AVX2 code (the variant vt_exec_choose may pick) */
bool vt_exec_avx2(void);
/* vector registers from rd on a decoded instruction may write (exec.c) */
uint16_t vt_vwrite_span(const vt_insn_desc *d);
/* The fields of a decoded instruction that follow from its row and
 * registers (vtop, counts_vector, arms_prefix): after decoding, after a
 * prefix changed its registers. */
void vt_insn_derive(vt_insn *in);

/* Executors by unit class (the table's unit column): scalar integer, memory
 * and system instructions; scalar FP (Zfinx); RVV; Ventus warp control and
 * per-lane instructions. */
int vt_exec_scalar(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_fp(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_vector(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_ventus(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
/* parts of vt_exec_scalar: the 32-bit-address loads and stores without a
 * prefix */
int vt_exec_load(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_store(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
/* parts of vt_exec_ventus: vector branches (isa.md 2.1), join (2.2), setrpc */
int vt_exec_vbranch(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_join(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
int vt_exec_setrpc(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);

static inline void trace_x(vt_device *dev, unsigned reg, uint32_t value) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'x';
  t->reg = (uint16_t)reg;
  t->lanes = 0;
  t->value[0] = value;
}
static inline void trace_csr(vt_device *dev, unsigned csr, uint32_t value) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'c';
  t->reg = (uint16_t)csr;
  t->lanes = 0;
  t->value[0] = value;
}
static inline void trace_v(vt_device *dev, const vt_warp *w, unsigned reg, uint32_t lanes) {
  if (!dev->record || dev->ntw >= 8) return;
  vt_trace_write *t = &dev->twrites[dev->ntw++];
  t->kind = 'v';
  t->reg = (uint16_t)reg;
  t->lanes = lanes;
  memcpy(t->value, w->v[reg], sizeof t->value);
}
static inline void trace_mem(vt_device *dev, uint64_t addr, uint32_t value, unsigned size,
                             bool store, unsigned lane) {
  if ((!dev->record && !dev->rec_mem) || dev->ntm >= VT_TMEM_MAX) return;
  vt_trace_mem *t = &dev->tmem[dev->ntm++];
  t->addr = (uint32_t)addr;
  t->addr_hi = (uint32_t)(addr >> 32);
  t->value = value;
  t->size = (uint8_t)size;
  t->is_store = store;
  t->lane = (uint8_t)lane;
}

static inline void write_x(vt_device *dev, vt_warp *w, unsigned rd, uint32_t value) {
  if (rd == 0) return;
  w->x[rd] = value;
  trace_x(dev, rd, value);
}

/* Host pointer for a data access of 'size' bytes at 'addr', or NULL with err
 * set (misaligned, unmapped, out of memory). */
uint8_t *vt_sim_access(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size, bool store,
                       vt_error *err);
/* The instruction word at addr (a fetch: not subject to memory checking). */
const uint8_t *vt_sim_fetch(vt_device *dev, vt_warp *w, uint32_t addr, vt_error *err);
/* Fill the warp's translation of the page of addr as a load or store there
 * would (MMU off), without the memory checker and without reporting
 * anything: false when that access would fail, or with the MMU on. The
 * fast paths retry with it after a miss (fastmem.h). */
bool vt_sim_probe(vt_device *dev, vt_warp *w, uint32_t addr, bool store);
/* A data access at a 64-bit virtual address (v2025 pair addresses): below
 * 2^32 exactly vt_access; above it an access error with the MMU off, an
 * Sv39 translation with it on (mmu_sim.c). */
uint8_t *vt_sim_access_va(vt_device *dev, vt_warp *w, uint64_t va, unsigned size, bool store,
                          vt_error *err);
/* vt_sim_access with its common case inline: an aligned access to a page
 * the warp's translation cache holds, inside the allocation the memory
 * checker last saw (when on), no reservation to break (the per-lane loops
 * call it once per lane). While several SMs run an epoch, a store-capable
 * global translation is the SM's overlay copy (overlay.h): the store marks
 * its bytes. Reference mode always takes vt_sim_access. */
static inline uint8_t *vt_access(vt_device *dev, vt_warp *w, uint32_t addr, unsigned size,
                                 bool store, vt_error *err) {
  uint32_t vpn = addr >> VT_PAGE_BITS, in = addr & (VT_PAGE_SIZE - 1);
  const vt_tlb_entry *e = &w->tlb[vt_tlb_slot(vpn)];
  bool checked = !dev->cfg.memcheck || addr - VT_LDS_BASE < VT_ADDR_LDS_SIZE ||
                 (w->mc_gen == dev->allocs.gen && addr >= w->mc_lo &&
                  (uint64_t)addr + size <= w->mc_hi);
  if (vt_tlb_tag(e->tag, store) == vpn + 1 && in >= e->lo && in + size <= e->hi &&
      !(addr & (size - 1)) && checked && !(store && dev->nresv) && !dev->reference) {
    if (store && dev->ovl && addr - VT_LDS_BASE >= VT_ADDR_LDS_SIZE)
      vt_ovl_mark(e->page + in, size);
    return e->page + in;
  }
  return vt_sim_access(dev, w, addr, size, store, err);
}

static inline uint32_t load_le(const uint8_t *p, unsigned size) {
  switch (size) {
  case 1: return p[0];
  case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
  default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  }
}
static inline void store_le(uint8_t *p, uint32_t v, unsigned size) {
  p[0] = (uint8_t)v;
  if (size > 1) p[1] = (uint8_t)(v >> 8);
  if (size > 2) {
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
  }
}

static inline uint32_t sext(uint32_t v, unsigned bits) {
  uint32_t m = 1u << (bits - 1);
  return (v ^ m) - m;
}

__extension__ typedef unsigned __int128 vt_u128;
__extension__ typedef __int128 vt_i128;

/* Scalar register pairs (isa2025.md 3.1.1): XP(r) = x[r+1]:x[r], r even;
 * pair 0 reads 0 and its writes are discarded (D15). */
static inline uint64_t read_xp(const vt_warp *w, unsigned r) {
  return r == 0 ? 0 : (uint64_t)w->x[r + 1] << 32 | w->x[r];
}
static inline void write_xp(vt_device *dev, vt_warp *w, unsigned r, uint64_t v) {
  if (r == 0) return;
  write_x(dev, w, r, (uint32_t)v);
  write_x(dev, w, r + 1, (uint32_t)(v >> 32));
}

/* NEG/ABS of a prefix (isa2025.md 3.5.2) on a w-bit operand (w = 8..64):
 * integers in two's complement (ABS of the most negative value is itself),
 * floating point on the sign bit; ABS first. */
static inline uint64_t vt_mod_int(uint64_t x, unsigned w, bool neg, bool abs) {
  uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1u, sign = 1ull << (w - 1);
  x &= mask;
  if (abs && (x & sign)) x = (0u - x) & mask;
  if (neg) x = (0u - x) & mask;
  return x;
}
static inline uint64_t vt_mod_fp(uint64_t x, unsigned w, bool neg, bool abs) {
  uint64_t sign = 1ull << (w - 1);
  if (abs) x &= ~sign;
  if (neg) x ^= sign;
  return x;
}
#endif
