/* The tiled GEMM kernels of examples/kernels/mma_gemm.s (cp_dma_tensor
 * into local memory, mma) through `vt launch`, functional and timed:
 * an fp16 GEMM with fp32 C whose K is not a multiple of the 16-wide step
 * (the tensor copy's zero fill pads the last slice), with random binary16
 * values including zeros, subnormals and infinities, and an s8 GEMM. The
 * expected C comes from the test's MMA reference (mma_ref.h: each step's
 * exact dot product rounded to binary16, then one binary32 addition, C25)
 * and plain integer sums; the timing run must give the same bytes, and its
 * counters the MMAs, copies and bytes the kernel makes. */
#include "check.h"
#include "mma_ref.h"

static uint64_t rs = 0x243f6a8885a308d3ull;
static uint32_t rnd(void) {
  rs ^= rs >> 12;
  rs ^= rs << 25;
  rs ^= rs >> 27;
  return (uint32_t)((rs * 0x2545F4914F6CDD1DULL) >> 32);
}

/* binary16: mostly moderate normal values, some zeros, subnormals, Inf */
static uint16_t rnd_f16(void) {
  uint32_t r = rnd(), kind = r % 64;
  uint16_t sign = (uint16_t)(r >> 31 << 15);
  if (kind == 0) return sign;                                         /* +-0 */
  if (kind == 1) return (uint16_t)(sign | (rnd() & 0x3ff));            /* subnormal */
  return (uint16_t)(sign | (8 + rnd() % 14) << 10 | (rnd() & 0x3ff)); /* 2^-7 .. 2^6 */
}

static int write_file(const char *name, const void *p, size_t n) {
  FILE *f = fopen(name, "wb");
  if (!f) return -1;
  size_t w = fwrite(p, 1, n, f);
  return fclose(f) == 0 && w == n ? 0 : -1;
}
static int read_file(const char *name, void *p, size_t n) {
  FILE *f = fopen(name, "rb");
  if (!f) return -1;
  size_t r = fread(p, 1, n, f);
  fclose(f);
  return r == n ? 0 : -1;
}

static double json_total(const char *file, const char *key) {
  static char buf[1 << 16];
  FILE *f = fopen(file, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char k[64];
  snprintf(k, sizeof k, "\"%s\": ", key); /* the first object is "total" */
  const char *p = strstr(buf, k);
  return p ? strtod(p + strlen(k), NULL) : -1;
}

/* vt launch of kernel 'name' on a.bin, bt.bin; C (csize bytes) into out/arg2.bin */
static int launch(const char *name, unsigned gx, unsigned gy, unsigned m, unsigned n, unsigned k,
                  size_t csize, bool timing) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "'%s' launch gemm.elf --kernel %s --global %u,%u --local 64,1 --arg in:a.bin "
           "--arg in:bt.bin --arg out:%zu --arg i32:%u --arg i32:%u --arg i32:%u --arg local:512 "
           "--arg local:512 --arg local:512 --save out -q%s > launch.txt 2>&1",
           VT_BINARY, name, gx, gy, csize, m, n, k, timing ? " --timing --stats-json s.json" : "");
  return system(cmd);
}

static void assemble(check_state *st) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' as '%s/examples/kernels/crt0.s' '%s/examples/kernels/mma_gemm.s' "
           "-o gemm.elf", VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR);
  CHECK(st, system(cmd) == 0);
}

/* both runs' C against the expected one, and the timing run's counters */
static void check_runs(check_state *st, const char *kernel, unsigned m, unsigned n, unsigned k,
                       unsigned tn, const uint32_t *want, size_t esize) {
  size_t csize = 4u * m * n;
  uint32_t *got = malloc(csize);
  for (int timing = 0; timing < 2; timing++) {
    CHECK(st, launch(kernel, 64 * n / tn, m / 16, m, n, k, csize, timing) == 0);
    memset(got, 0xee, csize);
    CHECK(st, read_file("out/arg2.bin", got, csize) == 0);
    unsigned bad = 0;
    for (size_t i = 0; i < (size_t)m * n; i++)
      if (got[i] != want[i] && bad++ < 4)
        fprintf(stderr, "%s%s: C[%zu][%zu] = 0x%08x, expected 0x%08x\n", kernel,
                timing ? " (timing)" : "", i / n, i % n, got[i], want[i]);
    CHECK(st, bad == 0);
  }
  /* per workgroup and K step: two copies (the A and B tiles), two MMAs */
  double wgs = (double)(m / 16) * (n / tn), steps = (k + 15) / 16;
  CHECK(st, json_total("s.json", "mma_insns") == wgs * 2 * steps);
  CHECK(st, json_total("s.json", "dma_copies") == wgs * 2 * steps);
  CHECK(st, json_total("s.json", "dma_bytes") == wgs * steps * (16 + tn) * 16 * esize);
  CHECK(st, json_total("s.json", "dma_read_bytes") == wgs * (16 + tn) * k * esize);
  CHECK(st, json_total("s.json", "mma_macs") == wgs * 2 * steps * 16 * (tn / 2) * 16);
  free(got);
}

TEST(fp16_gemm_with_a_k_tail) {
  const unsigned m = 48, n = 32, k = 40, kp = 48; /* kp: K padded to the 16-wide steps */
  assemble(st);
  uint16_t *a = calloc((size_t)m * k, 2), *bt = calloc((size_t)n * k, 2);
  uint32_t *ap = calloc((size_t)m * kp, 4), *bp = calloc((size_t)n * kp, 4), *want = malloc(4u * m * n);
  for (size_t i = 0; i < (size_t)m * k; i++) ap[i / k * kp + i % k] = a[i] = rnd_f16();
  for (size_t i = 0; i < (size_t)n * k; i++) bp[i / k * kp + i % k] = bt[i] = rnd_f16();
  a[5] = 0x7c00; /* one infinite element: its row of C is +-Inf or NaN */
  ap[5] = 0x7c00;
  CHECK(st, write_file("a.bin", a, 2u * m * k) == 0 && write_file("bt.bin", bt, 2u * n * k) == 0);
  for (unsigned r = 0; r < m; r++)
    for (unsigned c = 0; c < n; c++) {
      uint32_t acc = 0; /* +0.0f */
      for (unsigned k0 = 0; k0 < kp; k0 += 16)
        acc = ref_elem(VT_MMA_F16, 0, 16, 1, ap + r * kp + k0, bp + c * kp + k0, 0, 0, acc, REF_RNE, 0, 0);
      want[r * n + c] = acc;
    }
  check_runs(st, "mma_gemm_f16", m, n, k, 16, want, 2);
  free(a);
  free(bt);
  free(ap);
  free(bp);
  free(want);
}

TEST(int8_gemm) {
  const unsigned m = 32, n = 64, k = 48;
  assemble(st);
  uint8_t *a = malloc((size_t)m * k), *bt = malloc((size_t)n * k);
  uint32_t *want = malloc(4u * m * n);
  for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (uint8_t)rnd();
  for (size_t i = 0; i < (size_t)n * k; i++) bt[i] = (uint8_t)rnd();
  a[0] = 0x80; /* -128 x -128 */
  bt[0] = 0x80;
  CHECK(st, write_file("a.bin", a, (size_t)m * k) == 0 && write_file("bt.bin", bt, (size_t)n * k) == 0);
  for (unsigned r = 0; r < m; r++)
    for (unsigned c = 0; c < n; c++) {
      uint32_t acc = 0, x[16], y[16];
      for (unsigned k0 = 0; k0 < k; k0 += 16) { /* the reference's integer rule (4.8), wrapping */
        for (unsigned i = 0; i < 16; i++) x[i] = a[r * k + k0 + i], y[i] = bt[c * k + k0 + i];
        acc = ref_elem(VT_MMA_S8, 0, 16, 1, x, y, 0, 0, acc, REF_RNE, 0, 0);
      }
      int64_t s = 0; /* and plain host arithmetic */
      for (unsigned i = 0; i < k; i++) s += (int64_t)(int8_t)a[r * k + i] * (int8_t)bt[c * k + i];
      CHECK_EQ_U32(st, acc, (uint32_t)s);
      want[r * n + c] = acc;
    }
  check_runs(st, "mma_gemm_s8", m, n, k, 32, want, 1);
  free(a);
  free(bt);
  free(want);
}

RUN_TESTS(T(fp16_gemm_with_a_k_tail), T(int8_gemm))
