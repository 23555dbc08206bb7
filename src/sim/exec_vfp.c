/* Floating-point element-wise vector instructions: the bodies of vfp_body.h
 * per format (binary16 at SEW 16, binary32 at SEW 32; src/fp), the
 * conversions between widths, and the one driver that reads the operands,
 * widens them exactly for widening rows (binary16 -> binary32) and writes
 * the destination. The scalar of .vf forms is the low SEW bits of x[rs1]
 * (Zfinx: no NaN-boxing check; docs/decisions.md, "Floating point"). */
#include "exec_vector.h"
#include "fp/fp16.h"
#include "fp/fp32.h"

#define L VT_MAX_LANES

#define VF_W 16
#define VF_FN(x) vt_f16_##x
#define VF_NAME(x) x##_f16
#include "vfp_body.h"

#define VF_W 32
#define VF_FN(x) vt_f32_##x
#define VF_NAME(x) x##_f32
#include "vfp_body.h"

/* One conversion: 'from' and 'to' bits, the integer side signed with SA. */
static uint32_t fcvt(unsigned op, uint32_t fl, unsigned from, unsigned to, uint32_t v, int rm,
                     uint32_t *fx) {
  const bool sg = (fl & VT_F_SA) != 0;
  switch (op) {
  case VT_SEM_CVT_F2I:
    if (from == 16) return vt_f16_to_int(v, (int)to, sg, rm, fx);
    if (to == 32) return sg ? vt_f32_to_i32(v, rm, fx) : vt_f32_to_u32(v, rm, fx);
    return vt_f32_to_int(v, (int)to, sg, rm, fx);
  case VT_SEM_CVT_I2F: {
    uint32_t x = (uint32_t)vext(v, from, sg);
    if (to == 16) return sg ? vt_i32_to_f16((int32_t)x, rm, fx) : vt_u32_to_f16(x, rm, fx);
    return sg ? vt_i32_to_f32((int32_t)x, rm, fx) : vt_u32_to_f32(x, rm, fx);
  }
  case VT_SEM_CVT_F2F: return from == 16 ? vt_f16_to_f32(v, fx) : vt_f32_to_f16(v, rm, fx);
  default: return vt_f32_to_f16_rod(v, fx); /* CVT_F2F_ROD */
  }
}

static bool is_cvt(unsigned op) {
  return op == VT_SEM_CVT_F2I || op == VT_SEM_CVT_I2F || op == VT_SEM_CVT_F2F ||
         op == VT_SEM_CVT_F2F_ROD;
}

/* an operand of width e read for computing at width cw: binary16 operands
 * of widening rows become binary32 exactly */
static uint32_t widen(uint64_t v, unsigned e, unsigned cw, uint32_t *fx) {
  return e < cw ? vt_f16_to_f32((uint32_t)v, fx) : (uint32_t)v;
}

static int run(vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m, int rm, vctx *c,
               uint32_t *fx) {
  const vt_insn_desc *d = in->d;
  const uint32_t fl = d->flags;
  const bool bvec = !(fl & (VT_F_BX | VT_F_BI));
  const uint64_t bscal = w->x[(in->word >> 15) & 31]; /* .vf: never register-extended */
  uint32_t a[L], b[L], dd[L], cy[L], v0 = w->v[0][0];
  for (unsigned i = 0; i < L; i++) {
    uint64_t va = vget(c, in->rs2, i, s->ea);
    uint64_t vb = (bvec ? vget(c, in->rs1, i, s->eb) : bscal) & ones64(s->eb);
    bool act = (m >> i) & 1;
    a[i] = act && !is_cvt(d->sem) ? widen(va, s->ea, s->cw, fx) : (uint32_t)va;
    b[i] = act ? widen(vb, s->eb, s->cw, fx) : (uint32_t)vb;
    dd[i] = (uint32_t)vget(c, in->rd, i, s->ed);
    cy[i] = (v0 >> i) & 1u;
  }
  if (is_cvt(d->sem)) {
    unsigned from = s->ea, to = s->ed;
    int crm = (fl & VT_F_RTZ) ? VT_RM_RTZ : rm;
    for (unsigned i = 0; i < L; i++)
      if ((m >> i) & 1) dd[i] = fcvt(d->sem, fl, from, to, a[i], crm, fx);
  } else {
    const uint32_t *pa = a, *pb = b;
    if (fl & VT_F_REV) pa = b, pb = a;
    bool ok = s->cw == 16 ? vfp_body_f16(d->sem, fl, rm, dd, pa, pb, cy, m, fx)
                          : vfp_body_f32(d->sem, fl, rm, dd, pa, pb, cy, m, fx);
    if (!ok) return -1;
  }
  for (unsigned i = 0; i < L; i++)
    if ((m >> i) & 1) vput(c, i, s->ed, dd[i]);
  return 0;
}

/* SEW 32, every operand binary32 (what compiled kernels execute): the
 * registers' lanes are the arrays */
static int in_place(vt_warp *w, const vt_insn *in, uint32_t m, int rm, uint32_t *fx) {
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
    for (unsigned i = 0; i < L; i++)
      if ((m >> i) & 1) dd[i] = fcvt(d->sem, fl, 32, 32, a[i], crm, fx);
    return 0;
  }
  if (fl & VT_F_V0)
    for (int i = 0; i < L; i++) cy[i] = (v0 >> i) & 1u;
  if (fl & VT_F_REV) {
    const uint32_t *t = a;
    a = b, b = t;
  }
  return vfp_body_f32(d->sem, fl, rm, dd, a, b, cy, m, fx) ? 0 : -1;
}

int vt_vfp(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
           vt_error *err) {
  int rm = vt_vfp_rm(w, in, err);
  if (rm < 0) return err ? err->status : VT_ERR_ILLEGAL;
  uint32_t fx = 0;
  if (s->cw == 32 && s->ea == 32 && s->eb == 32 && s->ed == 32) {
    if (in_place(w, in, m, rm, &fx) != 0) return vt_vunimplemented(err, in, 32);
    vt_vfp_flags(dev, w, fx);
    trace_v(dev, w, in->rd, m);
    return VT_OK;
  }
  vctx c = vctx_make(w, in->rd);
  if (run(w, in, s, m, rm, &c, &fx) != 0) return vt_vunimplemented(err, in, vt_vsew(w));
  vt_vfp_flags(dev, w, fx);
  vtrace_group(dev, &c);
  return VT_OK;
}
