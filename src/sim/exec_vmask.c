/* Mask-register instructions (RVV 1.0 15): logic on packed mask bits (lane 0
 * of a register holds bit i for element i), population count, find-first,
 * set-before/including/only-first, and viota (element-wise at SEW). */
#include "exec_vector.h"

static uint32_t mask_logic(unsigned op, uint32_t a, uint32_t b) {
  switch (op) {
  case VT_SEM_MAND: return a & b;
  case VT_SEM_MNAND: return ~(a & b);
  case VT_SEM_MANDN: return a & ~b;
  case VT_SEM_MXOR: return a ^ b;
  case VT_SEM_MOR: return a | b;
  case VT_SEM_MNOR: return ~(a | b);
  case VT_SEM_MORN: return a | ~b;
  default: return ~(a ^ b); /* MXNOR */
  }
}

int vt_vmask(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err) {
  (void)err;
  uint32_t vlbits = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t a = w->v[in->rs2][0], b = w->v[in->rs1][0], r;
  switch (in->d->sem) {
  case VT_SEM_CPOP:
    write_x(dev, w, in->rd, (uint32_t)vt_popcount32(a & m));
    return VT_OK;
  case VT_SEM_FIRST: {
    uint32_t s = a & m;
    write_x(dev, w, in->rd, s ? (uint32_t)__builtin_ctz(s) : 0xffffffffu);
    return VT_OK;
  }
  case VT_SEM_MSBF: case VT_SEM_MSIF: case VT_SEM_MSOF: {
    uint32_t s = a & m, first = s & (0u - s);
    if (in->d->sem == VT_SEM_MSBF) r = s ? first - 1 : 0xffffffffu;
    else if (in->d->sem == VT_SEM_MSIF) r = s ? (first - 1) | first : 0xffffffffu;
    else r = first;
    r = (r & m) | (w->v[in->rd][0] & ~m);
    vlbits = m | ~vlbits; /* inactive elements keep their bits */
    break;
  }
  case VT_SEM_IOTA: {
    vctx c = vctx_make(w, in->rd);
    uint32_t count = 0;
    for (unsigned i = 0; i < VT_MAX_LANES; i++)
      if ((m >> i) & 1) {
        vput(&c, i, vt_vsew(w), count);
        count += (a >> i) & 1;
      }
    vtrace_group(dev, &c);
    return VT_OK;
  }
  default: r = mask_logic(in->d->sem, a, b); break;
  }
  w->v[in->rd][0] = (r & vlbits) | (w->v[in->rd][0] & ~vlbits);
  trace_v(dev, w, in->rd, 1);
  return VT_OK;
}
