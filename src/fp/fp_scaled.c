/* The scaled operation of fp_scaled.h: operands unpacked into integer
 * significands, the sum aligned in 128 bits (a sticky bit below 64 extra
 * bits when the exponents differ by more, as fp64.c does), the product exact
 * in 128 bits, then one rounding step (fp_round.h) at the exponent plus k.
 * Tested against MPFR in tests/unit/test_fp_scaled_mpfr.c. */
#include "fp/fp_scaled.h"

#include <stdbool.h>

typedef struct unp {
  uint32_t sign;
  int cls; /* 0 zero, 1 finite, 2 infinity, 3 quiet NaN, 4 signalling NaN */
  uint64_t m; /* integer significand, hidden bit included */
  int e;      /* value = m * 2^e */
} unp;

static unp unpack(vt_fp_fmt f, uint64_t a) {
  const int fb = f.prec - 1, ebits = f.sign_pos - fb;
  const uint64_t frac = a & ((1ull << fb) - 1u);
  const int be = (int)((a >> fb) & ((1u << ebits) - 1u));
  unp u = {(uint32_t)((a >> f.sign_pos) & 1u), 1, frac, 0};
  if (be == (1 << ebits) - 1) {
    u.cls = frac == 0 ? 2 : (frac >> (fb - 1)) & 1u ? 3 : 4;
  } else if (be == 0) {
    u.cls = frac == 0 ? 0 : 1;
    u.e = 1 - f.emax - fb;
  } else {
    u.m |= 1ull << fb;
    u.e = be - f.emax - fb;
  }
  return u;
}

static uint64_t pack_special(vt_fp_fmt f, uint32_t sign, bool inf) {
  const int fb = f.prec - 1;
  uint64_t e = ((uint64_t)(2 * f.emax + 1)) << fb;
  if (!inf) return e | (1ull << (fb - 1)); /* canonical NaN */
  return ((uint64_t)sign << f.sign_pos) | e;
}

static uint64_t scaled_add(vt_fp_fmt f, unp a, unp b, int k, int rm, uint32_t *flags) {
  if (a.cls == 2 || b.cls == 2) {
    if (a.cls == 2 && b.cls == 2 && a.sign != b.sign) {
      *flags |= VT_FFLAG_NV;
      return pack_special(f, 0, false);
    }
    return pack_special(f, a.cls == 2 ? a.sign : b.sign, true);
  }
  if (a.cls == 0 && b.cls == 0) { /* -0 + -0 = -0; otherwise +0 (-0 in RDN) */
    uint32_t s = a.sign == b.sign ? a.sign : rm == VT_RM_RDN;
    return (uint64_t)s << f.sign_pos;
  }
  if (a.cls == 0) a.e = b.e;
  if (b.cls == 0) b.e = a.e;
  if (a.e < b.e) {
    unp t = a;
    a = b;
    b = t;
  }
  /* a has the larger exponent: shift it up by at most 64, b down by the rest */
  int d = a.e - b.e, up = d < 64 ? d : 64;
  vt_u128 A = (vt_u128)a.m << up, B = vt_shr_jam128((vt_u128)b.m, d - up);
  int e = a.e - up;
  uint32_t sign = a.sign;
  vt_u128 S;
  if (a.sign == b.sign) {
    S = A + B;
  } else if (A >= B) {
    S = A - B;
  } else {
    S = B - A;
    sign = b.sign;
  }
  if (S == 0) return (uint64_t)(rm == VT_RM_RDN) << f.sign_pos; /* exact cancellation */
  return vt_fp_round_u128(f, sign, S, e + k, rm, flags);
}

uint64_t vt_fp_scaled_op(vt_fp_fmt f, int op, uint64_t a, uint64_t b, int k, int rm,
                         uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (x.cls >= 3 || y.cls >= 3) {
    if (x.cls == 4 || y.cls == 4) *flags |= VT_FFLAG_NV;
    return pack_special(f, 0, false);
  }
  if (op == VT_FP_SCALED_SUB) y.sign ^= 1u;
  if (op != VT_FP_SCALED_MUL) return scaled_add(f, x, y, k, rm, flags);
  uint32_t sign = x.sign ^ y.sign;
  if (x.cls == 2 || y.cls == 2) {
    if (x.cls == 0 || y.cls == 0) {
      *flags |= VT_FFLAG_NV;
      return pack_special(f, 0, false);
    }
    return pack_special(f, sign, true);
  }
  if (x.cls == 0 || y.cls == 0) return (uint64_t)sign << f.sign_pos;
  return vt_fp_round_u128(f, sign, (vt_u128)x.m * y.m, x.e + y.e + k, rm, flags);
}
