/* Vector reductions (RVV 1.0 14), integer and floating point, at every
 * element width: vd[0] = vs1[0] op vs2[i] over the active elements in
 * increasing order (the ordered and unordered FP sums are both sequential).
 * Widening reductions keep the accumulator at 2*SEW and extend each element
 * (by VT_F_SA, or exactly from binary16 to binary32). */
#include "exec_vector.h"
#include "fp/fp16.h"
#include "fp/fp32.h"

static uint64_t int_step(unsigned op, bool sg, unsigned e, uint64_t acc, uint64_t x) {
  int64_t sa = (int64_t)vext(acc, e, true), sx = (int64_t)vext(x, e, true);
  switch (op) {
  case VT_SEM_ADD: return acc + x;
  case VT_SEM_AND: return acc & x;
  case VT_SEM_OR: return acc | x;
  case VT_SEM_XOR: return acc ^ x;
  case VT_SEM_MIN: return (sg ? sx < sa : x < acc) ? x : acc;
  default: return (sg ? sx > sa : x > acc) ? x : acc; /* MAX */
  }
}

static uint32_t fp_step(unsigned op, unsigned e, int rm, uint32_t acc, uint32_t x, uint32_t *fx) {
  if (e == 16) {
    if (op == VT_SEM_FMIN) return vt_f16_min(acc, x, fx);
    if (op == VT_SEM_FMAX) return vt_f16_max(acc, x, fx);
    return vt_f16_add(acc, x, rm, fx);
  }
  if (op == VT_SEM_FMIN) return vt_f32_min(acc, x, fx);
  if (op == VT_SEM_FMAX) return vt_f32_max(acc, x, fx);
  return vt_f32_add(acc, x, rm, fx);
}

int vt_vred(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
            vt_error *err) {
  const vt_insn_desc *d = in->d;
  const bool fp = d->flags & VT_F_FP, sg = d->flags & VT_F_SA;
  int rm = 0;
  if (fp && (rm = vt_vfp_rm(w, in, err)) < 0) return err ? err->status : VT_ERR_ILLEGAL;
  vctx c = vctx_make(w, in->rd);
  /* the accumulator is ed wide; the elements ea wide, computed at cw = ed */
  uint64_t acc = vget(&c, in->rs1, 0, s->ed);
  uint32_t fx = 0;
  for (unsigned i = 0; i < VT_MAX_LANES; i++) {
    if (!((m >> i) & 1)) continue;
    uint64_t x = vget(&c, in->rs2, i, s->ea);
    if (fp) {
      uint32_t xf = s->ea < s->ed ? vt_f16_to_f32((uint32_t)x, &fx) : (uint32_t)x;
      acc = fp_step(d->sem, s->ed, rm, (uint32_t)acc, xf, &fx);
    } else {
      acc = int_step(d->sem, sg, s->ed, acc, vext(x, s->ea, sg)) & ones64(s->ed);
    }
  }
  if (fp) vt_vfp_flags(dev, w, fx);
  /* with vl = 0 nothing is written and nothing is traced */
  if (w->vl > 0) {
    vput(&c, 0, s->ed, acc);
    vtrace_group(dev, &c);
  }
  return VT_OK;
}
