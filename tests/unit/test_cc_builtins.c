/* vt cc built-ins and types: float math (exact functions bit for bit
 * against the host C library, the others within the OpenCL 1.2 ULP limits
 * of section 7.4 measured against double-precision libm), vector types
 * (float4, swizzles, vload/vstore, __constant tables, conversions, a
 * by-value float4 argument), device printf (the text the runtime prints)
 * and 64-bit integers. */
#include "cc_test_util.h"

#ifdef VT_HAVE_CC
enum { NF = 24 };

/* distance in units of the last place of the float nearest to 'ref' */
static double ulps(float got, double ref) {
  if (isnan(ref)) return isnan(got) ? 0 : 1e9;
  if (isinf(ref)) return (double)got == ref ? 0 : 1e9;
  float r = (float)ref;
  int e;
  frexpf(r == 0 ? 1e-38f : r, &e);
  double ulp = ldexp(1.0, (e - 24) < -149 ? -149 : e - 24);
  return fabs((double)got - ref) / ulp;
}

TEST(math_functions) {
  cc_prog p;
  if (cc_build(&p, "math.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 64 };
  float in[N], out[N * NF];
  uint32_t seed = 17;
  for (int i = 0; i < N; i++) in[i] = (float)((int)(cc_rand(&seed) % 16001) - 8000) / 1000.0f;
  in[0] = 0.0f;
  in[1] = -0.5f;
  in[2] = 2.5f;
  in[3] = -3.5f;
  cc_arg args[] = {ARG_IN(in, sizeof in), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(N, 32);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "mathfn", &nd, args, 2, &run) == 0);
  /* ULP limits of OpenCL 1.2 7.4 (full profile), k = function index */
  static const double limit[NF] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   4, 4, 3, 3, 16, 5, 6, 0, 3, 3, 2, 5};
  static const char *const names[NF] = {"sqrt", "floor", "ceil", "trunc", "round", "rint", "fmin",
                                        "fmax", "fma", "copysign", "fabs", "div", "sin", "cos",
                                        "exp", "log", "pow", "tan", "atan2", "fmod", "exp2",
                                        "log2", "rsqrt", "tanh"};
  double worst[NF] = {0};
  for (int g = 0; g < N; g++) {
    float x = in[g], ax = fabsf(x), y = in[(g + 1) % N];
    float exact[12] = {sqrtf(ax), floorf(x), ceilf(x), truncf(x), roundf(x), rintf(x),
                       fminf(x, y), fmaxf(x, y), fmaf(x, y, 1.5f), copysignf(ax, y), fabsf(x),
                       x / (y == 0.0f ? 1.0f : y)};
    double refs[NF] = {0};
    refs[12] = sin(x);
    refs[13] = cos(x);
    refs[14] = exp(x);
    refs[15] = log((double)(ax + 1.0f));
    refs[16] = pow((double)(ax + 0.5f), 1.7);
    refs[17] = tan((double)(x * 0.25f));
    refs[18] = atan2(x, y);
    refs[19] = fmodf(x, 1.25f);
    refs[20] = exp2(x);
    refs[21] = log2((double)(ax + 2.0f));
    refs[22] = 1.0 / sqrt((double)(ax + 1.0f));
    refs[23] = tanh(x);
    for (int k = 0; k < NF; k++) {
      float got = out[NF * g + k];
      double d = k < 12 ? (f2u(got) == f2u(exact[k]) ? 0 : 1e9) : ulps(got, refs[k]);
      bool worse = d > worst[k];
      if (worse) worst[k] = d;
      if (d > limit[k] && worse)
        fprintf(stderr, "%s(%g, %g) = %.9g (0x%08x), expected %.9g: %.1f ulp\n", names[k],
                (double)x, (double)y, (double)got, f2u(got), k < 12 ? (double)exact[k] : refs[k], d);
    }
  }
  for (int k = 0; k < NF; k++) {
    if (worst[k] > limit[k]) fprintf(stderr, "%s: %.1f ulp (limit %.0f)\n", names[k], worst[k], limit[k]);
    CHECK(st, worst[k] <= limit[k]);
  }
  cc_prog_free(&p);
}

TEST(vector_types) {
  cc_prog p;
  if (cc_build(&p, "vectors.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 24 };
  static const float weights[8] = {0.5f, -1.0f, 2.0f, 0.25f, 3.0f, -0.5f, 1.5f, 4.0f};
  static const int lut[5] = {7, 11, 13, 17, 19};
  float a[4 * N], b[4 * N], out[8 * N], want[8 * N], k[4] = {1.0f, -2.0f, 0.5f, 3.0f};
  for (int i = 0; i < 4 * N; i++) {
    a[i] = (float)(i % 17) - 5.0f;
    b[i] = (float)(i % 11) * 0.5f;
  }
  for (int g = 0; g < N; g++) {
    const float *x = a + 4 * g, *y = b + 4 * g;
    float r[4];
    for (int c = 0; c < 4; c++) r[c] = fmaf(x[c], y[c], k[c]); /* contracted */
    float t = r[0];
    r[0] = r[1];
    r[1] = t;
    float dot = x[0] * 1.0f + x[1] * 2.0f + x[2] * 3.0f + x[3] * 4.0f; /* exact: small integers */
    r[3] += dot;
    r[2] = fmaf(weights[g & 7], r[2], (float)lut[g % 5]);
    memcpy(want + 4 * g, r, sizeof r);
    for (int c = 0; c < 4; c++) want[4 * (N + g) + c] = x[3 - c];
  }
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out),
                   {CA_SCALAR, k, sizeof k, 0}};
  vt_rt_ndrange nd = nd1(N, 8);
  cc_run run = {.threads = 4};
  CHECK(st, cc_launch(&p, "vec4", &nd, args, 4, &run) == 0);
  check_words(st, "vec4", out, want, 8 * N);
  int ia[4 * N], iout[N], iwant[N];
  for (int i = 0; i < 4 * N; i++) ia[i] = (i * 37) % 300 - 100;
  for (int g = 0; g < N; g++) {
    const int *v = ia + 4 * g;
    int w[4] = {v[0] * 1 - v[3], v[1] * 2 - v[2], v[2] * 3 - v[1], v[3] * 4 - v[0]};
    int c1 = v[1] & 255;
    iwant[g] = w[0] + w[1] * 10 + w[2] * 100 + w[3] * 1000 + c1 + (int)((float)v[0] * (float)v[1]) +
               (v[0] > v[1]);
  }
  cc_arg a2[] = {ARG_IN(ia, sizeof ia), ARG_OUT(iout, sizeof iout)};
  CHECK(st, cc_launch(&p, "vecint", &nd, a2, 2, &run) == 0);
  check_words(st, "vecint", iout, iwant, N);
  cc_prog_free(&p);
}

TEST(printf_lines) {
  cc_prog p;
  if (cc_build(&p, "printf.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  int in[12];
  for (int i = 0; i < 12; i++) in[i] = i * 3;
  float f = 0.5f;
  rt_capture cap = {.len = 0};
  cc_run run = {.threads = 4, .print = &cap};
  cc_arg args[] = {ARG_IN(in, sizeof in), ARG_VAL(&f)};
  vt_rt_ndrange nd = nd1(12, 4);
  CHECK(st, cc_launch(&p, "hello", &nd, args, 2, &run) == 0);
  /* one line per odd item; lanes print in order within a warp */
  char want[1024] = "";
  for (int g = 0; g < 12; g++)
    if (in[g] & 1)
      snprintf(want + strlen(want), sizeof want - strlen(want), "item %d: in=%d f=%.2f odd!\n", g,
               in[g], (double)(f * (float)g));
  for (int g = 0; g < 12; g++) { /* warps may interleave: look for every line */
    if (!(in[g] & 1)) continue;
    char line[128];
    snprintf(line, sizeof line, "item %d: in=%d f=%.2f odd!\n", g, in[g], (double)(f * (float)g));
    CHECK(st, strstr(cap.text, line) != NULL);
  }
  CHECK(st, strlen(cap.text) == strlen(want));
  float v[16];
  for (int i = 0; i < 16; i++) v[i] = (float)i * 0.25f;
  rt_capture cap2 = {.len = 0};
  run.print = &cap2;
  cc_arg a2[] = {ARG_IN(v, sizeof v)};
  nd = nd1(4, 4);
  CHECK(st, cc_launch(&p, "hello_vec", &nd, a2, 1, &run) == 0);
  CHECK_STR(st, cap2.text,
            "0 0.000000,0.250000,0.500000,0.750000 abcd\n"
            "1 1.000000,1.250000,1.500000,1.750000 abcd\n"
            "2 2.000000,2.250000,2.500000,2.750000 abcd\n"
            "3 3.000000,3.250000,3.500000,3.750000 abcd\n");
  cc_prog_free(&p);
}

TEST(long_integers) {
  cc_prog p;
  if (cc_build(&p, "long.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 32 };
  int64_t a[N], b[N], out[N], want[N];
  uint32_t seed = 31;
  for (int i = 0; i < N; i++) {
    a[i] = (int64_t)(((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed)) >> (i % 40);
    b[i] = (int64_t)(((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed)) >> (i % 23);
  }
  b[3] = a[3];
  for (int i = 0; i < N; i++) {
    int64_t x = a[i], y = b[i];
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    uint64_t r = ux + uy;
    r ^= ux - uy;
    r += ux * uy;
    r ^= (ux << 5) + (uint64_t)(x >> 3) + (ux >> 17);
    r += (uint64_t)((x < y) + 2 * (ux < uy) + 4 * (x == y));
    r ^= (uint64_t)((int64_t)(int32_t)x * (int64_t)(uint32_t)y);
    r += (ux << (uy & 63)) ^ (uint64_t)(x >> (uy & 63)) ^ (ux >> ((uint64_t)(y >> 7) & 63));
    want[i] = (int64_t)r;
  }
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "longs", &nd, args, 3, &run) == 0);
  check_words(st, "longs", out, want, 2 * N);
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(math_functions), T(vector_types), T(printf_lines), T(long_integers))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
