/* Scalar floating point, Zfinx (spec README decision 6): binary32 values in
 * x registers, x0 reads +0.0; every instruction needs mstatus.FS != Off.
 * Dispatch is on the table's operation and flags; arithmetic in src/fp. */
#include "exec_util.h"
#include "fp/fp32.h"

/* the rounding mode of an instruction that rounds: its rm field, or frm for
 * dyn (7); -1 for a reserved mode */
static int rounding(const vt_warp *w, const vt_insn *in, vt_error *err) {
  unsigned rm = (in->word >> 12) & 7;
  if (rm == 7) rm = w->frm;
  if (rm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: rounding mode %u", rm);
    return -1;
  }
  return (int)rm;
}

static bool rounds(unsigned sem) {
  switch (sem) {
  case VT_SEM_FADD: case VT_SEM_FSUB: case VT_SEM_FMUL: case VT_SEM_FDIV: case VT_SEM_FSQRT:
  case VT_SEM_FMA: case VT_SEM_CVT_F2I: case VT_SEM_CVT_I2F:
    return true;
  default: return false;
  }
}

static uint32_t compute(const vt_insn_desc *d, int rm, uint32_t a, uint32_t b, uint32_t c,
                        uint32_t *fl) {
  const bool sg = (d->flags & VT_F_SA) != 0;
  switch (d->sem) {
  case VT_SEM_FADD: return vt_f32_add(a, b, rm, fl);
  case VT_SEM_FSUB: return vt_f32_sub(a, b, rm, fl);
  case VT_SEM_FMUL: return vt_f32_mul(a, b, rm, fl);
  case VT_SEM_FDIV: return vt_f32_div(a, b, rm, fl);
  case VT_SEM_FSQRT: return vt_f32_sqrt(a, rm, fl);
  case VT_SEM_FMA:
    if (d->flags & VT_F_NEGP) a ^= 0x80000000u;
    if (d->flags & VT_F_NEGC) c ^= 0x80000000u;
    return vt_f32_fma(a, b, c, rm, fl);
  case VT_SEM_FMIN: return vt_f32_min(a, b, fl);
  case VT_SEM_FMAX: return vt_f32_max(a, b, fl);
  case VT_SEM_FSGNJ: return vt_f32_sgnj(a, b);
  case VT_SEM_FSGNJN: return vt_f32_sgnjn(a, b);
  case VT_SEM_FSGNJX: return vt_f32_sgnjx(a, b);
  case VT_SEM_FEQ: return (uint32_t)vt_f32_eq(a, b, fl);
  case VT_SEM_FLT: return (uint32_t)vt_f32_lt(a, b, fl);
  case VT_SEM_FLE: return (uint32_t)vt_f32_le(a, b, fl);
  case VT_SEM_FCLASS: return vt_f32_classify(a);
  case VT_SEM_CVT_F2I: return sg ? vt_f32_to_i32(a, rm, fl) : vt_f32_to_u32(a, rm, fl);
  case VT_SEM_CVT_I2F: return sg ? vt_i32_to_f32((int32_t)a, rm, fl) : vt_u32_to_f32(a, rm, fl);
  default: return a; /* FMV: the 32 bits unchanged (isa2025.md 3.1.7) */
  }
}

int vt_exec_fp(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_FS) == 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP used while mstatus.FS is Off");
    return VT_ERR_ILLEGAL;
  }
  int rm = 0;
  if (rounds(in->d->sem) && (rm = rounding(w, in, err)) < 0) return VT_ERR_ILLEGAL;
  uint32_t flags = 0, a = w->x[in->rs1], b = w->x[in->rs2], c = w->x[in->rs3];
  if (in->neg | in->abs) { /* a prefix's NEG/ABS on src1..src3 (isa2025.md 3.5.2) */
    a = (uint32_t)vt_mod_fp(a, 32, in->neg & 1, in->abs & 1);
    b = (uint32_t)vt_mod_fp(b, 32, (in->neg >> 1) & 1, (in->abs >> 1) & 1);
    c = (uint32_t)vt_mod_fp(c, 32, (in->neg >> 2) & 1, (in->abs >> 2) & 1);
  }
  uint32_t r = compute(in->d, rm, a, b, c, &flags);
  if (flags) {
    w->fflags |= flags;
    trace_csr(dev, VT_CSR_FFLAGS, w->fflags);
  }
  write_x(dev, w, in->rd, r);
  return VT_OK;
}
