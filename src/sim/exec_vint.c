/* Integer element-wise vector instructions at every element width (8 to 64
 * bits; 64-bit elements are register pairs, isa2025.md 3.2): the
 * operation bodies of vint_body.h instantiated per width, and the one driver
 * that reads the operands at the widths the row's element-width rule gives
 * (extending them for widening rows), runs the body at the compute width and
 * writes the destination. SEW 32 single-width instructions (what compiled
 * kernels execute) run on the register lanes in place. */
#include "exec_vector.h"
#include "lanes.h"

#define L VT_MAX_LANES

#define VB_W 8
#define VB_T uint8_t
#define VB_ST int8_t
#define VB_WT uint16_t
#define VB_SWT int16_t
#define VB_NAME(x) x##_8
#include "vint_body.h"

#define VB_W 16
#define VB_T uint16_t
#define VB_ST int16_t
#define VB_WT uint32_t
#define VB_SWT int32_t
#define VB_NAME(x) x##_16
#include "vint_body.h"

#define VB_W 32
#define VB_T uint32_t
#define VB_ST int32_t
#define VB_WT uint64_t
#define VB_SWT int64_t
#define VB_NAME(x) x##_32
#include "vint_body.h"

/* SEW 64 on register pairs and the 64-bit results of widening at SEW 32
 * (isa2025.md 3.2.2, 3.2.3) */
#define VB_W 64
#define VB_T uint64_t
#define VB_ST int64_t
#define VB_WT vt_u128
#define VB_SWT vt_i128
#define VB_NAME(x) x##_64
#include "vint_body.h"

/* operands of one element-wise instruction */
typedef struct vint_ops {
  const vt_insn *in;
  const vshape *s;
  uint32_t m;      /* lanes computed */
  bool bvec;       /* B is vs1 (else the scalar or immediate below) */
  uint64_t bscal;  /* B of .vx/.vi forms */
  uint32_t v0;     /* carries / selects of VT_F_V0 rows */
} vint_ops;

/* a prefix's NEG/ABS (isa2025.md 3.5.2): src1 = B (vs1, scalar or
 * immediate), src2 = A (vs2), src3 = D (vd read by multiply-adds) */
#define DEFINE_MODIFY(W, T)                                                            \
  static void modify_##W(const vt_insn *in, unsigned wd, T *a, T *b, T *d) {           \
    const unsigned ng = in->neg, ab = in->abs;                                        \
    for (unsigned i = 0; i < L; i++) {                                                \
      b[i] = (T)vt_mod_int(b[i], wd, ng & 1, ab & 1);                                  \
      a[i] = (T)vt_mod_int(a[i], wd, (ng >> 1) & 1, (ab >> 1) & 1);                    \
      d[i] = (T)vt_mod_int(d[i], wd, (ng >> 2) & 1, (ab >> 2) & 1);                    \
    }                                                                                 \
  }
DEFINE_MODIFY(8, uint8_t)
DEFINE_MODIFY(16, uint16_t)
DEFINE_MODIFY(32, uint32_t)
DEFINE_MODIFY(64, uint64_t)

/* Gather the operands at their widths into arrays of the compute width,
 * run the body, write the computed lanes of vd (or the mask bits). */
#define DEFINE_RUN(W, T)                                                               \
  static bool vint_run_##W(vctx *c, const vint_ops *o, uint32_t *maskbits) {          \
    const vt_insn *in = o->in;                                                        \
    const uint32_t fl = in->d->flags;                                                 \
    const bool sa = fl & VT_F_SA, sb = fl & VT_F_SB;                                  \
    T a[L], b[L], d[L], cy[L];                                                        \
    for (unsigned i = 0; i < L; i++) {                                                \
      a[i] = (T)vext(vget(c, in->rs2, i, o->s->ea), o->s->ea, sa);                    \
      b[i] = (T)vext(o->bvec ? vget(c, in->rs1, i, o->s->eb) : o->bscal, o->s->eb, sb); \
      d[i] = (T)vget(c, in->rd, i, o->s->ed);                                         \
      cy[i] = (T)VT_LANE_SET(o->v0, i);                                                 \
    }                                                                                 \
    if (in->neg | in->abs) modify_##W(in, o->s->cw, a, b, d);                         \
    const T *pa = a, *pb = b;                                                         \
    if (fl & VT_F_REV) pa = b, pb = a;                                                \
    if (!vint_body_##W(in->d->sem, fl, d, pa, pb, cy, o->m, c->w)) return false;      \
    for (unsigned i = 0; i < L; i++) {                                                \
      if (!((o->m >> i) & 1)) continue;                                               \
      if (maskbits)                                                                   \
        *maskbits = (*maskbits & ~(1u << i)) | ((uint32_t)(d[i] & 1u) << i);          \
      else                                                                            \
        vput(c, i, o->s->ed, d[i]);                                                   \
    }                                                                                 \
    return true;                                                                      \
  }
DEFINE_RUN(8, uint8_t)
DEFINE_RUN(16, uint16_t)
DEFINE_RUN(32, uint32_t)
DEFINE_RUN(64, uint64_t)

/* the bodies on w-bit values in 64-bit containers, for VOP64 */
#define DEFINE_APPLY(W, T)                                                                  \
  static bool apply_##W(unsigned op, uint32_t fl, uint64_t *d, const uint64_t *a,          \
                        const uint64_t *b, uint32_t m, vt_warp *w) {                        \
    T aa[L], bb[L], dd[L], cy[L];                                                          \
    for (unsigned i = 0; i < L; i++) aa[i] = (T)a[i], bb[i] = (T)b[i], dd[i] = (T)d[i], cy[i] = 0; \
    if (!vint_body_##W(op, fl, dd, aa, bb, cy, m, w)) return false;                        \
    for (unsigned i = 0; i < L; i++) d[i] = dd[i];                                         \
    return true;                                                                           \
  }
DEFINE_APPLY(8, uint8_t)
DEFINE_APPLY(16, uint16_t)
DEFINE_APPLY(32, uint32_t)
DEFINE_APPLY(64, uint64_t)

bool vt_vint_apply(unsigned width, unsigned op, uint32_t fl, uint64_t *d, const uint64_t *a,
                   const uint64_t *b, uint32_t m, vt_warp *w) {
  switch (width) {
  case 8: return apply_8(op, fl, d, a, b, m, w);
  case 16: return apply_16(op, fl, d, a, b, m, w);
  case 32: return apply_32(op, fl, d, a, b, m, w);
  default: return apply_64(op, fl, d, a, b, m, w);
  }
}

static bool has_op(const vt_insn_desc *d, vt_operand_id op) {
  for (unsigned k = 0; k < d->nops; k++)
    if (d->ops[k] == op) return true;
  return false;
}

static bool vint_run(vctx *c, const vint_ops *o, uint32_t *maskbits) {
  switch (o->s->cw) {
  case 8: return vint_run_8(c, o, maskbits);
  case 16: return vint_run_16(c, o, maskbits);
  case 32: return vint_run_32(c, o, maskbits);
  default: return vint_run_64(c, o, maskbits);
  }
}

/* SEW 32, every operand 32 bits wide: the registers' lanes are the arrays */
static bool vint_in_place(vt_warp *w, const vint_ops *o) {
  const vt_insn *in = o->in;
  uint32_t bb[L], cy[L];
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1];
  if (!o->bvec) {
    for (int i = 0; i < L; i++) bb[i] = (uint32_t)o->bscal;
    b = bb;
  }
  if (in->d->flags & VT_F_V0)
    for (int i = 0; i < L; i++) cy[i] = VT_LANE_SET(o->v0, i);
  if (in->d->flags & VT_F_REV) {
    const uint32_t *t = a;
    a = b, b = t;
  }
  return vint_body_32(in->d->sem, in->d->flags, w->v[in->rd], a, b, cy, o->m, w);
}

/* the B operand of .vx/.vi rows: scalars and immediates are sign-extended
 * to 64 bits (the RVV rule for SEW > XLEN, isa2025.md 3.2.2); the
 * operand's width then truncates or extends them; unsigned immediates
 * (shift amounts) stay unsigned */
static vint_ops ops_of(const vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m) {
  const uint32_t fl = in->d->flags;
  vint_ops o = {in, s, m, !(fl & (VT_F_BX | VT_F_BI)), 0, 0};
  if (fl & VT_F_BI) o.bscal = has_op(in->d, VT_OP_UIMM5) ? in->uimm : (uint64_t)(int64_t)in->vimm;
  else if (fl & VT_F_BX) o.bscal = (uint64_t)(int64_t)(int32_t)w->x[in->rs1];
  if (fl & VT_F_V0) o.v0 = w->v[0][0];
  return o;
}

int vt_vint_sew32(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err) {
  static const vshape s32 = {32, 32, 32, 32};
  vint_ops o = ops_of(w, in, &s32, m);
  if (!vint_in_place(w, &o)) return vt_vunimplemented(err, in, 32);
  trace_v(dev, w, in->rd, m);
  return VT_OK;
}

int vt_vint(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
            vt_error *err) {
  const uint32_t fl = in->d->flags;
  if (!(fl & VT_F_MASKW) && s->cw == 32 && s->ea == 32 && s->ed == 32 && s->eb == 32 &&
      !(in->neg | in->abs) && !dev->reference)
    return vt_vint_sew32(dev, w, in, m, err);
  vint_ops o = ops_of(w, in, s, m);
  bool done;
  vctx c = vctx_make(w, in->rd);
  if (fl & VT_F_MASKW) {
    /* carry/borrow out as packed mask bits in lane 0 of vd (isa.md 3.4) */
    uint32_t bits = w->v[in->rd][0];
    done = vint_run(&c, &o, &bits);
    if (done) {
      w->v[in->rd][0] = bits;
      trace_v(dev, w, in->rd, 1);
    }
  } else {
    done = vint_run(&c, &o, NULL);
    if (done) vtrace_group(dev, &c);
  }
  if (!done) return vt_vunimplemented(err, in, vt_vsew(w));
  return VT_OK;
}
