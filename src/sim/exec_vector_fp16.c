/* Vector FP at SEW = 16 (binary16, src/fp/fp16.c) and the FP widening and
 * narrowing instructions, on the generic packed element path of
 * exec_vector_sew.c (isa.md 6.3: "Vector SEW = 16 FP works only in the
 * standard packed RVV layout"): element i of an operand of width EEW is at
 * byte i*EEW/8 of its register group, only elements below numt are
 * processed (the SIMT mask has numt bits), inactive elements are unchanged.
 *
 * SEW = 16: every single-width FP instruction (binary16), the widening
 * ones to binary32 (vfw*.vv/.vf/.wv/.wf, vfwcvt.*, vfwred*) and the
 * narrowing ones from binary32/int32 (vfncvt.*).
 * SEW = 8: only what converts between int8 and binary16 (vfwcvt.f.x[u].v,
 * vfncvt.[rtz.]x[u].f.w); everything else would need an 8-bit float.
 * At SEW = 32, widening/narrowing FP stays illegal (ELEN = 32, no binary64;
 * exec_vector.c).
 * The scalar operand of .vf instructions (Zfinx) is the low 16 bits of
 * x[rs1], no NaN-boxing check; vfmv.f.s writes element 0 sign-extended
 * (docs/decisions.md, "Floating point"). */
#include "exec_vector_sew.h"
#include "fp/fp16.h"

#define L VT_MAX_LANES
#define S16 0x8000u
#define S32 0x80000000u

static int illegal(vt_error *err, const char *mnemonic, const char *why, unsigned sew) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s at SEW = %u: %s", mnemonic, sew, why);
  return VT_ERR_ILLEGAL;
}

/* binary16 -> binary32 for the widening instructions (exact; NV for sNaN) */
static inline uint32_t w32(uint32_t a, uint32_t *fl) { return vt_f16_to_f32(a, fl); }

typedef struct fshape {
  unsigned ae, be, de; /* element widths of vs2, vs1/scalar, vd */
} fshape;

/* Operand widths of the element-wise FP instructions at SEW e (8 or 16);
 * false when id is not one of them or does not exist at this SEW. */
static bool fp_shape(unsigned id, unsigned e, fshape *s) {
  s->ae = s->be = s->de = e;
  switch (id) {
  /* int8 <-> binary16 (SEW 8) and int16/binary16 -> binary32/int32 (SEW 16) */
  case VT_INSN_VFWCVT_F_X_V: case VT_INSN_VFWCVT_F_XU_V:
    s->de = 2 * e;
    return true;
  case VT_INSN_VFNCVT_X_F_W: case VT_INSN_VFNCVT_XU_F_W:
  case VT_INSN_VFNCVT_RTZ_X_F_W: case VT_INSN_VFNCVT_RTZ_XU_F_W:
    s->ae = 2 * e;
    return true;
  default: break;
  }
  if (e != 16) return false;
  switch (id) {
  case VT_INSN_VFWCVT_F_F_V: case VT_INSN_VFWCVT_X_F_V: case VT_INSN_VFWCVT_XU_F_V:
  case VT_INSN_VFWCVT_RTZ_X_F_V: case VT_INSN_VFWCVT_RTZ_XU_F_V:
  case VT_INSN_VFWADD_VV: case VT_INSN_VFWADD_VF: case VT_INSN_VFWSUB_VV: case VT_INSN_VFWSUB_VF:
  case VT_INSN_VFWMUL_VV: case VT_INSN_VFWMUL_VF:
  case VT_INSN_VFWMACC_VV: case VT_INSN_VFWMACC_VF: case VT_INSN_VFWNMACC_VV: case VT_INSN_VFWNMACC_VF:
  case VT_INSN_VFWMSAC_VV: case VT_INSN_VFWMSAC_VF: case VT_INSN_VFWNMSAC_VV: case VT_INSN_VFWNMSAC_VF:
    s->de = 32;
    return true;
  case VT_INSN_VFWADD_W_WV: case VT_INSN_VFWADD_W_WF: case VT_INSN_VFWSUB_W_WV: case VT_INSN_VFWSUB_W_WF:
    s->ae = s->de = 32;
    return true;
  case VT_INSN_VFNCVT_F_F_W: case VT_INSN_VFNCVT_ROD_F_F_W: case VT_INSN_VFNCVT_F_X_W:
  case VT_INSN_VFNCVT_F_XU_W:
    s->ae = 32;
    return true;
  case VT_INSN_VFADD_VV: case VT_INSN_VFADD_VF: case VT_INSN_VFSUB_VV: case VT_INSN_VFSUB_VF:
  case VT_INSN_VFRSUB_VF: case VT_INSN_VFMUL_VV: case VT_INSN_VFMUL_VF:
  case VT_INSN_VFDIV_VV: case VT_INSN_VFDIV_VF: case VT_INSN_VFRDIV_VF:
  case VT_INSN_VFMIN_VV: case VT_INSN_VFMIN_VF: case VT_INSN_VFMAX_VV: case VT_INSN_VFMAX_VF:
  case VT_INSN_VFSGNJ_VV: case VT_INSN_VFSGNJ_VF: case VT_INSN_VFSGNJN_VV: case VT_INSN_VFSGNJN_VF:
  case VT_INSN_VFSGNJX_VV: case VT_INSN_VFSGNJX_VF:
  case VT_INSN_VFMACC_VV: case VT_INSN_VFMACC_VF: case VT_INSN_VFNMACC_VV: case VT_INSN_VFNMACC_VF:
  case VT_INSN_VFMSAC_VV: case VT_INSN_VFMSAC_VF: case VT_INSN_VFNMSAC_VV: case VT_INSN_VFNMSAC_VF:
  case VT_INSN_VFMADD_VV: case VT_INSN_VFMADD_VF: case VT_INSN_VFNMADD_VV: case VT_INSN_VFNMADD_VF:
  case VT_INSN_VFMSUB_VV: case VT_INSN_VFMSUB_VF: case VT_INSN_VFNMSUB_VV: case VT_INSN_VFNMSUB_VF:
  case VT_INSN_VMFEQ_VV: case VT_INSN_VMFEQ_VF: case VT_INSN_VMFNE_VV: case VT_INSN_VMFNE_VF:
  case VT_INSN_VMFLT_VV: case VT_INSN_VMFLT_VF: case VT_INSN_VMFLE_VV: case VT_INSN_VMFLE_VF:
  case VT_INSN_VMFGT_VF: case VT_INSN_VMFGE_VF:
  case VT_INSN_VFSQRT_V: case VT_INSN_VFREC7_V: case VT_INSN_VFRSQRT7_V: case VT_INSN_VFCLASS_V:
  case VT_INSN_VFCVT_XU_F_V: case VT_INSN_VFCVT_X_F_V: case VT_INSN_VFCVT_RTZ_XU_F_V:
  case VT_INSN_VFCVT_RTZ_X_F_V: case VT_INSN_VFCVT_F_XU_V: case VT_INSN_VFCVT_F_X_V:
    return true;
  default: return false;
  }
}

/* Result of element i: A = vs2, B = vs1 or the scalar, D = old vd (each
 * zero-extended from its width); e = SEW. */
static uint32_t fp_op(unsigned id, unsigned e, int rm, uint32_t A, uint32_t B, uint32_t D, uint32_t *fl) {
  switch (id) {
  case VT_INSN_VFADD_VV: case VT_INSN_VFADD_VF: return vt_f16_add(A, B, rm, fl);
  case VT_INSN_VFSUB_VV: case VT_INSN_VFSUB_VF: return vt_f16_sub(A, B, rm, fl);
  case VT_INSN_VFRSUB_VF: return vt_f16_sub(B, A, rm, fl);
  case VT_INSN_VFMUL_VV: case VT_INSN_VFMUL_VF: return vt_f16_mul(A, B, rm, fl);
  case VT_INSN_VFDIV_VV: case VT_INSN_VFDIV_VF: return vt_f16_div(A, B, rm, fl);
  case VT_INSN_VFRDIV_VF: return vt_f16_div(B, A, rm, fl);
  case VT_INSN_VFMIN_VV: case VT_INSN_VFMIN_VF: return vt_f16_min(A, B, fl);
  case VT_INSN_VFMAX_VV: case VT_INSN_VFMAX_VF: return vt_f16_max(A, B, fl);
  case VT_INSN_VFSGNJ_VV: case VT_INSN_VFSGNJ_VF: return vt_f16_sgnj(A, B);
  case VT_INSN_VFSGNJN_VV: case VT_INSN_VFSGNJN_VF: return vt_f16_sgnjn(A, B);
  case VT_INSN_VFSGNJX_VV: case VT_INSN_VFSGNJX_VF: return vt_f16_sgnjx(A, B);
  /* multiply-add: A = vs2, B = vs1/rs1, D = vd (as exec_vector.c) */
  case VT_INSN_VFMACC_VV: case VT_INSN_VFMACC_VF: return vt_f16_fma(B, A, D, rm, fl);
  case VT_INSN_VFNMACC_VV: case VT_INSN_VFNMACC_VF: return vt_f16_fma(B ^ S16, A, D ^ S16, rm, fl);
  case VT_INSN_VFMSAC_VV: case VT_INSN_VFMSAC_VF: return vt_f16_fma(B, A, D ^ S16, rm, fl);
  case VT_INSN_VFNMSAC_VV: case VT_INSN_VFNMSAC_VF: return vt_f16_fma(B ^ S16, A, D, rm, fl);
  case VT_INSN_VFMADD_VV: case VT_INSN_VFMADD_VF: return vt_f16_fma(B, D, A, rm, fl);
  case VT_INSN_VFNMADD_VV: case VT_INSN_VFNMADD_VF: return vt_f16_fma(B ^ S16, D, A ^ S16, rm, fl);
  case VT_INSN_VFMSUB_VV: case VT_INSN_VFMSUB_VF: return vt_f16_fma(B, D, A ^ S16, rm, fl);
  case VT_INSN_VFNMSUB_VV: case VT_INSN_VFNMSUB_VF: return vt_f16_fma(B ^ S16, D, A, rm, fl);
  /* Ventus: compares write 0/1 as SEW-wide elements (isa.md 3.4) */
  case VT_INSN_VMFEQ_VV: case VT_INSN_VMFEQ_VF: return (uint32_t)vt_f16_eq(A, B, fl);
  case VT_INSN_VMFNE_VV: case VT_INSN_VMFNE_VF: return (uint32_t)!vt_f16_eq(A, B, fl);
  case VT_INSN_VMFLT_VV: case VT_INSN_VMFLT_VF: return (uint32_t)vt_f16_lt(A, B, fl);
  case VT_INSN_VMFLE_VV: case VT_INSN_VMFLE_VF: return (uint32_t)vt_f16_le(A, B, fl);
  case VT_INSN_VMFGT_VF: return (uint32_t)vt_f16_lt(B, A, fl);
  case VT_INSN_VMFGE_VF: return (uint32_t)vt_f16_le(B, A, fl);
  case VT_INSN_VFSQRT_V: return vt_f16_sqrt(A, rm, fl);
  case VT_INSN_VFREC7_V: return vt_f16_rec7(A, rm, fl);
  case VT_INSN_VFRSQRT7_V: return vt_f16_rsqrt7(A, fl);
  case VT_INSN_VFCLASS_V: return vt_f16_classify(A);
  case VT_INSN_VFCVT_XU_F_V: return vt_f16_to_int(A, 16, 0, rm, fl);
  case VT_INSN_VFCVT_X_F_V: return vt_f16_to_int(A, 16, 1, rm, fl);
  case VT_INSN_VFCVT_RTZ_XU_F_V: return vt_f16_to_int(A, 16, 0, VT_RM_RTZ, fl);
  case VT_INSN_VFCVT_RTZ_X_F_V: return vt_f16_to_int(A, 16, 1, VT_RM_RTZ, fl);
  case VT_INSN_VFCVT_F_XU_V: return vt_u32_to_f16(A, rm, fl);
  case VT_INSN_VFCVT_F_X_V: return vt_i32_to_f16((int32_t)sext(A, 16), rm, fl);
  /* widening: binary16 operands widened exactly, binary32 arithmetic */
  case VT_INSN_VFWADD_VV: case VT_INSN_VFWADD_VF: return vt_f32_add(w32(A, fl), w32(B, fl), rm, fl);
  case VT_INSN_VFWSUB_VV: case VT_INSN_VFWSUB_VF: return vt_f32_sub(w32(A, fl), w32(B, fl), rm, fl);
  case VT_INSN_VFWADD_W_WV: case VT_INSN_VFWADD_W_WF: return vt_f32_add(A, w32(B, fl), rm, fl);
  case VT_INSN_VFWSUB_W_WV: case VT_INSN_VFWSUB_W_WF: return vt_f32_sub(A, w32(B, fl), rm, fl);
  case VT_INSN_VFWMUL_VV: case VT_INSN_VFWMUL_VF: return vt_f32_mul(w32(A, fl), w32(B, fl), rm, fl);
  case VT_INSN_VFWMACC_VV: case VT_INSN_VFWMACC_VF: return vt_f32_fma(w32(B, fl), w32(A, fl), D, rm, fl);
  case VT_INSN_VFWNMACC_VV: case VT_INSN_VFWNMACC_VF:
    return vt_f32_fma(w32(B, fl) ^ S32, w32(A, fl), D ^ S32, rm, fl);
  case VT_INSN_VFWMSAC_VV: case VT_INSN_VFWMSAC_VF: return vt_f32_fma(w32(B, fl), w32(A, fl), D ^ S32, rm, fl);
  case VT_INSN_VFWNMSAC_VV: case VT_INSN_VFWNMSAC_VF:
    return vt_f32_fma(w32(B, fl) ^ S32, w32(A, fl), D, rm, fl);
  case VT_INSN_VFWCVT_F_F_V: return w32(A, fl);
  case VT_INSN_VFWCVT_X_F_V: return vt_f16_to_int(A, 32, 1, rm, fl);
  case VT_INSN_VFWCVT_XU_F_V: return vt_f16_to_int(A, 32, 0, rm, fl);
  case VT_INSN_VFWCVT_RTZ_X_F_V: return vt_f16_to_int(A, 32, 1, VT_RM_RTZ, fl);
  case VT_INSN_VFWCVT_RTZ_XU_F_V: return vt_f16_to_int(A, 32, 0, VT_RM_RTZ, fl);
  /* SEW 16: int16 -> binary32 (exact); SEW 8: int8 -> binary16 (exact) */
  case VT_INSN_VFWCVT_F_X_V:
    return e == 16 ? vt_i32_to_f32((int32_t)sext(A, 16), rm, fl) : vt_i32_to_f16((int32_t)sext(A, 8), rm, fl);
  case VT_INSN_VFWCVT_F_XU_V: return e == 16 ? vt_u32_to_f32(A, rm, fl) : vt_u32_to_f16(A, rm, fl);
  /* narrowing: SEW 16 from binary32/int32, SEW 8 from binary16 */
  case VT_INSN_VFNCVT_F_F_W: return vt_f32_to_f16(A, rm, fl);
  case VT_INSN_VFNCVT_ROD_F_F_W: return vt_f32_to_f16_rod(A, fl);
  case VT_INSN_VFNCVT_F_X_W: return vt_i32_to_f16((int32_t)A, rm, fl);
  case VT_INSN_VFNCVT_F_XU_W: return vt_u32_to_f16(A, rm, fl);
  case VT_INSN_VFNCVT_X_F_W: case VT_INSN_VFNCVT_XU_F_W:
  case VT_INSN_VFNCVT_RTZ_X_F_W: case VT_INSN_VFNCVT_RTZ_XU_F_W: {
    int sg = id == VT_INSN_VFNCVT_X_F_W || id == VT_INSN_VFNCVT_RTZ_X_F_W;
    int r = id == VT_INSN_VFNCVT_RTZ_X_F_W || id == VT_INSN_VFNCVT_RTZ_XU_F_W ? VT_RM_RTZ : rm;
    return e == 16 ? vt_f32_to_int(A, 16, sg, r, fl) : vt_f16_to_int(A, 8, sg, r, fl);
  }
  default: return D; /* not reached: fp_shape lists the same instructions */
  }
}

/* vfred*.vs at SEW 16 and vfwred*.vs (binary32 accumulator) */
static void reduction(vctx *c, vt_insn *in, int rm, uint32_t m, uint32_t *fl) {
  bool widen = in->id == VT_INSN_VFWREDUSUM_VS || in->id == VT_INSN_VFWREDOSUM_VS;
  uint32_t acc = get(c, in->rs1, 0, widen ? 32 : 16);
  for (unsigned i = 0; i < (unsigned)L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t x = get(c, in->rs2, i, 16);
    switch (in->id) {
    case VT_INSN_VFREDUSUM_VS: case VT_INSN_VFREDOSUM_VS: acc = vt_f16_add(acc, x, rm, fl); break;
    case VT_INSN_VFREDMIN_VS: acc = vt_f16_min(acc, x, fl); break;
    case VT_INSN_VFREDMAX_VS: acc = vt_f16_max(acc, x, fl); break;
    default: acc = vt_f32_add(acc, w32(x, fl), rm, fl); break; /* vfwred*sum */
    }
  }
  if (c->w->vl > 0) put(c, 0, widen ? 32 : 16, acc);
}

int vt_exec_vector_fp16(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, uint32_t rmask,
                        vt_error *err) {
  const vt_insn_desc *desc = vt_isa_insn((vt_insn_id)in->id);
  const unsigned e = 8u << ((w->vtype >> 3) & 7), lmul = w->vtype & 7;
  if ((w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return VT_ERR_ILLEGAL;
  }
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit);
  vctx c = {w, 4 * numt, in->rd, {0}};
  const uint32_t x16 = w->x[(in->word >> 15) & 31] & 0xffffu; /* .vf scalar (Zfinx: low 16 bits) */
  const uint32_t v0 = w->v[0][0];

  /* moves, merges and slides: no arithmetic, no rounding mode */
  if (e == 16) {
    switch (in->id) {
    case VT_INSN_VFMV_F_S: /* element 0, sign-extended like vmv.x.s at SEW 16 */
      write_x(dev, w, in->rd, sext(get(&c, in->rs2, 0, 16), 16));
      return VT_OK;
    case VT_INSN_VFMV_S_F: /* element 0 only, no SIMT mask (isa.md 3.4) */
      if (w->vl > w->vstart) put(&c, 0, 16, x16);
      trace_group(dev, &c);
      return VT_OK;
    case VT_INSN_VFMV_V_F: case VT_INSN_VFMERGE_VFM: { /* no SIMT mask: elements < vl */
      uint32_t sel = in->id == VT_INSN_VFMERGE_VFM ? v0 : 0xffffffffu, out[L];
      for (unsigned i = 0; i < (unsigned)L; i++)
        if ((rmask >> i) & 1) out[i] = ((sel >> i) & 1) ? x16 : get(&c, in->rs2, i, 16);
      for (unsigned i = 0; i < (unsigned)L; i++)
        if ((rmask >> i) & 1) put(&c, i, 16, out[i]);
      trace_group(dev, &c);
      return VT_OK;
    }
    case VT_INSN_VFSLIDE1UP_VF: case VT_INSN_VFSLIDE1DOWN_VF: {
      uint32_t out[L];
      for (unsigned i = 0; i < (unsigned)L; i++) {
        if (!((m >> i) & 1)) continue;
        if (in->id == VT_INSN_VFSLIDE1UP_VF)
          out[i] = i == 0 ? x16 : get(&c, in->rs2, i - 1, 16);
        else
          out[i] = i + 1 == w->vl ? x16 : get(&c, in->rs2, i + 1, 16);
      }
      for (unsigned i = 0; i < (unsigned)L; i++)
        if ((m >> i) & 1) put(&c, i, 16, out[i]);
      trace_group(dev, &c);
      return VT_OK;
    }
    default: break;
    }
  }

  int rm = (int)w->frm;
  if (rm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: frm = %d", rm);
    return VT_ERR_ILLEGAL;
  }
  uint32_t fl = 0;
  if (desc->exec_class == VT_EX_VPERM && strstr(desc->mnemonic, "red")) {
    if (e != 16) return illegal(err, desc->mnemonic, "no 8-bit floating point", e);
    reduction(&c, in, rm, m, &fl);
  } else {
    fshape s;
    if (!fp_shape(in->id, e, &s)) {
      if (e == 8) return illegal(err, desc->mnemonic, "no 8-bit floating point", e);
      vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s at SEW = %u", desc->mnemonic, e);
      return VT_ERR_ILLEGAL;
    }
    if ((s.ae > e || s.de > e) && lmul == 3)
      return illegal(err, desc->mnemonic, "LMUL = 8 would make the wide operand 16 registers", e);
    unsigned f3 = (in->word >> 12) & 7;
    bool vsrc = f3 == 1;
    uint32_t out[L];
    for (unsigned i = 0; i < (unsigned)L; i++) {
      if (!((m >> i) & 1)) continue;
      uint32_t A = get(&c, in->rs2, i, s.ae), B = vsrc ? get(&c, in->rs1, i, s.be) : x16;
      uint32_t D = get(&c, in->rd, i, s.de);
      out[i] = fp_op(in->id, e, rm, A, B, D, &fl);
    }
    for (unsigned i = 0; i < (unsigned)L; i++)
      if ((m >> i) & 1) put(&c, i, s.de, out[i]);
  }
  if (fl) {
    w->fflags |= fl;
    trace_csr(dev, 0x001, w->fflags);
  }
  /* a reduction with vl = 0 writes nothing (no record, as at SEW = 32) */
  if (!(desc->exec_class == VT_EX_VPERM && !c.touched[0])) trace_group(dev, &c);
  return VT_OK;
}
