/* MMA element formats (isa2025.md 4.1, 4.2, D32): every float encoding
 * decoded exactly to sign * sig * 2^exp, integers to their values.
 *
 * One rule covers all float types: E = 0 gives 2^(1-bias) * F/2^m, E >= 1
 * gives 2^(E-bias) * (1 + F/2^m); only the Inf/NaN encodings differ: IEEE
 * (f32, f16, bf16, e5m2: E all ones), e4m3 (E = 15 and F = 7 is NaN, no
 * Inf), none (FP6, FP4; e3m0's E = 0 is +-0 because F has no bits). */
#include "tensor/mma_arith.h"

enum { SPECIALS_IEEE, SPECIALS_E4M3, SPECIALS_NONE };

typedef struct float_fmt {
  int ebits, mbits, bias, specials;
} float_fmt;

static int float_format(vt_mma_type t, float_fmt *f) {
  switch (t) {
  case VT_MMA_F16: *f = (float_fmt){5, 10, 15, SPECIALS_IEEE}; return 0;
  case VT_MMA_BF16: *f = (float_fmt){8, 7, 127, SPECIALS_IEEE}; return 0;
  case VT_MMA_F32: *f = (float_fmt){8, 23, 127, SPECIALS_IEEE}; return 0;
  case VT_MMA_E4M3: *f = (float_fmt){4, 3, 7, SPECIALS_E4M3}; return 0;
  case VT_MMA_E5M2: *f = (float_fmt){5, 2, 15, SPECIALS_IEEE}; return 0;
  case VT_MMA_E3M2: *f = (float_fmt){3, 2, 3, SPECIALS_NONE}; return 0;
  case VT_MMA_E2M3: *f = (float_fmt){2, 3, 1, SPECIALS_NONE}; return 0;
  case VT_MMA_E2M1: *f = (float_fmt){2, 1, 1, SPECIALS_NONE}; return 0;
  case VT_MMA_E3M0: *f = (float_fmt){3, 0, 3, SPECIALS_NONE}; return 0;
  default: return -1;
  }
}

int vt_mma_decode_float(vt_mma_type t, uint32_t bits, vt_mma_fval *v) {
  float_fmt f;
  *v = (vt_mma_fval){VT_MMA_ZERO, 0, 0, 0};
  if (float_format(t, &f) != 0) return -1;
  const uint32_t emax_field = (1u << f.ebits) - 1, fmask = (1u << f.mbits) - 1;
  const uint32_t E = (bits >> f.mbits) & emax_field, F = bits & fmask;
  v->sign = (bits >> (f.ebits + f.mbits)) & 1;
  if (f.specials == SPECIALS_IEEE && E == emax_field) {
    v->cls = F ? VT_MMA_NAN : VT_MMA_INF;
    v->sig = 0;
    v->exp = 0;
    return 0;
  }
  if (f.specials == SPECIALS_E4M3 && E == emax_field && F == fmask) {
    v->cls = VT_MMA_NAN;
    v->sig = 0;
    v->exp = 0;
    return 0;
  }
  v->sig = E ? F | (1u << f.mbits) : F;
  v->exp = (E ? (int)E : 1) - f.bias - f.mbits;
  v->cls = v->sig ? VT_MMA_FINITE : VT_MMA_ZERO;
  return 0;
}

int32_t vt_mma_decode_int(vt_mma_type t, uint32_t bits) {
  switch (t) {
  case VT_MMA_S8: return (int32_t)(bits & 0xff) - (int32_t)((bits & 0x80) << 1);
  case VT_MMA_U8: return (int32_t)(bits & 0xff);
  case VT_MMA_S4: return (int32_t)(bits & 0xf) - (int32_t)((bits & 0x8) << 1);
  case VT_MMA_U4: return (int32_t)(bits & 0xf);
  default: return (int32_t)(bits & 1); /* b1and, b1xor */
  }
}
