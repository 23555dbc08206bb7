/* Lane-crossing vector instructions at every element width (RVV 1.0 16.3-16.5):
 * slides, gathers, compress. Every source element is read before anything is
 * written; a source index >= VLMAX reads 0. The scalar of vslide1up/down is
 * the low SEW bits of x[rs1] (vfslide1*: the unextended rs1 field). */
#include "exec_vector.h"

#define L VT_MAX_LANES

static unsigned vlmax_of(const vt_warp *w, const vctx *c, unsigned e) {
  unsigned lmul = w->vtype & 7, per_reg = c->rbytes * 8 / e;
  return lmul < 4 ? per_reg << lmul : per_reg >> (8 - lmul);
}

/* source element index for lane i; false: the lane keeps its value */
static bool source_of(const vt_warp *w, const vctx *c, const vt_insn *in, unsigned e, unsigned i,
                      uint64_t *j, bool *scalar) {
  uint32_t x = w->x[in->rs1], uimm = (in->word >> 15) & 31;
  bool bx = in->d->flags & VT_F_BX;
  *scalar = false;
  switch (in->d->sem) {
  case VT_SEM_SLIDEUP: {
    uint32_t off = bx ? x : uimm;
    if (i < off) return false;
    *j = i - off;
    return true;
  }
  case VT_SEM_SLIDEDOWN: *j = (uint64_t)i + (bx ? x : uimm); return true;
  case VT_SEM_SLIDE1UP: *scalar = i == 0; *j = i - 1; return true;
  case VT_SEM_SLIDE1DOWN: *scalar = i + 1 == w->vl; *j = (uint64_t)i + 1; return true;
  case VT_SEM_RGATHER16: *j = vget(c, in->rs1, i, 16); return true;
  default: /* RGATHER */
    *j = (in->d->flags & VT_F_BI) ? uimm : bx ? x : vget(c, in->rs1, i, e);
    return true;
  }
}

/* vcompress: the elements of vs2 whose bit in vs1 is set, packed from
 * element 0; no SIMT mask (as every width) */
static void compress(vctx *c, const vt_insn *in, unsigned e) {
  const vt_warp *w = c->w;
  uint32_t sel = w->v[in->rs1][0];
  uint64_t out[L];
  unsigned k = 0;
  for (unsigned i = 0; i < w->vl && i < L && ((w->lane_limit >> i) & 1); i++)
    if ((sel >> i) & 1) out[k++] = vget(c, in->rs2, i, e);
  for (unsigned i = 0; i < k; i++) vput(c, i, e, out[i]);
}

int vt_vperm(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err) {
  const unsigned e = vt_vsew(w);
  if ((in->d->flags & VT_F_FP) && vt_vfp_rm(w, in, err) < 0) return err ? err->status : VT_ERR_ILLEGAL;
  vctx c = vctx_make(w, in->rd);
  if (in->d->sem == VT_SEM_COMPRESS) {
    compress(&c, in, e);
  } else {
    const unsigned vlmax = vlmax_of(w, &c, e);
    const uint64_t xs = ((in->d->flags & VT_F_FSCALAR) ? w->x[(in->word >> 15) & 31] : w->x[in->rs1]) &
                        ones64(e);
    uint64_t out[L];
    uint32_t wr = 0;
    for (unsigned i = 0; i < L; i++) {
      uint64_t j;
      bool scalar;
      if (!((m >> i) & 1) || !source_of(w, &c, in, e, i, &j, &scalar)) continue;
      out[i] = scalar ? xs : j < vlmax ? vget(&c, in->rs2, (unsigned)j, e) : 0;
      wr |= 1u << i;
    }
    for (unsigned i = 0; i < L; i++)
      if ((wr >> i) & 1) vput(&c, i, e, out[i]);
  }
  vtrace_group(dev, &c);
  return VT_OK;
}
