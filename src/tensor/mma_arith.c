/* MMA arithmetic (isa2025.md 4.7, 4.8, D30, C25).
 *
 * Float types: every product a_k * b_k is exact (at most 24 x 24 significand
 * bits) and is added into a fixed-point two's-complement accumulator of
 * 9 x 64 bits whose lowest bit weighs 2^-298 (the smallest binary32
 * subnormal squared); the largest sum, 16 products of the largest binary32
 * values, is below 2^260, so S = sum t_k is exact whatever the order (the
 * implementation note of 4.7). S is then rounded once to the product type
 * PT (binary16 for f16 A/B, binary32 otherwise) with the shared rounding
 * step of src/fp/fp_round.h, and D = P + c is one IEEE addition in the C/D
 * type (vt_f16_add / vt_f32_add, exact integer arithmetic); NaN, Inf and
 * zero-sign rules as 4.7 lists them; RELU last. Flags are discarded (D29).
 * Integer types: exact 64-bit sums, then saturation or wrap (4.8). */
#include "tensor/mma_arith.h"

#include <stdio.h>

#include "fp/fp16.h"
#include "fp/fp32.h"
#include "fp/fp_round.h"

#define ACC_LIMBS 9
#define ACC_LSB (-298) /* weight of bit 0 of the accumulator: 2^ACC_LSB */

typedef struct exact_acc {
  uint64_t w[ACC_LIMBS]; /* two's complement, w[0] least significant */
} exact_acc;

/* acc += (neg ? -1 : 1) * sig * 2^(ACC_LSB + pos), sig < 2^64, pos >= 0. */
static void acc_add(exact_acc *acc, uint64_t sig, int pos, int neg) {
  const int i = pos >> 6, off = pos & 63;
  const vt_u128 v = (vt_u128)sig << off;
  const uint64_t part[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
  uint64_t carry = 0;
  for (int j = i; j < ACC_LIMBS; j++) {
    const uint64_t x = j - i < 2 ? part[j - i] : 0;
    if (j - i >= 2 && !carry) break;
    uint64_t r;
    uint64_t c1, c2;
    if (!neg) {
      c1 = __builtin_add_overflow(acc->w[j], x, &r);
      c2 = __builtin_add_overflow(r, carry, &r);
    } else {
      c1 = __builtin_sub_overflow(acc->w[j], x, &r);
      c2 = __builtin_sub_overflow(r, carry, &r);
    }
    acc->w[j] = r;
    carry = c1 | c2;
  }
}

/* Rounds the non-zero accumulator to fmt (rm) and returns the packed bits. */
static uint32_t acc_round(exact_acc *acc, vt_fp_fmt fmt, int rm) {
  const uint32_t neg = (uint32_t)(acc->w[ACC_LIMBS - 1] >> 63);
  if (neg) { /* magnitude = two's complement negation */
    uint64_t borrow = 1;
    for (int j = 0; j < ACC_LIMBS; j++) {
      acc->w[j] = ~acc->w[j] + borrow;
      borrow = borrow && acc->w[j] == 0;
    }
  }
  int hi = ACC_LIMBS - 1;
  while (hi > 0 && acc->w[hi] == 0) hi--;
  /* the top two limbs, the rest folded into a sticky bit: at least 65
   * significant bits stay above it (fp_round.h needs p + 2) */
  vt_u128 x = acc->w[hi];
  int e = ACC_LSB;
  if (hi > 0) {
    x = x << 64 | acc->w[hi - 1];
    e = ACC_LSB + 64 * (hi - 1);
    for (int j = 0; j < hi - 1; j++)
      if (acc->w[j]) x |= 1;
  }
  uint32_t flags = 0;
  return (uint32_t)vt_fp_round_u128(fmt, neg, x, e, rm, &flags);
}

/* The product value P of 4.7 in the product type (f16 for f16 A/B, else
 * f32), or *nan = 1. */
static uint32_t dot_product_float(vt_mma_type t, int k, const uint32_t *a, size_t as,
                                  const uint32_t *b, size_t bs, int rm, int *nan) {
  const int pt16 = t == VT_MMA_F16;
  const vt_fp_fmt fmt = pt16 ? VT_FMT_F16 : VT_FMT_F32;
  const uint32_t sign_bit = pt16 ? 0x8000u : 0x80000000u, inf = pt16 ? 0x7c00u : 0x7f800000u;
  exact_acc acc = {{0}};
  int pos_inf = 0, neg_inf = 0, nonzero = 0, all_neg_zero = 1, all_pos_zero = 1;
  *nan = 0;
  for (int i = 0; i < k; i++) {
    vt_mma_fval x, y;
    vt_mma_decode_float(t, a[(size_t)i * as], &x);
    vt_mma_decode_float(t, b[(size_t)i * bs], &y);
    const uint32_t s = x.sign ^ y.sign;
    if (x.cls == VT_MMA_NAN || y.cls == VT_MMA_NAN ||
        (x.cls == VT_MMA_INF && y.cls == VT_MMA_ZERO) ||
        (x.cls == VT_MMA_ZERO && y.cls == VT_MMA_INF)) {
      *nan = 1;
      return 0;
    }
    if (x.cls == VT_MMA_INF || y.cls == VT_MMA_INF) {
      *(s ? &neg_inf : &pos_inf) = 1;
    } else if (x.cls == VT_MMA_ZERO || y.cls == VT_MMA_ZERO) {
      *(s ? &all_pos_zero : &all_neg_zero) = 0;
    } else {
      all_pos_zero = all_neg_zero = 0;
      nonzero = 1;
      acc_add(&acc, (uint64_t)x.sig * y.sig, x.exp + y.exp - ACC_LSB, (int)s);
    }
  }
  if (pos_inf && neg_inf) {
    *nan = 1;
    return 0;
  }
  if (pos_inf || neg_inf) return neg_inf ? sign_bit | inf : inf;
  if (nonzero) {
    int zero = 1;
    for (int j = 0; j < ACC_LIMBS; j++) zero &= acc.w[j] == 0;
    if (!zero) return acc_round(&acc, fmt, rm);
  }
  if (all_neg_zero) return sign_bit;
  if (all_pos_zero) return 0;
  return rm == VT_RM_RDN ? sign_bit : 0;
}

static uint32_t dot_float(vt_mma_type t, vt_mma_cd cd, int k, const uint32_t *a, size_t as,
                          const uint32_t *b, size_t bs, uint32_t c, int rm, int relu) {
  int nan;
  uint32_t p = dot_product_float(t, k, a, as, b, bs, rm, &nan), d, flags = 0;
  if (cd == VT_MMA_CD_F16) {
    c &= 0xffffu;
    d = nan || (c & 0x7fffu) > 0x7c00u ? VT_F16_CANONICAL_NAN : vt_f16_add(p, c, rm, &flags);
    if (relu && (d & 0x8000u)) d = 0;
  } else {
    if (t == VT_MMA_F16) p = vt_f16_to_f32(p, &flags); /* exact (C25) */
    d = nan || (c & 0x7fffffffu) > 0x7f800000u ? VT_F32_CANONICAL_NAN : vt_f32_add(p, c, rm, &flags);
    if (relu && (d & 0x80000000u)) d = 0;
  }
  return d;
}

static uint32_t dot_int(vt_mma_type t, int k, const uint32_t *a, size_t as, const uint32_t *b,
                        size_t bs, uint32_t c, int sat, int relu) {
  int64_t r = (int32_t)c;
  for (int i = 0; i < k; i++) {
    int32_t x = vt_mma_decode_int(t, a[(size_t)i * as]), y = vt_mma_decode_int(t, b[(size_t)i * bs]);
    r += t == VT_MMA_B1AND ? (x & y) : t == VT_MMA_B1XOR ? (x ^ y) : (int64_t)x * y;
  }
  uint32_t d;
  if (sat)
    d = r > INT32_MAX ? (uint32_t)INT32_MAX : r < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)r;
  else
    d = (uint32_t)r; /* mod 2^32 */
  if (relu && (d & 0x80000000u)) d = 0;
  return d;
}

uint32_t vt_mma_dot(vt_mma_type t, vt_mma_cd cd, int k, const uint32_t *a, size_t a_stride,
                    const uint32_t *b, size_t b_stride, uint32_t c, int rm, int sat, int relu) {
  vt_mma_fval probe;
  const int is_float = vt_mma_decode_float(t, 0, &probe) == 0;
  const int legal = is_float ? cd == VT_MMA_CD_F32 || (cd == VT_MMA_CD_F16 && t == VT_MMA_F16)
                             : cd == VT_MMA_CD_S32 && (unsigned)t < VT_MMA_TYPE_COUNT;
  if (!legal || k < 0 || (is_float && (rm < VT_RM_RNE || rm > VT_RM_RMM))) return 0;
  if (!is_float) return dot_int(t, k, a, a_stride, b, b_stride, c, sat, relu);
  return dot_float(t, cd, k, a, a_stride, b, b_stride, c, rm, relu);
}

int vt_mma_compute(const vt_mma_form *f, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                   uint32_t *d, int rm, int sat, int relu, char *msg, size_t msz) {
  vt_mma_geom g;
  if (vt_mma_form_geom(f, 1, &g, msg, msz) != VT_MMA_OK) return -1;
  if (g.is_float && (rm < VT_RM_RNE || rm > VT_RM_RMM)) {
    if (msg && msz) snprintf(msg, msz, "rounding mode %d is not 0..4", rm);
    return -1;
  }
  for (int m = 0; m < g.m; m++)
    for (int n = 0; n < g.n; n++) {
      size_t i = (size_t)m * (size_t)g.n + (size_t)n;
      d[i] = vt_mma_dot(f->type, g.cd, g.k, a + (size_t)m * (size_t)g.k, 1, b + n, (size_t)g.n,
                        c[i], rm, sat, relu);
    }
  return 0;
}
