/* The Ventus ISA v2025 rules that precede execution (isa2025.md): fetch of
 * 64-bit instructions (2.1), the prefixes' state (3.5.1, 3.5.3) and their
 * placement and modifier checks (3.5.2-3.5.4), odd register pairs (3.0,
 * D9) and the 6-bit shift amounts (D18); the tensor and copy rows execute
 * in exec_mma.c and exec_dma.c. Every rule decides from the table's
 * semantic columns (operation, unit, flags, element-width rule, addressing
 * mode), never from mnemonics. */
#include "exec_tensor.h"

/* "illegal instruction: WHY", WHY = fmt with one string argument */
static int illegal(vt_error *err, const char *fmt, const char *arg) {
  char why[160];
  snprintf(why, sizeof why, fmt, arg);
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s", why);
  return VT_ERR_ILLEGAL;
}
static int illegal_because(vt_error *err, const char *why) { return illegal(err, "%s", why); }

static bool has_op(const vt_insn_desc *d, vt_operand_id op) {
  for (unsigned k = 0; k < d->nops; k++)
    if (d->ops[k] == op) return true;
  return false;
}

/* the register fields of a 64-bit instruction: 8-bit vd, vs1/rs1, vs2 */
static void fields64(vt_insn *in, uint64_t insn) {
  const vt_insn_desc *d = in->d;
  for (unsigned k = 0; k < d->nops; k++) {
    unsigned v = (unsigned)vt_operand_get64((vt_operand_id)d->ops[k], insn);
    switch (d->ops[k]) {
    case VT_OP_V8D: in->rd = in->vs3 = v; break;
    case VT_OP_V8S1: case VT_OP_X8S1: in->rs1 = v; break;
    case VT_OP_V8S2: in->rs2 = v; break;
    default: break;
    }
  }
}

int vt_sim_fetch64(vt_device *dev, vt_warp *w, uint32_t first, vt_insn *in, vt_error *err) {
  /* isa2025.md 2.1: the second parcel follows; a fault there is a fetch
   * fault of this instruction */
  const uint8_t *p = vt_sim_fetch(dev, w, w->pc + 4, err);
  if (!p) {
    vt_err_prefix(err, "instruction fetch: ");
    return err ? err->status : VT_ERR_ACCESS;
  }
  uint32_t second = load_le(p, 4);
  uint64_t insn = (uint64_t)second << 32 | first;
  vt_insn_id id = vt_decode64(insn);
  if (id == VT_INSN_INVALID) /* UNSUPPORTED for MMA64 wg/a/SP (D13), else ILLEGAL */
    return vt_mma64_reject(insn, err);
  memset(in, 0, sizeof *in);
  in->word = first;
  in->word_hi = second;
  in->pc = w->pc;
  in->id = (uint16_t)id;
  in->d = vt_isa_insn(id);
  in->vm = true;
  in->prefixed = w->ext_armed; /* an error at execution (3.5.4 rule 3) */
  in->check = true;
  fields64(in, insn);
  vt_insn_derive(in);
  return VT_OK;
}

/* ---- the prefixes' state (3.5.1, 3.5.3) ---- */

static bool new_form(const vt_warp *w) { return w->ext_armed && w->pfx_kind != VT_PFX_NONE; }

int vt_exec_prefix(vt_warp *w, const vt_insn *in, vt_error *err) {
  const unsigned sem = in->d->sem;
  const uint32_t word = in->word, imm = word >> 20;
  const bool is_new = sem == VT_SEM_PREFIX || sem == VT_SEM_PREFIXI || sem == VT_SEM_PREFIX_MEM;
  /* 3.5.4: old + old keeps v2.02; any other chain stops at the second (C11) */
  if (w->ext_armed && (is_new || new_form(w))) return illegal_because(err, "prefix after prefix");
  if (sem == VT_SEM_REGEXTI || sem == VT_SEM_PREFIXI) {
    /* rd high bits in imm[2:0], rs2 high bits in imm[5:3], immediate high
     * bits in imm[11:6] (isa.md 2.6) */
    w->ext = (uint16_t)((imm & 7) | (((imm >> 3) & 7) << 6));
    w->exti_hi = (int32_t)(imm >> 6);
    w->exti_valid = true;
  } else {
    w->ext = (uint16_t)imm;
  }
  w->ext_valid = true;
  w->pfx_kind = VT_PFX_NONE;
  if (sem == VT_SEM_PREFIX || sem == VT_SEM_PREFIXI) {
    w->pfx_kind = sem == VT_SEM_PREFIX ? VT_PFX_MOD : VT_PFX_MODI;
    w->pfx_neg = (uint8_t)vt_operand_get(VT_OP_PNEG, word);
    w->pfx_abs = (uint8_t)vt_operand_get(VT_OP_PABS, word);
    w->pfx_pair = sem == VT_SEM_PREFIX && vt_operand_get(VT_OP_PPAIR, word);
  } else if (sem == VT_SEM_PREFIX_MEM) {
    w->pfx_kind = VT_PFX_MEM;
    w->exti_valid = false;
    w->pm_space = (uint8_t)vt_operand_get(VT_OP_MSPACE, word);
    w->pm_width = (uint8_t)vt_operand_get(VT_OP_MWIDTH, word);
    w->pm_pair = vt_operand_get(VT_OP_MPAIR, word) != 0;
    w->pm_hint = (uint8_t)vt_operand_get(VT_OP_MHINT, word);
  }
  return VT_OK;
}

int vt_pmem_class(const vt_insn_desc *d) {
  if (!d) return VT_PMEM_VOID;
  if (d->exec_class == VT_EX_FENCE) return VT_PMEM_ILLEGAL;
  if (d->mem == VT_MEM_NONE) return VT_PMEM_VOID;
  if (d->mem == VT_MEM_AMO || (d->flags & VT_F_FP)) return VT_PMEM_ILLEGAL; /* AMO, lr/sc, flw/fsw */
  switch ((vt_amode)d->amode) {
  case VT_AM_BASE: case VT_AM_BASE64: case VT_AM_FLAT: case VT_AM_FLAT64: case VT_AM_GLOBAL:
  case VT_AM_LOCAL: case VT_AM_PRIVATE:
    return VT_PMEM_MODIFIES;
  default: return VT_PMEM_ILLEGAL; /* the standard RVV loads and stores */
  }
}

/* ---- checks at execution ---- */

/* The sources NEG/ABS may modify (bit k = src(k+1), table 3.5.2), 0 when
 * the instruction is not eligible. */
static unsigned modifiable(const vt_insn_desc *d) {
  const unsigned s = d->sem;
  const bool fp = (d->flags & VT_F_FP) != 0;
  if (!(d->flags & VT_F_VEC)) {
    if (fp && d->exec_class != VT_EX_FPU && d->exec_class != VT_EX_SFU) return 0;
    if (fp) {
      if (s == VT_SEM_FMA) return 7;
      if (s == VT_SEM_FSQRT) return 1;
      return s == VT_SEM_FADD || s == VT_SEM_FSUB || s == VT_SEM_FMUL || s == VT_SEM_FDIV ||
             s == VT_SEM_FMIN || s == VT_SEM_FMAX || s == VT_SEM_FEQ || s == VT_SEM_FLT ||
             s == VT_SEM_FLE ? 3 : 0;
    }
    if (d->exec_class != VT_EX_ALU && d->exec_class != VT_EX_MUL) return 0;
    if (d->flags & VT_F_W) return 0;
    if (d->flags & VT_F_BI) return s == VT_SEM_ADD ? 3 : 0; /* addi */
    return s == VT_SEM_ADD || s == VT_SEM_SUB || s == VT_SEM_MUL ? 3 : 0;
  }
  if (d->mem != VT_MEM_NONE) return 0;
  if (fp) {
    bool wide = d->ew == VT_EW_WIDE || d->ew == VT_EW_WIDE_W;
    if (d->ew != VT_EW_SEW && !wide) return 0;
    if (s == VT_SEM_FMA) return d->ew == VT_EW_WIDE_W ? 0 : 7;
    if (s == VT_SEM_FADD || s == VT_SEM_FSUB || s == VT_SEM_FMUL) return 3;
    if (wide) return 0;
    if (s == VT_SEM_FSQRT) return 2;
    return s == VT_SEM_FDIV || s == VT_SEM_FMIN || s == VT_SEM_FMAX || s == VT_SEM_FEQ ||
           s == VT_SEM_FNE || s == VT_SEM_FLT || s == VT_SEM_FLE || s == VT_SEM_FGT ||
           s == VT_SEM_FGE ? 3 : 0;
  }
  if (d->ew != VT_EW_SEW || (d->flags & VT_F_V0)) return 0;
  if (s == VT_SEM_MAC) return 7;
  return s == VT_SEM_ADD || s == VT_SEM_SUB || s == VT_SEM_MUL || s == VT_SEM_MIN ||
         s == VT_SEM_MAX ? 3 : 0;
}

/* D17: OP, OP-IMM (shifts included), M and BRANCH instructions */
static bool pair_applies(const vt_insn_desc *d) {
  if (d->flags & (VT_F_VEC | VT_F_W)) return false;
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_ALU: return d->sem != VT_SEM_LUI && d->sem != VT_SEM_AUIPC;
  case VT_EX_MUL: case VT_EX_DIV: case VT_EX_BRANCH: return true;
  default: return false;
  }
}

static bool odd(unsigned r) { return (r & 1) != 0; }

static int odd_pair(vt_error *err) {
  return illegal_because(err, "odd register where a pair is required");
}

static int check_modifiers(const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  if (in->pair) {
    if (!pair_applies(d)) return illegal(err, "prefix modifier pair does not apply to %s", d->mnemonic);
    if ((has_op(d, VT_OP_RD) && odd(in->rd)) || (has_op(d, VT_OP_RS1) && odd(in->rs1)) ||
        (has_op(d, VT_OP_RS2) && odd(in->rs2)))
      return odd_pair(err);
  }
  if (in->neg | in->abs) {
    unsigned ok = modifiable(d);
    if (in->pfx == VT_PFX_MODI && !((d->flags & VT_F_VEC) && (d->flags & VT_F_BI))) ok = 0;
    if (in->neg & ~ok) return illegal(err, "prefix modifier neg does not apply to %s", d->mnemonic);
    if (in->abs & ~ok) return illegal(err, "prefix modifier abs does not apply to %s", d->mnemonic);
  }
  return VT_OK;
}

static const char *const space_names[4] = {"default", "global", "private", "local"};
static const char *const width_names[4] = {"32", "64", "96", "128"};

/* PREFIX_MEMORY before the next instruction (3.5.3): allowed spaces and
 * widths, and the parity of the base and data registers */
static int check_pmem(const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  char what[64];
  if (vt_pmem_class(d) != VT_PMEM_MODIFIES) return illegal(err, "prefix_memory cannot modify %s", d->mnemonic);
  bool scalar = d->amode == VT_AM_BASE || d->amode == VT_AM_BASE64;
  bool flat = d->amode == VT_AM_FLAT || d->amode == VT_AM_FLAT64;
  bool space_ok = in->mspace == VT_MSPACE_DEFAULT || flat ||
                  (scalar && in->mspace != VT_MSPACE_PRIVATE);
  if (!space_ok) {
    snprintf(what, sizeof what, "space=%s", space_names[in->mspace & 3]);
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: prefix_memory %s does not apply to %s",
               what, d->mnemonic);
    return VT_ERR_ILLEGAL;
  }
  if (in->mwidth && d->msize != 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: prefix_memory width=%s does not apply to %s",
               width_names[in->mwidth & 3], d->mnemonic);
    return VT_ERR_ILLEGAL;
  }
  bool addr64 = in->mpair || d->amode == VT_AM_BASE64 || d->amode == VT_AM_FLAT64;
  unsigned data = d->mem == VT_MEM_STORE ? in->rs2 : in->rd;
  if ((addr64 && odd(in->rs1)) || (in->mwidth && odd(data))) return odd_pair(err);
  if (in->mwidth && data + in->mwidth > 255)
    return illegal_because(err, "the register group of prefix_memory passes register 255");
  return VT_OK;
}

/* the rows whose execution is not implemented: 64-bit rows other than
 * VOP64 and MMA64 (none today; a new 64-bit format stops here) */
static bool v2025_pending(const vt_insn *in) {
  return in->d->length == 8 && in->d->ew != VT_EW_LANESEL && in->d->sem != VT_SEM_MMA;
}

/* D18: slli/srli/srai decode a 6-bit amount; >= 32 needs a pair prefix */
static bool wide_shift(const vt_insn_desc *d, int32_t imm) {
  bool shift = d->sem == VT_SEM_SLL || d->sem == VT_SEM_SRL || d->sem == VT_SEM_SRA;
  return shift && d->exec_class == VT_EX_ALU && !(d->flags & VT_F_W) && (d->flags & VT_F_BI) &&
         imm >= 32;
}

bool vt_v2025_needs_check(const vt_insn_desc *d, int32_t imm) {
  return d && ((d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2 | VT_F_PRS3)) || wide_shift(d, imm));
}

int vt_exec_v2025_check(const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  if (v2025_pending(in)) {
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s (isa2025.md)", d->mnemonic);
    return VT_ERR_ILLEGAL;
  }
  if (in->prefixed && d->length == 8)
    return illegal_because(err, "a prefix before a 64-bit instruction (isa2025.md D21)");
  if (d->flags & (VT_F_PRD | VT_F_PRS1 | VT_F_PRS2 | VT_F_PRS3)) {
    if (!vt_insn_pairs_even((vt_insn_id)in->id, in->word)) return odd_pair(err);
  }
  /* a prefix after a prefix: vt_exec_prefix decides (3.5.4 rule 2) */
  if (d->exec_class == VT_EX_REGEXT) return VT_OK;
  if (in->pfx == VT_PFX_MOD || in->pfx == VT_PFX_MODI) {
    int rc = check_modifiers(in, err);
    if (rc != VT_OK) return rc;
  } else if (in->pfx == VT_PFX_MEM) {
    int rc = check_pmem(in, err);
    if (rc != VT_OK) return rc;
  }
  if (!in->pair && wide_shift(d, in->imm)) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: shift amount %d >= 32 without a pair prefix",
               in->imm);
    return VT_ERR_ILLEGAL;
  }
  return VT_OK;
}
