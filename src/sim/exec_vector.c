/* RVV instructions with the Ventus per-lane model (isa.md 1.4, 3): element i
 * of a vector operand is lane i's; lanes run when their SIMT-mask bit is set
 * (and their v0 bit when vm = 0) and vstart <= i < vl. This file checks the
 * vector state, runs vsetvl*, computes the lanes and the operand widths once,
 * and hands the instruction to the executor of its kind, chosen by the
 * table's semantic columns (exec_vector.h). */
#include "exec_vector.h"

static int vset(vt_device *dev, vt_warp *w, const vt_insn *in) {
  uint32_t vtype, avl;
  unsigned rs1_field = (in->word >> 15) & 31, rd_field = (in->word >> 7) & 31;
  switch (in->d->sem) {
  case VT_SEM_VSETVLI: vtype = (uint32_t)in->imm & 0x7ff; break;
  case VT_SEM_VSETIVLI: vtype = (in->word >> 20) & 0x3ff; break;
  default: vtype = w->x[in->rs2]; break;
  }
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit), vlen = 32 * numt;
  unsigned lmul = vtype & 7, sewc = (vtype >> 3) & 7;
  bool vill = (vtype >> 8) != 0 || (8u << sewc) > VT_ELEN || sewc > 3 || lmul == 4;
  unsigned vlmax = 0;
  if (!vill && sewc == 3) {
    /* e64 (isa2025.md 3.2.1): one element per lane in a pair, VLMAX = numt *
     * LMUL; a fractional LMUL sets vill */
    vill = lmul > 4;
    vlmax = numt << lmul;
  } else if (!vill) {
    unsigned sew = 8u << sewc;
    if (lmul < 4) {
      vlmax = (vlen / sew) << lmul;
    } else {
      unsigned shift = 8 - lmul; /* mf2 = 1, mf4 = 2, mf8 = 3 */
      if (sew > (VT_ELEN_V202 >> shift)) vill = true; /* SEW > LMUL * ELEN (v2.02) */
      vlmax = (vlen / sew) >> shift;
    }
  }
  if (in->d->sem == VT_SEM_VSETIVLI)
    avl = rs1_field;
  else if (rs1_field != 0)
    avl = w->x[in->rs1];
  else
    avl = rd_field != 0 ? 0xffffffffu : w->vl;
  w->vill = vill;
  w->vtype = vill ? 0 : vtype;
  w->vl = vill ? 0 : avl < vlmax ? avl : vlmax;
  w->vstart = 0;
  write_x(dev, w, in->rd, w->vl);
  trace_csr(dev, VT_CSR_VL, w->vl);
  trace_csr(dev, VT_CSR_VTYPE, w->vill ? 0x80000000u : w->vtype);
  return VT_OK;
}

int vt_villegal(vt_error *err, const vt_insn *in, unsigned sew, const char *reason) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s at SEW = %u: %s", in->d->mnemonic, sew,
             reason);
  return VT_ERR_ILLEGAL;
}

int vt_vodd_pair(vt_error *err) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: odd register where a pair is required");
  return VT_ERR_ILLEGAL;
}

int vt_vunimplemented(vt_error *err, const vt_insn *in, unsigned sew) {
  vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s at SEW = %u", in->d->mnemonic, sew);
  return VT_ERR_ILLEGAL;
}

static bool is_fp_move(unsigned sem) {
  return sem == VT_SEM_MV || sem == VT_SEM_MERGE || sem == VT_SEM_FMVFS || sem == VT_SEM_FMVSF ||
         sem == VT_SEM_SLIDE1UP || sem == VT_SEM_SLIDE1DOWN;
}

int vt_vfp_rm(const vt_warp *w, const vt_insn *in, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return -1;
  }
  if (is_fp_move(in->d->sem)) return 0; /* no rounding */
  if (w->frm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: frm = %u", w->frm);
    return -1;
  }
  return (int)w->frm;
}

void vt_vfp_flags(vt_device *dev, vt_warp *w, uint32_t flags) {
  if (!flags) return;
  w->fflags |= flags;
  trace_csr(dev, VT_CSR_FFLAGS, w->fflags);
}

static bool is_perm(unsigned sem) {
  return sem == VT_SEM_SLIDEUP || sem == VT_SEM_SLIDEDOWN || sem == VT_SEM_SLIDE1UP ||
         sem == VT_SEM_SLIDE1DOWN || sem == VT_SEM_RGATHER || sem == VT_SEM_RGATHER16 ||
         sem == VT_SEM_COMPRESS;
}

/* the float widths an FP row works at must exist (binary16, 32, 64) */
static const char *fp_widths(const vt_insn_desc *d, const vshape *s) {
  unsigned lo = s->cw;
  if (d->sem == VT_SEM_CVT_F2I) lo = s->ea;
  else if (d->sem == VT_SEM_CVT_I2F) lo = s->ed;
  else if (d->sem == VT_SEM_CVT_F2F || d->sem == VT_SEM_CVT_F2F_ROD) lo = s->ea < s->ed ? s->ea : s->ed;
  else if (s->ea < lo) lo = s->ea;
  return lo < 16 ? "no 8-bit floating point" : NULL;
}

/* isa2025.md 3.2.2: at SEW 64 only the single-width element-wise
 * instructions (and vzext/vsext.vf2, whole-register moves) exist */
static const char *sew64_rule(const vt_insn_desc *d) {
  switch ((vt_ew)d->ew) {
  case VT_EW_SEW: case VT_EW_VF2: case VT_EW_WHOLE1: case VT_EW_WHOLE2: case VT_EW_WHOLE4:
  case VT_EW_WHOLE8:
    break;
  default: return "only single-width element-wise instructions exist at SEW = 64";
  }
  if (d->flags & (VT_F_RED | VT_F_MASKW)) return "no reductions or carry-out masks at SEW = 64";
  if (is_perm(d->sem) || d->sem == VT_SEM_IOTA) return "no permutations at SEW = 64";
  return NULL;
}

const char *vt_vshape(const vt_insn *in, unsigned sew, unsigned lmul, vshape *s) {
  const vt_insn_desc *d = in->d;
  s->ea = s->eb = s->ed = s->cw = sew;
  if (sew == 64) {
    const char *why = sew64_rule(d);
    if (why) return why;
  }
  if (d->ew == VT_EW_SEW && !(d->flags & VT_F_FP)) return NULL; /* the common case */
  switch ((vt_ew)d->ew) {
  case VT_EW_WIDE: s->ed = s->cw = 2 * sew; break;
  case VT_EW_WIDE_W:
    s->ea = s->ed = s->cw = 2 * sew;
    /* at SEW 32, .wv reads two pairs (isa2025.md 3.2.3, D27) */
    if (s->cw == 64 && !(d->flags & (VT_F_BX | VT_F_BI))) s->eb = 64;
    break;
  case VT_EW_NARROW: s->ea = s->cw = 2 * sew; break;
  case VT_EW_VF2: case VT_EW_VF4: case VT_EW_VF8: {
    unsigned k = d->ew == VT_EW_VF2 ? 2 : d->ew == VT_EW_VF4 ? 4 : 8;
    s->ea = sew / k;
    if (s->ea < 8) return "the source would be narrower than 8 bits";
    break;
  }
  case VT_EW_HALF_IN: case VT_EW_HALF_OUT: /* 16-bit values in 32-bit lanes (3.2.4) */
    if (sew != 32) return "fp16/bf16 conversions need SEW = 32";
    break;
  default: break;
  }
  unsigned widest = s->ea > s->ed ? s->ea : s->ed;
  if (widest > VT_ELEN) return "needs SEW <= 32 (ELEN is 64)";
  /* isa2025.md 3.2.3: no narrowing and no widening reductions from pairs */
  if (d->ew == VT_EW_NARROW && s->ea == 64) return "no narrowing from 64-bit elements";
  if ((d->flags & VT_F_RED) && widest == 64) return "no reductions of 64-bit elements";
  if (widest > sew && lmul == 3) return "LMUL = 8 would make the wide operand 16 registers";
  if (d->flags & VT_F_FP) return fp_widths(d, s);
  return NULL;
}

static bool has_op(const vt_insn_desc *d, vt_operand_id op) {
  for (unsigned k = 0; k < d->nops; k++)
    if (d->ops[k] == op) return true;
  return false;
}

/* every vector operand 64 bits wide is a pair: its register even (3.2.2,
 * 3.2.3); .vf scalars at SEW 64 are scalar pairs (D26) */
bool vt_vpairs_ok(const vt_insn *in, const vshape *s) {
  const vt_insn_desc *d = in->d;
  const bool bvec = !(d->flags & (VT_F_BX | VT_F_BI));
  if (s->ed == 64 && has_op(d, VT_OP_VD) && (in->rd & 1)) return false;
  if (s->ea == 64 && has_op(d, VT_OP_VS2) && (in->rs2 & 1)) return false;
  if (s->eb == 64 && bvec && has_op(d, VT_OP_VS1) && (in->rs1 & 1)) return false;
  if (s->eb == 64 && (d->flags & VT_F_FSCALAR) && ((in->word >> 15) & 1)) return false;
  return true;
}

/* vmv.x.s, vfmv.f.s, vfmv.s.f, vmv<n>r.v: moves between x registers and
 * elements, and whole registers */
static int moves(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, unsigned sew) {
  vctx c = vctx_make(w, in->rd);
  switch (in->d->sem) {
  case VT_SEM_MVXS: /* highest active element wins (isa.md 3.4), sign-extended */
    if (m) write_x(dev, w, in->rd, (uint32_t)vext(vget(&c, in->rs2, 31u - (unsigned)__builtin_clz(m), sew), sew, true));
    return VT_OK;
  case VT_SEM_FMVFS: /* element 0; at SEW 64 into the pair rd (isa2025.md 3.2.2) */
    if (sew == 64) write_xp(dev, w, in->rd, vget(&c, in->rs2, 0, 64));
    else write_x(dev, w, in->rd, (uint32_t)vext(vget(&c, in->rs2, 0, sew), sew, true));
    return VT_OK;
  case VT_SEM_FMVSF: { /* element 0 only, no SIMT mask (isa.md 3.4); a scalar pair at SEW 64 */
    unsigned r = (in->word >> 15) & 31;
    uint64_t v = sew == 64 ? read_xp(w, r) : w->x[r] & ones64(sew);
    if (w->vl > w->vstart) vput(&c, 0, sew, v);
    vtrace_group(dev, &c);
    return VT_OK;
  }
  default: { /* MVNR */
    unsigned n = 1u << (in->d->ew - VT_EW_WHOLE1);
    for (unsigned k = 0; k < n && in->rd + k < VT_NUM_VREGS && in->rs2 + k < VT_NUM_VREGS; k++) {
      memmove(w->v[in->rd + k], w->v[in->rs2 + k], sizeof w->v[0]);
      trace_v(dev, w, in->rd + k, w->lane_limit);
    }
    return VT_OK;
  }
  }
}

/* the lanes an instruction computes */
static uint32_t active_lanes(const vt_warp *w, const vt_insn *in) {
  uint32_t fl = in->d->flags, m = vt_vrange(w);
  if (!(fl & VT_F_NOSIMT)) m &= w->mask;
  if (!(fl & VT_F_V0) && !in->vm) m &= w->v[0][0];
  return m;
}

static int dispatch(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  const unsigned sew = vt_vsew(w), lmul = w->vtype & 7;
  const uint32_t m = active_lanes(w, in);
  if (d->mem != VT_MEM_NONE) {
    if (sew == 64) return vt_villegal(err, in, sew, "no standard vector loads and stores at SEW = 64");
    return vt_vmem(dev, w, in, err);
  }
  if (sew == 64) {
    const char *why = sew64_rule(d);
    if (why) return vt_villegal(err, in, sew, why);
  }
  if (d->ew == VT_EW_MASK || d->sem == VT_SEM_IOTA) return vt_vmask(dev, w, in, m, err);
  if (d->sem == VT_SEM_MVXS || d->sem == VT_SEM_FMVFS || d->sem == VT_SEM_FMVSF ||
      d->sem == VT_SEM_MVNR) {
    if ((d->flags & VT_F_FP) && sew < 16) return vt_villegal(err, in, sew, "no 8-bit floating point");
    if ((d->flags & VT_F_FP) && vt_vfp_rm(w, in, err) < 0) return err->status;
    if (sew == 64 && d->sem != VT_SEM_MVNR) {
      bool odd = d->sem == VT_SEM_FMVSF ? ((in->word >> 15) & 1) || (in->rd & 1)
               : (in->rs2 & 1) || (d->sem == VT_SEM_FMVFS && (in->rd & 1));
      if (odd) return vt_vodd_pair(err);
    }
    return moves(dev, w, in, m, sew);
  }
  if (is_perm(d->sem) && !(d->flags & VT_F_RED)) {
    if ((d->flags & VT_F_FP) && sew < 16) return vt_villegal(err, in, sew, "no 8-bit floating point");
    return vt_vperm(dev, w, in, m, err);
  }
  /* the common case: what vt_vshape, vt_vpairs_ok and vt_vint decide for
   * a single-width integer row at SEW 32 */
  if (sew == 32 && d->ew == VT_EW_SEW && !(d->flags & (VT_F_FP | VT_F_RED | VT_F_MASKW)) &&
      !(in->neg | in->abs) && !dev->reference)
    return vt_vint_sew32(dev, w, in, m, err);
  vshape s;
  const char *why = vt_vshape(in, sew, lmul, &s);
  if (why) return vt_villegal(err, in, sew, why);
  if (!vt_vpairs_ok(in, &s)) return vt_vodd_pair(err);
  if (d->flags & VT_F_RED) return vt_vred(dev, w, in, &s, m, err);
  if (d->flags & VT_F_FP) return vt_vfp(dev, w, in, &s, m, err);
  return vt_vint(dev, w, in, &s, m, err);
}

int vt_exec_vector(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_VS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: vector unit off (mstatus.VS)");
    return VT_ERR_ILLEGAL;
  }
  if (in->d->exec_class == VT_EX_VSET) return vset(dev, w, in);
  if (w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector instruction while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  int rc = dispatch(dev, w, in, err);
  if (rc == VT_OK) w->vstart = 0;
  return rc;
}
