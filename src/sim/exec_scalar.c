/* Scalar instructions: RV32I, M, A (scalar, spec README decision 7), Zicsr,
 * system and fence; the v2025 RV64I W-forms, RV64A and the pair prefix's
 * 64-bit arithmetic on register pairs (isa2025.md 3.1). One execution per warp, independent of the SIMT mask
 * (isa.md 1.4). Dispatch is on the table's operation and flags only. */
#include "alu32.h"
#include "csr.h"
#include "mem_space.h"

static uint32_t alu(unsigned op, uint32_t fl, uint32_t a, uint32_t b) {
  const bool sg = (fl & VT_F_SA) != 0;
  if (vt_alu32_has(op)) return vt_alu32(op, a, b);
  switch (op) {
  case VT_SEM_LT: return sg ? (int32_t)a < (int32_t)b : a < b;
  case VT_SEM_MIN: return (sg ? (int32_t)a < (int32_t)b : a < b) ? a : b;
  case VT_SEM_MAX: return (sg ? (int32_t)a > (int32_t)b : a > b) ? a : b;
  case VT_SEM_MULH:
    if (sg && (fl & VT_F_SB)) return (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
    if (sg) return (uint32_t)(((int64_t)(int32_t)a * (int64_t)b) >> 32);
    return (uint32_t)(((uint64_t)a * b) >> 32);
  /* RISC-V division: x / 0 = all ones, x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0 */
  case VT_SEM_DIV:
    if (b == 0) return 0xffffffffu;
    if (!sg) return a / b;
    return a == 0x80000000u && b == 0xffffffffu ? a : (uint32_t)((int32_t)a / (int32_t)b);
  case VT_SEM_REM:
    if (b == 0) return a;
    if (!sg) return a % b;
    return a == 0x80000000u && b == 0xffffffffu ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
  case VT_SEM_SWAP: return b;
  default: return 0; /* not reached: the callers pass ALU operations only */
  }
}

/* RV64I/RV64M on pairs after a pair prefix (isa2025.md 3.1.5): shift
 * amounts of 6 bits, mulh* the high 64 bits of the 128-bit product,
 * RISC-V division rules at 64 bits */
static uint64_t alu64(unsigned op, uint32_t fl, uint64_t a, uint64_t b) {
  const bool sg = (fl & VT_F_SA) != 0;
  const uint64_t min = 1ull << 63;
  switch (op) {
  case VT_SEM_ADD: return a + b;
  case VT_SEM_SUB: return a - b;
  case VT_SEM_AND: return a & b;
  case VT_SEM_OR: return a | b;
  case VT_SEM_XOR: return a ^ b;
  case VT_SEM_SLL: return a << (b & 63);
  case VT_SEM_SRL: return a >> (b & 63);
  case VT_SEM_SRA: return (uint64_t)((int64_t)a >> (b & 63));
  case VT_SEM_LT: return sg ? (int64_t)a < (int64_t)b : a < b;
  case VT_SEM_MUL: return a * b;
  case VT_SEM_MULH:
    if (sg && (fl & VT_F_SB)) return (uint64_t)((vt_u128)((vt_i128)(int64_t)a * (int64_t)b) >> 64);
    if (sg) return (uint64_t)((vt_u128)((vt_i128)(int64_t)a * (vt_i128)b) >> 64);
    return (uint64_t)(((vt_u128)a * b) >> 64);
  case VT_SEM_DIV:
    if (b == 0) return ~0ull;
    if (!sg) return a / b;
    return a == min && b == ~0ull ? a : (uint64_t)((int64_t)a / (int64_t)b);
  case VT_SEM_REM:
    if (b == 0) return a;
    if (!sg) return a % b;
    return a == min && b == ~0ull ? 0 : (uint64_t)((int64_t)a % (int64_t)b);
  default: return 0; /* not reached: check_modifiers admits these operations only */
  }
}

static bool branch_taken(unsigned op, uint32_t fl, uint32_t a, uint32_t b) {
  const bool sg = (fl & VT_F_SA) != 0;
  switch (op) {
  case VT_SEM_EQ: return a == b;
  case VT_SEM_NE: return a != b;
  case VT_SEM_LT: return sg ? (int32_t)a < (int32_t)b : a < b;
  default: return sg ? (int32_t)a >= (int32_t)b : a >= b; /* GE */
  }
}

static bool branch64_taken(unsigned op, uint32_t fl, uint64_t a, uint64_t b) {
  const bool sg = (fl & VT_F_SA) != 0;
  switch (op) {
  case VT_SEM_EQ: return a == b;
  case VT_SEM_NE: return a != b;
  case VT_SEM_LT: return sg ? (int64_t)a < (int64_t)b : a < b;
  default: return sg ? (int64_t)a >= (int64_t)b : a >= b; /* GE */
  }
}

int vt_exec_load(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  unsigned size = in->d->msize;
  uint32_t addr = w->x[in->rs1] + (uint32_t)in->imm;
  const uint8_t *p = vt_access(dev, w, addr, size, false, err);
  if (!p) return err->status;
  uint32_t v = load_le(p, size);
  if ((in->d->flags & VT_F_SA) && size < 4) v = sext(v, 8 * size);
  trace_mem(dev, addr, v, size, false, 0);
  write_x(dev, w, in->rd, v);
  return VT_OK;
}

int vt_exec_store(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  unsigned size = in->d->msize;
  uint32_t addr = w->x[in->rs1] + (uint32_t)in->imm;
  uint8_t *p = vt_access(dev, w, addr, size, true, err);
  if (!p) return err->status;
  uint32_t v = w->x[in->rs2];
  store_le(p, v, size);
  trace_mem(dev, addr, size == 4 ? v : v & ((1u << (8 * size)) - 1), size, true, 0);
  return VT_OK;
}

/* lr.w / sc.w: the reservation is the aligned word; a store by another warp
 * between them makes sc.w fail (warps interleave one instruction at a time,
 * isa.md 1.3). Both check the access as a load first; a successful sc.w is
 * then checked as a store, writes, and breaks other warps' reservations. */
static int lr_sc(vt_device *dev, vt_warp *w, const vt_insn *in, uint8_t *p, uint64_t addr,
                 vt_error *err) {
  /* one reservation of an address and a width: lr.d/sc.d (64-bit address,
   * 32-bit data) do not pair with lr.w/sc.w (isa2025.md C12) */
  uint8_t width = in->d->amode == VT_AM_BASE64 ? 8 : 4;
  if (in->d->sem == VT_SEM_LR) {
    if (vt_resv_set(dev, w, addr) != VT_OK) {
      vt_err_set(err, VT_ERR_NOMEM, "out of host memory (reservations)");
      return VT_ERR_NOMEM;
    }
    w->resv_width = width;
    uint32_t old = load_le(p, 4);
    trace_mem(dev, addr, old, 4, false, 0);
    write_x(dev, w, in->rd, old);
    return VT_OK;
  }
  bool ok = w->resv_valid && w->resv_addr == addr && w->resv_width == width;
  vt_resv_drop(dev, w);
  if (ok) {
    /* the write needs the store's rights (a read-only page faults, the
     * memory checker and the SM's page copies see a store) */
    p = addr > UINT32_MAX ? vt_sim_access_va(dev, w, addr, 4, true, err)
                          : vt_sim_access(dev, w, (uint32_t)addr, 4, true, err);
    if (!p) return err->status;
    uint32_t src = w->x[in->rs2];
    if (dev->nresv) vt_resv_store(dev, w, addr);
    store_le(p, src, 4);
    trace_mem(dev, addr, src, 4, true, 0);
  }
  write_x(dev, w, in->rd, ok ? 0 : 1);
  return VT_OK;
}

static int amo(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  uint64_t addr = w->x[in->rs1];
  if (in->d->amode == VT_AM_BASE64) { /* the .d forms: A = XP(rs1) (isa2025.md 3.1.4) */
    vt_mem_plan pl;
    vt_mem_plan_make(w, in, &pl);
    /* with the MMU on a full Sv39 address (docs/memory.md, 64-bit addresses) */
    pl.va64 = pl.space == VT_MSPACE_DEFAULT && dev->mmu;
    if (vt_mem_offset(&pl, read_xp(w, in->rs1), 0, -1, &addr, err) != VT_OK) return err->status;
  }
  bool reserved = in->d->sem == VT_SEM_LR || in->d->sem == VT_SEM_SC;
  uint8_t *p = addr > UINT32_MAX ? vt_sim_access_va(dev, w, addr, 4, !reserved, err)
                                 : vt_sim_access(dev, w, (uint32_t)addr, 4, !reserved, err);
  if (!p) return err->status;
  if (reserved) return lr_sc(dev, w, in, p, addr, err);
  uint32_t old = load_le(p, 4), nv = alu(in->d->sem, in->d->flags, old, w->x[in->rs2]);
  store_le(p, nv, 4);
  trace_mem(dev, addr, old, 4, false, 0); /* read, then write (spike logs both) */
  trace_mem(dev, addr, nv, 4, true, 0);
  write_x(dev, w, in->rd, old);
  return VT_OK;
}

static int csr_op(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  unsigned csr = (unsigned)in->imm & 0xfff, src_field = (in->word >> 15) & 31;
  uint32_t src = (in->d->flags & VT_F_BI) ? src_field : w->x[in->rs1]; /* zimm5 or rs1 */
  bool is_write = in->d->sem == VT_SEM_CSRRW;
  uint32_t old = 0;
  if (!(is_write && in->rd == 0) && vt_csr_read(w, csr, &old) != 0) goto illegal;
  uint32_t nv = is_write ? src : in->d->sem == VT_SEM_CSRRS ? old | src : old & ~src;
  if (is_write || src_field != 0) {
    if (vt_csr_write(w, csr, nv) != 0) goto illegal;
    uint32_t now = 0;
    vt_csr_read(w, csr, &now);
    trace_csr(dev, csr, now);
  }
  write_x(dev, w, in->rd, old);
  return VT_OK;
illegal:
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: CSR 0x%03x is not accessible", csr);
  return VT_ERR_ILLEGAL;
}

static int system_op(vt_warp *w, const vt_insn *in, vt_error *err) {
  switch (in->d->sem) {
  case VT_SEM_ECALL:
  case VT_SEM_EBREAK:
    vt_err_set(err, VT_ERR_ECALL, "%s is not supported on Ventus", in->d->mnemonic);
    return VT_ERR_ECALL;
  case VT_SEM_MRET: w->npc = w->mepc; return VT_OK;
  default: return VT_OK; /* WFI, FENCE */
  }
}

/* the sources of an ALU instruction after a prefix's NEG/ABS (isa2025.md
 * 3.5.2: src1 = rs1, src2 = rs2 or the immediate) at width wd */
static void modify(const vt_insn *in, unsigned wd, uint64_t *a, uint64_t *b) {
  if (!(in->neg | in->abs)) return;
  *a = vt_mod_int(*a, wd, in->neg & 1, in->abs & 1);
  *b = vt_mod_int(*b, wd, (in->neg >> 1) & 1, (in->abs >> 1) & 1);
}

/* OP, OP-IMM, M and BRANCH after a pair prefix: every register a pair */
static int exec_pair(vt_device *dev, vt_warp *w, const vt_insn *in) {
  const vt_insn_desc *d = in->d;
  uint64_t a = read_xp(w, in->rs1);
  uint64_t b = (d->flags & VT_F_BI) ? (uint64_t)(int64_t)in->imm : read_xp(w, in->rs2);
  if (d->exec_class == VT_EX_BRANCH) {
    if (branch64_taken(d->sem, d->flags, a, b)) w->npc = in->pc + (uint32_t)in->imm;
    return VT_OK;
  }
  modify(in, 64, &a, &b);
  write_xp(dev, w, in->rd, alu64(d->sem, d->flags, a, b));
  return VT_OK;
}

int vt_exec_scalar(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  if (in->pair) return exec_pair(dev, w, in);
  uint32_t a = w->x[in->rs1];
  uint32_t b = (d->flags & VT_F_BI) ? (uint32_t)in->imm : w->x[in->rs2];
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_LOAD: case VT_EX_STORE:
    /* ld/sd (64-bit address) and every access under PREFIX_MEMORY */
    if (d->amode == VT_AM_BASE64 || in->pfx == VT_PFX_MEM) return vt_mem_scalar(dev, w, in, err);
    return d->exec_class == VT_EX_LOAD ? vt_exec_load(dev, w, in, err)
                                       : vt_exec_store(dev, w, in, err);
  case VT_EX_AMO: return amo(dev, w, in, err);
  case VT_EX_CSR: return csr_op(dev, w, in, err);
  case VT_EX_SYSTEM: case VT_EX_FENCE: return system_op(w, in, err);
  case VT_EX_BRANCH:
    if (branch_taken(d->sem, d->flags, a, w->x[in->rs2])) w->npc = in->pc + (uint32_t)in->imm;
    return VT_OK;
  default: break;
  }
  switch (d->sem) {
  case VT_SEM_LUI: write_x(dev, w, in->rd, (uint32_t)in->imm << 12); break;
  case VT_SEM_AUIPC: write_x(dev, w, in->rd, in->pc + ((uint32_t)in->imm << 12)); break;
  case VT_SEM_JAL:
    write_x(dev, w, in->rd, in->pc + 4);
    w->npc = in->pc + (uint32_t)in->imm;
    break;
  case VT_SEM_JALR:
    w->npc = (a + (uint32_t)in->imm) & ~1u;
    write_x(dev, w, in->rd, in->pc + 4);
    break;
  default: {
    uint64_t a64 = a, b64 = b;
    modify(in, 32, &a64, &b64);
    uint32_t r = alu(d->sem, d->flags, (uint32_t)a64, (uint32_t)b64);
    /* RV64 W-forms: the 32-bit result sign-extended into the rd pair (3.1.2) */
    if (d->flags & VT_F_W) write_xp(dev, w, in->rd, (uint64_t)(int64_t)(int32_t)r);
    else write_x(dev, w, in->rd, r);
    break;
  }
  }
  return VT_OK;
}
