/* vt cc: half (binary16) as a storage format (tests/cc/half.cl):
 * vload_half from __global and __constant memory, vstore_half from float
 * and from double in the four rounding modes, vectors, varying and
 * uniform values. The reference decodes every binary16 value by its
 * definition (IEEE 754: (1024 + m) * 2^(e - 25), subnormals m * 2^-24) and
 * rounds by searching the two values around x, so it shares nothing with
 * the compiler's conversions. A NaN may be any NaN. */
#include <float.h>

#include "cc_test_util.h"

#ifdef VT_HAVE_CC
/* the value of binary16 bits h; the magnitude 0x7c00 (infinity) counts as
 * 2^16, the next value beyond 65504 for rounding */
static double half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  if (e == 31) v = m ? NAN : 65536.0;
  return h & 0x8000 ? -v : v;
}

enum { RTE, RTZ, RTP, RTN };

/* x rounded to binary16 with mode rm */
static uint16_t to_half(double x, int rm) {
  if (isnan(x)) return 0x7e00;
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isinf(x)) return sign | 0x7c00;
  uint16_t lo = 0; /* the largest magnitude <= a (up to 0x7bff) */
  while (lo < 0x7bff && half_value((uint16_t)(lo + 1)) <= a) lo++;
  if (half_value(lo) == a) return sign | lo;
  uint16_t hi = (uint16_t)(lo + 1);
  bool up; /* the magnitude rounds up */
  switch (rm) {
  case RTZ: up = false; break;
  case RTP: up = !sign; break;
  case RTN: up = sign; break;
  default: {
    double dl = a - half_value(lo), dh = half_value(hi) - a;
    up = dh < dl || (dh == dl && (hi & 1) == 0);
  }
  }
  return sign | (up ? hi : lo);
}

static bool same_half(uint16_t got, uint16_t want) {
  bool nan_w = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
  bool nan_g = (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
  return nan_w ? nan_g : got == want;
}

static const float edge[] = {
    0.0f, -0.0f, 1.0f, -2.0f, 0.1f, -0.1f, 1.0f / 3.0f, 65504.0f, 65519.0f, 65520.0f, -65520.0f,
    65536.0f, 1e6f, -1e6f, INFINITY, -INFINITY, NAN,
    0x1p-24f /* smallest subnormal */, 0x1p-25f /* tie with 0 */, 0x1.8p-24f /* tie, to 2 */,
    0x1p-26f, -0x1p-26f, 0x1.ff8p-15f /* largest subnormal */, 0x1p-14f /* smallest normal */,
    1.00048828125f /* 1 + 2^-11: tie, to 1 */, 1.00146484375f /* 1 + 3 * 2^-11: tie, up */,
    1.0004883f, -1.0004883f, 2049.0f, 4097.0f, 3.14159265f, -6.1e-5f, 1e-30f, FLT_MAX, 0.99997f};
enum { NEDGE = sizeof edge / sizeof edge[0], N = 64 };

static void float_inputs(float *f) {
  uint32_t seed = 16;
  for (int i = 0; i < N; i++) {
    if (i < NEDGE) {
      f[i] = edge[i];
    } else { /* random in binary16's range and a little beyond */
      uint32_t r = cc_rand(&seed);
      uint32_t bits = (r & 0x807fffffu) | ((100u + (r >> 23) % 60u) << 23);
      memcpy(&f[i], &bits, 4);
    }
  }
}

static void check_stores(check_state *st, const char *what, const uint16_t *got, const double *x,
                         int n) {
  int bad = 0;
  for (int rm = 0; rm < 4; rm++)
    for (int i = 0; i < n; i++) {
      uint16_t want = to_half(x[i], rm);
      if (!same_half(got[rm * n + i], want) && bad++ < 6)
        fprintf(stderr, "%s: mode %d of %a = 0x%04x, expected 0x%04x\n", what, rm, x[i],
                got[rm * n + i], want);
    }
  if (bad) st->failed_checks++;
}

TEST(stores_from_float) {
  cc_prog p;
  if (cc_build(&p, "half.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  float f[N];
  double x[N];
  static uint16_t out[4 * N];
  float_inputs(f);
  for (int i = 0; i < N; i++) x[i] = f[i];
  int n = N;
  for (int u = 0; u < 2; u++) {
    memset(out, 0xee, sizeof out);
    cc_arg args[] = {ARG_IN(f, sizeof f), ARG_OUT(out, sizeof out), ARG_VAL(&n)};
    vt_rt_ndrange nd = u ? nd1(N * 2, 2) : nd1(N, 16);
    cc_run run = {.threads = u ? 4 : 8};
    const char *k = u ? "store_half_u" : "store_half";
    CHECK(st, cc_launch(&p, k, &nd, args, 3, &run) == 0);
    check_stores(st, k, out, x, N);
  }
  cc_prog_free(&p);
}

TEST(stores_from_double) {
  cc_prog p;
  if (cc_build(&p, "half.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  double x[N];
  float f[N];
  static uint16_t out[4 * N];
  float_inputs(f);
  for (int i = 0; i < N; i++) x[i] = f[i];
  /* values only a double holds: just beside the ties, tiny, huge */
  x[40] = 1.00048828125 + 0x1p-40, x[41] = 1.00048828125 - 0x1p-40, x[42] = 65519.999999;
  x[43] = 0x1p-25 + 0x1p-60, x[44] = 1e-300, x[45] = -1e300, x[46] = 0x1p-1074, x[47] = -0.0;
  int n = N;
  cc_arg args[] = {ARG_IN(x, sizeof x), ARG_OUT(out, sizeof out), ARG_VAL(&n)};
  vt_rt_ndrange nd = nd1(N, 32);
  cc_run run = {.threads = 16};
  CHECK(st, cc_launch(&p, "store_half_d", &nd, args, 3, &run) == 0);
  check_stores(st, "store_half_d", out, x, N);
  cc_prog_free(&p);
}

TEST(loads_and_vectors) {
  cc_prog p;
  if (cc_build(&p, "half.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  static const uint16_t special[] = {0x0000, 0x8000, 0x3c00, 0xc000, 0x7bff, 0xfbff, 0x0001,
                                     0x8001, 0x03ff, 0x0400, 0x7c00, 0xfc00, 0x7e00, 0x3555};
  uint16_t h[N];
  uint32_t seed = 3;
  for (int i = 0; i < N; i++)
    h[i] = i < (int)(sizeof special / sizeof *special) ? special[i] : (uint16_t)cc_rand(&seed);
  float out[2 * N];
  cc_arg args[] = {ARG_IN(h, sizeof h), ARG_IN(h, sizeof h), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "load_half", &nd, args, 3, &run) == 0);
  int bad = 0;
  for (int i = 0; i < 2 * N; i++) {
    uint16_t b = h[i / 2];
    double want = (b & 0x7fff) == 0x7c00 ? (b & 0x8000 ? -INFINITY : INFINITY) : half_value(b);
    bool ok = isnan(want) ? isnan(out[i])
                          : (double)out[i] == want && (signbit(out[i]) != 0) == (signbit(want) != 0);
    if (!ok && bad++ < 6)
      fprintf(stderr, "vload_half(0x%04x) = %a, expected %a\n", b, (double)out[i], want);
  }
  if (bad) st->failed_checks++;
  /* half4 * 2 back to half4 (round to nearest even), vloada_half2 */
  uint16_t o[N];
  float f2[N / 2];
  cc_arg vargs[] = {ARG_IN(h, sizeof h), ARG_OUT(o, sizeof o), ARG_OUT(f2, sizeof f2)};
  nd = nd1(N / 4, 8);
  CHECK(st, cc_launch(&p, "vec_half", &nd, vargs, 3, &run) == 0);
  bad = 0;
  for (int i = 0; i < N; i++) {
    uint16_t b = h[i];
    double v = (b & 0x7fff) == 0x7c00 ? (b & 0x8000 ? -INFINITY : INFINITY) : half_value(b);
    uint16_t want = to_half((double)(float)(v * 2.0), RTE);
    if (!same_half(o[i], want) && bad++ < 6)
      fprintf(stderr, "vec_half: 2 * half 0x%04x = 0x%04x, expected 0x%04x\n", b, o[i], want);
  }
  for (int i = 0; i < N / 2; i++) {
    double want = half_value(h[i]);
    if ((h[i] & 0x7fff) == 0x7c00) want = h[i] & 0x8000 ? -INFINITY : INFINITY;
    if (!(isnan(want) ? isnan(f2[i]) : (double)f2[i] == want) && bad++ < 6)
      fprintf(stderr, "vloada_half2: 0x%04x = %a, expected %a\n", h[i], (double)f2[i], want);
  }
  if (bad) st->failed_checks++;
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(stores_from_float), T(stores_from_double), T(loads_and_vectors))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
