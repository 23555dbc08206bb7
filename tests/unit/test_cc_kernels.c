/* vt cc differential tests: OpenCL C kernels (the files in tests/cc)
 * compiled by libvtcc and run on the simulator through the runtime, over
 * several NDRange shapes and warp widths, against results computed here
 * (host integer arithmetic, host float arithmetic with fmaf where the
 * kernel uses fma). */
#include "cc_test_util.h"

#ifdef VT_HAVE_CC
static const unsigned widths[] = {4, 8, 16, 32};

static float fbits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

TEST(vecadd_shapes) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  static const uint32_t shapes[][2] = {{64, 64}, {96, 32}, {48, 12}, {40, 20}, {256, 128}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t w = 0; w < 4; w++) {
      uint32_t n = shapes[s][0], seed = 7 + (uint32_t)s;
      float *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n), *want = malloc(4 * n);
      for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)(int)(cc_rand(&seed) % 2001 - 1000) / 7.0f;
        b[i] = (float)(int)(cc_rand(&seed) % 2001 - 1000) / 3.0f;
        want[i] = a[i] + b[i];
      }
      cc_arg args[] = {ARG_IN(a, 4 * n), ARG_IN(b, 4 * n), ARG_OUT(c, 4 * n)};
      vt_rt_ndrange nd = nd1(n, shapes[s][1]);
      cc_run run = {.threads = widths[w]};
      CHECK(st, cc_launch(&p, "vecadd", &nd, args, 3, &run) == 0);
      check_words(st, "vecadd", c, want, n);
      free(a);
      free(b);
      free(c);
      free(want);
    }
  /* a scalar float argument and a bounds test (items past n do nothing) */
  float x[50], y[50], want[50], alpha = 1.5f;
  int n = 45;
  for (int i = 0; i < 50; i++) {
    x[i] = (float)i * 0.25f;
    y[i] = (float)(50 - i);
    want[i] = i < n ? alpha * x[i] + y[i] : y[i];
  }
  cc_arg args[] = {ARG_IN(x, sizeof x), ARG_IO(y, sizeof y), ARG_VAL(&alpha), ARG_VAL(&n)};
  vt_rt_ndrange nd = nd1(50, 10);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "saxpy", &nd, args, 4, &run) == 0);
  for (int i = 0; i < 50; i++) want[i] = i < n ? fmaf(alpha, x[i], want[i] - alpha * x[i]) : want[i];
  /* a * x + y may be contracted to fma(a, x, y): accept either rounding */
  for (int i = 0; i < 50; i++) {
    float yi = (float)(50 - i), u = alpha * x[i] + yi, f = fmaf(alpha, x[i], yi);
    if (i >= n) u = f = yi;
    if (y[i] != u && y[i] != f) {
      fprintf(stderr, "saxpy[%d] = %g, expected %g\n", i, (double)y[i], (double)u);
      st->failed_checks++;
      break;
    }
  }
  cc_prog_free(&p);
}

TEST(ids_3d) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  static const uint32_t shapes[][6] = {{8, 4, 2, 4, 2, 1}, {6, 6, 3, 3, 2, 3}, {16, 2, 2, 8, 1, 2},
                                       {5, 7, 3, 5, 1, 1}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const uint32_t *sh = shapes[s];
    uint32_t items = sh[0] * sh[1] * sh[2];
    uint32_t *out = malloc(40 * items);
    vt_rt_ndrange nd = {.dims = 3, .global = {sh[0], sh[1], sh[2]}, .local = {sh[3], sh[4], sh[5]},
                        .offset = {3, 0, 5}};
    cc_arg args[] = {ARG_OUT(out, 40 * items)};
    cc_run run = {.threads = widths[s % 4]};
    CHECK(st, cc_launch(&p, "ids", &nd, args, 1, &run) == 0);
    int bad = 0;
    for (uint32_t z = 0; z < sh[2]; z++)
      for (uint32_t y = 0; y < sh[1]; y++)
        for (uint32_t x = 0; x < sh[0]; x++) {
          const uint32_t *r = out + 10 * ((z * sh[1] + y) * sh[0] + x);
          uint32_t want[10] = {x + 3, y, z + 5, x % sh[3], y % sh[4], z % sh[5],
                               x / sh[3], y / sh[4], z / sh[5],
                               3000 + (sh[0] / sh[3]) * 100 + sh[4] * 10 + sh[2]};
          if (memcmp(r, want, sizeof want) && bad++ < 2) {
            fprintf(stderr, "ids item (%u,%u,%u):", x, y, z);
            for (int k = 0; k < 10; k++) fprintf(stderr, " %u/%u", r[k], want[k]);
            fprintf(stderr, "\n");
          }
        }
    if (bad) st->failed_checks++;
    free(out);
  }
  cc_prog_free(&p);
}

static int branches_ref(int i, int x) {
  int y;
  if (x < 0) y = x < -50 ? x * 3 : -x;
  else if (x < 10) y = x + 100;
  else switch (x & 3) {
    case 0: y = x / 3; break;
    case 1: y = x % 7; break;
    case 2: y = x << 2; break;
    default: y = ~x;
    }
  return (i & 1) ? y + 1 : y;
}

static int loops_ref(int n0) {
  int n = n0, s = 0, k = 0, t = 0;
  while (n > 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    s += n;
    k++;
    if (s > 100000) break;
  }
  for (int j = 0; j < (n0 & 15); j++)
    if (j % 3 != 1) t += j * j;
  return s * 1000 + k + t * 7;
}

static int simt_ref(int x) {
  int r = 0;
  if (x & 1) {
    for (int i = 0; i < 5; i++) r += i * x;
    int j = 0;
    while (j < x) {
      j += 3;
      if (j == 9) break;
    }
    r += j;
  }
  if (x > 40) return -1;
  for (int a = 0; a < (x & 7); a++)
    for (int b = 0; b < 4; b++) {
      if ((a + b + x) % 5 == 0) continue;
      r += a * b;
    }
  return r;
}

/* at -O2, -O0 (everything in private memory) and -O3 (unrolled) */
TEST(divergence_and_loops) {
  static const char *const levels[3][2] = {{"-O2", NULL}, {"-O0", NULL}, {"-O3", NULL}};
  for (int lvl = 0; lvl < 3; lvl++) {
    cc_prog p;
    if (cc_build(&p, "basic.cl", levels[lvl])) {
      st->failed_checks++;
      return;
    }
    enum { N = 96 };
    int in[N], out[N], want[N];
    uint32_t seed = 99;
    for (int i = 0; i < N; i++) in[i] = (int)(cc_rand(&seed) % 300) - 100;
    for (size_t w = 0; w < 4; w++) {
      vt_rt_ndrange nd = nd1(N, w == 3 ? 96 : 32);
      cc_run run = {.threads = widths[w]};
      cc_arg args[] = {ARG_IN(in, sizeof in), ARG_OUT(out, sizeof out)};
      CHECK(st, cc_launch(&p, "branches", &nd, args, 2, &run) == 0);
      for (int i = 0; i < N; i++) want[i] = branches_ref(i, in[i]);
      check_words(st, "branches", out, want, N);
      for (int i = 0; i < N; i++) in[i] = (in[i] + 100) * 3 + (i % 5);
      CHECK(st, cc_launch(&p, "loops", &nd, args, 2, &run) == 0);
      for (int i = 0; i < N; i++) want[i] = loops_ref(in[i]);
      check_words(st, "loops", out, want, N);
      for (int i = 0; i < N; i++) in[i] = in[i] / 3 - 100;
      int x[N];
      for (int i = 0; i < N; i++) {
        x[i] = (i * 7 + (int)w) % 50;
        want[i] = simt_ref(x[i]);
      }
      cc_arg a3[] = {ARG_IN(x, sizeof x), ARG_OUT(out, sizeof out)};
      CHECK(st, cc_launch(&p, "simt", &nd, a3, 2, &run) == 0);
      check_words(st, "simt", out, want, N);
    }
    cc_prog_free(&p);
  }
}

static uint32_t rotl(uint32_t x, uint32_t n) { return n & 31 ? (x << (n & 31)) | (x >> (32 - (n & 31))) : x; }

static int intops_ref(int x, int y) {
  uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
  signed char cx = (signed char)x;
  unsigned char ucx = (unsigned char)x;
  short sx = (short)x;
  unsigned short usx = (unsigned short)x;
  int r = 0;
  r += y ? x / y : 1;
  r ^= y ? x % y : 2;
  r += uy ? (int)(ux / uy) : 3;
  r ^= uy ? (int)(ux % uy) : 4;
  r += x >> (y & 31);
  r ^= (int)(ux >> (uy & 31));
  r += (int)((uint32_t)x << (y & 7));
  r ^= (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= y);
  r += cx * 3 + ucx + sx / 7 + usx % 11;
  r ^= (signed char)(cx + ucx) < 0 ? 1234 : 4321;
  int clz = ux ? __builtin_clz(ux) : 32;
  r += (x < y ? x : y) + (int)(ux > uy ? ux : uy) + (int)(uint32_t)(x < 0 ? -(int64_t)x : x) + clz +
       __builtin_popcount(uy);
  int mh = (int)(((int64_t)x * y) >> 32);
  uint32_t mhu = (uint32_t)(((uint64_t)ux * uy) >> 32);
  r ^= (int)((uint32_t)mh + mhu + rotl(ux, uy));
  return r;
}

TEST(integer_ops) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 64 };
  int a[N], b[N], out[N], want[N];
  uint32_t seed = 5;
  for (int i = 0; i < N; i++) {
    a[i] = (int)(cc_rand(&seed) % 4001) - 2000;
    b[i] = i % 9 == 0 ? 0 : (int)(cc_rand(&seed) % 201) - 100;
    want[i] = intops_ref(a[i], b[i]);
  }
  a[1] = 0x7fffff00; /* large values for mul_hi and the unsigned paths */
  b[1] = -3;
  want[1] = intops_ref(a[1], b[1]);
  for (size_t w = 0; w < 4; w += 3) {
    vt_rt_ndrange nd = nd1(N, 16);
    cc_run run = {.threads = widths[w]};
    cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out)};
    CHECK(st, cc_launch(&p, "intops", &nd, args, 3, &run) == 0);
    check_words(st, "intops", out, want, N);
  }
  cc_prog_free(&p);
}

TEST(private_arrays) {
  cc_prog p;
  for (int o = 0; o < 2; o++) { /* -O0 keeps every local in private memory */
    const char *opts[] = {o ? "-O0" : "-O2", NULL};
    if (cc_build(&p, "basic.cl", opts)) {
      st->failed_checks++;
      return;
    }
    enum { N = 64 };
    int in[N], out[N], want[N];
    for (int i = 0; i < N; i++) in[i] = i * 7 - 30;
    for (int g = 0; g < N; g++) {
      int a[12], s = 0;
      for (int i = 0; i < 12; i++) a[i] = in[(g + i) % 64] * (i + 1);
      for (int i = 0; i < 12; i++) s += a[(i * 5 + g) % 12] ^ i;
      want[g] = s;
    }
    vt_rt_ndrange nd = nd1(N, 32);
    cc_run run = {.threads = 8};
    cc_arg args[] = {ARG_IN(in, sizeof in), ARG_OUT(out, sizeof out)};
    CHECK(st, cc_launch(&p, "private_array", &nd, args, 2, &run) == 0);
    check_words(st, o ? "private_array -O0" : "private_array", out, want, N);
    cc_prog_free(&p);
  }
}

TEST(by_value_arguments) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  struct {
    int a;
    float b;
    char c;
  } sv = {3, 1.5f, 7};
  int n = 5, out[16], want[16];
  float v[4] = {0, 0, 0, 100};
  for (int g = 0; g < 16; g++) want[g] = n + sv.a * g + 15 + 7 + 100;
  cc_arg args[] = {ARG_VAL(&n), {CA_SCALAR, &sv, sizeof sv, 0}, ARG_OUT(out, sizeof out),
                   {CA_SCALAR, v, sizeof v, 0}};
  vt_rt_ndrange nd = nd1(16, 8);
  cc_run run = {.threads = 4};
  CHECK(st, cc_launch(&p, "byvalue", &nd, args, 4, &run) == 0);
  check_words(st, "byvalue", out, want, 16);
  cc_prog_free(&p);
}

TEST(large_private_memory) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 48 };
  int in[N], out[N], want[N];
  for (int g = 0; g < N; g++) {
    in[g] = g * 1000;
    want[g] = 0;
    for (int i = g % 7; i < 1500; i += 7) want[g] += in[g] + i;
  }
  vt_rt_ndrange nd = nd1(N, 8); /* six workgroups, run concurrently on the SMs */
  cc_run run = {.threads = 4};
  cc_arg args[] = {ARG_IN(in, sizeof in), ARG_OUT(out, sizeof out)};
  CHECK(st, cc_launch(&p, "big_private", &nd, args, 2, &run) == 0);
  check_words(st, "big_private", out, want, N);
  cc_prog_free(&p);
}

TEST(spills_and_far_branches) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 32 };
  float in[72 * N], out[N], want[N];
  int k[40];
  for (int i = 0; i < 72 * N; i++) in[i] = (float)(i % 9) - 4.0f;
  for (int i = 0; i < 40; i++) k[i] = i * 7 - 100;
  for (int g = 0; g < N; g++) {
    float s = 0.0f;
    uint32_t t = 0;
    for (int i = 71; i >= 0; i--) s = s * 0.5f + in[g * 72 + i] * (float)(i + 1);
    for (int i = 39; i >= 0; i--) t = t * 3u + (uint32_t)(k[i] * (i + 3));
    want[g] = s + (float)(int32_t)t;
  }
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  cc_arg args[] = {ARG_IN(in, sizeof in), ARG_IN(k, sizeof k), ARG_OUT(out, sizeof out)};
  CHECK(st, cc_launch(&p, "pressure", &nd, args, 3, &run) == 0);
  check_words(st, "pressure", out, want, N);
  float x[N], r[N];
  for (int g = 0; g < N; g++) x[g] = (float)(g % 5);
  cc_arg a2[] = {ARG_IN(x, sizeof x), ARG_OUT(r, sizeof r)};
  CHECK(st, cc_launch(&p, "far_branches", &nd, a2, 2, &run) == 0);
  for (int g = 0; g < N; g++) { /* libclc's functions are within a few ulp: a tolerance */
    double v = x[g];
    for (int i = 0; i < (int)x[g]; i++)
      v = sin(v) + cos(v * 1.5) + sin(v + 2.0) + cos(v * 0.5) + tan(v * 0.1) + sin(v * 3.0) +
          cos(v + 1.0) + sin(v * 0.25) + i;
    if (fabs(r[g] - v) > 1e-4 * (fabs(v) + 1)) {
      fprintf(stderr, "far_branches[%d] = %g, expected about %g\n", g, (double)r[g], v);
      st->failed_checks++;
    }
  }
  cc_prog_free(&p);
}

TEST(float_ops) {
  cc_prog p;
  if (cc_build(&p, "basic.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 32 };
  float a[N], b[N], out[N], want[N];
  int iout[N], iwant[N];
  uint32_t seed = 11;
  for (int i = 0; i < N; i++) {
    a[i] = (float)((int)(cc_rand(&seed) % 2001) - 1000) / 64.0f;
    b[i] = (float)((int)(cc_rand(&seed) % 2001) - 1000) / 32.0f;
  }
  a[3] = b[3];
  b[5] = 0.0f;
  a[7] = fbits(0x7fc00000); /* NaN */
  for (int i = 0; i < N; i++) {
    float x = a[i], y = b[i];
    float r = x > y ? x - y : y * 0.5f;
    r += (x == y) ? 1.0f : 0.0f;
    r += isnan(x) ? 100.0f : 0.0f;
    r += fminf(x, y) + fmaxf(x, y) + copysignf(2.0f, y) + fabsf(x);
    r += (float)(int)x + (float)(uint32_t)fabsf(y) + (float)i;
    want[i] = r / (y != 0.0f ? y : 1.0f);
    iwant[i] = (int)(x * 100.0f) + (x < y) * 1000000;
  }
  /* NaN: RISC-V float->int saturates to INT_MAX (isa.md 6.2) */
  iwant[7] = (int)(0x7fffffffu + 2000000u);
  vt_rt_ndrange nd = nd1(N, 16);
  cc_run run = {.threads = 8};
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_OUT(out, sizeof out),
                   ARG_OUT(iout, sizeof iout)};
  CHECK(st, cc_launch(&p, "floats", &nd, args, 4, &run) == 0);
  CHECK(st, isnan(out[7]));
  out[7] = want[7] = 0;
  check_words(st, "floats", out, want, N);
  check_words(st, "floats int", iout, iwant, N);
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(vecadd_shapes), T(ids_3d), T(divergence_and_loops), T(integer_ops), T(private_arrays),
          T(by_value_arguments), T(large_private_memory), T(spills_and_far_branches), T(float_ops))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
