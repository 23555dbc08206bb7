/* vt cc: 64-bit integers (long/ulong) against host 64-bit arithmetic:
 * every operation of tests/cc/long.cl with edge values (INT64_MIN, -1, 0,
 * shifts by 0, 31, 32, 63, division by negative numbers and by zero), in
 * vector registers (varying operands) and in scalar registers (uniform
 * ones), over several warp widths; printf of %ld/%lu/%lx. Division by zero
 * and INT64_MIN / -1 follow RV64M (x / 0 = -1, x % 0 = x, INT64_MIN / -1 =
 * INT64_MIN with remainder 0), the results of the instructions vt cc uses
 * (isa2025.md 3.2.3); OpenCL C leaves them undefined. */
#include "cc_test_util.h"

#ifdef VT_HAVE_CC
enum { NOPS = 36, N = 64 };

static int64_t rv_div(int64_t x, int64_t y) {
  if (y == 0) return -1;
  if (x == INT64_MIN && y == -1) return INT64_MIN;
  return x / y;
}

static int64_t rv_rem(int64_t x, int64_t y) {
  if (y == 0) return x;
  if (x == INT64_MIN && y == -1) return 0;
  return x % y;
}

static uint64_t rv_divu(uint64_t x, uint64_t y) { return y ? x / y : UINT64_MAX; }
static uint64_t rv_remu(uint64_t x, uint64_t y) { return y ? x % y : x; }

static int clz64(uint64_t x) {
  int n = 0;
  for (uint64_t bit = 1ull << 63; bit && !(x & bit); bit >>= 1) n++;
  return n;
}

static int popcount64(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/* the high 64 bits of the signed 128-bit product */
static int64_t mul_hi64(int64_t x, int64_t y) {
  __int128 p = (__int128)x * (__int128)y;
  return (int64_t)(p >> 64);
}

/* the expected outputs of long_ops (tests/cc/long.cl) */
static void host_ops(int64_t x, int64_t y, int n, int64_t *o) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  unsigned sh = (unsigned)n & 63;
  o[0] = (int64_t)(ux + uy);
  o[1] = (int64_t)(ux - uy);
  o[2] = (int64_t)(ux * uy);
  o[3] = rv_div(x, y);
  o[4] = rv_rem(x, y);
  o[5] = (int64_t)rv_divu(ux, uy);
  o[6] = (int64_t)rv_remu(ux, uy);
  o[7] = (int64_t)(ux << sh);
  o[8] = x >> sh;
  o[9] = (int64_t)(ux >> sh);
  o[10] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
          (ux < uy) << 6 | (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
  o[11] = (int32_t)(uint32_t)ux;
  o[12] = (uint32_t)ux;
  o[13] = (int64_t)(int16_t)(uint16_t)uy + (int64_t)(uint8_t)uy;
  o[14] = x / 7;
  o[15] = x % -3;
  o[16] = (int64_t)(ux / 10);
  o[17] = (int64_t)(ux << 63);
  o[18] = x >> 63;
  o[19] = (int64_t)((ux >> 63) + (uint64_t)(x >> 32) + (ux << 32));
  o[20] = (int64_t)(0 - ux);
  o[21] = (int64_t)(~ux & uy);
  o[22] = (int64_t)((ux | uy) ^ 0x123456789abcdefull);
  o[23] = x < y ? x : y;
  o[24] = (int64_t)(x < 0 ? 0 - ux : ux);
  o[25] = x > y ? x : y;
  o[26] = (int64_t)(ux < uy ? ux : uy);
  o[27] = clz64(ux);
  o[28] = popcount64(uy);
  o[29] = mul_hi64(x, y);
  unsigned r = (unsigned)n & 63, r2 = (unsigned)(64 - n) & 63;
  o[30] = (int64_t)(r ? ux << r | ux >> (64 - r) : ux);
  o[31] = (int64_t)(r2 ? ux << r2 | ux >> (64 - r2) : ux);
  o[32] = (int64_t)((uint64_t)mul_hi64(x, y) + (uint64_t)(int64_t)n);
  o[33] = (int64_t)(((__int128)x + y) >> 1);
  o[34] = (int64_t)((uint64_t)(uint32_t)n << 32 | (uint32_t)ux);
  o[35] = (int64_t)(((unsigned __int128)ux + uy + 1) >> 1);
}

static const int64_t edge[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 10, INT64_MIN, INT64_MAX,
                               INT64_MIN + 1, 0x80000000ll, -0x80000000ll, 0xffffffffll,
                               0x100000000ll, -0x100000000ll, 0x7fffffffll, 0x123456789abcdef0ll,
                               -0x123456789abcdef0ll, 1ll << 62, 1000000007ll, -999999999999ll};
enum { NEDGE = sizeof edge / sizeof edge[0] };

static void inputs(int64_t *a, int64_t *b, int32_t *n) {
  static const int shifts[] = {0, 1, 31, 32, 33, 63, 64, -1, 62, 17};
  uint32_t seed = 77;
  for (int i = 0; i < N; i++) {
    uint64_t r = ((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed);
    a[i] = i < NEDGE ? edge[i] : (int64_t)r >> (i % 50);
    b[i] = edge[(i * 5 + 3) % NEDGE];
    if (i >= 40) b[i] = (int64_t)(((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed)) >> (i % 61);
    n[i] = i < 30 ? shifts[i % 10] : (int32_t)cc_rand(&seed);
  }
  b[5] = a[5]; /* equal operands */
  a[6] = INT64_MIN, b[6] = -1;
  a[7] = INT64_MIN, b[7] = 0;
  a[8] = -5, b[8] = 0;
  a[9] = INT64_MAX, b[9] = INT64_MIN;
  a[12] = -7, b[12] = 2; /* toward zero: -3 rem -1 */
  a[13] = 7, b[13] = -2;
}

static void check_longs(check_state *st, const char *what, const int64_t *got, const int64_t *want,
                        size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 6)
      fprintf(stderr, "%s: item %zu op %zu = %lld (0x%llx), expected %lld (0x%llx)\n", what,
              i / NOPS, i % NOPS, (long long)got[i], (unsigned long long)got[i],
              (long long)want[i], (unsigned long long)want[i]);
  if (bad) st->failed_checks++;
}

static void run_ops(check_state *st, const cc_prog *p, const char *kernel, bool uniform,
                    unsigned threads, unsigned local) {
  static int64_t a[N], b[N], out[N * NOPS], want[N * NOPS];
  int32_t n[N];
  inputs(a, b, n);
  /* uniform: the work-items of group g all use element g */
  unsigned items = uniform ? N * local : N;
  for (int i = 0; i < N; i++) host_ops(a[i], b[i], n[i], want + NOPS * i);
  memset(out, 0x5a, sizeof out);
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_IN(b, sizeof b), ARG_IN(n, sizeof n),
                   ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(items, local);
  cc_run run = {.threads = threads};
  char what[96];
  snprintf(what, sizeof what, "%s, %u threads, local %u", kernel, threads, local);
  int rc = cc_launch(p, kernel, &nd, args, 4, &run);
  CHECK(st, rc == 0);
  if (rc == 0) check_longs(st, what, out, want, N * NOPS);
}

TEST(varying_operations) {
  static const char *levels[] = {"-O2", "-O0"};
  for (int l = 0; l < 2; l++) {
    cc_prog p;
    const char *opts[] = {levels[l], NULL};
    if (cc_build(&p, "long.cl", opts)) {
      st->failed_checks++;
      return;
    }
    run_ops(st, &p, "long_ops_v", false, 8, 16);
    if (l == 0) {
      run_ops(st, &p, "long_ops_v", false, 4, 8);
      run_ops(st, &p, "long_ops_v", false, 32, 64);
    }
    cc_prog_free(&p);
  }
}

TEST(uniform_operations) {
  cc_prog p;
  if (cc_build(&p, "long.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  run_ops(st, &p, "long_ops_u", true, 8, 4);
  run_ops(st, &p, "long_ops_u", true, 4, 1);
  cc_prog_free(&p);
}

TEST(long16_values) {
  cc_prog p;
  if (cc_build(&p, "long.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { G = 8 };
  static int64_t a[16 * (G + 1)], out[16 * G], want[16 * G];
  uint32_t seed = 1234;
  for (int i = 0; i < 16 * (G + 1); i++)
    a[i] = i < NEDGE ? edge[i] : (int64_t)(((uint64_t)cc_rand(&seed) << 32) | cc_rand(&seed)) >> (i % 64);
  for (int g = 0; g < G; g++)
    for (int k = 0; k < 16; k++) {
      int64_t x = a[16 * g + k], y = a[16 * (g + 1) + k] | 1;
      int64_t prod = (int64_t)((uint64_t)x * (uint64_t)y);
      uint64_t r = (uint64_t)rv_div(prod, y) + (uint64_t)(x >> 3) - (uint64_t)(a[16 * g + 15 - k] % 7);
      want[16 * g + k] = (int64_t)r;
    }
  cc_arg args[] = {ARG_IN(a, sizeof a), ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(G, 4);
  cc_run run = {.threads = 4};
  CHECK(st, cc_launch(&p, "long16_ops", &nd, args, 2, &run) == 0);
  int bad = 0;
  for (int i = 0; i < 16 * G; i++)
    if (out[i] != want[i] && bad++ < 4)
      fprintf(stderr, "long16_ops[%d] = %lld, expected %lld\n", i, (long long)out[i], (long long)want[i]);
  if (bad) st->failed_checks++;
  cc_prog_free(&p);
}

TEST(printf_longs) {
  cc_prog p;
  if (cc_build(&p, "long.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  static int64_t a[8] = {0, -1, INT64_MIN, INT64_MAX, 0x123456789abcdefll, -4294967296ll, 42, 1ll << 32};
  rt_capture cap = {.len = 0};
  cc_run run = {.threads = 4, .print = &cap};
  cc_arg args[] = {ARG_IN(a, sizeof a)};
  vt_rt_ndrange nd = nd1(8, 8);
  CHECK(st, cc_launch(&p, "long_print", &nd, args, 1, &run) == 0);
  for (int g = 0; g < 8; g++) {
    char line[128];
    snprintf(line, sizeof line, "%d %lld %llu %llx|\n", g, (long long)a[g], (unsigned long long)a[g],
             (unsigned long long)a[g]);
    if (!strstr(cap.text, line)) {
      fprintf(stderr, "missing line '%s' in:\n%s\n", line, cap.text);
      st->failed_checks++;
    }
  }
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(varying_operations), T(uniform_operations), T(long16_values), T(printf_longs))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
