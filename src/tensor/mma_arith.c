/* MMA arithmetic (isa2025.md 4.7, 4.8, D30, C25).
 *
 * Float types: every product a_k * b_k is exact (at most 24 x 24 significand
 * bits) and is added to an exact fixed-point sum, so S = sum t_k does not
 * depend on the order (the implementation note of 4.7):
 *  - f32 and bf16: a two's-complement accumulator of 9 x 64 bits whose bit 0
 *    weighs 2^-298 (the smallest binary32 subnormal squared); 16 products of
 *    the largest binary32 values stay below 2^260 (exact for k < 2^20);
 *  - f16, FP8, FP6, FP4: products lie in [2^-48, 2^32), so a signed 128-bit
 *    integer counting units of 2^-64 holds any legal sum exactly.
 * S is rounded once to the product type PT (binary16 for f16 A/B, binary32
 * otherwise) with the shared rounding step of src/fp/fp_round.h; then D =
 * P + c is one IEEE addition in the C/D type (vt_f16_add / vt_f32_add, exact
 * integer arithmetic). NaN, Inf and zero signs as 4.7 lists them; RELU last;
 * flags are discarded (D29). A tile decodes each A and B element once.
 * Integer types: exact 64-bit sums, then saturation or wrap (4.8). */
#include "tensor/mma_arith.h"

#include <stdio.h>

#include "fp/fp16.h"
#include "fp/fp32.h"
#include "fp/fp_round.h"

__extension__ typedef __int128 vt_i128;

/* the largest A or B of a legal form: e4m3 m16n8k32 (float), s4 m16n8k64
 * and b1 m8n8k128 (integer) */
#define MAX_FLOAT_ELEMS 512
#define MAX_INT_ELEMS 1024

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

/* What a dot product has seen besides its finite non-zero products (4.7). */
typedef struct dot_flags {
  int nan, pos_inf, neg_inf, nonzero, all_neg_zero, all_pos_zero;
} dot_flags;

/* Classifies a_k * b_k: returns its sign (0/1) and sets *t, *e when it is
 * finite and non-zero (value (-1)^sign * t * 2^e), else records it in f and
 * returns -1. */
static inline int dot_term(dot_flags *f, const vt_mma_fval *x, const vt_mma_fval *y, uint64_t *t,
                           int *e) {
  const int neg = (int)(x->sign ^ y->sign);
  if (x->cls == VT_MMA_FINITE && y->cls == VT_MMA_FINITE) {
    *t = (uint64_t)x->sig * y->sig;
    *e = x->exp + y->exp;
    f->nonzero = 1;
    return neg;
  }
  if (x->cls == VT_MMA_NAN || y->cls == VT_MMA_NAN ||
      (x->cls == VT_MMA_INF && y->cls == VT_MMA_ZERO) ||
      (x->cls == VT_MMA_ZERO && y->cls == VT_MMA_INF))
    f->nan = 1;
  else if (x->cls == VT_MMA_INF || y->cls == VT_MMA_INF)
    *(neg ? &f->neg_inf : &f->pos_inf) = 1;
  else /* a zero product */
    *(neg ? &f->all_pos_zero : &f->all_neg_zero) = 0;
  return -1;
}

/* P of 4.7 in the product type (f16 for f16 A/B, else f32), or *nan = 1,
 * for the products a[i*as] * b[i*bs], i < k. Narrow types (f16, FP8, FP6,
 * FP4) have products in [2^-48, 2^32) and at most 32 of them: their exact
 * sum fits a 128-bit integer counting units of 2^-64. */
#define NARROW_LSB (-64)
static uint32_t dot_product(vt_mma_type t, int k, const vt_mma_fval *a, size_t as,
                            const vt_mma_fval *b, size_t bs, int rm, int *nan) {
  const int pt16 = t == VT_MMA_F16, wide = t == VT_MMA_F32 || t == VT_MMA_BF16;
  const vt_fp_fmt fmt = pt16 ? VT_FMT_F16 : VT_FMT_F32;
  const uint32_t sign_bit = pt16 ? 0x8000u : 0x80000000u, inf = pt16 ? 0x7c00u : 0x7f800000u;
  dot_flags f = {0, 0, 0, 0, 1, 1};
  exact_acc acc;
  vt_i128 narrow = 0;
  uint64_t tk;
  int ek, neg;
  if (wide) {
    for (int j = 0; j < ACC_LIMBS; j++) acc.w[j] = 0;
    for (int i = 0; i < k; i++)
      if ((neg = dot_term(&f, &a[(size_t)i * as], &b[(size_t)i * bs], &tk, &ek)) >= 0)
        acc_add(&acc, tk, ek - ACC_LSB, neg);
  } else {
    for (int i = 0; i < k; i++)
      if ((neg = dot_term(&f, &a[(size_t)i * as], &b[(size_t)i * bs], &tk, &ek)) >= 0) {
        vt_i128 v = (vt_i128)((vt_u128)tk << (ek - NARROW_LSB));
        narrow += neg ? -v : v;
      }
  }
  *nan = f.nan || (f.pos_inf && f.neg_inf);
  if (*nan) return 0;
  if (f.pos_inf || f.neg_inf) return f.neg_inf ? sign_bit | inf : inf;
  if (f.nonzero && wide) {
    int zero = 1;
    for (int j = 0; j < ACC_LIMBS; j++) zero &= acc.w[j] == 0;
    if (!zero) return acc_round(&acc, fmt, rm);
  } else if (f.nonzero && narrow != 0) {
    uint32_t sign = narrow < 0, flags = 0;
    vt_u128 mag = sign ? -(vt_u128)narrow : (vt_u128)narrow;
    return (uint32_t)vt_fp_round_u128(fmt, sign, mag, NARROW_LSB, rm, &flags);
  }
  if (f.nonzero || (!f.all_neg_zero && !f.all_pos_zero)) /* cancellation, mixed zeros */
    return rm == VT_RM_RDN ? sign_bit : 0;
  return f.all_neg_zero ? sign_bit : 0;
}

/* D = round(P + c) in the C/D type, canonical NaN, RELU last (4.7). */
static uint32_t add_c(vt_mma_type t, vt_mma_cd cd, uint32_t p, int nan, uint32_t c, int rm,
                      int relu) {
  uint32_t d, flags = 0;
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

static uint32_t int_result(int64_t r, int sat, int relu) {
  uint32_t d;
  if (sat)
    d = r > INT32_MAX ? (uint32_t)INT32_MAX : r < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)r;
  else
    d = (uint32_t)r; /* mod 2^32 */
  if (relu && (d & 0x80000000u)) d = 0;
  return d;
}

/* sum of x[i*xs] op y[i*ys] (4.8) */
static int64_t int_dot(vt_mma_type t, int k, const int32_t *x, size_t xs, const int32_t *y, size_t ys) {
  int64_t r = 0;
  if (t == VT_MMA_B1AND)
    for (int i = 0; i < k; i++) r += x[(size_t)i * xs] & y[(size_t)i * ys];
  else if (t == VT_MMA_B1XOR)
    for (int i = 0; i < k; i++) r += x[(size_t)i * xs] ^ y[(size_t)i * ys];
  else
    for (int i = 0; i < k; i++) r += (int64_t)x[(size_t)i * xs] * y[(size_t)i * ys];
  return r;
}

uint32_t vt_mma_dot(vt_mma_type t, vt_mma_cd cd, int k, const uint32_t *a, size_t a_stride,
                    const uint32_t *b, size_t b_stride, uint32_t c, int rm, int sat, int relu) {
  vt_mma_fval fa[VT_MMA_MAX_K], fb[VT_MMA_MAX_K];
  const int is_float = vt_mma_decode_float(t, 0, &fa[0]) == 0;
  const int legal = is_float ? cd == VT_MMA_CD_F32 || (cd == VT_MMA_CD_F16 && t == VT_MMA_F16)
                             : cd == VT_MMA_CD_S32 && (unsigned)t < VT_MMA_TYPE_COUNT;
  if (!legal || k < 0 || k > VT_MMA_MAX_K || (is_float && (rm < VT_RM_RNE || rm > VT_RM_RMM)))
    return 0;
  if (!is_float) {
    int32_t ia[VT_MMA_MAX_K], ib[VT_MMA_MAX_K];
    for (int i = 0; i < k; i++) {
      ia[i] = vt_mma_decode_int(t, a[(size_t)i * a_stride]);
      ib[i] = vt_mma_decode_int(t, b[(size_t)i * b_stride]);
    }
    return int_result((int32_t)c + int_dot(t, k, ia, 1, ib, 1), sat, relu);
  }
  for (int i = 0; i < k; i++) {
    vt_mma_decode_float(t, a[(size_t)i * a_stride], &fa[i]);
    vt_mma_decode_float(t, b[(size_t)i * b_stride], &fb[i]);
  }
  int nan;
  uint32_t p = dot_product(t, k, fa, 1, fb, 1, rm, &nan);
  return add_c(t, cd, p, nan, c, rm, relu);
}

/* Float tiles: every A and B element decoded once. */
static void compute_float(const vt_mma_geom *g, vt_mma_type t, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint32_t *d, int rm, int relu) {
  vt_mma_fval fa[MAX_FLOAT_ELEMS], fb[MAX_FLOAT_ELEMS];
  const int M = g->m, N = g->n, K = g->k;
  for (int i = 0; i < M * K; i++) vt_mma_decode_float(t, a[i], &fa[i]);
  for (int i = 0; i < K * N; i++) vt_mma_decode_float(t, b[i], &fb[i]);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int nan;
      uint32_t p = dot_product(t, K, &fa[m * K], 1, &fb[n], (size_t)N, rm, &nan);
      d[m * N + n] = add_c(t, g->cd, p, nan, c[m * N + n], rm, relu);
    }
}

static void compute_int(const vt_mma_geom *g, vt_mma_type t, const uint32_t *a, const uint32_t *b,
                        const uint32_t *c, uint32_t *d, int sat, int relu) {
  int32_t ia[MAX_INT_ELEMS], ib[MAX_INT_ELEMS];
  const int M = g->m, N = g->n, K = g->k;
  for (int i = 0; i < M * K; i++) ia[i] = vt_mma_decode_int(t, a[i]);
  for (int i = 0; i < K * N; i++) ib[i] = vt_mma_decode_int(t, b[i]);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int64_t r = (int32_t)c[m * N + n] + int_dot(t, K, &ia[m * K], 1, &ib[n], (size_t)N);
      d[m * N + n] = int_result(r, sat, relu);
    }
}

int vt_mma_compute(const vt_mma_form *f, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                   uint32_t *d, int rm, int sat, int relu, char *msg, size_t msz) {
  vt_mma_geom g;
  if (vt_mma_form_geom(f, 1, &g, msg, msz) != VT_MMA_OK) return -1;
  if (g.is_float && (rm < VT_RM_RNE || rm > VT_RM_RMM)) {
    if (msg && msz) snprintf(msg, msz, "rounding mode %d is not 0..4", rm);
    return -1;
  }
  if (g.is_float)
    compute_float(&g, f->type, a, b, c, d, rm, relu);
  else
    compute_int(&g, f->type, a, b, c, d, sat, relu);
  return 0;
}
