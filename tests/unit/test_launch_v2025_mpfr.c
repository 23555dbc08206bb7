/* The v2025 example kernels (examples/kernels/sum64.s, dot64.s, cvt16.s,
 * memspace.s, prefixed.s, vop64.s) assembled with `vt as` and run through
 * `vt launch` (inputs from files, outputs saved with --save), one per
 * family of isa2025.md part 1, against independent expected values: the
 * host's 64-bit arithmetic, C's fma() (IEEE binary64), GNU MPFR
 * (fp_oracle.h) for binary16/bfloat16, and the integer rules written out
 * here. Also run with --timing: the same outputs. */
#include <sys/stat.h>
#include <sys/wait.h>

#include <math.h>

#include "check.h"
#include "fp_oracle.h"

static int sh(const char *cmd) {
  int rc = system(cmd);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static int spit(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  fwrite(data, 1, n, f);
  return fclose(f);
}

static size_t slurp(const char *path, void *buf, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, max, f);
  fclose(f);
  return n;
}

/* crt0.s + examples/kernels/NAME.s -> NAME.elf */
static bool build(const char *name) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' as '%s/examples/kernels/crt0.s' '%s/examples/kernels/%s.s' -o %s.elf",
           VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, name, name);
  return sh(cmd) == 0;
}

/* vt launch NAME.elf --kernel NAME GEOMETRY ARGS --save out_NAME[_t] */
static bool launch(check_state *st, const char *name, const char *geometry, const char *args,
                   bool timing) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "rm -rf out_%s && '%s' launch %s.elf --kernel %s %s %s %s --save out_%s -q "
           ">launch_%s.log 2>&1",
           name, VT_BINARY, name, name, geometry, args, timing ? "--timing" : "", name, name);
  int rc = sh(cmd);
  if (rc != 0) {
    st->failed_checks++;
    char log[64];
    snprintf(log, sizeof log, "cat launch_%s.log >&2", name);
    sh(log);
    return false;
  }
  return true;
}

static size_t output(const char *name, unsigned k, void *buf, size_t max) {
  char path[256];
  snprintf(path, sizeof path, "out_%s/arg%u.bin", name, k);
  return slurp(path, buf, max);
}

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

#define CHECK_EQ_U64(st, a, b)                                                             \
  do {                                                                                    \
    uint64_t a_ = (a), b_ = (b);                                                          \
    if (a_ != b_) {                                                                       \
      (st)->failed_checks++;                                                              \
      fprintf(stderr, "%s:%d: %s = 0x%016llx, expected 0x%016llx\n", __FILE__, __LINE__, #a, \
              (unsigned long long)a_, (unsigned long long)b_);                            \
    }                                                                                     \
  } while (0)

/* ---- 64-bit integer sum ---- */
TEST(sum64_kernel) {
  enum { N = 4096, L = 64 };
  static uint32_t in[N];
  uint64_t seed = 11, total = 0, part[L] = {0};
  for (unsigned i = 0; i < N; i++) {
    in[i] = (uint32_t)rnd(&seed);
    total += in[i];
    part[i % L] += in[i];
  }
  CHECK(st, build("sum64") && spit("sum_in.bin", in, sizeof in) == 0);
  for (int timing = 0; timing < 2; timing++) {
    char args[256];
    snprintf(args, sizeof args, "--arg in:sum_in.bin --arg out:%d --arg out:8 --arg u32:%d", 8 * L, N);
    if (!launch(st, "sum64", "--global 64 --local 64", args, timing)) return;
    uint64_t got[L], out = 0;
    CHECK(st, output("sum64", 1, got, sizeof got) == sizeof got);
    CHECK(st, output("sum64", 2, &out, 8) == 8);
    for (unsigned i = 0; i < L; i++) CHECK_EQ_U64(st, got[i], part[i]);
    CHECK_EQ_U64(st, out, total);
  }
}

/* ---- binary64 dot products ---- */
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

TEST(dot64_kernel) {
  enum { N = 1024, L = 32 };
  static double x[N], y[N];
  uint64_t seed = 12;
  for (unsigned i = 0; i < N; i++) {
    x[i] = u2d((rnd(&seed) & 0x800fffffffffffffull) | (uint64_t)(1013 + rnd(&seed) % 20) << 52);
    y[i] = u2d((rnd(&seed) & 0x800fffffffffffffull) | (uint64_t)(1013 + rnd(&seed) % 20) << 52);
  }
  double want[L];
  for (unsigned l = 0; l < L; l++) {
    double acc = 0.0;
    for (unsigned j = l; j < N; j += L) acc = fma(x[j], y[j], acc);
    want[l] = acc;
  }
  CHECK(st, build("dot64") && spit("dot_x.bin", x, sizeof x) == 0 && spit("dot_y.bin", y, sizeof y) == 0);
  for (int timing = 0; timing < 2; timing++) {
    char args[256];
    snprintf(args, sizeof args, "--arg in:dot_x.bin --arg in:dot_y.bin --arg out:%d --arg u32:%d", 8 * L, N);
    if (!launch(st, "dot64", "--global 32 --local 32", args, timing)) return;
    uint64_t got[L];
    CHECK(st, output("dot64", 2, got, sizeof got) == sizeof got);
    for (unsigned i = 0; i < L; i++) CHECK_EQ_U64(st, got[i], d2u(want[i]));
  }
}

/* ---- fp16 / bf16 conversions ---- */
TEST(cvt16_kernel) {
  enum { N = 4096 };
  static uint16_t h[N];
  static uint32_t f[N];
  uint64_t seed = 13;
  for (unsigned i = 0; i < N; i++) {
    h[i] = (uint16_t)(i * 16 + rnd(&seed) % 16); /* every 16-bit range */
    uint64_t r = rnd(&seed);
    f[i] = r % 3 ? ((uint32_t)r & 0x807fffffu) | (uint32_t)(100 + (r >> 40) % 50) << 23 : (uint32_t)r;
  }
  CHECK(st, build("cvt16") && spit("cvt_h.bin", h, sizeof h) == 0 && spit("cvt_f.bin", f, sizeof f) == 0);
  char args[256];
  snprintf(args, sizeof args,
           "--arg in:cvt_h.bin --arg in:cvt_f.bin --arg out:%d --arg out:%d --arg out:%d --arg out:%d",
           4 * N, 2 * N, 2 * N, 4 * N);
  if (!launch(st, "cvt16", "--global 4096 --local 64", args, false)) return;
  static uint32_t of[N], ofb[N];
  static uint16_t oh[N], ob[N];
  CHECK(st, output("cvt16", 2, of, sizeof of) == sizeof of);
  CHECK(st, output("cvt16", 3, oh, sizeof oh) == sizeof oh);
  CHECK(st, output("cvt16", 4, ob, sizeof ob) == sizeof ob);
  CHECK(st, output("cvt16", 5, ofb, sizeof ofb) == sizeof ofb);
  stats s = {0, 0};
  for (unsigned i = 0; i < N; i++) {
    uint32_t fl;
    char in[32];
    snprintf(in, sizeof in, "%u", i);
    report(st, &s, "out_f", in, of[i], 0, oracle_cvt(O_F16, O_F32, h[i], VT_RM_RNE, &fl), 0);
    report(st, &s, "out_h", in, oh[i], 0, oracle_cvt(O_F32, O_F16, f[i], VT_RM_RNE, &fl), 0);
    uint64_t b = oracle_cvt(O_F32, O_BF16, f[i], VT_RM_RNE, &fl);
    report(st, &s, "out_b", in, ob[i], 0, b, 0);
    report(st, &s, "out_fb", in, ofb[i], 0, oracle_cvt(O_BF16, O_F32, b, VT_RM_RNE, &fl), 0);
  }
}

/* ---- memory families with range CSRs ---- */
TEST(memspace_kernel) {
  enum { N = 256, L = 32 };
  static int32_t in[N];
  uint64_t seed = 14;
  for (unsigned i = 0; i < N; i++) in[i] = (int32_t)(rnd(&seed) % 100000) - 50000;
  CHECK(st, build("memspace") && spit("mem_in.bin", in, sizeof in) == 0);
  for (int timing = 0; timing < 2; timing++) {
    char args[256];
    snprintf(args, sizeof args, "--arg in:mem_in.bin --arg out:%d --arg u32:%d --arg local:%d",
             4 * N, N, 4 * L);
    if (!launch(st, "memspace", "--global 256 --local 32", args, timing)) return;
    int32_t got[N];
    CHECK(st, output("memspace", 1, got, sizeof got) == sizeof got);
    for (unsigned i = 0; i < N; i++) {
      unsigned g = i / L, nb = g * L + (i % L + 1) % L;
      CHECK_EQ_U32(st, got[i], (uint32_t)(2 * in[nb] + in[i]));
    }
  }
}

/* ---- prefixed sequences ---- */
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

TEST(prefixed_kernel) {
  enum { N = 256 };
  static int32_t a[N], b[N];
  static float x[N], y[N], z[N];
  uint64_t seed = 15;
  for (unsigned i = 0; i < N; i++) {
    a[i] = (int32_t)rnd(&seed), b[i] = (int32_t)(rnd(&seed) % 1000);
    if (i == 0) a[i] = INT32_MIN; /* ABS of INT_MIN is itself */
    x[i] = u2f(((uint32_t)rnd(&seed) & 0x807fffffu) | (uint32_t)(120 + rnd(&seed) % 14) << 23);
    y[i] = u2f(((uint32_t)rnd(&seed) & 0x807fffffu) | (uint32_t)(120 + rnd(&seed) % 14) << 23);
    z[i] = u2f(((uint32_t)rnd(&seed) & 0x807fffffu) | (uint32_t)(120 + rnd(&seed) % 14) << 23);
  }
  CHECK(st, build("prefixed") && spit("p_a.bin", a, sizeof a) == 0 && spit("p_b.bin", b, sizeof b) == 0 &&
                spit("p_x.bin", x, sizeof x) == 0 && spit("p_y.bin", y, sizeof y) == 0 &&
                spit("p_z.bin", z, sizeof z) == 0);
  const uint32_t lo = 0x89abcdefu, hi = 0x00000123u;
  char args[512];
  snprintf(args, sizeof args,
           "--arg in:p_a.bin --arg in:p_b.bin --arg in:p_x.bin --arg in:p_y.bin --arg in:p_z.bin "
           "--arg out:%d --arg out:%d --arg out:8 --arg out:%d --arg u32:%u --arg u32:%u",
           4 * N, 4 * N, 4 * N, lo, hi);
  if (!launch(st, "prefixed", "--global 256 --local 64", args, false)) return;
  int32_t o1[N], o4[N];
  float o2[N];
  uint64_t o3 = 0;
  CHECK(st, output("prefixed", 5, o1, sizeof o1) == sizeof o1);
  CHECK(st, output("prefixed", 6, o2, sizeof o2) == sizeof o2);
  CHECK(st, output("prefixed", 7, &o3, 8) == 8);
  CHECK(st, output("prefixed", 8, o4, sizeof o4) == sizeof o4);
  for (unsigned i = 0; i < N; i++) {
    uint32_t abs_a = a[i] < 0 ? 0u - (uint32_t)a[i] : (uint32_t)a[i];
    CHECK_EQ_U32(st, o1[i], abs_a - (uint32_t)b[i]);
    float w = fmaf(-x[i], y[i], z[i]);
    CHECK_EQ_U32(st, f2u(o2[i]), f2u(w));
    CHECK_EQ_U32(st, o4[i], (uint32_t)a[i] - 5u);
  }
  CHECK_EQ_U64(st, o3, (1ull << 32) - ((uint64_t)hi << 32 | lo));
}

/* ---- VOP64: fp16 halves and int8 bytes ---- */
TEST(vop64_kernel) {
  enum { N = 512 };
  static uint32_t a[N], b[N];
  uint64_t seed = 16;
  for (unsigned i = 0; i < N; i++) a[i] = (uint32_t)rnd(&seed), b[i] = (uint32_t)rnd(&seed);
  const uint32_t s = 0x0000007fu;
  CHECK(st, build("vop64") && spit("v_a.bin", a, sizeof a) == 0 && spit("v_b.bin", b, sizeof b) == 0);
  char args[256];
  snprintf(args, sizeof args,
           "--arg in:v_a.bin --arg in:v_b.bin --arg out:%d --arg out:%d --arg out:%d --arg u32:%u",
           4 * N, 4 * N, 4 * N, s);
  if (!launch(st, "vop64", "--global 512 --local 64", args, false)) return;
  uint32_t o1[N], o2[N], o3[N];
  CHECK(st, output("vop64", 2, o1, sizeof o1) == sizeof o1);
  CHECK(st, output("vop64", 3, o2, sizeof o2) == sizeof o2);
  CHECK(st, output("vop64", 4, o3, sizeof o3) == sizeof o3);
  stats st2 = {0, 0};
  for (unsigned i = 0; i < N; i++) {
    uint32_t fl;
    uint64_t m = oracle_scaled(O_F16, 2, a[i] >> 16, b[i] & 0xffff, 1, VT_RM_RNE, &fl);
    char in[32];
    snprintf(in, sizeof in, "%u", i);
    report(st, &st2, "vfmul half", in, o1[i], 0, (a[i] & 0xffff0000u) | (uint32_t)m, 0);
    int8_t b0 = (int8_t)b[i], a0 = (int8_t)a[i], sn = (int8_t)-(int8_t)s;
    uint8_t d = (uint8_t)((uint8_t)(a[i] >> 16) - (uint8_t)(b0 < 0 ? -b0 : b0));
    CHECK_EQ_U32(st, o2[i], (a[i] & 0xff00ffffu) | (uint32_t)d << 16);
    CHECK_EQ_U32(st, o3[i], (a[i] & 0xffffff00u) | (uint8_t)(a0 > sn ? a0 : sn));
  }
}

TEST(init) {
  (void)st;
  oracle_setup();
}

RUN_TESTS(T(init), T(sum64_kernel), T(dot64_kernel), T(cvt16_kernel), T(memspace_kernel),
          T(prefixed_kernel), T(vop64_kernel))
