/* Floating-point element-wise vector instructions: the bodies of vfp_body.h
 * per format (binary16 at SEW 16, binary32 at SEW 32, binary64 on register
 * pairs at SEW 64 and as the result of widening at SEW 32; src/fp), the
 * conversions between widths (the fp16/bf16 converts of isa2025.md 3.2.4
 * included), and the drivers that read the operands, apply a prefix's
 * NEG/ABS, widen them exactly for widening rows and write the destination.
 * The scalar of .vf forms is the low SEW bits of x[rs1] (Zfinx: no
 * NaN-boxing check; docs/decisions.md, "Floating point"), the scalar pair
 * XP(rs1) at SEW 64 (D26). */
#include "exec_vector.h"
#include "fp32_host.h"
#include "fp/bf16.h"
#include "fp/fp16.h"
#include "fp/fp32.h"
#include "fp/fp64.h"

#define L VT_MAX_LANES

#define VF_W 16
#define VF_T uint32_t
#define VF_FN(x) vt_f16_##x
#define VF_NAME(x) x##_f16
#include "vfp_body.h"

#define VF_W 32
#define VF_T uint32_t
#define VF_FN(x) vt_f32_##x
#define VF_NAME(x) x##_f32
#include "vfp_body.h"

#define VF_W 64
#define VF_T uint64_t
#define VF_FN(x) vt_f64_##x
#define VF_NAME(x) x##_f64
#include "vfp_body.h"

static uint64_t f2i(unsigned from, unsigned to, bool sg, uint64_t v, int rm, uint32_t *fx) {
  if (from == 64) return sg ? vt_f64_to_i64(v, rm, fx) : vt_f64_to_u64(v, rm, fx);
  if (to == 64) return sg ? vt_f32_to_i64((uint32_t)v, rm, fx) : vt_f32_to_u64((uint32_t)v, rm, fx);
  if (from == 16) return vt_f16_to_int((uint32_t)v, (int)to, sg, rm, fx);
  if (to == 32) return sg ? vt_f32_to_i32((uint32_t)v, rm, fx) : vt_f32_to_u32((uint32_t)v, rm, fx);
  return vt_f32_to_int((uint32_t)v, (int)to, sg, rm, fx);
}

static uint64_t i2f(unsigned from, unsigned to, bool sg, uint64_t v, int rm, uint32_t *fx) {
  if (from == 64) return sg ? vt_i64_to_f64((int64_t)v, rm, fx) : vt_u64_to_f64(v, rm, fx);
  uint32_t x = (uint32_t)vext(v, from, sg);
  if (to == 64) return sg ? vt_i32_to_f64((int32_t)x) : vt_u32_to_f64(x); /* exact */
  if (to == 16) return sg ? vt_i32_to_f16((int32_t)x, rm, fx) : vt_u32_to_f16(x, rm, fx);
  return sg ? vt_i32_to_f32((int32_t)x, rm, fx) : vt_u32_to_f32(x, rm, fx);
}

/* float to float: 16 -> 32 and 32 -> 16 are binary16 (bfloat16 with BF16),
 * 32 -> 64 widens exactly */
static uint64_t f2f(unsigned from, unsigned to, bool bf16, uint64_t v, int rm, uint32_t *fx) {
  uint32_t x = (uint32_t)v;
  if (to == 64) return vt_f32_to_f64(x, fx);
  if (from == 16) return bf16 ? vt_bf16_to_f32(x, fx) : vt_f16_to_f32(x, fx);
  return bf16 ? vt_f32_to_bf16(x, rm, fx) : vt_f32_to_f16(x, rm, fx);
}

/* One conversion: 'from' and 'to' bits, the integer side signed with SA. */
static uint64_t fcvt(unsigned op, uint32_t fl, unsigned from, unsigned to, uint64_t v, int rm,
                     uint32_t *fx) {
  const bool sg = (fl & VT_F_SA) != 0;
  switch (op) {
  case VT_SEM_CVT_F2I: return f2i(from, to, sg, v, rm, fx);
  case VT_SEM_CVT_I2F: return i2f(from, to, sg, v, rm, fx);
  case VT_SEM_CVT_F2F: return f2f(from, to, (fl & VT_F_BF16) != 0, v, rm, fx);
  default: return vt_f32_to_f16_rod((uint32_t)v, fx); /* CVT_F2F_ROD */
  }
}

static bool is_cvt(unsigned op) {
  return op == VT_SEM_CVT_F2I || op == VT_SEM_CVT_I2F || op == VT_SEM_CVT_F2F ||
         op == VT_SEM_CVT_F2F_ROD;
}

/* the widths a conversion converts between: the shape's, or the 16-bit
 * value in bits 15:0 of a 32-bit lane (fp16/bf16 converts, 3.2.4) */
static void cvt_widths(const vt_insn_desc *d, const vshape *s, unsigned *from, unsigned *to) {
  *from = d->ew == VT_EW_HALF_IN ? 16 : s->ea;
  *to = d->ew == VT_EW_HALF_OUT ? 16 : s->ed;
}

/* a converted value as the lane holds it: 16-bit results of the converts
 * sign-extended into the 32-bit lane (D28) */
static uint64_t cvt_result(const vt_insn_desc *d, uint64_t r) {
  return d->ew == VT_EW_HALF_OUT ? (uint64_t)sext((uint32_t)r & 0xffffu, 16) : r;
}

/* an operand of width e read for computing at width cw: narrower operands
 * of widening rows are widened exactly (NV for a signalling NaN) */
static uint64_t widen(uint64_t v, unsigned e, unsigned cw, uint32_t *fx) {
  if (e >= cw) return v;
  return cw == 64 ? vt_f32_to_f64((uint32_t)v, fx) : vt_f16_to_f32((uint32_t)v, fx);
}

/* a prefix's NEG/ABS on the sign bit (3.5.2): src1 = B, src2 = A, src3 = D */
static uint64_t modify(const vt_insn *in, unsigned k, uint64_t v, unsigned width) {
  return vt_mod_fp(v, width, (in->neg >> k) & 1, (in->abs >> k) & 1);
}

/* Read the operands at their widths into arrays of the compute width T,
 * run the conversion or the body, write the computed lanes of vd. */
#define DEFINE_RUN(T, BODY16, BODY32)                                                    \
  static int run_##T(vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m, int rm,  \
                     vctx *c, uint32_t *fx) {                                            \
    const vt_insn_desc *d = in->d;                                                       \
    const uint32_t fl = d->flags;                                                        \
    const bool bvec = !(fl & (VT_F_BX | VT_F_BI)), cvt = is_cvt(d->sem);                 \
    const unsigned r1 = (in->word >> 15) & 31; /* .vf: never register-extended */        \
    const uint64_t bscal = s->eb == 64 ? read_xp(w, r1) : w->x[r1];                      \
    T a[L], b[L], dd[L], cy[L];                                                          \
    uint32_t v0 = w->v[0][0];                                                            \
    for (unsigned i = 0; i < L; i++) {                                                   \
      uint64_t va = vget(c, in->rs2, i, s->ea);                                          \
      uint64_t vb = (bvec ? vget(c, in->rs1, i, s->eb) : bscal) & ones64(s->eb);         \
      uint64_t vd = vget(c, in->rd, i, s->ed);                                           \
      bool act = (m >> i) & 1;                                                           \
      if (in->neg | in->abs) {                                                           \
        vb = modify(in, 0, vb, s->eb);                                                   \
        va = modify(in, 1, va, s->ea);                                                   \
        vd = modify(in, 2, vd, s->ed);                                                   \
      }                                                                                  \
      a[i] = (T)(act && !cvt ? widen(va, s->ea, s->cw, fx) : va);                        \
      b[i] = (T)(act ? widen(vb, s->eb, s->cw, fx) : vb);                                \
      dd[i] = (T)vd;                                                                     \
      cy[i] = (v0 >> i) & 1u;                                                            \
    }                                                                                    \
    if (cvt) {                                                                           \
      unsigned from, to;                                                                 \
      cvt_widths(d, s, &from, &to);                                                      \
      int crm = (fl & VT_F_RTZ) ? VT_RM_RTZ : rm;                                        \
      for (unsigned i = 0; i < L; i++)                                                   \
        if ((m >> i) & 1) dd[i] = (T)cvt_result(d, fcvt(d->sem, fl, from, to, a[i], crm, fx)); \
    } else {                                                                             \
      const T *pa = a, *pb = b;                                                          \
      if (fl & VT_F_REV) pa = b, pb = a;                                                 \
      bool ok = s->cw == 16 ? BODY16(d->sem, fl, rm, dd, pa, pb, cy, m, fx)              \
                            : BODY32(d->sem, fl, rm, dd, pa, pb, cy, m, fx);             \
      if (!ok) return -1;                                                                \
    }                                                                                    \
    for (unsigned i = 0; i < L; i++)                                                     \
      if ((m >> i) & 1) vput(c, i, s->ed, dd[i]);                                        \
    return 0;                                                                            \
  }
DEFINE_RUN(uint32_t, vfp_body_f16, vfp_body_f32)
DEFINE_RUN(uint64_t, vfp_body_f64, vfp_body_f64)

/* SEW 32, every operand binary32 (what compiled kernels execute): the
 * registers' lanes are the arrays */
static int in_place(const vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s,
                    uint32_t m, int rm, uint32_t *fx) {
  const vt_insn_desc *d = in->d;
  const uint32_t fl = d->flags;
  uint32_t bb[L], cy[L], *dd = w->v[in->rd], v0 = w->v[0][0];
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1];
  if (fl & (VT_F_BX | VT_F_BI)) {
    uint32_t x = w->x[(in->word >> 15) & 31]; /* .vf: never register-extended */
    for (int i = 0; i < L; i++) bb[i] = x;
    b = bb;
  }
  if (is_cvt(d->sem)) {
    int crm = (fl & VT_F_RTZ) ? VT_RM_RTZ : rm;
    unsigned from, to;
    cvt_widths(d, s, &from, &to);
    for (unsigned i = 0; i < L; i++)
      if ((m >> i) & 1) dd[i] = (uint32_t)cvt_result(d, fcvt(d->sem, fl, from, to, a[i], crm, fx));
    return 0;
  }
  if (fl & VT_F_V0)
    for (int i = 0; i < L; i++) cy[i] = (v0 >> i) & 1u;
  if (fl & VT_F_REV) {
    const uint32_t *t = a;
    a = b, b = t;
  }
  /* add, subtract, multiply on the host's unit when it is exact (not in
   * reference mode) */
  if (rm == VT_RM_RNE && !dev->reference && vt_f32_host_op(d->sem, dd, a, b, m, fx)) return 0;
  return vfp_body_f32(d->sem, fl, rm, dd, a, b, cy, m, fx) ? 0 : -1;
}

int vt_vfp(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
           vt_error *err) {
  int rm = vt_vfp_rm(w, in, err);
  if (rm < 0) return err ? err->status : VT_ERR_ILLEGAL;
  uint32_t fx = 0;
  if (s->cw == 32 && s->ea == 32 && s->eb == 32 && s->ed == 32 && !(in->neg | in->abs)) {
    if (in_place(dev, w, in, s, m, rm, &fx) != 0) return vt_vunimplemented(err, in, 32);
    vt_vfp_flags(dev, w, fx);
    trace_v(dev, w, in->rd, m);
    return VT_OK;
  }
  vctx c = vctx_make(w, in->rd);
  int rc = s->cw == 64 || s->ed == 64 ? run_uint64_t(w, in, s, m, rm, &c, &fx)
                                      : run_uint32_t(w, in, s, m, rm, &c, &fx);
  if (rc != 0) return vt_vunimplemented(err, in, vt_vsew(w));
  vt_vfp_flags(dev, w, fx);
  vtrace_group(dev, &c);
  return VT_OK;
}
