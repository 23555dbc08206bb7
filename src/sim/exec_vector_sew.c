/* Integer vector arithmetic at SEW = 8 and 16: the generic element path
 * (exec_vector.c keeps its vectorised lane loops for SEW = 32).
 *
 * Layout: standard packed RVV. Element i of an operand of element width EEW
 * is at byte i*EEW/8 of its register group; register r+k of a group holds
 * the group's bytes [k*VLEN/8, (k+1)*VLEN/8) with VLEN = 32*numt, and the
 * bytes of a register are the little-endian bytes of its 32-bit lanes.
 * Elements are processed only below numt, where the SIMT mask has bits
 * (isa.md 1.4, 3.2 "lanes >= numt are always skipped"): m and rmask select
 * them. Inactive elements keep their values.
 *
 * Widening instructions (2*SEW destination or wide vs2) and narrowing ones
 * (2*SEW source) work at SEW 8 and 16, where 2*SEW <= ELEN = 32. Vector FP
 * at SEW 8/16 (binary16, and the int8 <-> binary16 converts) is in
 * exec_vector_fp16.c. docs/decisions.md lists what runs at which SEW. */
#include "exec_vector_sew.h"

#define L VT_MAX_LANES

static uint32_t ones(unsigned e) { return e >= 32 ? 0xffffffffu : (1u << e) - 1u; }
/* the low e bits of v as a signed value */
static int64_t sx(uint32_t v, unsigned e) { return (int64_t)(int32_t)sext(v & ones(e), e); }

static int illegal(vt_error *err, const char *mnemonic, const char *why, unsigned sew) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s at SEW = %u: %s", mnemonic, sew, why);
  return VT_ERR_ILLEGAL;
}

/* ---------------- fixed point (RVV 1.0 3.8, 12.4-12.5) ---------------- */
static uint32_t clip_u(vt_warp *w, int64_t v, unsigned e) {
  if (v < 0) { w->vxsat = 1; return 0; }
  if (v > (int64_t)ones(e)) { w->vxsat = 1; return ones(e); }
  return (uint32_t)v;
}
static uint32_t clip_s(vt_warp *w, int64_t v, unsigned e) {
  int64_t hi = ((int64_t)1 << (e - 1)) - 1, lo = -hi - 1;
  if (v > hi) { w->vxsat = 1; v = hi; }
  if (v < lo) { w->vxsat = 1; v = lo; }
  return (uint32_t)v & ones(e);
}

/* ---------------- element-wise instructions ---------------- */
typedef struct shape {
  unsigned ae, be, de; /* element widths of vs2, vs1 (or the scalar), vd */
} shape;

/* Operand widths of the element-wise instructions at SEW e; false when id
 * is not one of them. */
static bool elem_shape(unsigned id, unsigned e, shape *s) {
  s->ae = s->be = s->de = e;
  switch (id) {
  /* widening: 2*SEW destination */
  case VT_INSN_VWADDU_VV: case VT_INSN_VWADDU_VX: case VT_INSN_VWADD_VV: case VT_INSN_VWADD_VX:
  case VT_INSN_VWSUBU_VV: case VT_INSN_VWSUBU_VX: case VT_INSN_VWSUB_VV: case VT_INSN_VWSUB_VX:
  case VT_INSN_VWMULU_VV: case VT_INSN_VWMULU_VX: case VT_INSN_VWMULSU_VV: case VT_INSN_VWMULSU_VX:
  case VT_INSN_VWMUL_VV: case VT_INSN_VWMUL_VX:
  case VT_INSN_VWMACCU_VV: case VT_INSN_VWMACCU_VX: case VT_INSN_VWMACC_VV: case VT_INSN_VWMACC_VX:
  case VT_INSN_VWMACCSU_VV: case VT_INSN_VWMACCSU_VX: case VT_INSN_VWMACCUS_VX:
    s->de = 2 * e;
    return true;
  /* widening with a wide vs2 */
  case VT_INSN_VWADDU_W_WV: case VT_INSN_VWADDU_W_WX: case VT_INSN_VWADD_W_WV: case VT_INSN_VWADD_W_WX:
  case VT_INSN_VWSUBU_W_WV: case VT_INSN_VWSUBU_W_WX: case VT_INSN_VWSUB_W_WV: case VT_INSN_VWSUB_W_WX:
    s->ae = s->de = 2 * e;
    return true;
  /* narrowing: 2*SEW source */
  case VT_INSN_VNSRL_WV: case VT_INSN_VNSRL_WX: case VT_INSN_VNSRL_WI:
  case VT_INSN_VNSRA_WV: case VT_INSN_VNSRA_WX: case VT_INSN_VNSRA_WI:
  case VT_INSN_VNCLIPU_WV: case VT_INSN_VNCLIPU_WX: case VT_INSN_VNCLIPU_WI:
  case VT_INSN_VNCLIP_WV: case VT_INSN_VNCLIP_WX: case VT_INSN_VNCLIP_WI:
    s->ae = 2 * e;
    return true;
  case VT_INSN_VZEXT_VF2: case VT_INSN_VSEXT_VF2: s->ae = e / 2; return true;
  case VT_INSN_VZEXT_VF4: case VT_INSN_VSEXT_VF4: s->ae = e / 4; return true;
  /* single width */
  case VT_INSN_VADD_VV: case VT_INSN_VADD_VX: case VT_INSN_VADD_VI:
  case VT_INSN_VSUB_VV: case VT_INSN_VSUB_VX: case VT_INSN_VRSUB_VX: case VT_INSN_VRSUB_VI:
  case VT_INSN_VMINU_VV: case VT_INSN_VMINU_VX: case VT_INSN_VMIN_VV: case VT_INSN_VMIN_VX:
  case VT_INSN_VMAXU_VV: case VT_INSN_VMAXU_VX: case VT_INSN_VMAX_VV: case VT_INSN_VMAX_VX:
  case VT_INSN_VAND_VV: case VT_INSN_VAND_VX: case VT_INSN_VAND_VI:
  case VT_INSN_VOR_VV: case VT_INSN_VOR_VX: case VT_INSN_VOR_VI:
  case VT_INSN_VXOR_VV: case VT_INSN_VXOR_VX: case VT_INSN_VXOR_VI:
  case VT_INSN_VSLL_VV: case VT_INSN_VSLL_VX: case VT_INSN_VSLL_VI:
  case VT_INSN_VSRL_VV: case VT_INSN_VSRL_VX: case VT_INSN_VSRL_VI:
  case VT_INSN_VSRA_VV: case VT_INSN_VSRA_VX: case VT_INSN_VSRA_VI:
  case VT_INSN_VMSEQ_VV: case VT_INSN_VMSEQ_VX: case VT_INSN_VMSEQ_VI:
  case VT_INSN_VMSNE_VV: case VT_INSN_VMSNE_VX: case VT_INSN_VMSNE_VI:
  case VT_INSN_VMSLTU_VV: case VT_INSN_VMSLTU_VX: case VT_INSN_VMSLT_VV: case VT_INSN_VMSLT_VX:
  case VT_INSN_VMSLEU_VV: case VT_INSN_VMSLEU_VX: case VT_INSN_VMSLEU_VI:
  case VT_INSN_VMSLE_VV: case VT_INSN_VMSLE_VX: case VT_INSN_VMSLE_VI:
  case VT_INSN_VMSGTU_VX: case VT_INSN_VMSGTU_VI: case VT_INSN_VMSGT_VX: case VT_INSN_VMSGT_VI:
  case VT_INSN_VMUL_VV: case VT_INSN_VMUL_VX: case VT_INSN_VMULH_VV: case VT_INSN_VMULH_VX:
  case VT_INSN_VMULHU_VV: case VT_INSN_VMULHU_VX: case VT_INSN_VMULHSU_VV: case VT_INSN_VMULHSU_VX:
  case VT_INSN_VDIVU_VV: case VT_INSN_VDIVU_VX: case VT_INSN_VDIV_VV: case VT_INSN_VDIV_VX:
  case VT_INSN_VREMU_VV: case VT_INSN_VREMU_VX: case VT_INSN_VREM_VV: case VT_INSN_VREM_VX:
  case VT_INSN_VMACC_VV: case VT_INSN_VMACC_VX: case VT_INSN_VNMSAC_VV: case VT_INSN_VNMSAC_VX:
  case VT_INSN_VMADD_VV: case VT_INSN_VMADD_VX: case VT_INSN_VNMSUB_VV: case VT_INSN_VNMSUB_VX:
  case VT_INSN_VSADDU_VV: case VT_INSN_VSADDU_VX: case VT_INSN_VSADDU_VI:
  case VT_INSN_VSADD_VV: case VT_INSN_VSADD_VX: case VT_INSN_VSADD_VI:
  case VT_INSN_VSSUBU_VV: case VT_INSN_VSSUBU_VX: case VT_INSN_VSSUB_VV: case VT_INSN_VSSUB_VX:
  case VT_INSN_VAADDU_VV: case VT_INSN_VAADDU_VX: case VT_INSN_VAADD_VV: case VT_INSN_VAADD_VX:
  case VT_INSN_VASUBU_VV: case VT_INSN_VASUBU_VX: case VT_INSN_VASUB_VV: case VT_INSN_VASUB_VX:
  case VT_INSN_VSSRL_VV: case VT_INSN_VSSRL_VX: case VT_INSN_VSSRL_VI:
  case VT_INSN_VSSRA_VV: case VT_INSN_VSSRA_VX: case VT_INSN_VSSRA_VI:
  case VT_INSN_VSMUL_VV: case VT_INSN_VSMUL_VX:
  case VT_INSN_VADC_VVM: case VT_INSN_VADC_VXM: case VT_INSN_VADC_VIM:
  case VT_INSN_VSBC_VVM: case VT_INSN_VSBC_VXM:
  case VT_INSN_VMV_V_V: case VT_INSN_VMV_V_X: case VT_INSN_VMV_V_I: case VT_INSN_VMV_S_X:
  case VT_INSN_VID_V:
    return true;
  default:
    return false;
  }
}

/* Result of element i. A: vs2 element, B: vs1 element or the scalar (both
 * zero-extended from their widths), D: the old vd element, c: v0 bit i.
 * The caller truncates the result to the destination width. */
static uint32_t elem_op(vt_warp *w, unsigned id, unsigned e, const shape *s, unsigned i,
                        uint32_t A, uint32_t B, uint32_t D, uint32_t c) {
  const unsigned rm = w->vxrm & 3;
  const unsigned sh = B & (e - 1);      /* single-width shift amount */
  const unsigned shw = B & (2 * e - 1); /* narrowing shift amount */
  const int64_t sA = sx(A, s->ae), sB = sx(B, e);
  switch (id) {
  case VT_INSN_VADD_VV: case VT_INSN_VADD_VX: case VT_INSN_VADD_VI: return A + B;
  case VT_INSN_VSUB_VV: case VT_INSN_VSUB_VX: return A - B;
  case VT_INSN_VRSUB_VX: case VT_INSN_VRSUB_VI: return B - A;
  case VT_INSN_VMINU_VV: case VT_INSN_VMINU_VX: return A < B ? A : B;
  case VT_INSN_VMIN_VV: case VT_INSN_VMIN_VX: return sA < sB ? A : B;
  case VT_INSN_VMAXU_VV: case VT_INSN_VMAXU_VX: return A > B ? A : B;
  case VT_INSN_VMAX_VV: case VT_INSN_VMAX_VX: return sA > sB ? A : B;
  case VT_INSN_VAND_VV: case VT_INSN_VAND_VX: case VT_INSN_VAND_VI: return A & B;
  case VT_INSN_VOR_VV: case VT_INSN_VOR_VX: case VT_INSN_VOR_VI: return A | B;
  case VT_INSN_VXOR_VV: case VT_INSN_VXOR_VX: case VT_INSN_VXOR_VI: return A ^ B;
  case VT_INSN_VSLL_VV: case VT_INSN_VSLL_VX: case VT_INSN_VSLL_VI: return A << sh;
  case VT_INSN_VSRL_VV: case VT_INSN_VSRL_VX: case VT_INSN_VSRL_VI: return A >> sh;
  case VT_INSN_VSRA_VV: case VT_INSN_VSRA_VX: case VT_INSN_VSRA_VI: return (uint32_t)(sA >> sh);
  /* Ventus: compares write 0/1 as a SEW-wide element (isa.md 3.4) */
  case VT_INSN_VMSEQ_VV: case VT_INSN_VMSEQ_VX: case VT_INSN_VMSEQ_VI: return A == B;
  case VT_INSN_VMSNE_VV: case VT_INSN_VMSNE_VX: case VT_INSN_VMSNE_VI: return A != B;
  case VT_INSN_VMSLTU_VV: case VT_INSN_VMSLTU_VX: return A < B;
  case VT_INSN_VMSLT_VV: case VT_INSN_VMSLT_VX: return sA < sB;
  case VT_INSN_VMSLEU_VV: case VT_INSN_VMSLEU_VX: case VT_INSN_VMSLEU_VI: return A <= B;
  case VT_INSN_VMSLE_VV: case VT_INSN_VMSLE_VX: case VT_INSN_VMSLE_VI: return sA <= sB;
  case VT_INSN_VMSGTU_VX: case VT_INSN_VMSGTU_VI: return A > B;
  case VT_INSN_VMSGT_VX: case VT_INSN_VMSGT_VI: return sA > sB;
  case VT_INSN_VMUL_VV: case VT_INSN_VMUL_VX: return A * B;
  case VT_INSN_VMULH_VV: case VT_INSN_VMULH_VX: return (uint32_t)((sA * sB) >> e);
  case VT_INSN_VMULHU_VV: case VT_INSN_VMULHU_VX: return (uint32_t)(((uint64_t)A * B) >> e);
  case VT_INSN_VMULHSU_VV: case VT_INSN_VMULHSU_VX: return (uint32_t)((sA * (int64_t)B) >> e);
  /* in 64 bits the overflow case (min / -1) gives min after truncation,
   * its remainder 0, as RVV requires */
  case VT_INSN_VDIVU_VV: case VT_INSN_VDIVU_VX: return B == 0 ? ones(e) : A / B;
  case VT_INSN_VDIV_VV: case VT_INSN_VDIV_VX: return B == 0 ? ones(e) : (uint32_t)(sA / sB);
  case VT_INSN_VREMU_VV: case VT_INSN_VREMU_VX: return B == 0 ? A : A % B;
  case VT_INSN_VREM_VV: case VT_INSN_VREM_VX: return B == 0 ? A : (uint32_t)(sA % sB);
  case VT_INSN_VMACC_VV: case VT_INSN_VMACC_VX: return D + B * A;
  case VT_INSN_VNMSAC_VV: case VT_INSN_VNMSAC_VX: return D - B * A;
  case VT_INSN_VMADD_VV: case VT_INSN_VMADD_VX: return B * D + A;
  case VT_INSN_VNMSUB_VV: case VT_INSN_VNMSUB_VX: return A - B * D;
  case VT_INSN_VSADDU_VV: case VT_INSN_VSADDU_VX: case VT_INSN_VSADDU_VI:
    return clip_u(w, (int64_t)A + B, e);
  case VT_INSN_VSADD_VV: case VT_INSN_VSADD_VX: case VT_INSN_VSADD_VI: return clip_s(w, sA + sB, e);
  case VT_INSN_VSSUBU_VV: case VT_INSN_VSSUBU_VX: return clip_u(w, (int64_t)A - B, e);
  case VT_INSN_VSSUB_VV: case VT_INSN_VSSUB_VX: return clip_s(w, sA - sB, e);
  case VT_INSN_VAADDU_VV: case VT_INSN_VAADDU_VX: return vt_avg(rm, (int64_t)A + B);
  case VT_INSN_VAADD_VV: case VT_INSN_VAADD_VX: return vt_avg(rm, sA + sB);
  case VT_INSN_VASUBU_VV: case VT_INSN_VASUBU_VX: return vt_avg(rm, (int64_t)A - B);
  case VT_INSN_VASUB_VV: case VT_INSN_VASUB_VX: return vt_avg(rm, sA - sB);
  case VT_INSN_VSSRL_VV: case VT_INSN_VSSRL_VX: case VT_INSN_VSSRL_VI:
    return (uint32_t)((A >> sh) + vt_round_inc(rm, A, sh));
  case VT_INSN_VSSRA_VV: case VT_INSN_VSSRA_VX: case VT_INSN_VSSRA_VI:
    return (uint32_t)((sA >> sh) + (int64_t)vt_round_inc(rm, (uint64_t)sA, sh));
  case VT_INSN_VSMUL_VV: case VT_INSN_VSMUL_VX: {
    int64_t p = sA * sB;
    return clip_s(w, (p >> (e - 1)) + (int64_t)vt_round_inc(rm, (uint64_t)p, e - 1), e);
  }
  case VT_INSN_VADC_VVM: case VT_INSN_VADC_VXM: case VT_INSN_VADC_VIM: return A + B + c;
  case VT_INSN_VSBC_VVM: case VT_INSN_VSBC_VXM: return A - B - c;
  case VT_INSN_VMV_V_V: case VT_INSN_VMV_V_X: case VT_INSN_VMV_V_I:
  case VT_INSN_VMV_S_X: /* Ventus: same as vmv.v.x (isa.md 3.4) */
    return B;
  case VT_INSN_VID_V: return i;
  case VT_INSN_VZEXT_VF2: case VT_INSN_VZEXT_VF4: return A;
  case VT_INSN_VSEXT_VF2: case VT_INSN_VSEXT_VF4: return (uint32_t)sA;
  /* widening (RVV 11.2, 11.12, 11.14): results 2*SEW wide */
  case VT_INSN_VWADDU_VV: case VT_INSN_VWADDU_VX: return A + B;
  case VT_INSN_VWADD_VV: case VT_INSN_VWADD_VX: return (uint32_t)(sA + sB);
  case VT_INSN_VWSUBU_VV: case VT_INSN_VWSUBU_VX: return A - B;
  case VT_INSN_VWSUB_VV: case VT_INSN_VWSUB_VX: return (uint32_t)(sA - sB);
  case VT_INSN_VWADDU_W_WV: case VT_INSN_VWADDU_W_WX: return A + B;
  case VT_INSN_VWADD_W_WV: case VT_INSN_VWADD_W_WX: return A + (uint32_t)sB;
  case VT_INSN_VWSUBU_W_WV: case VT_INSN_VWSUBU_W_WX: return A - B;
  case VT_INSN_VWSUB_W_WV: case VT_INSN_VWSUB_W_WX: return A - (uint32_t)sB;
  case VT_INSN_VWMULU_VV: case VT_INSN_VWMULU_VX: return (uint32_t)((uint64_t)A * B);
  case VT_INSN_VWMULSU_VV: case VT_INSN_VWMULSU_VX: return (uint32_t)(sA * (int64_t)B);
  case VT_INSN_VWMUL_VV: case VT_INSN_VWMUL_VX: return (uint32_t)(sA * sB);
  /* vd += vs1 * vs2: B is vs1/rs1, A is vs2 */
  case VT_INSN_VWMACCU_VV: case VT_INSN_VWMACCU_VX: return D + (uint32_t)((uint64_t)A * B);
  case VT_INSN_VWMACC_VV: case VT_INSN_VWMACC_VX: return D + (uint32_t)(sA * sB);
  case VT_INSN_VWMACCSU_VV: case VT_INSN_VWMACCSU_VX: return D + (uint32_t)(sB * (int64_t)A);
  case VT_INSN_VWMACCUS_VX: return D + (uint32_t)((int64_t)B * sA);
  /* narrowing (RVV 11.7, 12.5): A is 2*SEW wide, shift by log2(2*SEW) bits */
  case VT_INSN_VNSRL_WV: case VT_INSN_VNSRL_WX: case VT_INSN_VNSRL_WI: return A >> shw;
  case VT_INSN_VNSRA_WV: case VT_INSN_VNSRA_WX: case VT_INSN_VNSRA_WI: return (uint32_t)(sA >> shw);
  case VT_INSN_VNCLIPU_WV: case VT_INSN_VNCLIPU_WX: case VT_INSN_VNCLIPU_WI:
    return clip_u(w, (int64_t)((A >> shw) + vt_round_inc(rm, A, shw)), e);
  case VT_INSN_VNCLIP_WV: case VT_INSN_VNCLIP_WX: case VT_INSN_VNCLIP_WI:
    return clip_s(w, (sA >> shw) + (int64_t)vt_round_inc(rm, (uint64_t)sA, shw), e);
  default: return D; /* not reached: elem_shape lists the same instructions */
  }
}

/* ---------------- the other shapes ---------------- */
static int reduction(vctx *c, vt_insn *in, unsigned e, uint32_t m, vt_error *err) {
  vt_warp *w = c->w;
  bool widen = in->id == VT_INSN_VWREDSUMU_VS || in->id == VT_INSN_VWREDSUM_VS;
  unsigned de = widen ? 2 * e : e;
  uint32_t acc = get(c, in->rs1, 0, de);
  for (unsigned i = 0; i < (unsigned)L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t x = get(c, in->rs2, i, e);
    int64_t sxv = sx(x, e), sacc = sx(acc, e);
    switch (in->id) {
    case VT_INSN_VREDSUM_VS: acc += x; break;
    case VT_INSN_VREDAND_VS: acc &= x; break;
    case VT_INSN_VREDOR_VS: acc |= x; break;
    case VT_INSN_VREDXOR_VS: acc ^= x; break;
    case VT_INSN_VREDMINU_VS: acc = x < acc ? x : acc; break;
    case VT_INSN_VREDMIN_VS: acc = sxv < sacc ? x : acc; break;
    case VT_INSN_VREDMAXU_VS: acc = x > acc ? x : acc; break;
    case VT_INSN_VREDMAX_VS: acc = sxv > sacc ? x : acc; break;
    case VT_INSN_VWREDSUMU_VS: acc += x; break;
    case VT_INSN_VWREDSUM_VS: acc += (uint32_t)sxv; break;
    default:
      vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s",
                 vt_isa_insn((vt_insn_id)in->id)->mnemonic);
      return VT_ERR_ILLEGAL;
    }
    acc &= ones(de);
  }
  if (w->vl > 0) put(c, 0, de, acc);
  return VT_OK;
}

/* slides, gathers, compress: sources read before anything is written */
static int permute(vctx *c, vt_insn *in, unsigned e, uint32_t m, vt_error *err) {
  vt_warp *w = c->w;
  unsigned lmul = w->vtype & 7, per_reg = c->rbytes * 8 / e;
  unsigned vlmax = lmul < 4 ? per_reg << lmul : per_reg >> (8 - lmul);
  uint32_t x = w->x[in->rs1], xs = x & ones(e), uimm = (in->word >> 15) & 31;
  uint32_t out[L], wr = 0;
  if (in->id == VT_INSN_VCOMPRESS_VM) {
    /* no SIMT mask (as at SEW = 32); elements below numt */
    uint32_t sel = w->v[in->rs1][0];
    unsigned k = 0;
    for (unsigned i = 0; i < w->vl && i < (unsigned)L && ((w->lane_limit >> i) & 1); i++)
      if ((sel >> i) & 1) out[k++] = get(c, in->rs2, i, e);
    wr = k >= 32 ? 0xffffffffu : (1u << k) - 1u;
  } else {
    for (unsigned i = 0; i < (unsigned)L; i++) {
      if (!((m >> i) & 1)) continue;
      uint64_t j; /* source element; >= vlmax reads 0 */
      switch (in->id) {
      case VT_INSN_VSLIDEUP_VX: case VT_INSN_VSLIDEUP_VI: {
        uint32_t off = in->id == VT_INSN_VSLIDEUP_VX ? x : uimm;
        if (i < off) continue; /* unchanged */
        j = i - off;
        break;
      }
      case VT_INSN_VSLIDEDOWN_VX: j = (uint64_t)i + x; break;
      case VT_INSN_VSLIDEDOWN_VI: j = (uint64_t)i + uimm; break;
      case VT_INSN_VSLIDE1UP_VX:
        if (i == 0) {
          out[i] = xs;
          wr |= 1u << i;
          continue;
        }
        j = i - 1;
        break;
      case VT_INSN_VSLIDE1DOWN_VX:
        if (i + 1 == w->vl) {
          out[i] = xs;
          wr |= 1u << i;
          continue;
        }
        j = i + 1;
        break;
      case VT_INSN_VRGATHER_VV: j = get(c, in->rs1, i, e); break;
      case VT_INSN_VRGATHEREI16_VV: j = get(c, in->rs1, i, 16); break;
      case VT_INSN_VRGATHER_VX: j = x; break;
      case VT_INSN_VRGATHER_VI: j = uimm; break;
      default:
        vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s",
                   vt_isa_insn((vt_insn_id)in->id)->mnemonic);
        return VT_ERR_ILLEGAL;
      }
      out[i] = j < vlmax ? get(c, in->rs2, (unsigned)j, e) : 0;
      wr |= 1u << i;
    }
  }
  for (unsigned i = 0; i < (unsigned)L; i++)
    if ((wr >> i) & 1) put(c, i, e, out[i]);
  return VT_OK;
}

static bool is_fp(unsigned id, const char *mn) {
  return (mn[0] == 'v' && mn[1] == 'f' && id != VT_INSN_VFIRST_M) || strncmp(mn, "vmf", 3) == 0;
}

int vt_exec_vector_sew(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, uint32_t rmask,
                       vt_error *err) {
  const vt_insn_desc *desc = vt_isa_insn((vt_insn_id)in->id);
  const unsigned e = 8u << ((w->vtype >> 3) & 7), lmul = w->vtype & 7;
  if (is_fp(in->id, desc->mnemonic)) /* binary16 and the FP converts (exec_vector_fp16.c) */
    return vt_exec_vector_fp16(dev, w, in, m, rmask, err);
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit);
  vctx c = {w, 4 * numt, in->rd, {0}};
  uint32_t v0 = w->v[0][0];
  int rc = VT_OK;

  switch (in->id) {
  case VT_INSN_VMV_X_S: {
    /* highest active element wins (isa.md 3.4), sign-extended from SEW */
    if (m) write_x(dev, w, in->rd, sext(get(&c, in->rs2, 31u - (unsigned)__builtin_clz(m), e), e));
    return VT_OK;
  }
  case VT_INSN_VMADC_VVM: case VT_INSN_VMADC_VXM: case VT_INSN_VMADC_VIM:
  case VT_INSN_VMADC_VV: case VT_INSN_VMADC_VX: case VT_INSN_VMADC_VI:
  case VT_INSN_VMSBC_VVM: case VT_INSN_VMSBC_VXM: case VT_INSN_VMSBC_VV: case VT_INSN_VMSBC_VX: {
    /* carry/borrow out of SEW bits as packed mask bits (isa.md 3.4) */
    bool use_c = !in->vm, sub = in->id >= VT_INSN_VMSBC_VVM && in->id <= VT_INSN_VMSBC_VX;
    unsigned f3 = (in->word >> 12) & 7;
    uint32_t bs = (f3 == 3 ? (uint32_t)in->vimm : w->x[in->rs1]) & ones(e);
    uint32_t mm = w->mask & rmask, out = w->v[in->rd][0];
    for (unsigned i = 0; i < (unsigned)L; i++) {
      if (!((mm >> i) & 1)) continue;
      uint64_t a = get(&c, in->rs2, i, e), b = f3 == 0 ? get(&c, in->rs1, i, e) : bs;
      uint64_t ci = use_c ? (v0 >> i) & 1 : 0;
      uint64_t r = sub ? a - b - ci : a + b + ci;
      out = (out & ~(1u << i)) | ((uint32_t)((r >> e) & 1) << i);
    }
    w->v[in->rd][0] = out;
    trace_v(dev, w, in->rd, 1);
    return VT_OK;
  }
  case VT_INSN_VMERGE_VVM: case VT_INSN_VMERGE_VXM: case VT_INSN_VMERGE_VIM: {
    /* merges ignore the SIMT mask (isa.md 1.4) */
    unsigned f3 = (in->word >> 12) & 7;
    uint32_t bs = (f3 == 3 ? (uint32_t)in->vimm : w->x[in->rs1]) & ones(e), out[L];
    for (unsigned i = 0; i < (unsigned)L; i++)
      if ((rmask >> i) & 1)
        out[i] = ((v0 >> i) & 1) ? (f3 == 0 ? get(&c, in->rs1, i, e) : bs) : get(&c, in->rs2, i, e);
    for (unsigned i = 0; i < (unsigned)L; i++)
      if ((rmask >> i) & 1) put(&c, i, e, out[i]);
    trace_group(dev, &c);
    return VT_OK;
  }
  case VT_INSN_VIOTA_M: {
    uint32_t src = w->v[in->rs2][0], count = 0;
    for (unsigned i = 0; i < (unsigned)L; i++)
      if ((m >> i) & 1) {
        put(&c, i, e, count);
        count += (src >> i) & 1;
      }
    trace_group(dev, &c);
    return VT_OK;
  }
  case VT_INSN_VZEXT_VF8: case VT_INSN_VSEXT_VF8:
    return illegal(err, desc->mnemonic, "needs SEW = 64 (ELEN is 32)", e);
  case VT_INSN_VZEXT_VF4: case VT_INSN_VSEXT_VF4:
    return illegal(err, desc->mnemonic, "the source would be narrower than 8 bits", e);
  case VT_INSN_VZEXT_VF2: case VT_INSN_VSEXT_VF2:
    if (e == 8) return illegal(err, desc->mnemonic, "the source would be narrower than 8 bits", e);
    break;
  default: break;
  }

  if (desc->exec_class == VT_EX_VPERM) {
    bool red = strstr(desc->mnemonic, "red") != NULL;
    rc = red ? reduction(&c, in, e, m, err) : permute(&c, in, e, m, err);
    /* a reduction with vl = 0 writes nothing (no record, as at SEW = 32) */
    if (rc == VT_OK && (!red || c.touched[0])) trace_group(dev, &c);
    return rc;
  }

  shape s;
  if (!elem_shape(in->id, e, &s)) {
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s at SEW = %u", desc->mnemonic, e);
    return VT_ERR_ILLEGAL;
  }
  if ((s.ae > e || s.de > e) && lmul == 3)
    return illegal(err, desc->mnemonic, "LMUL = 8 would make the wide operand 16 registers", e);

  unsigned f3 = (in->word >> 12) & 7;
  bool vsrc = f3 <= 2;
  uint32_t bs = (f3 == 3 ? (uint32_t)in->vimm : w->x[in->rs1]) & ones(s.be);
  /* vadc/vsbc (vm = 0) read v0 as carries, not as a mask */
  bool carry = in->id == VT_INSN_VADC_VVM || in->id == VT_INSN_VADC_VXM ||
               in->id == VT_INSN_VADC_VIM || in->id == VT_INSN_VSBC_VVM || in->id == VT_INSN_VSBC_VXM;
  if (carry) m = w->mask & rmask;
  uint32_t out[L];
  for (unsigned i = 0; i < (unsigned)L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t A = get(&c, in->rs2, i, s.ae), B = vsrc ? get(&c, in->rs1, i, s.be) : bs;
    uint32_t D = get(&c, in->rd, i, s.de);
    out[i] = elem_op(w, in->id, e, &s, i, A, B, D, (v0 >> i) & 1);
  }
  for (unsigned i = 0; i < (unsigned)L; i++)
    if ((m >> i) & 1) put(&c, i, s.de, out[i]);
  trace_group(dev, &c);
  return VT_OK;
}
