/* vt cc: double precision (tests/cc/fp64.cl) against the host's binary64
 * arithmetic (IEEE 754, round to nearest even) and C library (fma, sqrt,
 * floor, ...): arithmetic, comparisons, conversions from and to int, long,
 * float, rounding functions, vectors, divergence, a reduction and printf,
 * with edge values (signed zeros, subnormals, infinities, NaN, values
 * beyond the integer ranges, ties of conversions), varying (vector pairs)
 * and uniform (scalar registers), over several warp widths.
 * A NaN result may be any NaN (OpenCL C leaves the bits open); everything
 * else is compared bit for bit. Out-of-range conversions to integers follow
 * the RISC-V conversion instructions (saturating, NaN as the largest value;
 * RISC-V unprivileged spec, "Double-Precision Floating-Point Conversion"),
 * which OpenCL C leaves implementation-defined. */
#include <float.h>

#include "cc_test_util.h"

#ifdef VT_HAVE_CC
static uint64_t d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static double u2d(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static bool same_double(double got, double want) {
  return isnan(want) ? isnan(got) : d2u(got) == d2u(want);
}

static bool same_float(float got, float want) {
  return isnan(want) ? isnan(got) : f2u(got) == f2u(want);
}

static void check_doubles(check_state *st, const char *what, const double *got, const double *want,
                          size_t n, size_t per) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (!same_double(got[i], want[i]) && bad++ < 6)
      fprintf(stderr, "%s: item %zu output %zu = %a (0x%016llx), expected %a (0x%016llx)\n", what,
              i / per, i % per, got[i], (unsigned long long)d2u(got[i]), want[i],
              (unsigned long long)d2u(want[i]));
  if (bad) st->failed_checks++;
}

/* RISC-V fcvt.w.d / fcvt.wu.d / fcvt.l.d / fcvt.lu.d with rounding toward
 * zero */
static int32_t rv_fcvt_w(double x) {
  if (isnan(x) || x >= 0x1p31) return INT32_MAX;
  if (x <= -0x1p31 - 1) return INT32_MIN;
  return (int32_t)x;
}

static uint32_t rv_fcvt_wu(double x) {
  if (isnan(x) || x >= 0x1p32) return UINT32_MAX;
  if (x <= -1.0) return 0;
  return x < 0 ? 0 : (uint32_t)x;
}


static int64_t rv_fcvt_l(double x) {
  if (isnan(x) || x >= 0x1p63) return INT64_MAX;
  if (x < -0x1p63) return INT64_MIN;
  return (int64_t)x;
}

static uint64_t rv_fcvt_lu(double x) {
  if (isnan(x) || x >= 0x1p64) return UINT64_MAX;
  if (x <= -1.0) return 0;
  return x < 0 ? 0 : (uint64_t)x;
}

/* RISC-V fmin.d/fmax.d (IEEE 754-2019 minimumNumber/maximumNumber: a NaN
 * operand gives the other one, -0 < +0) */
static double rv_fminmax(double a, double b, bool max) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == 0 && b == 0) return (signbit(a) != 0) == max ? b : a;
  return (max ? a > b : a < b) ? a : b;
}

/* The edge values: zeros, ones, subnormals, the normal range's ends,
 * infinities, NaN, ties, values around 2^31, 2^32, 2^52, 2^53, 2^63, 2^64 */
static const double edge[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, -3.75, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
    0x1p-1074 /* smallest subnormal */, -0x1p-1074, 0x0.fffffffffffffp-1022 /* largest */,
    DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, 1e308, -1e-310, INFINITY, -INFINITY, NAN,
    2147483647.5, -2147483648.75, 3e9, -3e9, 4294967296.5, 0x1p52 - 0.5, 0x1p52 + 1, 0x1p53 + 2,
    0x1p63, -0x1p63, 0x1p63 - 1024, 1.8e19, 0x1p64, -0x1p64, 1e20, 123456789.987654321,
    0.49999999999999994, -0.49999999999999994, 1e-300, 7.0, 1.0 / 3.0, -2.0 / 3.0,
    /* conversions to binary32: ties, subnormals, overflow by rounding */
    0x1.000001p0, 0x1.000003p0, -0x1.0000010000001p0, 0x1.8p-149, 1e-40, 0x1.ffffffp127,
    0x1.fffffefffffffp127};
enum { NEDGE = sizeof edge / sizeof edge[0], N = 64 };

static void double_inputs(double *a, double *b) {
  uint32_t seed = 2024;
  for (int i = 0; i < N; i++) {
    a[i] = i < NEDGE ? edge[i]
                     : u2d(((uint64_t)(cc_rand(&seed) & 0x7fffffffu) << 32 | cc_rand(&seed)) %
                           0x7ff0000000000000ull);
    b[i] = edge[(i * 7 + 3) % NEDGE];
  }
  b[0] = 0.0;   /* 0 / 0 */
  b[1] = 0.0;   /* -0 / 0 */
  b[2] = -0.0;  /* 1 / -0 */
  b[5] = -3.75; /* equal */
  b[12] = 0x1p-1074, b[13] = 0.5; /* subnormal results */
}

enum { NARITH = 12 };

static void host_arith(double x, double y, double s, double *o) {
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, s);
  o[5] = sqrt(fabs(x));
  o[6] = -(x * s);
  o[7] = rv_fminmax(x, y, false);
  o[8] = rv_fminmax(x, s, true);
  o[9] = copysign(y, x);
  o[10] = sqrt(x);
  o[11] = -x;
}

static cc_prog fp64_prog(check_state *st, const char *level) {
  cc_prog p;
  const char *opts[] = {level, NULL};
  if (cc_build(&p, "fp64.cl", opts)) st->failed_checks++;
  return p;
}

static void run_arith(check_state *st, const cc_prog *p, const char *kernel, bool uniform, double s,
                      unsigned threads, unsigned local) {
  static double a[N], b[N], out[N * NARITH], want[N * NARITH];
  double_inputs(a, b);
  for (int i = 0; i < N; i++) host_arith(a[i], b[i], s, want + NARITH * i);
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out), ARG_VAL(&s)};
  vt_rt_ndrange nd = nd1(uniform ? N * local : N, local);
  cc_run run = {.threads = threads};
  char what[96];
  snprintf(what, sizeof what, "%s s=%g, %u threads", kernel, s, threads);
  int rc = cc_launch(p, kernel, &nd, args, 4, &run);
  CHECK(st, rc == 0);
  if (rc == 0) check_doubles(st, what, out, want, N * NARITH, NARITH);
}

TEST(arithmetic) {
  static const char *levels[] = {"-O2", "-O0"};
  for (int l = 0; l < 2; l++) {
    cc_prog p = fp64_prog(st, levels[l]);
    if (!p.elf) return;
    run_arith(st, &p, "arith", false, 0.1, 8, 16);
    run_arith(st, &p, "arith_u", true, -0x1p-1060, 4, 4);
    if (l == 0) {
      run_arith(st, &p, "arith", false, -INFINITY, 32, 64);
      run_arith(st, &p, "arith", false, 0x1p-1060, 4, 8);
      run_arith(st, &p, "arith_u", true, 3.0, 8, 1);
    }
    cc_prog_free(&p);
  }
}

static int host_compare(double x, double y) {
  return (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
         (isnan(x) != 0) << 6 | (isunordered(x, y) != 0) << 7 | (islessgreater(x, y) != 0) << 8 |
         (isinf(x) != 0) << 9 | (isfinite(x) != 0) << 10 | (signbit(x) != 0) << 11;
}

TEST(comparisons) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static double a[N], b[N];
  int32_t out[N], want[N];
  double_inputs(a, b);
  a[20] = b[20] = NAN;
  b[21] = NAN;
  for (int i = 0; i < N; i++) want[i] = host_compare(a[i], b[i]);
  for (int u = 0; u < 2; u++) {
    cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out)};
    vt_rt_ndrange nd = u ? nd1(N * 2, 2) : nd1(N, 16);
    cc_run run = {.threads = 8};
    CHECK(st, cc_launch(&p, u ? "compare_u" : "compare", &nd, args, 3, &run) == 0);
    check_words(st, u ? "compare_u" : "compare", out, want, N);
  }
  cc_prog_free(&p);
}

/* the long inputs of the conversions: ties of binary32 and binary64 */
static const int64_t long_edge[] = {0, 1, -1, INT64_MIN, INT64_MAX, (1ll << 53) + 1,
                                    -((1ll << 53) + 1), (1ll << 24) + 1, ((1ll << 24) + 1) << 20,
                                    (int64_t)0x8000008000000000ull, (int64_t)0x8000018000000000ull,
                                    0x7fffff8000000000ll, 0x7fffffffffffff00ll, 0xffffffffll,
                                    0x100000000ll, -0x100000001ll, (1ll << 54) + 3, 16777217,
                                    -16777219, 0x123456789abcdefll,
                                    /* rounded twice through binary64, the tie would go wrong */
                                    (1ll << 55) + (1ll << 31) + 1, -((1ll << 55) + (1ll << 31) + 1),
                                    (int64_t)(0x8000000000000000ull + (1ull << 39) + 1)};
enum { NLEDGE = sizeof long_edge / sizeof long_edge[0] };

TEST(conversions) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static double a[N], b[N], od[5 * N], wod[5 * N];
  static int64_t l[N], ol[2 * N], wol[2 * N];
  static float f[N], wf[N], lf[2 * N], wlf[2 * N];
  static int32_t iv[2 * N], wi[2 * N];
  double_inputs(a, b);
  uint32_t seed = 5;
  for (int g = 0; g < N; g++)
    l[g] = g < NLEDGE ? long_edge[g] : (int64_t)(((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed)) >> (g % 40);
  for (int g = 0; g < N; g++) {
    double x = a[g];
    int64_t v = l[g];
    wf[g] = (float)x;
    wi[2 * g] = rv_fcvt_w(x);
    wi[2 * g + 1] = (int32_t)rv_fcvt_wu(fabs(x));
    wol[2 * g] = rv_fcvt_l(x);
    wol[2 * g + 1] = (int64_t)rv_fcvt_lu(fabs(x));
    wod[5 * g] = (double)v;
    wod[5 * g + 1] = (double)(int32_t)(uint32_t)(uint64_t)v;
    wod[5 * g + 2] = (double)(float)x;
    wod[5 * g + 3] = (double)(uint64_t)v;
    wod[5 * g + 4] = (double)(uint32_t)(uint64_t)v;
    wlf[2 * g] = (float)v;
    wlf[2 * g + 1] = (float)(uint64_t)v;
  }
  cc_prog p0 = fp64_prog(st, "-O0");
  for (int u = 0; u < 4; u++) { /* varying, uniform; at -O2, then at -O0 */
    cc_arg args[] = {ARG_IN(a, sizeof a),   ARG_IN(l, sizeof l),     ARG_OUT(f, sizeof f),
                     ARG_OUT(iv, sizeof iv), ARG_OUT(ol, sizeof ol), ARG_OUT(od, sizeof od),
                     ARG_OUT(lf, sizeof lf)};
    vt_rt_ndrange nd = u & 1 ? nd1(N * 4, 4) : nd1(N, 32);
    cc_run run = {.threads = u & 1 ? 4 : 16};
    const char *k = u & 1 ? "convert_u" : "convert";
    if (u >= 2 && !p0.elf) break;
    CHECK(st, cc_launch(u < 2 ? &p : &p0, k, &nd, args, 7, &run) == 0);
    int bad = 0;
    for (int g = 0; g < N; g++) {
      if (!same_float(f[g], wf[g]) && bad++ < 4)
        fprintf(stderr, "%s: (float)%a = %a, expected %a\n", k, a[g], (double)f[g], (double)wf[g]);
      for (int j = 0; j < 2; j++) {
        if (iv[2 * g + j] != wi[2 * g + j] && bad++ < 4)
          fprintf(stderr, "%s: int %d of %a = %d, expected %d\n", k, j, a[g], iv[2 * g + j], wi[2 * g + j]);
        if (ol[2 * g + j] != wol[2 * g + j] && bad++ < 4)
          fprintf(stderr, "%s: long %d of %a = %lld, expected %lld\n", k, j, a[g],
                  (long long)ol[2 * g + j], (long long)wol[2 * g + j]);
        if (!same_float(lf[2 * g + j], wlf[2 * g + j]) && bad++ < 4)
          fprintf(stderr, "%s: float %d of %lld = %a, expected %a\n", k, j, (long long)l[g],
                  (double)lf[2 * g + j], (double)wlf[2 * g + j]);
      }
    }
    if (bad) st->failed_checks++;
    check_doubles(st, k, od, wod, 5 * N, 5);
  }
  cc_prog_free(&p0);
  cc_prog_free(&p);
}

/* saturating conversions (OpenCL 1.2 6.2.3.3: NaN gives 0) after rounding r */
static int64_t sat(double r, double lo, double hi) {
  if (isnan(r)) return 0;
  if (r <= lo) return (int64_t)lo;
  if (r >= hi) return hi >= 0x1p63 ? INT64_MAX : (int64_t)hi;
  return (int64_t)r;
}

/* x rounded to binary32 toward zero (dir 0), +inf (1) or -inf (-1): the
 * nearest one moved by one step when it went the other way */
static float float_dir(double x, int dir) {
  float f = (float)x;
  if (isnan(x)) return f;
  if (dir == 0 && fabs((double)f) > fabs(x)) f = nextafterf(f, 0.0f);
  if (dir > 0 && (double)f < x) f = nextafterf(f, INFINITY);
  if (dir < 0 && (double)f > x) f = nextafterf(f, -INFINITY);
  return f;
}

TEST(convert_modes) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static double a[N], b[N];
  static int32_t iv[6 * N];
  static int64_t lv[2 * N];
  static float fv[3 * N];
  double_inputs(a, b);
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(iv, sizeof iv), ARG_OUT(lv, sizeof lv),
                   ARG_OUT(fv, sizeof fv)};
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "convert_modes", &nd, args, 4, &run) == 0);
  int bad = 0;
  for (int g = 0; g < N; g++) {
    double x = a[g];
    int64_t wi[6] = {sat(trunc(x), INT32_MIN, INT32_MAX), sat(nearbyint(x), INT32_MIN, INT32_MAX),
                     (int32_t)(uint32_t)sat(trunc(x), 0, UINT32_MAX),
                     sat(trunc((double)(float)x), INT32_MIN, INT32_MAX),
                     sat(trunc(x), INT32_MIN, INT32_MAX), sat(trunc(-x), INT32_MIN, INT32_MAX)};
    int64_t wl[2] = {sat(trunc(x), -0x1p63, 0x1p63), sat(floor(x), -0x1p63, 0x1p63)};
    float wf[3] = {float_dir(x, 0), float_dir(x, 1), float_dir(x, -1)};
    for (int k = 0; k < 6; k++)
      if (iv[6 * g + k] != (int32_t)wi[k] && bad++ < 6)
        fprintf(stderr, "int conversion %d of %a = %d, expected %d\n", k, x, iv[6 * g + k], (int32_t)wi[k]);
    for (int k = 0; k < 3; k++) {
      if (!same_float(fv[3 * g + k], wf[k]) && bad++ < 6)
        fprintf(stderr, "float conversion %d of %a = %a, expected %a\n", k, x, (double)fv[3 * g + k],
                (double)wf[k]);
    }
    for (int k = 0; k < 2; k++)
      if (lv[2 * g + k] != wl[k] && bad++ < 6)
        fprintf(stderr, "long conversion %d of %a = %lld, expected %lld\n", k, x, (long long)lv[2 * g + k],
                (long long)wl[k]);
  }
  if (bad) st->failed_checks++;
  cc_prog_free(&p);
}

TEST(float_to_long) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static const float edge_f[] = {0.0f, -0.0f, 1.5f, -1.5f, 0.75f, -0.75f, 1e10f, -1e10f, 9.3e18f,
                                 -9.3e18f, 0x1p63f, -0x1p63f, 1.8e19f, 2e19f, 0x1p64f, INFINITY,
                                 -INFINITY, NAN, 16777217.0f, 0x1.fffffep62f, -0x1.fffffep62f,
                                 2147483648.0f, 4294967296.0f, 1e-30f};
  enum { NF = sizeof edge_f / sizeof edge_f[0] };
  float a[NF];
  int64_t l[NF];
  uint64_t u[NF];
  memcpy(a, edge_f, sizeof a);
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(l, sizeof l), ARG_OUT(u, sizeof u)};
  vt_rt_ndrange nd = nd1(NF, 8);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "float_long", &nd, args, 3, &run) == 0);
  for (int g = 0; g < NF; g++) {
    int64_t wl = rv_fcvt_l((double)a[g]);
    uint64_t wu = rv_fcvt_lu(fabs((double)a[g]));
    if (l[g] != wl || u[g] != wu) {
      fprintf(stderr, "float_long(%a) = %lld, %llu, expected %lld, %llu\n", (double)a[g],
              (long long)l[g], (unsigned long long)u[g], (long long)wl, (unsigned long long)wu);
      st->failed_checks++;
    }
  }
  cc_prog_free(&p);
}

TEST(rounding_and_vectors) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static double a[N], b[N], out[5 * N], want[5 * N];
  double_inputs(a, b);
  for (int g = 0; g < N; g++) {
    want[5 * g] = floor(a[g]);
    want[5 * g + 1] = ceil(a[g]);
    want[5 * g + 2] = trunc(a[g]);
    want[5 * g + 3] = round(a[g]);
    want[5 * g + 4] = nearbyint(a[g]); /* the host's mode: to nearest even */
  }
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "rounding", &nd, args, 2, &run) == 0);
  check_doubles(st, "rounding", out, want, 5 * N, 5);
  /* double4: a[4g .. 4g+3] */
  static double vout[4 * N], vwant[4 * N];
  for (int g = 0; g < N / 4; g++) {
    const double *x = a + 4 * g;
    double *o = vwant + 16 * g;
    const double c[4] = {2.0, 0.5, -1.0, 3.0};
    for (int k = 0; k < 4; k++) {
      o[k] = x[k] * c[k] + x[3 - k]; /* two roundings: ISO C mode (-std=c11) does not fuse */
      o[4 + k] = floor(x[k]);
      o[8 + k] = ceil(x[k]);
    }
    o[12] = trunc(x[0]), o[13] = round(x[1]), o[14] = nearbyint(x[2]), o[15] = -x[1];
  }
  cc_arg vargs[] = {ARG_IN(a, sizeof a), ARG_OUT(vout, sizeof vout)};
  nd = nd1(N / 4, 8);
  CHECK(st, cc_launch(&p, "vectors", &nd, vargs, 2, &run) == 0);
  check_doubles(st, "vectors", vout, vwant, 4 * N, 16);
  cc_prog_free(&p);
}

TEST(uniform_and_divergent) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  enum { G = 48, L = 16 };
  double out[G], want[G], s = 2.75, t = -1.25;
  for (int g = 0; g < G; g++) {
    double u = s * t, v = u / (s + 1.0);
    double w = sqrt(v) - (double)(g / L);
    if (u > t) w += 0.5;
    want[g] = w + (double)(g % L);
  }
  cc_arg args[] = {ARG_OUT(out, sizeof out), ARG_VAL(&s), ARG_VAL(&t)};
  vt_rt_ndrange nd = nd1(G, L);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "uniform", &nd, args, 3, &run) == 0);
  check_doubles(st, "uniform (NaN: sqrt of a negative)", out, want, G, 1);
  s = 3.5, t = 0.25;
  for (int g = 0; g < G; g++) {
    double u = s * t, v = u / (s + 1.0);
    double w = sqrt(v) - (double)(g / L);
    if (u > t) w += 0.5;
    want[g] = w + (double)(g % L);
  }
  CHECK(st, cc_launch(&p, "uniform", &nd, args, 3, &run) == 0);
  check_doubles(st, "uniform", out, want, G, 1);

  static double a[N], b[N], dout[N], dwant[N];
  double_inputs(a, b);
  for (int g = 0; g < N; g++) {
    double x = a[g], r = x > 1.0 ? x * 0.5 : x - 3.0;
    int n = 0;
    while (r < 100.0 && n < 20) {
      r = fma(r, 2.0, 1.0); /* clang fuses r * 2.0 + 1.0 */
      n++;
    }
    dwant[g] = r + n;
  }
  cc_arg dargs[] = {ARG_IN(a, sizeof a), ARG_OUT(dout, sizeof dout)};
  for (unsigned th = 4; th <= 32; th *= 2) {
    nd = nd1(N, 32);
    run.threads = th;
    CHECK(st, cc_launch(&p, "diverge", &nd, dargs, 2, &run) == 0);
    check_doubles(st, "diverge", dout, dwant, N, 1);
  }
  cc_prog_free(&p);
}

TEST(dot_reduction) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  enum { NX = 1000, G = 4, L = 32 };
  static double x[NX], y[NX];
  uint32_t seed = 9;
  for (int i = 0; i < NX; i++) {
    x[i] = ((int32_t)cc_rand(&seed)) * 0x1p-20;
    y[i] = ((int32_t)cc_rand(&seed)) * 0x1p-33;
  }
  double partial[G], want[G], tmp[L];
  for (int g = 0; g < G; g++) {
    for (int lid = 0; lid < L; lid++) {
      double acc = 0.0;
      for (int j = g * L + lid; j < NX; j += G * L) acc = fma(x[j], y[j], acc);
      tmp[lid] = acc;
    }
    for (int s = L / 2; s > 0; s >>= 1)
      for (int lid = 0; lid < s; lid++) tmp[lid] += tmp[lid + s];
    want[g] = tmp[0];
  }
  int n = NX;
  cc_arg args[] = {ARG_IN(x, sizeof x), ARG_IN(y, sizeof y), ARG_OUT(partial, sizeof partial),
                   ARG_VAL(&n), ARG_LOCAL(L * sizeof(double))};
  vt_rt_ndrange nd = nd1(G * L, L);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "dot", &nd, args, 5, &run) == 0);
  check_doubles(st, "dot", partial, want, G, 1);
  cc_prog_free(&p);
}

/* distance from ref in units of the last place of the double nearest to ref */
static double ulps(double got, double ref) {
  if (isnan(ref)) return isnan(got) ? 0 : 1e9;
  if (isinf(ref)) return got == ref ? 0 : 1e9;
  int e;
  frexp(ref == 0 ? DBL_MIN : ref, &e);
  double ulp = ldexp(1.0, e - 53 < -1074 ? -1074 : e - 53);
  return fabs(got - ref) / ulp;
}

TEST(math_functions) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  enum { NM = 64, NFN = 16 };
  static const char *names[NFN] = {"sin", "cos", "tan", "exp", "log", "pow", "atan2", "cbrt",
                                   "hypot", "erf", "fmod", "ldexp", "exp2", "log2", "tanh", "asin"};
  /* OpenCL 1.2 7.4 (double), plus 1 for the host's own error */
  static const double limit[NFN] = {5, 5, 6, 4, 4, 17, 7, 3, 5, 17, 0, 0, 4, 4, 6, 5};
  static double a[NM], out[NM * NFN];
  uint32_t seed = 123;
  for (int g = 0; g < NM; g++) a[g] = ((int32_t)cc_rand(&seed)) * 0x1p-28; /* |x| < 8 */
  a[0] = 0.0, a[1] = -0.0, a[2] = 1.0, a[3] = -1.0, a[4] = 0.5, a[5] = 1e-300, a[6] = 700.0;
  a[7] = -700.0, a[8] = 3.141592653589793, a[9] = 1e6;
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(NM, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "math", &nd, args, 2, &run) == 0);
  int bad = 0;
  for (int g = 0; g < NM; g++) {
    double x = a[g], q = fabs(x) + 0x1p-10, ref[NFN] = {
        sin(x),  cos(x),          tan(x),   exp(x),           log(q),   pow(q, x),
        atan2(x, q), cbrt(x),     hypot(x, q), erf(x),        fmod(x, q * 0.375),
        ldexp(x, g - 32), exp2(x), log2(q), tanh(x),          asin(x / (q + 1.0))};
    for (int f = 0; f < NFN; f++) {
      double u = ulps(out[g * NFN + f], ref[f]);
      if (u > limit[f] && bad++ < 8)
        fprintf(stderr, "%s(%a) = %a, expected %a (%.1f ulp)\n", names[f], x, out[g * NFN + f],
                ref[f], u);
    }
  }
  if (bad) st->failed_checks++;
  cc_prog_free(&p);
}

TEST(pressure_private_struct) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  enum { G = 8 };
  static double a[16 * (G + 1)], out[16 * G], want[16 * G];
  uint32_t seed = 44;
  for (int i = 0; i < 16 * (G + 1); i++) a[i] = ((int32_t)cc_rand(&seed)) * 0x1p-27;
  for (int g = 0; g < G; g++)
    for (int k = 0; k < 16; k++) {
      const double *x = a + 16 * g, *y = a + 16 * (g + 1);
      double pr = x[k] * y[k], q = pr / (y[k] + 3.0);
      want[16 * g + k] = q - x[15 - k];
    }
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(G, 8);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "wide16", &nd, args, 2, &run) == 0);
  check_doubles(st, "wide16", out, want, 16 * G, 16);

  enum { NP = 32 };
  static double pa[NP + 8], pout[NP], pwant[NP];
  for (int i = 0; i < NP + 8; i++) pa[i] = i * 0.1 - 1.7;
  int k = 5;
  for (int g = 0; g < NP; g++) {
    int j = (g + k) & 7;
    pwant[g] = pa[g + j] * (double)(j + 1);
  }
  cc_arg pargs[] = {ARG_IN(pa, sizeof pa), ARG_OUT(pout, sizeof pout), ARG_VAL(&k)};
  nd = nd1(NP, 16);
  for (int lvl = 0; lvl < 2; lvl++) {
    cc_prog q = lvl ? fp64_prog(st, "-O0") : p;
    if (!q.elf) break;
    CHECK(st, cc_launch(&q, "private_array", &nd, pargs, 3, &run) == 0);
    check_doubles(st, lvl ? "private_array -O0" : "private_array", pout, pwant, NP, 1);
    if (lvl) cc_prog_free(&q);
  }

  struct {
    double x;
    int64_t y;
    int32_t z, pad;
  } sv = {0.3, -123456789012345ll, -7, 0};
  double sout[16], swant[16];
  for (int g = 0; g < 16; g++) swant[g] = fma(sv.x, (double)sv.y, (double)(sv.z + g));
  cc_arg sargs[] = {ARG_OUT(sout, sizeof sout), ARG_VAL(&sv)};
  nd = nd1(16, 16);
  CHECK(st, cc_launch(&p, "by_value", &nd, sargs, 2, &run) == 0);
  check_doubles(st, "by_value (clang fuses m + ...)", sout, swant, 16, 1);
  cc_prog_free(&p);
}

TEST(constant_tables_vec3) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static const double dtab[5] = {0.1, -2.5, 1e300, 0x1p-1074, -0.0};
  static const int64_t ltab[3] = {-1, 0x123456789abcdef0ll, INT64_MIN};
  double out[16], want[16];
  int64_t lout[16], lwant[16];
  for (int g = 0; g < 16; g++) {
    want[g] = dtab[g % 5] * 2.0;
    lwant[g] = (int64_t)((uint64_t)ltab[g % 3] + (uint64_t)g);
  }
  cc_arg args[] = {ARG_OUT(out, sizeof out), ARG_OUT(lout, sizeof lout)};
  vt_rt_ndrange nd = nd1(16, 8);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "tables", &nd, args, 2, &run) == 0);
  check_doubles(st, "tables", out, want, 16, 1);
  CHECK(st, memcmp(lout, lwant, sizeof lout) == 0);
  /* double3 */
  double a3[3 * 17], o3[3 * 16], w3[3 * 16];
  for (int i = 0; i < 3 * 17; i++) a3[i] = i * 0.7 - 9.1;
  for (int g = 0; g < 16; g++) {
    const double *x = a3 + 3 * g, *y = a3 + 3 * (g + 1);
    const int sw[3] = {2, 0, 1};
    for (int k = 0; k < 3; k++) {
      double pr = x[k] * y[k];
      w3[3 * g + k] = pr - x[sw[k]];
    }
  }
  cc_arg a3args[] = {ARG_IN(a3, sizeof a3), ARG_OUT(o3, sizeof o3)};
  CHECK(st, cc_launch(&p, "vec3", &nd, a3args, 2, &run) == 0);
  check_doubles(st, "vec3", o3, w3, 3 * 16, 3);
  cc_prog_free(&p);
}

TEST(printf_doubles) {
  cc_prog p = fp64_prog(st, "-O2");
  if (!p.elf) return;
  static const double a[8] = {0.0, -1.5, 1e100, 3.141592653589793, -0x1p-1074, INFINITY, 1e-5, 2.5};
  rt_capture cap = {.len = 0};
  cc_run run = {.threads = 4, .print = &cap};
  cc_arg args[] = {ARG_IN(a, sizeof a)};
  vt_rt_ndrange nd = nd1(8, 8);
  CHECK(st, cc_launch(&p, "print", &nd, args, 1, &run) == 0);
  for (int g = 0; g < 8; g++) {
    char line[512];
    snprintf(line, sizeof line, "%d: %f %.3e %g|%.2f %f,%f\n", g, a[g], a[g], a[g] * 2.0,
             (double)(float)a[g], a[g], -a[g]);
    if (!strstr(cap.text, line)) {
      fprintf(stderr, "missing line '%s' in:\n%s\n", line, cap.text);
      st->failed_checks++;
    }
  }
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(arithmetic), T(comparisons), T(conversions), T(convert_modes), T(float_to_long), T(rounding_and_vectors),
          T(uniform_and_divergent), T(dot_reduction), T(math_functions), T(pressure_private_struct), T(constant_tables_vec3),
          T(printf_doubles))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
