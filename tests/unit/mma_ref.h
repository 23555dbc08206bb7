/* Independent reference model of the MMA arithmetic (isa2025.md 4.2, 4.7,
 * 4.8, C25) for the tests: shares no code with src/tensor or src/fp.
 *
 * Every element value is taken from the format definition of 4.2 (binary32
 * and bfloat16 through the host's float, the others by the 4.2 formula in
 * double, which holds every such value exactly) and turned into an exact
 * rational N / 2^160 with a sign-magnitude big integer N. Products are
 * big-integer products (scale 2^320) and the dot product is their exact
 * sum. Rounding is the textbook rule: the unit in the last place at the
 * value's exponent (never below the subnormal quantum), round bit + sticky,
 * mode decision, carry renormalisation, overflow by direction. The
 * NaN/Inf/zero-sign cases follow the text of 4.7 line by line. */
#ifndef VT_TEST_MMA_REF_H
#define VT_TEST_MMA_REF_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tensor/mma_form.h" /* the type codes (vt_mma_type), nothing else */

/* --- big natural numbers, 32-bit digits, little-endian ------------------ */
#define RB_DIGITS 40 /* 1280 bits: |products| < 2^(2*(128+160)+8) */
typedef struct rbig {
  uint32_t d[RB_DIGITS];
} rbig;

static int rb_is_zero(const rbig *a) {
  for (int i = 0; i < RB_DIGITS; i++)
    if (a->d[i]) return 0;
  return 1;
}
static rbig rb_from_u64_shl(uint64_t v, int sh) { /* v * 2^sh, sh >= 0 */
  rbig r;
  memset(&r, 0, sizeof r);
  for (int b = 0; b < 64; b++)
    if (v >> b & 1) r.d[(b + sh) / 32] |= 1u << ((b + sh) % 32);
  return r;
}
static int rb_len(const rbig *a) { /* digits up to the highest non-zero one */
  int n = RB_DIGITS;
  while (n > 0 && !a->d[n - 1]) n--;
  return n;
}
static rbig rb_mul(const rbig *a, const rbig *b) {
  rbig r;
  memset(&r, 0, sizeof r);
  const int la = rb_len(a), lb = rb_len(b);
  for (int i = 0; i < la; i++) {
    if (!a->d[i]) continue;
    uint64_t carry = 0;
    for (int j = 0; j < lb && i + j < RB_DIGITS; j++) {
      uint64_t t = (uint64_t)a->d[i] * b->d[j] + r.d[i + j] + carry;
      r.d[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
    if (i + lb < RB_DIGITS) r.d[i + lb] = (uint32_t)carry;
  }
  return r;
}
static int rb_cmp(const rbig *a, const rbig *b) {
  for (int i = RB_DIGITS - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}
static rbig rb_add(const rbig *a, const rbig *b) {
  rbig r;
  uint64_t carry = 0;
  for (int i = 0; i < RB_DIGITS; i++) {
    uint64_t t = (uint64_t)a->d[i] + b->d[i] + carry;
    r.d[i] = (uint32_t)t;
    carry = t >> 32;
  }
  return r;
}
static rbig rb_sub(const rbig *a, const rbig *b) { /* a >= b */
  rbig r;
  int64_t borrow = 0;
  for (int i = 0; i < RB_DIGITS; i++) {
    int64_t t = (int64_t)a->d[i] - b->d[i] - borrow;
    borrow = t < 0;
    r.d[i] = (uint32_t)(t + (borrow << 32));
  }
  return r;
}
static int rb_bit(const rbig *a, int i) {
  return i >= 0 && i < RB_DIGITS * 32 && (a->d[i / 32] >> (i % 32) & 1);
}
static int rb_bitlen(const rbig *a) {
  int n = rb_len(a);
  if (!n) return 0;
  int b = 31;
  while (!(a->d[n - 1] >> b & 1)) b--;
  return 32 * (n - 1) + b + 1;
}
static int rb_any_below(const rbig *a, int n) { /* any of bits 0..n-1 set */
  for (int i = 0; i < n / 32; i++)
    if (a->d[i]) return 1;
  return n % 32 && (a->d[n / 32] & ((1u << (n % 32)) - 1));
}
static uint64_t rb_bits_from(const rbig *a, int lo) { /* floor(a / 2^lo), < 2^64 */
  uint64_t v = 0;
  for (int i = 63; i >= 0; i--) v = v << 1 | (uint64_t)rb_bit(a, lo + i);
  return v;
}

/* signed exact numbers (-1)^neg * mag / 2^scale, the scale implied */
typedef struct rnum {
  int neg;
  rbig mag;
} rnum;
static rnum rn_add(const rnum *a, const rnum *b) {
  rnum r;
  if (a->neg == b->neg) {
    r.neg = a->neg;
    r.mag = rb_add(&a->mag, &b->mag);
  } else if (rb_cmp(&a->mag, &b->mag) >= 0) {
    r.neg = a->neg;
    r.mag = rb_sub(&a->mag, &b->mag);
  } else {
    r.neg = b->neg;
    r.mag = rb_sub(&b->mag, &a->mag);
  }
  if (rb_is_zero(&r.mag)) r.neg = 0;
  return r;
}

/* --- element values (4.2) ------------------------------------------------ */
enum { REF_ZERO, REF_FINITE, REF_INF, REF_NAN };
typedef struct ref_val {
  int cls, neg;
  double v; /* |value|, exact */
} ref_val;

/* 4.2 table: S/E/F bits, bias, which encodings are Inf/NaN */
enum { REF_IEEE, REF_E4M3, REF_NO_SPECIALS };
typedef struct ref_fmt {
  int ebits, fbits, bias, specials;
} ref_fmt;
static int ref_float_fmt(vt_mma_type t, ref_fmt *f) {
  static const struct {
    vt_mma_type t;
    ref_fmt f;
  } tab[] = {
      {VT_MMA_F16, {5, 10, 15, REF_IEEE}},       {VT_MMA_BF16, {8, 7, 127, REF_IEEE}},
      {VT_MMA_F32, {8, 23, 127, REF_IEEE}},      {VT_MMA_E4M3, {4, 3, 7, REF_E4M3}},
      {VT_MMA_E5M2, {5, 2, 15, REF_IEEE}},       {VT_MMA_E3M2, {3, 2, 3, REF_NO_SPECIALS}},
      {VT_MMA_E2M3, {2, 3, 1, REF_NO_SPECIALS}}, {VT_MMA_E2M1, {2, 1, 1, REF_NO_SPECIALS}},
      {VT_MMA_E3M0, {3, 0, 3, REF_NO_SPECIALS}},
  };
  *f = (ref_fmt){0, 0, 0, REF_NO_SPECIALS};
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (tab[i].t == t) {
      *f = tab[i].f;
      return 1;
    }
  return 0;
}

static ref_val ref_from_host_float(uint32_t bits) {
  float x;
  memcpy(&x, &bits, 4);
  ref_val r = {REF_FINITE, (int)(bits >> 31), fabs((double)x)};
  if (isnan(x)) r.cls = REF_NAN;
  else if (isinf(x)) r.cls = REF_INF;
  else if (x == 0) r.cls = REF_ZERO;
  return r;
}

static ref_val ref_decode(vt_mma_type t, uint32_t bits) {
  if (t == VT_MMA_F32) return ref_from_host_float(bits);
  if (t == VT_MMA_BF16) return ref_from_host_float((bits & 0xffffu) << 16);
  ref_fmt f;
  ref_float_fmt(t, &f);
  int width = 1 + f.ebits + f.fbits;
  bits &= (1u << width) - 1; /* FP6/FP4: the high bits of the byte are ignored (C22) */
  unsigned E = (bits >> f.fbits) & ((1u << f.ebits) - 1), F = bits & ((1u << f.fbits) - 1);
  unsigned Emax = (1u << f.ebits) - 1, Fmax = (1u << f.fbits) - 1;
  ref_val r = {REF_FINITE, (int)(bits >> (width - 1)), 0};
  if (f.specials == REF_IEEE && E == Emax) {
    r.cls = F ? REF_NAN : REF_INF;
    return r;
  }
  if (f.specials == REF_E4M3 && E == Emax && F == Fmax) {
    r.cls = REF_NAN;
    return r;
  }
  double frac = (double)F / (double)(1u << f.fbits);
  r.v = E == 0 ? ldexp(frac, 1 - f.bias) : ldexp(1.0 + frac, (int)E - f.bias);
  if (r.v == 0) r.cls = REF_ZERO;
  return r;
}

#define REF_SCALE 160 /* element values are integers / 2^160 */
static rnum ref_exact(const ref_val *x) { /* finite or zero */
  rnum r = {x->neg, {{0}}};
  if (x->cls != REF_FINITE) return r;
  int ex;
  double m = frexp(x->v, &ex); /* x = m * 2^ex, 0.5 <= m < 1 */
  uint64_t mi = (uint64_t)ldexp(m, 53);
  int sh = ex - 53 + REF_SCALE;
  while (sh < 0) { /* only trailing zero bits are dropped */
    mi >>= 1;
    sh++;
  }
  r.mag = rb_from_u64_shl(mi, sh);
  return r;
}

/* --- rounding (4.7 round(x, F, rm)) --------------------------------------- */
enum { REF_RNE, REF_RTZ, REF_RDN, REF_RUP, REF_RMM };
typedef struct ref_out {
  int p, emax, width; /* significand bits with the hidden one, bias, encoding bits */
} ref_out;
static const ref_out REF_OUT_F16 = {11, 15, 16};
static const ref_out REF_OUT_F32 = {24, 127, 32};

/* (-1)^neg * N / 2^scale, N != 0, rounded to o. */
static uint32_t ref_round(int neg, const rbig *N, int scale, ref_out o, int rm) {
  const int emin = 1 - o.emax;
  const int e = rb_bitlen(N) - 1 - scale; /* 2^e <= |x| < 2^(e+1) */
  int qe = (e < emin ? emin : e) - (o.p - 1); /* weight of the last kept bit */
  const int cut = qe + scale;                 /* N's bit of that weight; > 0 here */
  uint64_t q = rb_bits_from(N, cut);
  const int round_bit = rb_bit(N, cut - 1), sticky = rb_any_below(N, cut - 1);
  const int inexact = round_bit || sticky;
  int up = 0;
  switch (rm) {
  case REF_RNE: up = round_bit && (sticky || (q & 1)); break;
  case REF_RMM: up = round_bit; break;
  case REF_RDN: up = neg && inexact; break;
  case REF_RUP: up = !neg && inexact; break;
  default: up = 0; break;
  }
  q += (uint64_t)up;
  if (q == (1ull << o.p)) { /* carried into a new binade */
    q >>= 1;
    qe++;
  }
  const uint32_t sign = (uint32_t)neg << (o.width - 1);
  const int ebits = o.width - o.p;
  const uint32_t emask = (1u << ebits) - 1, fmask = (1u << (o.p - 1)) - 1;
  uint32_t biased = q < (1ull << (o.p - 1)) ? 0 : (uint32_t)(qe + o.p - 1 + o.emax);
  if (biased >= emask) { /* overflow */
    int to_inf = rm == REF_RNE || rm == REF_RMM || (rm == REF_RUP && !neg) || (rm == REF_RDN && neg);
    return sign | (to_inf ? emask << (o.p - 1) : ((emask - 1) << (o.p - 1)) | fmask);
  }
  return sign | biased << (o.p - 1) | ((uint32_t)q & fmask);
}

/* --- one D element ------------------------------------------------------- */
static int ref_is_float(vt_mma_type t) {
  ref_fmt f;
  return ref_float_fmt(t, &f);
}

static uint32_t ref_elem_float(vt_mma_type t, int cd_f16, int k, const uint32_t *a,
                               const uint32_t *b, size_t bstride, uint32_t c, int rm, int relu) {
  const ref_out pt = t == VT_MMA_F16 ? REF_OUT_F16 : REF_OUT_F32;
  const ref_out cdo = cd_f16 ? REF_OUT_F16 : REF_OUT_F32;
  const uint32_t cnan = cd_f16 ? 0x7e00u : 0x7fc00000u;
  int p_nan = 0, pinf = 0, ninf = 0, all_neg0 = 1, all_pos0 = 1;
  rnum S = {0, {{0}}};
  for (int i = 0; i < k; i++) {
    ref_val x = ref_decode(t, a[i]), y = ref_decode(t, b[(size_t)i * bstride]);
    int s = x.neg != y.neg;
    if (x.cls == REF_NAN || y.cls == REF_NAN) p_nan = 1;
    else if ((x.cls == REF_INF && y.cls == REF_ZERO) || (x.cls == REF_ZERO && y.cls == REF_INF)) p_nan = 1;
    else if (x.cls == REF_INF || y.cls == REF_INF) {
      if (s) ninf = 1;
      else pinf = 1;
    } else {
      rnum xe = ref_exact(&x), ye = ref_exact(&y);
      rnum tk = {s, rb_mul(&xe.mag, &ye.mag)};
      if (rb_is_zero(&tk.mag)) {
        if (s) all_pos0 = 0;
        else all_neg0 = 0;
      } else {
        all_pos0 = all_neg0 = 0;
        S = rn_add(&S, &tk);
      }
    }
  }
  /* P as an encoding of the product type */
  uint32_t P;
  const uint32_t psign = 1u << (pt.width - 1), pinf_bits = ((1u << (pt.width - pt.p)) - 1) << (pt.p - 1);
  if (p_nan || (pinf && ninf)) return cnan;
  if (pinf || ninf) P = (ninf ? psign : 0) | pinf_bits;
  else if (!rb_is_zero(&S.mag)) P = ref_round(S.neg, &S.mag, 2 * REF_SCALE, pt, rm);
  else if (all_neg0) P = psign;
  else if (all_pos0) P = 0;
  else P = rm == REF_RDN ? psign : 0;
  /* D = round(P + c) in the C/D type */
  vt_mma_type pty = t == VT_MMA_F16 ? VT_MMA_F16 : VT_MMA_F32;
  ref_val pv = ref_decode(pty, P), cv = ref_decode(cd_f16 ? VT_MMA_F16 : VT_MMA_F32, c);
  const uint32_t dsign = 1u << (cdo.width - 1), dinf = ((1u << (cdo.width - cdo.p)) - 1) << (cdo.p - 1);
  uint32_t D;
  if (cv.cls == REF_NAN) D = cnan;
  else if (pv.cls == REF_INF && cv.cls == REF_INF) D = pv.neg == cv.neg ? (pv.neg ? dsign : 0) | dinf : cnan;
  else if (pv.cls == REF_INF || cv.cls == REF_INF) D = ((pv.cls == REF_INF ? pv.neg : cv.neg) ? dsign : 0) | dinf;
  else {
    rnum pe = ref_exact(&pv), ce = ref_exact(&cv), sum = rn_add(&pe, &ce);
    if (!rb_is_zero(&sum.mag)) D = ref_round(sum.neg, &sum.mag, REF_SCALE, cdo, rm);
    else if (pv.cls == REF_ZERO && cv.cls == REF_ZERO && pv.neg == cv.neg) D = pv.neg ? dsign : 0;
    else D = rm == REF_RDN ? dsign : 0;
  }
  if (relu && (D & dsign)) D = 0;
  return D;
}

static int64_t ref_int_value(vt_mma_type t, uint32_t bits) {
  switch (t) {
  case VT_MMA_S8: return (int8_t)(uint8_t)bits;
  case VT_MMA_U8: return (uint8_t)bits;
  case VT_MMA_S4: return (bits & 8) ? (int64_t)(bits & 15) - 16 : (int64_t)(bits & 15);
  case VT_MMA_U4: return bits & 15;
  default: return bits & 1;
  }
}

static uint32_t ref_elem_int(vt_mma_type t, int k, const uint32_t *a, const uint32_t *b,
                             size_t bstride, uint32_t c, int sat, int relu) {
  int64_t R = (int32_t)c;
  for (int i = 0; i < k; i++) {
    int64_t x = ref_int_value(t, a[i]), y = ref_int_value(t, b[(size_t)i * bstride]);
    if (t == VT_MMA_B1AND) R += x && y;
    else if (t == VT_MMA_B1XOR) R += x != y;
    else R += x * y;
  }
  int64_t D = R;
  if (sat) D = R > 2147483647 ? 2147483647 : R < -2147483648LL ? -2147483648LL : R;
  uint32_t d = (uint32_t)((uint64_t)D & 0xffffffffu);
  if (relu && (int32_t)d < 0) d = 0;
  return d;
}

/* D[m][n] of a tile (element arrays as src/tensor/mma_layout.h). */
static uint32_t ref_elem(vt_mma_type t, int cd_f16, int K, int N, const uint32_t *A,
                         const uint32_t *B, int m, int n, uint32_t c, int rm, int sat, int relu) {
  if (ref_is_float(t))
    return ref_elem_float(t, cd_f16, K, A + (size_t)m * K, B + n, (size_t)N, c, rm, relu);
  return ref_elem_int(t, K, A + (size_t)m * K, B + n, (size_t)N, c, sat, relu);
}

#endif
