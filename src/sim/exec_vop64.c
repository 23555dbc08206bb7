/* VOP64 (isa2025.md 3.8): element-wise add, subtract, multiply, minimum and
 * maximum on SEW-wide values held in 32-bit lanes (byte 0/2 at SEW 8, half
 * 0/1 at SEW 16, chosen by OPSEL; the lane at SEW 32; pairs at SEW 64), with
 * NEG/ABS per source, and for floating point an output scale (OMOD) before
 * the single rounding and a clamp to [+0, 1]. Integer operations run on the
 * generic bodies of vint_body.h, float add/sub/mul on vt_fp_scaled_op, float
 * min/max on the RISC-V min/max of src/fp. Dispatch is on the row's
 * operation and flags. */
#include "exec_vector.h"
#include "fp/fp16.h"
#include "fp/fp32.h"
#include "fp/fp64.h"
#include "fp/fp_scaled.h"

#define L VT_MAX_LANES

typedef struct vop_mods {
  unsigned neg, abs, opsel, omod, clamp;
} vop_mods;

static vop_mods mods_of(const vt_insn *in) {
  uint64_t insn = (uint64_t)in->word_hi << 32 | in->word;
  vop_mods m;
  m.neg = (unsigned)vt_operand_get64(VT_OP_VNEG, insn);
  m.abs = (unsigned)vt_operand_get64(VT_OP_VABS, insn);
  m.opsel = (unsigned)vt_operand_get64(VT_OP_OPSEL, insn);
  m.omod = (unsigned)vt_operand_get64(VT_OP_OMOD, insn);
  m.clamp = (unsigned)vt_operand_get64(VT_OP_CLAMP, insn);
  return m;
}

/* the w-bit value of a 32-bit lane value x: byte 0/2 or half 0/1 by s */
static uint64_t pick(uint32_t x, unsigned w, unsigned s) {
  if (w == 8) return (x >> (s ? 16 : 0)) & 0xffu;
  if (w == 16) return (x >> (s ? 16 : 0)) & 0xffffu;
  return x;
}

/* lane i's value x written into the w-bit place s of the old lane value */
static uint32_t place(uint32_t old, uint64_t x, unsigned w, unsigned s) {
  if (w >= 32) return (uint32_t)x;
  unsigned sh = s ? 16 : 0;
  uint32_t mask = (w == 8 ? 0xffu : 0xffffu) << sh;
  return (old & ~mask) | (((uint32_t)x << sh) & mask);
}

static vt_fp_fmt fmt_of(unsigned w) {
  return w == 16 ? VT_FMT_F16 : w == 32 ? VT_FMT_F32 : VT_FMT_F64;
}
static uint64_t one_of(unsigned w) {
  return w == 16 ? 0x3c00u : w == 32 ? 0x3f800000u : 0x3ff0000000000000ull;
}

static uint64_t fminmax(unsigned w, bool max, uint64_t a, uint64_t b, uint32_t *fx) {
  if (w == 16) return max ? vt_f16_max((uint32_t)a, (uint32_t)b, fx) : vt_f16_min((uint32_t)a, (uint32_t)b, fx);
  if (w == 32) return max ? vt_f32_max((uint32_t)a, (uint32_t)b, fx) : vt_f32_min((uint32_t)a, (uint32_t)b, fx);
  return max ? vt_f64_max(a, b, fx) : vt_f64_min(a, b, fx);
}

/* r = a op b (a = src2, b = src1) scaled by 2^k before its rounding; min
 * and max select first (a NaN result is canonical and never scaled), then
 * CLAMP to [+0, 1] (a NaN and every r <= +0 give +0) */
static uint64_t fop(unsigned sem, unsigned w, uint64_t a, uint64_t b, const vop_mods *md, int rm,
                    uint32_t *fx) {
  static const int scale[4] = {0, 1, 2, -1};
  const vt_fp_fmt f = fmt_of(w);
  const int k = scale[md->omod & 3];
  const uint64_t sign = 1ull << (w - 1), inf = (sign - 1) & ~((1ull << (f.prec - 1)) - 1);
  uint64_t r;
  if (sem == VT_SEM_FMIN || sem == VT_SEM_FMAX) {
    r = fminmax(w, sem == VT_SEM_FMAX, a, b, fx);
    if (k && (r & ~sign) <= inf) r = vt_fp_scaled_op(f, VT_FP_SCALED_MUL, r, one_of(w), k, rm, fx);
  } else {
    int op = sem == VT_SEM_FADD ? VT_FP_SCALED_ADD : sem == VT_SEM_FSUB ? VT_FP_SCALED_SUB
                                                                        : VT_FP_SCALED_MUL;
    r = vt_fp_scaled_op(f, op, a, b, k, rm, fx);
  }
  if (md->clamp) {
    if ((r & ~sign) > inf || (r & sign) || r == 0) r = 0;
    else if (r > one_of(w)) r = one_of(w);
  }
  return r;
}

/* the operands of every lane at width w, after OPSEL and NEG/ABS */
static void gather(const vt_warp *w, const vt_insn *in, unsigned wd, const vop_mods *md,
                   uint64_t *a, uint64_t *b) {
  const uint32_t fl = in->d->flags;
  const bool fp = (fl & VT_F_FP) != 0, scalar = (fl & VT_F_BX) != 0;
  const uint32_t x = w->x[in->rs1];
  for (unsigned i = 0; i < L; i++) {
    uint32_t s1 = scalar ? x : w->v[in->rs1][i], s2 = w->v[in->rs2][i];
    if (wd == 64) {
      b[i] = scalar ? (fp ? read_xp(w, in->rs1) : (uint64_t)(int64_t)(int32_t)x)
                    : (uint64_t)w->v[in->rs1 + 1][i] << 32 | s1;
      a[i] = (uint64_t)w->v[in->rs2 + 1][i] << 32 | s2;
    } else {
      b[i] = pick(s1, wd, md->opsel & 1);
      a[i] = pick(s2, wd, (md->opsel >> 1) & 1);
    }
    if (fp) {
      b[i] = vt_mod_fp(b[i], wd, md->neg & 1, md->abs & 1);
      a[i] = vt_mod_fp(a[i], wd, (md->neg >> 1) & 1, (md->abs >> 1) & 1);
    } else {
      b[i] = vt_mod_int(b[i], wd, md->neg & 1, md->abs & 1);
      a[i] = vt_mod_int(a[i], wd, (md->neg >> 1) & 1, (md->abs >> 1) & 1);
    }
  }
}

/* checks at execution (3.8.3): vill, the element width, FS/frm, pairs */
static int check(vt_warp *w, const vt_insn *in, unsigned wd, int *rm, vt_error *err) {
  const uint32_t fl = in->d->flags;
  if (w->vill) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: vector instruction while vtype is illegal");
    return VT_ERR_ILLEGAL;
  }
  *rm = 0;
  if (fl & VT_F_FP) {
    if (wd == 8) return vt_villegal(err, in, wd, "no 8-bit floating point");
    if ((*rm = vt_vfp_rm(w, in, err)) < 0) return err ? err->status : VT_ERR_ILLEGAL;
  }
  if (wd == 64) {
    bool odd = (in->rd & 1) || (in->rs2 & 1);
    if (!(fl & VT_F_BX) || (fl & VT_F_FP)) odd |= (in->rs1 & 1) != 0; /* vs1, or the .vf pair */
    if (odd) return vt_vodd_pair(err);
  }
  return VT_OK;
}

int vt_exec_vop64(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const vt_insn_desc *d = in->d;
  const unsigned wd = vt_vsew(w);
  int rm;
  int rc = check(w, in, wd, &rm, err);
  if (rc != VT_OK) return rc;
  const vop_mods md = mods_of(in);
  const uint32_t m = w->mask & vt_vrange(w);
  uint64_t a[L], b[L], r[L];
  gather(w, in, wd, &md, a, b);
  uint32_t fx = 0;
  if (d->flags & VT_F_FP) {
    for (unsigned i = 0; i < L; i++) r[i] = (m >> i) & 1 ? fop(d->sem, wd, a[i], b[i], &md, rm, &fx) : 0;
  } else {
    for (unsigned i = 0; i < L; i++) r[i] = 0;
    if (!vt_vint_apply(wd, d->sem, d->flags, r, a, b, m, w)) return vt_vunimplemented(err, in, wd);
  }
  for (unsigned i = 0; i < L; i++) {
    if (!((m >> i) & 1)) continue;
    w->v[in->rd][i] = place(w->v[in->rd][i], r[i], wd, (md.opsel >> 2) & 1);
    if (wd == 64) w->v[in->rd + 1][i] = (uint32_t)(r[i] >> 32);
  }
  vt_vfp_flags(dev, w, fx);
  trace_v(dev, w, in->rd, m);
  if (wd == 64) trace_v(dev, w, in->rd + 1, m);
  return VT_OK;
}
