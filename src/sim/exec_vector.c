/* RVV instructions with the Ventus per-lane model (isa.md 1.4, 3): element i
 * of vN is lane i's register; lanes run when their SIMT-mask bit is set
 * (and v0 bit when vm = 0) and vstart <= i < vl. This file runs SEW = 32
 * (what the compiler emits); integer arithmetic at SEW 8/16 goes to the
 * generic element path of exec_vector_sew.c (docs/decisions.md).
 * Integer lane loops are written as full-width blends over 32 lanes so that
 * the compiler vectorises them. */
#include "csr.h"
#include "exec_util.h"
#include "exec_vector_sew.h"
#include "fp/fp32.h"

#define L VT_MAX_LANES

static int unsupported(vt_error *err, const char *what) {
  vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction: %s", what);
  return VT_ERR_ILLEGAL;
}

static unsigned vsew(const vt_warp *w) { return 8u << ((w->vtype >> 3) & 7); }

static int vset(vt_device *dev, vt_warp *w, vt_insn *in) {
  uint32_t vtype, avl;
  unsigned rs1_field = (in->word >> 15) & 31, rd_field = (in->word >> 7) & 31;
  switch (in->id) {
  case VT_INSN_VSETVLI: vtype = (uint32_t)in->imm & 0x7ff; break;
  case VT_INSN_VSETIVLI: vtype = (in->word >> 20) & 0x3ff; break;
  default: vtype = w->x[in->rs2]; break;
  }
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit);
  unsigned vlen = 32 * numt;
  unsigned lmul = vtype & 7, sewc = (vtype >> 3) & 7;
  bool vill = (vtype >> 8) != 0 || sewc > 2 || lmul == 4;
  unsigned vlmax = 0;
  if (!vill) {
    unsigned sew = 8u << sewc;
    if (lmul < 4)
      vlmax = (vlen / sew) << lmul;
    else {
      unsigned shift = 8 - lmul; /* mf2 = 1, mf4 = 2, mf8 = 3 */
      if (sew > (32u >> shift)) vill = true; /* SEW > LMUL * ELEN */
      vlmax = (vlen / sew) >> shift;
    }
  }
  if (in->id == VT_INSN_VSETIVLI)
    avl = rs1_field;
  else if (rs1_field != 0)
    avl = w->x[in->rs1];
  else
    avl = rd_field != 0 ? 0xffffffffu : w->vl;
  if (vill) {
    w->vill = true;
    w->vtype = 0;
    w->vl = 0;
  } else {
    w->vill = false;
    w->vtype = vtype;
    w->vl = avl < vlmax ? avl : vlmax;
  }
  w->vstart = 0;
  write_x(dev, w, in->rd, w->vl);
  trace_csr(dev, 0xc20, w->vl);
  trace_csr(dev, 0xc21, w->vill ? 0x80000000u : w->vtype);
  return VT_OK;
}

/* lanes in [vstart, vl) */
static uint32_t range_mask(const vt_warp *w) {
  uint32_t hi = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t lo = w->vstart >= 32 ? 0xffffffffu : ((1u << w->vstart) - 1u);
  return hi & ~lo & w->lane_limit;
}
static uint32_t v0_bits(const vt_warp *w) { return w->v[0][0]; }

static void expand(uint32_t m, uint32_t lm[L]) {
  for (int i = 0; i < L; i++) lm[i] = 0u - ((m >> i) & 1u);
}

/* ---------------- memory ---------------- */
static unsigned eew_of_width(unsigned width) {
  switch (width) {
  case 0: return 8;
  case 5: return 16;
  case 6: return 32;
  default: return 64;
  }
}

static uint32_t elem_get(const vt_warp *w, unsigned reg, unsigned i, unsigned eew) {
  if (eew == 32) return w->v[reg][i];
  const uint8_t *b = (const uint8_t *)w->v[reg];
  unsigned o = i * (eew / 8);
  return eew == 8 ? b[o] : (uint32_t)b[o] | (uint32_t)b[o + 1] << 8;
}
static void elem_set(vt_warp *w, unsigned reg, unsigned i, unsigned eew, uint32_t v) {
  if (eew == 32) {
    w->v[reg][i] = v;
    return;
  }
  uint8_t *b = (uint8_t *)w->v[reg];
  unsigned o = i * (eew / 8);
  b[o] = (uint8_t)v;
  if (eew == 16) b[o + 1] = (uint8_t)(v >> 8);
}

static int vmem(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  unsigned width = (in->word >> 12) & 7, mop = (in->word >> 26) & 3;
  unsigned lumop = (in->word >> 20) & 31, nf = (in->word >> 29) & 7;
  bool store = (in->word & 0x7f) == 0x27;
  unsigned eew = eew_of_width(width);
  unsigned reg = store ? in->vs3 : in->rd;
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit);
  uint32_t base = w->x[in->rs1];

  if (mop == 0 && lumop == 8) { /* whole registers */
    unsigned nregs = nf + 1, bytes = 4 * numt;
    for (unsigned r = 0; r < nregs; r++) {
      if (reg + r >= VT_NUM_VREGS) break;
      uint8_t *vb = (uint8_t *)w->v[reg + r];
      for (unsigned k = 0; k < bytes; k += 4) {
        uint32_t addr = base + r * bytes + k;
        uint8_t *p = vt_sim_access(dev, w, addr, 4, store, err);
        if (!p) return err->status;
        if (store) {
          memcpy(p, vb + k, 4);
          trace_mem(dev, addr, load_le(p, 4), 4, true, k / 4);
        } else {
          memcpy(vb + k, p, 4);
          trace_mem(dev, addr, load_le(p, 4), 4, false, k / 4);
        }
      }
      if (!store) trace_v(dev, w, reg + r, w->lane_limit);
    }
    return VT_OK;
  }
  if (mop == 0 && lumop == 11) { /* vlm.v / vsm.v: ceil(vl/8) bytes */
    unsigned n = (w->vl + 7) / 8;
    uint8_t *vb = (uint8_t *)w->v[reg];
    for (unsigned k = 0; k < n; k++) {
      uint8_t *p = vt_sim_access(dev, w, base + k, 1, store, err);
      if (!p) return err->status;
      if (store) *p = vb[k]; else vb[k] = *p;
      trace_mem(dev, base + k, *p, 1, store, k);
    }
    if (!store) trace_v(dev, w, reg, w->lane_limit);
    return VT_OK;
  }
  uint32_t m = w->mask & range_mask(w) & (in->vm ? 0xffffffffu : v0_bits(w));
  unsigned sew = vsew(w);
  bool indexed = mop == 1 || mop == 3;
  unsigned data_bits = indexed ? sew : eew;
  if (data_bits > 32) return unsupported(err, "64-bit vector elements (ELEN = 32)");
  for (unsigned i = 0; i < (unsigned)L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t addr;
    if (mop == 0)
      addr = base + i * (eew / 8);
    else if (mop == 2)
      addr = base + i * w->x[in->rs2];
    else
      addr = base + elem_get(w, in->rs2, i, eew);
    unsigned size = data_bits / 8;
    uint8_t *p = vt_sim_access(dev, w, addr, size, store, err);
    if (!p) {
      if (!store && mop == 0 && lumop == 16 && i > 0) { /* fault-only-first */
        w->vl = i;
        break;
      }
      return err->status;
    }
    if (store) {
      uint32_t v = elem_get(w, reg, i, data_bits);
      store_le(p, v, size);
      trace_mem(dev, addr, v, size, true, i);
    } else {
      uint32_t v = load_le(p, size);
      elem_set(w, reg, i, data_bits, v);
      trace_mem(dev, addr, v, size, false, i);
    }
  }
  if (!store) trace_v(dev, w, reg, m);
  return VT_OK;
}

/* ---------------- integer helpers ---------------- */
static uint32_t sat_addu(vt_warp *w, uint32_t a, uint32_t b) {
  uint32_t r = a + b;
  if (r < a) { w->vxsat = 1; return 0xffffffffu; }
  return r;
}
static uint32_t sat_add(vt_warp *w, uint32_t a, uint32_t b) {
  int64_t r = (int64_t)(int32_t)a + (int32_t)b;
  if (r > INT32_MAX) { w->vxsat = 1; return 0x7fffffffu; }
  if (r < INT32_MIN) { w->vxsat = 1; return 0x80000000u; }
  return (uint32_t)r;
}
static uint32_t sat_subu(vt_warp *w, uint32_t a, uint32_t b) {
  if (b > a) { w->vxsat = 1; return 0; }
  return a - b;
}
static uint32_t sat_sub(vt_warp *w, uint32_t a, uint32_t b) {
  int64_t r = (int64_t)(int32_t)a - (int32_t)b;
  if (r > INT32_MAX) { w->vxsat = 1; return 0x7fffffffu; }
  if (r < INT32_MIN) { w->vxsat = 1; return 0x80000000u; }
  return (uint32_t)r;
}
static uint32_t sdiv(uint32_t a, uint32_t b) {
  if (b == 0) return 0xffffffffu;
  if (a == 0x80000000u && b == 0xffffffffu) return a;
  return (uint32_t)((int32_t)a / (int32_t)b);
}
static uint32_t srem(uint32_t a, uint32_t b) {
  if (b == 0) return a;
  if (a == 0x80000000u && b == 0xffffffffu) return 0;
  return (uint32_t)((int32_t)a % (int32_t)b);
}

/* blend result into vd on the lanes of lm */
#define BLEND(EXPR)                                            \
  do {                                                         \
    for (int i = 0; i < L; i++) {                              \
      uint32_t A = a[i], B = b[i], D = d[i];                   \
      (void)A, (void)B, (void)D;                               \
      uint32_t R_ = (EXPR);                                    \
      d[i] = (R_ & lm[i]) | (D & ~lm[i]);                      \
    }                                                          \
  } while (0)

/* lanes one by one (non-vectorisable or side effects) */
#define EACH(EXPR)                                             \
  do {                                                         \
    for (int i = 0; i < L; i++) {                              \
      if (!((m >> i) & 1)) continue;                           \
      uint32_t A = a[i], B = b[i], D = d[i];                   \
      (void)A, (void)B, (void)D;                               \
      d[i] = (EXPR);                                           \
    }                                                          \
  } while (0)

/* widening/narrowing at SEW = 32 would need 64-bit elements */
static int wide_at_sew32(vt_error *err, const vt_insn *in) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s needs SEW < 32 (ELEN is 32), not supported",
             vt_isa_insn((vt_insn_id)in->id)->mnemonic);
  return VT_ERR_ILLEGAL;
}

static int fp_lanes(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, const uint32_t *a,
                    const uint32_t *b, uint32_t *d, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return VT_ERR_ILLEGAL;
  }
  int rm = (int)w->frm;
  if (rm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: frm = %d", rm);
    return VT_ERR_ILLEGAL;
  }
  unsigned fl = 0;
  const uint32_t S = 0x80000000u;
  switch (in->id) {
  case VT_INSN_VFADD_VV: case VT_INSN_VFADD_VF: EACH(vt_f32_add(A, B, rm, &fl)); break;
  case VT_INSN_VFSUB_VV: case VT_INSN_VFSUB_VF: EACH(vt_f32_sub(A, B, rm, &fl)); break;
  case VT_INSN_VFRSUB_VF: EACH(vt_f32_sub(B, A, rm, &fl)); break;
  case VT_INSN_VFMUL_VV: case VT_INSN_VFMUL_VF: EACH(vt_f32_mul(A, B, rm, &fl)); break;
  case VT_INSN_VFDIV_VV: case VT_INSN_VFDIV_VF: EACH(vt_f32_div(A, B, rm, &fl)); break;
  case VT_INSN_VFRDIV_VF: EACH(vt_f32_div(B, A, rm, &fl)); break;
  case VT_INSN_VFMIN_VV: case VT_INSN_VFMIN_VF: EACH(vt_f32_min(A, B, &fl)); break;
  case VT_INSN_VFMAX_VV: case VT_INSN_VFMAX_VF: EACH(vt_f32_max(A, B, &fl)); break;
  case VT_INSN_VFSGNJ_VV: case VT_INSN_VFSGNJ_VF: EACH(vt_f32_sgnj(A, B)); break;
  case VT_INSN_VFSGNJN_VV: case VT_INSN_VFSGNJN_VF: EACH(vt_f32_sgnjn(A, B)); break;
  case VT_INSN_VFSGNJX_VV: case VT_INSN_VFSGNJX_VF: EACH(vt_f32_sgnjx(A, B)); break;
  /* multiply-add: A = vs2, B = vs1/rs1, D = vd */
  case VT_INSN_VFMACC_VV: case VT_INSN_VFMACC_VF: EACH(vt_f32_fma(B, A, D, rm, &fl)); break;
  case VT_INSN_VFNMACC_VV: case VT_INSN_VFNMACC_VF: EACH(vt_f32_fma(B ^ S, A, D ^ S, rm, &fl)); break;
  case VT_INSN_VFMSAC_VV: case VT_INSN_VFMSAC_VF: EACH(vt_f32_fma(B, A, D ^ S, rm, &fl)); break;
  case VT_INSN_VFNMSAC_VV: case VT_INSN_VFNMSAC_VF: EACH(vt_f32_fma(B ^ S, A, D, rm, &fl)); break;
  case VT_INSN_VFMADD_VV: case VT_INSN_VFMADD_VF: EACH(vt_f32_fma(B, D, A, rm, &fl)); break;
  case VT_INSN_VFNMADD_VV: case VT_INSN_VFNMADD_VF: EACH(vt_f32_fma(B ^ S, D, A ^ S, rm, &fl)); break;
  case VT_INSN_VFMSUB_VV: case VT_INSN_VFMSUB_VF: EACH(vt_f32_fma(B, D, A ^ S, rm, &fl)); break;
  case VT_INSN_VFNMSUB_VV: case VT_INSN_VFNMSUB_VF: EACH(vt_f32_fma(B ^ S, D, A, rm, &fl)); break;
  case VT_INSN_VMFEQ_VV: case VT_INSN_VMFEQ_VF: EACH(vt_f32_eq(A, B, &fl)); break;
  case VT_INSN_VMFNE_VV: case VT_INSN_VMFNE_VF: EACH(!vt_f32_eq(A, B, &fl)); break;
  case VT_INSN_VMFLT_VV: case VT_INSN_VMFLT_VF: EACH(vt_f32_lt(A, B, &fl)); break;
  case VT_INSN_VMFLE_VV: case VT_INSN_VMFLE_VF: EACH(vt_f32_le(A, B, &fl)); break;
  case VT_INSN_VMFGT_VF: EACH(vt_f32_lt(B, A, &fl)); break;
  case VT_INSN_VMFGE_VF: EACH(vt_f32_le(B, A, &fl)); break;
  case VT_INSN_VFSQRT_V: EACH(vt_f32_sqrt(A, rm, &fl)); break;
  case VT_INSN_VFREC7_V: EACH(vt_f32_rec7(A, rm, &fl)); break;
  case VT_INSN_VFRSQRT7_V: EACH(vt_f32_rsqrt7(A, &fl)); break;
  case VT_INSN_VFCLASS_V: EACH(vt_f32_classify(A)); break;
  case VT_INSN_VFCVT_XU_F_V: EACH(vt_f32_to_u32(A, rm, &fl)); break;
  case VT_INSN_VFCVT_X_F_V: EACH(vt_f32_to_i32(A, rm, &fl)); break;
  case VT_INSN_VFCVT_RTZ_XU_F_V: EACH(vt_f32_to_u32(A, 1, &fl)); break;
  case VT_INSN_VFCVT_RTZ_X_F_V: EACH(vt_f32_to_i32(A, 1, &fl)); break;
  case VT_INSN_VFCVT_F_XU_V: EACH(vt_u32_to_f32(A, rm, &fl)); break;
  case VT_INSN_VFCVT_F_X_V: EACH(vt_i32_to_f32(A, rm, &fl)); break;
  default: {
    const char *mn = vt_isa_insn((vt_insn_id)in->id)->mnemonic;
    if (strncmp(mn, "vfw", 3) == 0 || strncmp(mn, "vfncvt", 6) == 0) return wide_at_sew32(err, in);
    return unsupported(err, mn);
  }
  }
  if (fl) {
    w->fflags |= fl;
    trace_csr(dev, 0x001, w->fflags);
  }
  return VT_OK;
}

static int reduction(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, vt_error *err) {
  const uint32_t *a = w->v[in->rs2];
  uint32_t acc = w->v[in->rs1][0];
  unsigned fl = 0;
  bool fp = in->id == VT_INSN_VFREDUSUM_VS || in->id == VT_INSN_VFREDOSUM_VS ||
            in->id == VT_INSN_VFREDMIN_VS || in->id == VT_INSN_VFREDMAX_VS;
  if (fp && (w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return VT_ERR_ILLEGAL;
  }
  int rm = (int)w->frm;
  if (fp && rm > 4) return unsupported(err, "frm > 4");
  for (int i = 0; i < L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t x = a[i];
    switch (in->id) {
    case VT_INSN_VREDSUM_VS: acc += x; break;
    case VT_INSN_VREDAND_VS: acc &= x; break;
    case VT_INSN_VREDOR_VS: acc |= x; break;
    case VT_INSN_VREDXOR_VS: acc ^= x; break;
    case VT_INSN_VREDMINU_VS: acc = x < acc ? x : acc; break;
    case VT_INSN_VREDMIN_VS: acc = (int32_t)x < (int32_t)acc ? x : acc; break;
    case VT_INSN_VREDMAXU_VS: acc = x > acc ? x : acc; break;
    case VT_INSN_VREDMAX_VS: acc = (int32_t)x > (int32_t)acc ? x : acc; break;
    case VT_INSN_VFREDUSUM_VS: case VT_INSN_VFREDOSUM_VS: acc = vt_f32_add(acc, x, rm, &fl); break;
    case VT_INSN_VFREDMIN_VS: acc = vt_f32_min(acc, x, &fl); break;
    case VT_INSN_VFREDMAX_VS: acc = vt_f32_max(acc, x, &fl); break;
    case VT_INSN_VWREDSUMU_VS: case VT_INSN_VWREDSUM_VS:
    case VT_INSN_VFWREDUSUM_VS: case VT_INSN_VFWREDOSUM_VS:
      return wide_at_sew32(err, in);
    default: return unsupported(err, vt_isa_insn((vt_insn_id)in->id)->mnemonic);
    }
  }
  if (fl) {
    w->fflags |= fl;
    trace_csr(dev, 0x001, w->fflags);
  }
  if (w->vl > 0) {
    w->v[in->rd][0] = acc;
    trace_v(dev, w, in->rd, 1);
  }
  return VT_OK;
}

/* lane-crossing permutations: read a snapshot of the sources */
static int permute(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, vt_error *err) {
  uint32_t src[L], idx[L], out[L];
  memcpy(src, w->v[in->rs2], sizeof src);
  memcpy(idx, w->v[in->rs1], sizeof idx);
  memcpy(out, w->v[in->rd], sizeof out);
  unsigned numt = (unsigned)vt_popcount32(w->lane_limit);
  unsigned vlmax = numt;
  uint32_t x = w->x[in->rs1];
  uint32_t uimm = (in->word >> 15) & 31;
  for (unsigned i = 0; i < (unsigned)L; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t off;
    switch (in->id) {
    case VT_INSN_VSLIDEUP_VX: case VT_INSN_VSLIDEUP_VI:
      off = in->id == VT_INSN_VSLIDEUP_VX ? x : uimm;
      if (i >= off) out[i] = src[i - off];
      break;
    case VT_INSN_VSLIDEDOWN_VX: case VT_INSN_VSLIDEDOWN_VI:
      off = in->id == VT_INSN_VSLIDEDOWN_VX ? x : uimm;
      out[i] = (uint64_t)i + off < vlmax ? src[i + off] : 0;
      break;
    case VT_INSN_VSLIDE1UP_VX: case VT_INSN_VFSLIDE1UP_VF:
      out[i] = i == 0 ? w->x[in->id == VT_INSN_VFSLIDE1UP_VF ? ((in->word >> 15) & 31) : in->rs1]
                      : src[i - 1];
      break;
    case VT_INSN_VSLIDE1DOWN_VX: case VT_INSN_VFSLIDE1DOWN_VF:
      out[i] = i + 1 == w->vl
                   ? w->x[in->id == VT_INSN_VFSLIDE1DOWN_VF ? ((in->word >> 15) & 31) : in->rs1]
                   : (i + 1 < (unsigned)L ? src[i + 1] : 0);
      break;
    case VT_INSN_VRGATHER_VV: out[i] = idx[i] < vlmax ? src[idx[i]] : 0; break;
    case VT_INSN_VRGATHER_VX: out[i] = x < vlmax ? src[x] : 0; break;
    case VT_INSN_VRGATHER_VI: out[i] = uimm < vlmax ? src[uimm] : 0; break;
    case VT_INSN_VRGATHEREI16_VV: {
      uint32_t k = elem_get(w, in->rs1, i, 16);
      out[i] = k < vlmax ? src[k] : 0;
      break;
    }
    default: return unsupported(err, vt_isa_insn((vt_insn_id)in->id)->mnemonic);
    }
  }
  memcpy(w->v[in->rd], out, sizeof out);
  trace_v(dev, w, in->rd, m);
  return VT_OK;
}

static int mask_ops(vt_device *dev, vt_warp *w, vt_insn *in, uint32_t m, vt_error *err) {
  uint32_t vlbits = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t a = w->v[in->rs2][0], b = w->v[in->rs1][0], r;
  switch (in->id) {
  case VT_INSN_VMAND_MM: r = a & b; break;
  case VT_INSN_VMNAND_MM: r = ~(a & b); break;
  case VT_INSN_VMANDN_MM: r = a & ~b; break;
  case VT_INSN_VMXOR_MM: r = a ^ b; break;
  case VT_INSN_VMOR_MM: r = a | b; break;
  case VT_INSN_VMNOR_MM: r = ~(a | b); break;
  case VT_INSN_VMORN_MM: r = a | ~b; break;
  case VT_INSN_VMXNOR_MM: r = ~(a ^ b); break;
  case VT_INSN_VCPOP_M:
    write_x(dev, w, in->rd, (uint32_t)vt_popcount32(a & m));
    return VT_OK;
  case VT_INSN_VFIRST_M: {
    uint32_t s = a & m;
    write_x(dev, w, in->rd, s ? (uint32_t)__builtin_ctz(s) : 0xffffffffu);
    return VT_OK;
  }
  case VT_INSN_VMSBF_M: case VT_INSN_VMSIF_M: case VT_INSN_VMSOF_M: {
    uint32_t s = a & m, first = s & (0u - s);
    if (in->id == VT_INSN_VMSBF_M) r = s ? first - 1 : 0xffffffffu;
    else if (in->id == VT_INSN_VMSIF_M) r = s ? (first - 1) | first : 0xffffffffu;
    else r = first;
    r = (r & m) | (w->v[in->rd][0] & ~m);
    vlbits = m | ~vlbits; /* inactive lanes keep their bits */
    break;
  }
  case VT_INSN_VIOTA_M: {
    uint32_t count = 0;
    for (int i = 0; i < L; i++)
      if ((m >> i) & 1) {
        w->v[in->rd][i] = count;
        count += (a >> i) & 1;
      }
    trace_v(dev, w, in->rd, m);
    return VT_OK;
  }
  default: return unsupported(err, vt_isa_insn((vt_insn_id)in->id)->mnemonic);
  }
  w->v[in->rd][0] = (r & vlbits) | (w->v[in->rd][0] & ~vlbits);
  trace_v(dev, w, in->rd, 1);
  return VT_OK;
}

static bool sew_independent(unsigned id, const vt_insn_desc *desc) {
  return (desc->exec_class == VT_EX_VMASK && id != VT_INSN_VIOTA_M) || id == VT_INSN_VMV1R_V ||
         id == VT_INSN_VMV2R_V || id == VT_INSN_VMV4R_V || id == VT_INSN_VMV8R_V;
}

int vt_exec_vector(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  if ((w->mstatus & 0x600u) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: vector unit off (mstatus.VS)");
    return VT_ERR_ILLEGAL;
  }
  if (in->id == VT_INSN_VSETVLI || in->id == VT_INSN_VSETIVLI || in->id == VT_INSN_VSETVL)
    return vset(dev, w, in);
  if (w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector instruction while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  const vt_insn_desc *desc = vt_isa_insn((vt_insn_id)in->id);
  int rc = VT_OK;
  uint32_t rmask = range_mask(w);
  uint32_t m = w->mask & rmask & (in->vm ? 0xffffffffu : v0_bits(w));

  if (desc->exec_class == VT_EX_VLOAD || desc->exec_class == VT_EX_VSTORE) {
    rc = vmem(dev, w, in, err);
    w->vstart = 0;
    return rc;
  }
  /* SEW 8/16: the generic element path (exec_vector_sew.c); mask-register
   * operations and whole-register moves do not depend on SEW */
  if (vsew(w) != 32 && !sew_independent(in->id, desc)) {
    rc = vt_exec_vector_sew(dev, w, in, m, rmask, err);
    if (rc == VT_OK) w->vstart = 0;
    return rc;
  }

  unsigned f3 = (in->word >> 12) & 7;
  uint32_t bb[L];
  const uint32_t *a = w->v[in->rs2], *b;
  uint32_t *d = w->v[in->rd];
  if (f3 == 0 || f3 == 1 || f3 == 2) {
    b = w->v[in->rs1];
  } else {
    uint32_t s;
    if (f3 == 3) {
      /* simm5 (or regexti's imm11); unsigned forms use the raw field */
      s = (uint32_t)in->vimm;
    } else if (f3 == 5) {
      s = w->x[(in->word >> 15) & 31]; /* .vf scalar: never extended (isa.md 2.6) */
    } else {
      s = w->x[in->rs1];
    }
    for (int i = 0; i < L; i++) bb[i] = s;
    b = bb;
  }
  uint32_t lm[L];
  expand(m, lm);
  uint32_t written = m;

  switch (in->id) {
  case VT_INSN_VADD_VV: case VT_INSN_VADD_VX: case VT_INSN_VADD_VI: BLEND(A + B); break;
  case VT_INSN_VSUB_VV: case VT_INSN_VSUB_VX: BLEND(A - B); break;
  case VT_INSN_VRSUB_VX: case VT_INSN_VRSUB_VI: BLEND(B - A); break;
  case VT_INSN_VMINU_VV: case VT_INSN_VMINU_VX: BLEND(A < B ? A : B); break;
  case VT_INSN_VMIN_VV: case VT_INSN_VMIN_VX: BLEND((int32_t)A < (int32_t)B ? A : B); break;
  case VT_INSN_VMAXU_VV: case VT_INSN_VMAXU_VX: BLEND(A > B ? A : B); break;
  case VT_INSN_VMAX_VV: case VT_INSN_VMAX_VX: BLEND((int32_t)A > (int32_t)B ? A : B); break;
  case VT_INSN_VAND_VV: case VT_INSN_VAND_VX: case VT_INSN_VAND_VI: BLEND(A & B); break;
  case VT_INSN_VOR_VV: case VT_INSN_VOR_VX: case VT_INSN_VOR_VI: BLEND(A | B); break;
  case VT_INSN_VXOR_VV: case VT_INSN_VXOR_VX: case VT_INSN_VXOR_VI: BLEND(A ^ B); break;
  case VT_INSN_VSLL_VV: case VT_INSN_VSLL_VX: case VT_INSN_VSLL_VI: BLEND(A << (B & 31)); break;
  case VT_INSN_VSRL_VV: case VT_INSN_VSRL_VX: case VT_INSN_VSRL_VI: BLEND(A >> (B & 31)); break;
  case VT_INSN_VSRA_VV: case VT_INSN_VSRA_VX: case VT_INSN_VSRA_VI:
    BLEND((uint32_t)((int32_t)A >> (B & 31)));
    break;
  /* Ventus: compares write 0/1 per lane (isa.md 3.4) */
  case VT_INSN_VMSEQ_VV: case VT_INSN_VMSEQ_VX: case VT_INSN_VMSEQ_VI: BLEND(A == B); break;
  case VT_INSN_VMSNE_VV: case VT_INSN_VMSNE_VX: case VT_INSN_VMSNE_VI: BLEND(A != B); break;
  case VT_INSN_VMSLTU_VV: case VT_INSN_VMSLTU_VX: BLEND(A < B); break;
  case VT_INSN_VMSLT_VV: case VT_INSN_VMSLT_VX: BLEND((int32_t)A < (int32_t)B); break;
  case VT_INSN_VMSLEU_VV: case VT_INSN_VMSLEU_VX: case VT_INSN_VMSLEU_VI: BLEND(A <= B); break;
  case VT_INSN_VMSLE_VV: case VT_INSN_VMSLE_VX: case VT_INSN_VMSLE_VI:
    BLEND((int32_t)A <= (int32_t)B);
    break;
  case VT_INSN_VMSGTU_VX: case VT_INSN_VMSGTU_VI: BLEND(A > B); break;
  case VT_INSN_VMSGT_VX: case VT_INSN_VMSGT_VI: BLEND((int32_t)A > (int32_t)B); break;
  case VT_INSN_VMUL_VV: case VT_INSN_VMUL_VX: BLEND(A * B); break;
  case VT_INSN_VMULH_VV: case VT_INSN_VMULH_VX:
    BLEND((uint32_t)(((int64_t)(int32_t)A * (int32_t)B) >> 32));
    break;
  case VT_INSN_VMULHU_VV: case VT_INSN_VMULHU_VX: BLEND((uint32_t)(((uint64_t)A * B) >> 32)); break;
  case VT_INSN_VMULHSU_VV: case VT_INSN_VMULHSU_VX:
    BLEND((uint32_t)(((int64_t)(int32_t)A * (int64_t)(uint64_t)B) >> 32));
    break;
  case VT_INSN_VDIVU_VV: case VT_INSN_VDIVU_VX: EACH(B == 0 ? 0xffffffffu : A / B); break;
  case VT_INSN_VDIV_VV: case VT_INSN_VDIV_VX: EACH(sdiv(A, B)); break;
  case VT_INSN_VREMU_VV: case VT_INSN_VREMU_VX: EACH(B == 0 ? A : A % B); break;
  case VT_INSN_VREM_VV: case VT_INSN_VREM_VX: EACH(srem(A, B)); break;
  case VT_INSN_VMACC_VV: case VT_INSN_VMACC_VX: BLEND(D + B * A); break;
  case VT_INSN_VNMSAC_VV: case VT_INSN_VNMSAC_VX: BLEND(D - B * A); break;
  case VT_INSN_VMADD_VV: case VT_INSN_VMADD_VX: BLEND(B * D + A); break;
  case VT_INSN_VNMSUB_VV: case VT_INSN_VNMSUB_VX: BLEND(A - B * D); break;
  case VT_INSN_VSADDU_VV: case VT_INSN_VSADDU_VX: case VT_INSN_VSADDU_VI: EACH(sat_addu(w, A, B)); break;
  case VT_INSN_VSADD_VV: case VT_INSN_VSADD_VX: case VT_INSN_VSADD_VI: EACH(sat_add(w, A, B)); break;
  case VT_INSN_VSSUBU_VV: case VT_INSN_VSSUBU_VX: EACH(sat_subu(w, A, B)); break;
  case VT_INSN_VSSUB_VV: case VT_INSN_VSSUB_VX: EACH(sat_sub(w, A, B)); break;
  case VT_INSN_VAADDU_VV: case VT_INSN_VAADDU_VX: EACH(vt_avg(w->vxrm, (int64_t)A + B)); break;
  case VT_INSN_VAADD_VV: case VT_INSN_VAADD_VX:
    EACH(vt_avg(w->vxrm, (int64_t)(int32_t)A + (int32_t)B));
    break;
  case VT_INSN_VASUBU_VV: case VT_INSN_VASUBU_VX: EACH(vt_avg(w->vxrm, (int64_t)A - (int64_t)B)); break;
  case VT_INSN_VASUB_VV: case VT_INSN_VASUB_VX:
    EACH(vt_avg(w->vxrm, (int64_t)(int32_t)A - (int32_t)B));
    break;
  case VT_INSN_VSSRL_VV: case VT_INSN_VSSRL_VX: case VT_INSN_VSSRL_VI:
    EACH((uint32_t)(((uint64_t)A >> (B & 31)) + vt_round_inc(w->vxrm, A, B & 31)));
    break;
  case VT_INSN_VSSRA_VV: case VT_INSN_VSSRA_VX: case VT_INSN_VSSRA_VI:
    EACH((uint32_t)(((int64_t)(int32_t)A >> (B & 31)) +
                    (int64_t)vt_round_inc(w->vxrm, (uint64_t)(int64_t)(int32_t)A, B & 31)));
    break;
  case VT_INSN_VSMUL_VV: case VT_INSN_VSMUL_VX: {
    for (int i = 0; i < L; i++) {
      if (!((m >> i) & 1)) continue;
      int64_t p = (int64_t)(int32_t)a[i] * (int32_t)b[i];
      if (a[i] == 0x80000000u && b[i] == 0x80000000u) {
        w->vxsat = 1;
        d[i] = 0x7fffffffu;
        continue;
      }
      d[i] = (uint32_t)((p >> 31) + (int64_t)vt_round_inc(w->vxrm, (uint64_t)p, 31));
    }
    break;
  }
  case VT_INSN_VADC_VVM: case VT_INSN_VADC_VXM: case VT_INSN_VADC_VIM: {
    /* vm = 0 encodes the carry-in from v0, not a mask */
    uint32_t c = v0_bits(w);
    m = written = w->mask & rmask;
    EACH(A + B + ((c >> i) & 1));
    break;
  }
  case VT_INSN_VSBC_VVM: case VT_INSN_VSBC_VXM: {
    uint32_t c = v0_bits(w);
    m = written = w->mask & rmask;
    EACH(A - B - ((c >> i) & 1));
    break;
  }
  case VT_INSN_VMADC_VVM: case VT_INSN_VMADC_VXM: case VT_INSN_VMADC_VIM:
  case VT_INSN_VMADC_VV: case VT_INSN_VMADC_VX: case VT_INSN_VMADC_VI:
  case VT_INSN_VMSBC_VVM: case VT_INSN_VMSBC_VXM: case VT_INSN_VMSBC_VV: case VT_INSN_VMSBC_VX: {
    /* carry/borrow out as packed mask bits (standard RVV, isa.md 3.4) */
    bool use_c = !in->vm, sub = in->id >= VT_INSN_VMSBC_VVM && in->id <= VT_INSN_VMSBC_VX;
    uint32_t c = v0_bits(w), out = d[0], mm = w->mask & rmask;
    for (int i = 0; i < L; i++) {
      if (!((mm >> i) & 1)) continue;
      uint64_t ci = use_c ? (c >> i) & 1 : 0;
      uint64_t r = sub ? (uint64_t)a[i] - b[i] - ci : (uint64_t)a[i] + b[i] + ci;
      uint32_t bit = (uint32_t)((r >> 32) & 1);
      out = (out & ~(1u << i)) | (bit << i);
    }
    d[0] = out;
    written = 1;
    break;
  }
  case VT_INSN_VMERGE_VVM: case VT_INSN_VMERGE_VXM: case VT_INSN_VMERGE_VIM: {
    /* merges ignore the SIMT mask (isa.md 1.4) */
    uint32_t c = v0_bits(w), mm = rmask;
    for (int i = 0; i < L; i++)
      if ((mm >> i) & 1) d[i] = ((c >> i) & 1) ? b[i] : a[i];
    written = mm;
    break;
  }
  case VT_INSN_VMV_V_V: case VT_INSN_VMV_V_X: case VT_INSN_VMV_V_I:
    BLEND(B);
    break;
  case VT_INSN_VMV_S_X: /* Ventus: same as vmv.v.x (isa.md 3.4) */
    BLEND(B);
    break;
  case VT_INSN_VMV_X_S: {
    /* highest active lane wins (isa.md 3.4); one write */
    if (m) write_x(dev, w, in->rd, a[31 - __builtin_clz(m)]);
    w->vstart = 0;
    return VT_OK;
  }
  case VT_INSN_VID_V: BLEND((uint32_t)i); break;
  case VT_INSN_VMV1R_V: case VT_INSN_VMV2R_V: case VT_INSN_VMV4R_V: case VT_INSN_VMV8R_V: {
    unsigned n = in->id == VT_INSN_VMV1R_V ? 1 : in->id == VT_INSN_VMV2R_V ? 2 : in->id == VT_INSN_VMV4R_V ? 4 : 8;
    for (unsigned k = 0; k < n && in->rd + k < VT_NUM_VREGS && in->rs2 + k < VT_NUM_VREGS; k++) {
      memmove(w->v[in->rd + k], w->v[in->rs2 + k], sizeof w->v[0]);
      trace_v(dev, w, in->rd + k, w->lane_limit);
    }
    w->vstart = 0;
    return VT_OK;
  }
  case VT_INSN_VZEXT_VF2: EACH(elem_get(w, in->rs2, (unsigned)i, 16)); break;
  case VT_INSN_VSEXT_VF2: EACH(sext(elem_get(w, in->rs2, (unsigned)i, 16), 16)); break;
  case VT_INSN_VZEXT_VF4: EACH(elem_get(w, in->rs2, (unsigned)i, 8)); break;
  case VT_INSN_VSEXT_VF4: EACH(sext(elem_get(w, in->rs2, (unsigned)i, 8), 8)); break;
  case VT_INSN_VFMV_F_S:
    write_x(dev, w, in->rd, a[0]);
    w->vstart = 0;
    return VT_OK;
  case VT_INSN_VFMV_S_F: /* element 0 only, no SIMT mask (isa.md 3.4) */
    if (w->vl > w->vstart) {
      d[0] = b[0];
      written = 1;
    } else {
      written = 0;
    }
    break;
  case VT_INSN_VFMV_V_F: case VT_INSN_VFMERGE_VFM: {
    uint32_t c = in->id == VT_INSN_VFMERGE_VFM ? v0_bits(w) : 0xffffffffu;
    for (int i = 0; i < L; i++)
      if ((rmask >> i) & 1) d[i] = ((c >> i) & 1) ? b[i] : a[i];
    written = rmask;
    break;
  }
  case VT_INSN_VCOMPRESS_VM: {
    uint32_t sel = b[0], out[L];
    memcpy(out, d, sizeof out);
    unsigned k = 0;
    for (unsigned i = 0; i < w->vl && i < (unsigned)L; i++)
      if ((sel >> i) & 1) out[k++] = a[i];
    memcpy(d, out, sizeof out);
    written = k >= 32 ? 0xffffffffu : (1u << k) - 1u;
    break;
  }
  default:
    switch ((vt_exec_class)desc->exec_class) {
    case VT_EX_VPERM:
      if (strstr(desc->mnemonic, "red")) rc = reduction(dev, w, in, m, err);
      else rc = permute(dev, w, in, m, err);
      w->vstart = 0;
      return rc;
    case VT_EX_VMASK:
      rc = mask_ops(dev, w, in, m, err);
      w->vstart = 0;
      return rc;
    case VT_EX_VFPU: case VT_EX_VSFU:
      rc = fp_lanes(dev, w, in, m, a, b, d, err);
      if (rc != VT_OK) return rc;
      break;
    default:
      /* widening/narrowing need SEW < 32 (ELEN = 32) */
      vt_err_set(err, VT_ERR_ILLEGAL,
                 "illegal instruction: %s needs SEW < 32 (ELEN is 32), not supported",
                 desc->mnemonic);
      return VT_ERR_ILLEGAL;
    }
  }
  trace_v(dev, w, in->rd, written);
  w->vstart = 0;
  return VT_OK;
}
