/* Scalar instructions: RV32I, M, A (scalar, spec README decision 7), Zicsr,
 * Zfinx (FP on x registers, decision 6), system and fence. One execution per
 * warp, independent of the SIMT mask (isa.md 1.4). */
#include "csr.h"
#include "exec_util.h"
#include "fp/fp32.h"

static int fp_rm(vt_warp *w, unsigned rm, vt_error *err) {
  if (rm == 7) rm = w->frm;
  if (rm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: rounding mode %u", rm);
    return -1;
  }
  return (int)rm;
}

static int load(vt_device *dev, vt_warp *w, vt_insn *in, unsigned size, bool is_signed,
                vt_error *err) {
  uint32_t addr = w->x[in->rs1] + (uint32_t)in->imm;
  const uint8_t *p = vt_sim_access(dev, w, addr, size, false, err);
  if (!p) return err->status;
  uint32_t v = load_le(p, size);
  if (is_signed && size < 4) v = sext(v, 8 * size);
  trace_mem(dev, addr, v, size, false, 0);
  write_x(dev, w, in->rd, v);
  return VT_OK;
}

static int store(vt_device *dev, vt_warp *w, vt_insn *in, unsigned size, vt_error *err) {
  uint32_t addr = w->x[in->rs1] + (uint32_t)in->imm;
  uint8_t *p = vt_sim_access(dev, w, addr, size, true, err);
  if (!p) return err->status;
  uint32_t v = w->x[in->rs2];
  store_le(p, v, size);
  trace_mem(dev, addr, size == 4 ? v : v & ((1u << (8 * size)) - 1), size, true, 0);
  return VT_OK;
}

static int amo(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  uint32_t addr = w->x[in->rs1];
  bool lr = in->id == VT_INSN_LR_W || in->id == VT_INSN_LR_W_AQ || in->id == VT_INSN_LR_W_RL ||
            in->id == VT_INSN_LR_W_AQRL;
  bool sc = in->id == VT_INSN_SC_W || in->id == VT_INSN_SC_W_AQ || in->id == VT_INSN_SC_W_RL ||
            in->id == VT_INSN_SC_W_AQRL;
  /* lr.w and sc.w check the access as a load first: only a successful
   * sc.w writes (and breaks other warps' reservations) */
  uint8_t *p = vt_sim_access(dev, w, addr, 4, !lr && !sc, err);
  if (!p) return err->status;
  uint32_t old = load_le(p, 4), src = w->x[in->rs2], nv;
  if (lr) {
    if (vt_resv_set(dev, w, addr) != VT_OK) {
      vt_err_set(err, VT_ERR_NOMEM, "out of host memory (reservations)");
      return VT_ERR_NOMEM;
    }
    trace_mem(dev, addr, old, 4, false, 0);
    write_x(dev, w, in->rd, old);
    return VT_OK;
  }
  if (sc) {
    /* succeeds only while this warp's reservation on the word holds: a
     * store by another warp since its lr.w broke it (warps interleave
     * one instruction at a time, isa.md 1.3) */
    bool ok = w->resv_valid && w->resv_addr == addr;
    vt_resv_drop(dev, w);
    if (ok) {
      if (dev->nresv) vt_resv_store(dev, w, addr);
      store_le(p, src, 4);
      trace_mem(dev, addr, src, 4, true, 0);
    }
    write_x(dev, w, in->rd, ok ? 0 : 1);
    return VT_OK;
  }
  switch (in->id) {
  case VT_INSN_AMOSWAP_W: case VT_INSN_AMOSWAP_W_AQ: case VT_INSN_AMOSWAP_W_RL: case VT_INSN_AMOSWAP_W_AQRL: nv = src; break;
  case VT_INSN_AMOADD_W: case VT_INSN_AMOADD_W_AQ: case VT_INSN_AMOADD_W_RL: case VT_INSN_AMOADD_W_AQRL: nv = old + src; break;
  case VT_INSN_AMOXOR_W: case VT_INSN_AMOXOR_W_AQ: case VT_INSN_AMOXOR_W_RL: case VT_INSN_AMOXOR_W_AQRL: nv = old ^ src; break;
  case VT_INSN_AMOAND_W: case VT_INSN_AMOAND_W_AQ: case VT_INSN_AMOAND_W_RL: case VT_INSN_AMOAND_W_AQRL: nv = old & src; break;
  case VT_INSN_AMOOR_W: case VT_INSN_AMOOR_W_AQ: case VT_INSN_AMOOR_W_RL: case VT_INSN_AMOOR_W_AQRL: nv = old | src; break;
  case VT_INSN_AMOMIN_W: case VT_INSN_AMOMIN_W_AQ: case VT_INSN_AMOMIN_W_RL: case VT_INSN_AMOMIN_W_AQRL:
    nv = (int32_t)old < (int32_t)src ? old : src; break;
  case VT_INSN_AMOMAX_W: case VT_INSN_AMOMAX_W_AQ: case VT_INSN_AMOMAX_W_RL: case VT_INSN_AMOMAX_W_AQRL:
    nv = (int32_t)old > (int32_t)src ? old : src; break;
  case VT_INSN_AMOMINU_W: case VT_INSN_AMOMINU_W_AQ: case VT_INSN_AMOMINU_W_RL: case VT_INSN_AMOMINU_W_AQRL:
    nv = old < src ? old : src; break;
  default: /* AMOMAXU */ nv = old > src ? old : src; break;
  }
  store_le(p, nv, 4);
  trace_mem(dev, addr, old, 4, false, 0); /* read, then write (spike logs both) */
  trace_mem(dev, addr, nv, 4, true, 0);
  write_x(dev, w, in->rd, old);
  return VT_OK;
}

static uint32_t mulh_ss(int32_t a, int32_t b) { return (uint32_t)(((int64_t)a * b) >> 32); }
static uint32_t mulh_su(int32_t a, uint32_t b) { return (uint32_t)(((int64_t)a * (int64_t)b) >> 32); }
static uint32_t mulh_uu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

static int fp_op(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return VT_ERR_ILLEGAL;
  }
  /* Zfinx: operands are the x registers; x0 reads +0.0 (decision 6) */
  uint32_t a = w->x[in->rs1], b = w->x[in->rs2], c = w->x[in->rs3], r = 0;
  unsigned flags = 0;
  int rm = 0;
  unsigned rmf = (in->word >> 12) & 7;
  switch (in->id) {
  case VT_INSN_FSGNJ_S: r = vt_f32_sgnj(a, b); break;
  case VT_INSN_FSGNJN_S: r = vt_f32_sgnjn(a, b); break;
  case VT_INSN_FSGNJX_S: r = vt_f32_sgnjx(a, b); break;
  case VT_INSN_FMIN_S: r = vt_f32_min(a, b, &flags); break;
  case VT_INSN_FMAX_S: r = vt_f32_max(a, b, &flags); break;
  case VT_INSN_FEQ_S: r = vt_f32_eq(a, b, &flags); break;
  case VT_INSN_FLT_S: r = vt_f32_lt(a, b, &flags); break;
  case VT_INSN_FLE_S: r = vt_f32_le(a, b, &flags); break;
  case VT_INSN_FCLASS_S: r = vt_f32_classify(a); break;
  case VT_INSN_FMV_X_W: case VT_INSN_FMV_W_X: r = a; break; /* bits unchanged, no flags */
  default:
    rm = fp_rm(w, rmf, err);
    if (rm < 0) return VT_ERR_ILLEGAL;
    switch (in->id) {
    case VT_INSN_FADD_S: r = vt_f32_add(a, b, rm, &flags); break;
    case VT_INSN_FSUB_S: r = vt_f32_sub(a, b, rm, &flags); break;
    case VT_INSN_FMUL_S: r = vt_f32_mul(a, b, rm, &flags); break;
    case VT_INSN_FDIV_S: r = vt_f32_div(a, b, rm, &flags); break;
    case VT_INSN_FSQRT_S: r = vt_f32_sqrt(a, rm, &flags); break;
    case VT_INSN_FMADD_S: r = vt_f32_fma(a, b, c, rm, &flags); break;
    case VT_INSN_FMSUB_S: r = vt_f32_fma(a, b, c ^ 0x80000000u, rm, &flags); break;
    case VT_INSN_FNMSUB_S: r = vt_f32_fma(a ^ 0x80000000u, b, c, rm, &flags); break;
    case VT_INSN_FNMADD_S: r = vt_f32_fma(a ^ 0x80000000u, b, c ^ 0x80000000u, rm, &flags); break;
    case VT_INSN_FCVT_W_S: r = vt_f32_to_i32(a, rm, &flags); break;
    case VT_INSN_FCVT_WU_S: r = vt_f32_to_u32(a, rm, &flags); break;
    case VT_INSN_FCVT_S_W: r = vt_i32_to_f32(a, rm, &flags); break;
    case VT_INSN_FCVT_S_WU: r = vt_u32_to_f32(a, rm, &flags); break;
    default:
      vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented FP instruction");
      return VT_ERR_ILLEGAL;
    }
  }
  if (flags) {
    w->fflags |= flags;
    trace_csr(dev, 0x001, w->fflags);
  }
  write_x(dev, w, in->rd, r);
  return VT_OK;
}

static int csr_op(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  unsigned csr = (unsigned)in->imm & 0xfff;
  bool imm_form = in->id == VT_INSN_CSRRWI || in->id == VT_INSN_CSRRSI || in->id == VT_INSN_CSRRCI;
  uint32_t src = imm_form ? ((in->word >> 15) & 31) : w->x[in->rs1];
  bool src_zero = imm_form ? src == 0 : ((in->word >> 15) & 31) == 0;
  bool is_write = in->id == VT_INSN_CSRRW || in->id == VT_INSN_CSRRWI;
  uint32_t old = 0;
  if (!(is_write && in->rd == 0)) {
    if (vt_csr_read(w, csr, &old) != 0) goto illegal;
  }
  uint32_t nv = old;
  bool write = true;
  if (is_write)
    nv = src;
  else if (in->id == VT_INSN_CSRRS || in->id == VT_INSN_CSRRSI)
    nv = old | src, write = !src_zero;
  else
    nv = old & ~src, write = !src_zero;
  if (write) {
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

int vt_exec_scalar(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  uint32_t *x = w->x;
  uint32_t a = x[in->rs1], b = x[in->rs2], imm = (uint32_t)in->imm;
  switch (in->id) {
  case VT_INSN_LUI: write_x(dev, w, in->rd, imm << 12); break;
  case VT_INSN_AUIPC: write_x(dev, w, in->rd, in->pc + (imm << 12)); break;
  case VT_INSN_JAL:
    write_x(dev, w, in->rd, in->pc + 4);
    in->next_pc = in->pc + imm;
    break;
  case VT_INSN_JALR:
    in->next_pc = (a + imm) & ~1u;
    write_x(dev, w, in->rd, in->pc + 4);
    break;
  case VT_INSN_BEQ: if (a == b) in->next_pc = in->pc + imm; break;
  case VT_INSN_BNE: if (a != b) in->next_pc = in->pc + imm; break;
  case VT_INSN_BLT: if ((int32_t)a < (int32_t)b) in->next_pc = in->pc + imm; break;
  case VT_INSN_BGE: if ((int32_t)a >= (int32_t)b) in->next_pc = in->pc + imm; break;
  case VT_INSN_BLTU: if (a < b) in->next_pc = in->pc + imm; break;
  case VT_INSN_BGEU: if (a >= b) in->next_pc = in->pc + imm; break;
  case VT_INSN_LB: return load(dev, w, in, 1, true, err);
  case VT_INSN_LH: return load(dev, w, in, 2, true, err);
  case VT_INSN_LW: case VT_INSN_FLW: return load(dev, w, in, 4, false, err);
  case VT_INSN_LBU: return load(dev, w, in, 1, false, err);
  case VT_INSN_LHU: return load(dev, w, in, 2, false, err);
  case VT_INSN_SB: return store(dev, w, in, 1, err);
  case VT_INSN_SH: return store(dev, w, in, 2, err);
  case VT_INSN_SW: case VT_INSN_FSW: return store(dev, w, in, 4, err);
  case VT_INSN_ADDI: write_x(dev, w, in->rd, a + imm); break;
  case VT_INSN_SLTI: write_x(dev, w, in->rd, (int32_t)a < (int32_t)imm); break;
  case VT_INSN_SLTIU: write_x(dev, w, in->rd, a < imm); break;
  case VT_INSN_XORI: write_x(dev, w, in->rd, a ^ imm); break;
  case VT_INSN_ORI: write_x(dev, w, in->rd, a | imm); break;
  case VT_INSN_ANDI: write_x(dev, w, in->rd, a & imm); break;
  case VT_INSN_SLLI: write_x(dev, w, in->rd, a << (imm & 31)); break;
  case VT_INSN_SRLI: write_x(dev, w, in->rd, a >> (imm & 31)); break;
  case VT_INSN_SRAI: write_x(dev, w, in->rd, (uint32_t)((int32_t)a >> (imm & 31))); break;
  case VT_INSN_ADD: write_x(dev, w, in->rd, a + b); break;
  case VT_INSN_SUB: write_x(dev, w, in->rd, a - b); break;
  case VT_INSN_SLL: write_x(dev, w, in->rd, a << (b & 31)); break;
  case VT_INSN_SLT: write_x(dev, w, in->rd, (int32_t)a < (int32_t)b); break;
  case VT_INSN_SLTU: write_x(dev, w, in->rd, a < b); break;
  case VT_INSN_XOR: write_x(dev, w, in->rd, a ^ b); break;
  case VT_INSN_SRL: write_x(dev, w, in->rd, a >> (b & 31)); break;
  case VT_INSN_SRA: write_x(dev, w, in->rd, (uint32_t)((int32_t)a >> (b & 31))); break;
  case VT_INSN_OR: write_x(dev, w, in->rd, a | b); break;
  case VT_INSN_AND: write_x(dev, w, in->rd, a & b); break;
  case VT_INSN_MUL: write_x(dev, w, in->rd, a * b); break;
  case VT_INSN_MULH: write_x(dev, w, in->rd, mulh_ss((int32_t)a, (int32_t)b)); break;
  case VT_INSN_MULHSU: write_x(dev, w, in->rd, mulh_su((int32_t)a, b)); break;
  case VT_INSN_MULHU: write_x(dev, w, in->rd, mulh_uu(a, b)); break;
  case VT_INSN_DIV:
    write_x(dev, w, in->rd,
            b == 0 ? 0xffffffffu
                   : (a == 0x80000000u && b == 0xffffffffu) ? a
                                                            : (uint32_t)((int32_t)a / (int32_t)b));
    break;
  case VT_INSN_DIVU: write_x(dev, w, in->rd, b == 0 ? 0xffffffffu : a / b); break;
  case VT_INSN_REM:
    write_x(dev, w, in->rd,
            b == 0 ? a
                   : (a == 0x80000000u && b == 0xffffffffu) ? 0
                                                            : (uint32_t)((int32_t)a % (int32_t)b));
    break;
  case VT_INSN_REMU: write_x(dev, w, in->rd, b == 0 ? a : a % b); break;
  case VT_INSN_FENCE: case VT_INSN_FENCE_TSO: case VT_INSN_FENCE_I: break;
  case VT_INSN_ECALL:
    vt_err_set(err, VT_ERR_ECALL, "ecall is not supported on Ventus");
    return VT_ERR_ECALL;
  case VT_INSN_EBREAK:
    vt_err_set(err, VT_ERR_ECALL, "ebreak is not supported on Ventus");
    return VT_ERR_ECALL;
  case VT_INSN_MRET: in->next_pc = w->mepc; break;
  case VT_INSN_WFI: break;
  case VT_INSN_CSRRW: case VT_INSN_CSRRS: case VT_INSN_CSRRC:
  case VT_INSN_CSRRWI: case VT_INSN_CSRRSI: case VT_INSN_CSRRCI:
    return csr_op(dev, w, in, err);
  default:
    if (vt_isa_insn((vt_insn_id)in->id)->exec_class == VT_EX_AMO) return amo(dev, w, in, err);
    if (vt_isa_insn((vt_insn_id)in->id)->exec_class == VT_EX_FPU ||
        vt_isa_insn((vt_insn_id)in->id)->exec_class == VT_EX_SFU)
      return fp_op(dev, w, in, err);
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction");
    return VT_ERR_ILLEGAL;
  }
  return VT_OK;
}
