/* v2025: runs one of the Ventus ISA v2025 example kernels through the
 * runtime and checks its outputs on the host:
 *   sum64     64-bit sum of 4096 uints (register pairs, vwaddu.wv, pair adds)
 *   dot64     32 binary64 dot products (SEW 64, vfmacc.vv) against fma()
 *   cvt16     fp16/bf16 conversions of 4096 values
 *   memspace  global/local/private and 64-bit-address memory families
 *   prefixed  PREFIX NEG/ABS/pair, PREFIXI, PREFIX_MEMORY space=global
 *   vop64     VOP64 on fp16 halves and int8 bytes
 * Rounded binary16/bfloat16 results are checked as "the nearest value, ties
 * to the even one" against their neighbours, which needs no rounder.
 *
 * Usage: v2025 KERNEL.elf NAME */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_runtime.h"

typedef struct ctx {
  vt_rt *rt;
  vt_rt_kernel *k;
  unsigned bad;
} ctx;

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* a buffer argument initialised with n bytes of src (NULL: zeros) */
static uint32_t buf(ctx *c, unsigned idx, const void *src, uint32_t n) {
  uint32_t a = 0;
  void *z = src ? NULL : calloc(1, n);
  if (vt_rt_alloc(c->rt, n, &a) || vt_rt_write(c->rt, a, src ? src : z, n) ||
      vt_rt_set_arg_buffer(c->k, idx, a, 0))
    c->bad = 1000000;
  free(z);
  return a;
}
static void u32arg(ctx *c, unsigned idx, uint32_t v) {
  if (vt_rt_set_arg_scalar(c->k, idx, &v, 4)) c->bad = 1000000;
}
static int run(ctx *c, unsigned global, unsigned local) {
  vt_rt_ndrange nd = {.dims = 1, .global = {global}, .local = {local}};
  return c->bad ? -1 : vt_rt_launch(c->k, &nd, NULL);
}
static void get(ctx *c, uint32_t a, void *dst, uint32_t n) {
  if (vt_rt_read(c->rt, a, dst, n)) c->bad = 1000000;
}
static void expect(ctx *c, const char *what, unsigned i, uint64_t got, uint64_t want) {
  if (got != want && c->bad++ < 5)
    fprintf(stderr, "%s[%u] = 0x%llx, expected 0x%llx\n", what, i, (unsigned long long)got,
            (unsigned long long)want);
}

/* the value of binary16 bits (exact in double) */
static double f16_value(uint32_t h) {
  int e = (h >> 10) & 31;
  double m = h & 1023;
  double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return h & 0x8000 ? -v : v;
}
/* h is x rounded to nearest even in a format whose neighbours of h are
 * h - 1 and h + 1 (same sign, finite x within range) */
static int nearest(double x, uint32_t h, double (*val)(uint32_t)) {
  double d = fabs(val(h) - x);
  for (int s = -1; s <= 1; s += 2) {
    double dn = fabs(val((uint32_t)((int)h + s)) - x);
    if (dn < d || (dn == d && (h & 1))) return 0;
  }
  return 1;
}
static double bf16_value(uint32_t b) {
  uint32_t u = b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void sum64(ctx *c) {
  enum { N = 4096, L = 64 };
  static uint32_t in[N];
  uint64_t seed = 1, total = 0, got = 0;
  for (unsigned i = 0; i < N; i++) total += in[i] = (uint32_t)rnd(&seed);
  buf(c, 0, in, sizeof in);
  buf(c, 1, NULL, 8 * L);
  uint32_t out = buf(c, 2, NULL, 8);
  u32arg(c, 3, N);
  if (run(c, L, L) == 0) get(c, out, &got, 8);
  expect(c, "total", 0, got, total);
  printf("sum64: %u uints, sum %llu\n", N, (unsigned long long)got);
}

static void dot64(ctx *c) {
  enum { N = 1024, L = 32 };
  static double x[N], y[N], part[L];
  uint64_t seed = 2;
  for (unsigned i = 0; i < N; i++)
    x[i] = (double)(int64_t)(rnd(&seed) % 2000001) / 1000.0 - 1000.0, y[i] = 1.0 / (1 + i % 97);
  buf(c, 0, x, sizeof x);
  buf(c, 1, y, sizeof y);
  uint32_t p = buf(c, 2, NULL, sizeof part);
  u32arg(c, 3, N);
  if (run(c, L, L) == 0) get(c, p, part, sizeof part);
  double sum = 0;
  for (unsigned l = 0; l < L; l++) {
    double acc = 0.0;
    for (unsigned j = l; j < N; j += L) acc = fma(x[j], y[j], acc);
    uint64_t g, w;
    memcpy(&g, &part[l], 8);
    memcpy(&w, &acc, 8);
    expect(c, "partial", l, g, w);
    sum += part[l];
  }
  printf("dot64: %u products in %u lanes, sum of partials %.17g\n", N, L, sum);
}

static void cvt16(ctx *c) {
  enum { N = 4096 };
  static uint16_t h[N], oh[N], ob[N];
  static float f[N], of[N], ofb[N];
  uint64_t seed = 3;
  for (unsigned i = 0; i < N; i++) {
    h[i] = (uint16_t)(i * 16 + rnd(&seed) % 16);
    f[i] = (float)((double)(int64_t)(rnd(&seed) % 2000001) / 1000.0 - 1000.0);
  }
  uint32_t ds[6];
  ds[0] = buf(c, 0, h, sizeof h);
  ds[1] = buf(c, 1, f, sizeof f);
  ds[2] = buf(c, 2, NULL, sizeof of);
  ds[3] = buf(c, 3, NULL, sizeof oh);
  ds[4] = buf(c, 4, NULL, sizeof ob);
  ds[5] = buf(c, 5, NULL, sizeof ofb);
  if (run(c, N, 64) == 0) {
    get(c, ds[2], of, sizeof of);
    get(c, ds[3], oh, sizeof oh);
    get(c, ds[4], ob, sizeof ob);
    get(c, ds[5], ofb, sizeof ofb);
  }
  for (unsigned i = 0; i < N; i++) {
    double hv = f16_value(h[i]);
    if (!isnan(hv)) expect(c, "out_f", i, (uint64_t)(of[i] == hv), 1);
    expect(c, "out_h", i, (uint64_t)nearest(f[i], oh[i], f16_value), 1);
    expect(c, "out_b", i, (uint64_t)nearest(f[i], ob[i], bf16_value), 1);
    expect(c, "out_fb", i, (uint64_t)(ofb[i] == bf16_value(ob[i])), 1);
  }
  printf("cvt16: %u values each way\n", N);
}

static void memspace(ctx *c) {
  enum { N = 256, L = 32 };
  static int32_t in[N], out[N];
  uint64_t seed = 4;
  for (unsigned i = 0; i < N; i++) in[i] = (int32_t)(rnd(&seed) % 100000) - 50000;
  buf(c, 0, in, sizeof in);
  uint32_t o = buf(c, 1, NULL, sizeof out);
  u32arg(c, 2, N);
  if (vt_rt_set_arg_local(c->k, 3, 4 * L)) c->bad = 1000000;
  if (run(c, N, L) == 0) get(c, o, out, sizeof out);
  for (unsigned i = 0; i < N; i++)
    expect(c, "out", i, (uint32_t)out[i], (uint32_t)(2 * in[i / L * L + (i % L + 1) % L] + in[i]));
  printf("memspace: %u ints through the global, local, private and 64-bit-address families\n", N);
}

static void prefixed(ctx *c) {
  enum { N = 256 };
  static int32_t a[N], b[N], o1[N], o4[N];
  static float x[N], y[N], z[N], o2[N];
  uint64_t seed = 5, o3 = 0;
  for (unsigned i = 0; i < N; i++) {
    a[i] = (int32_t)rnd(&seed), b[i] = (int32_t)(rnd(&seed) % 1000);
    x[i] = (float)(rnd(&seed) % 1000) / 7.0f, y[i] = (float)(rnd(&seed) % 1000) / 3.0f;
    z[i] = (float)(rnd(&seed) % 1000);
  }
  buf(c, 0, a, sizeof a);
  buf(c, 1, b, sizeof b);
  buf(c, 2, x, sizeof x);
  buf(c, 3, y, sizeof y);
  buf(c, 4, z, sizeof z);
  uint32_t d1 = buf(c, 5, NULL, sizeof o1), d2 = buf(c, 6, NULL, sizeof o2);
  uint32_t d3 = buf(c, 7, NULL, 8), d4 = buf(c, 8, NULL, sizeof o4);
  u32arg(c, 9, 0x89abcdefu);
  u32arg(c, 10, 0x123u);
  if (run(c, N, 64) == 0) {
    get(c, d1, o1, sizeof o1);
    get(c, d2, o2, sizeof o2);
    get(c, d3, &o3, 8);
    get(c, d4, o4, sizeof o4);
  }
  for (unsigned i = 0; i < N; i++) {
    uint32_t aa = a[i] < 0 ? 0u - (uint32_t)a[i] : (uint32_t)a[i];
    expect(c, "out1", i, (uint32_t)o1[i], aa - (uint32_t)b[i]);
    float w = fmaf(-x[i], y[i], z[i]);
    uint32_t gw, ww;
    memcpy(&gw, &o2[i], 4);
    memcpy(&ww, &w, 4);
    expect(c, "out2", i, gw, ww);
    expect(c, "out4", i, (uint32_t)o4[i], (uint32_t)a[i] - 5u);
  }
  expect(c, "out3", 0, o3, (1ull << 32) - 0x12389abcdefull);
  printf("prefixed: %u elements, out3 = 0x%016llx\n", N, (unsigned long long)o3);
}

static void vop64(ctx *c) {
  enum { N = 512 };
  static uint32_t a[N], b[N], o1[N], o2[N], o3[N];
  uint64_t seed = 6;
  for (unsigned i = 0; i < N; i++) {
    a[i] = (uint32_t)rnd(&seed) & 0x3bff3bffu; /* finite halves below 1.0: no overflow */
    b[i] = (uint32_t)rnd(&seed) & 0x3bff3bffu;
  }
  buf(c, 0, a, sizeof a);
  buf(c, 1, b, sizeof b);
  uint32_t d1 = buf(c, 2, NULL, sizeof o1), d2 = buf(c, 3, NULL, sizeof o2);
  uint32_t d3 = buf(c, 4, NULL, sizeof o3);
  u32arg(c, 5, 0x7f);
  if (run(c, N, 64) == 0) {
    get(c, d1, o1, sizeof o1);
    get(c, d2, o2, sizeof o2);
    get(c, d3, o3, sizeof o3);
  }
  for (unsigned i = 0; i < N; i++) {
    double p = 2.0 * f16_value(a[i] >> 16) * f16_value(b[i] & 0xffff); /* exact in double */
    expect(c, "out1 high", i, o1[i] >> 16, a[i] >> 16);
    if (p != 0) expect(c, "out1 low", i, (uint64_t)nearest(p, o1[i] & 0xffff, f16_value), 1);
    int8_t b0 = (int8_t)b[i], a0 = (int8_t)a[i];
    uint8_t d = (uint8_t)((uint8_t)(a[i] >> 16) - (uint8_t)(b0 < 0 ? -b0 : b0));
    expect(c, "out2", i, o2[i], (a[i] & 0xff00ffffu) | (uint32_t)d << 16);
    expect(c, "out3", i, o3[i], (a[i] & 0xffffff00u) | (uint8_t)(a0 > -127 ? a0 : -127));
  }
  printf("vop64: %u lanes of fp16 and int8 operations\n", N);
}

int main(int argc, char **argv) {
  static const struct { const char *name; void (*fn)(ctx *); } ex[] = {
      {"sum64", sum64}, {"dot64", dot64}, {"cvt16", cvt16},
      {"memspace", memspace}, {"prefixed", prefixed}, {"vop64", vop64},
  };
  if (argc != 3) {
    fprintf(stderr, "usage: v2025 KERNEL.elf sum64|dot64|cvt16|memspace|prefixed|vop64\n");
    return 2;
  }
  char msg[512];
  ctx c = {0};
  if (vt_rt_create(NULL, &c.rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "v2025: %s\n", msg);
    return 1;
  }
  vt_rt_program *p = NULL;
  int status = 2;
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    if (strcmp(argv[2], ex[i].name)) continue;
    if (vt_rt_program_load_file(c.rt, argv[1], &p) || vt_rt_kernel_create(p, ex[i].name, &c.k)) {
      fprintf(stderr, "v2025: %s\n", vt_rt_error(c.rt));
      status = 1;
      break;
    }
    ex[i].fn(&c);
    if (c.bad >= 1000000) fprintf(stderr, "v2025: %s\n", vt_rt_error(c.rt));
    printf("%s: %s\n", ex[i].name, c.bad ? "WRONG" : "verified");
    status = c.bad ? 1 : 0;
  }
  if (status == 2) fprintf(stderr, "v2025: unknown example %s\n", argv[2]);
  vt_rt_kernel_free(c.k);
  vt_rt_program_free(p);
  vt_rt_destroy(c.rt);
  return status;
}
