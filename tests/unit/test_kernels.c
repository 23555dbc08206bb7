/* Assembly kernels (tests/kernels/NAME.s, linked with examples/kernels/crt0.s)
 * run on the simulator in many launch shapes and compared bit-exactly with C
 * reference results: threads per warp 4/8/16/32, warps per workgroup
 * 1/2/4/8, 1/3/8 workgroups, devices of 1, 2 or 4 SMs with 1 to 8 warp
 * slots. Also checks that race-free kernels give identical results on every
 * device configuration (and the racy atomics kernel on repeated runs), that
 * the run statistics are plausible (divergent vector branches only in the
 * divergent kernels), and that `vt as` builds the same ELF as the library.
 * tests/kernels/README.md describes the kernels.
 *
 * VT_KERNEL_TEST_QUICK=1 runs a reduced shape set (the full set takes about
 * 1 s at -O3 and 10 s under ASan+UBSan). */
#include <math.h>
#include <stdbool.h>

#include "check.h"
#include "kernel_launch.h"

#define MAX_REPORTS 5

/* ------------------------------------------------------------------ */
/* shapes                                                               */

static bool quick_mode(void) {
  const char *e = getenv("VT_KERNEL_TEST_QUICK");
  return e && *e && strcmp(e, "0") != 0;
}

#define MAX_SHAPES 320
/* Every (threads per warp, warps per workgroup) pair with 1, 3 and 8
 * workgroups, each on several devices: 1, 2 and 4 SMs with 1 to 8 warp
 * slots (slots below the workgroup size grow to fit one workgroup, so
 * "1 slot" means one workgroup per SM at a time). Quick mode: a few pairs,
 * 3 workgroups, two devices. */
static unsigned make_shapes(kl_shape *out, bool square_only) {
  static const unsigned tpws[] = {4, 8, 16, 32}, wpgs[] = {1, 2, 4, 8}, nwgs[] = {1, 3, 8};
  static const unsigned devs[][2] = {{1, 1}, {4, 8}, {1, 8}, {4, 2}, {2, 4}, {4, 1}};
  bool quick = quick_mode();
  unsigned n = 0;
  for (unsigned a = 0; a < 4; a++)
    for (unsigned b = 0; b < 4; b++) {
      unsigned tpw = tpws[a], wpg = wpgs[b], local = tpw * wpg;
      unsigned side = 1;
      while (side * side < local) side++;
      if (square_only && side * side != local) continue;
      if (quick && !((tpw == 4 && wpg == 4) || (tpw == 32 && wpg == 2) || (tpw == 8 && wpg == 1) ||
                     (tpw == 16 && wpg == 4)))
        continue;
      for (unsigned c = 0; c < 3; c++) {
        if (quick && c != 1) continue;
        for (unsigned d = 0; d < 6; d++) {
          if (quick && d != 0 && d != 1) continue;
          if (nwgs[c] == 1 && d >= 2) continue; /* one workgroup: SMs and slots do not matter */
          kl_shape s;
          memset(&s, 0, sizeof s);
          s.tpw = tpw;
          s.wpg = wpg;
          s.nwg[0] = nwgs[c];
          s.nwg[1] = 1;
          s.local[0] = local;
          s.local[1] = 1;
          s.sms = devs[d][0];
          s.slots = devs[d][1];
          out[n++] = s;
        }
      }
    }
  return n;
}

/* ------------------------------------------------------------------ */
/* helpers                                                              */

typedef struct rng {
  uint64_t s;
} rng;
static uint32_t rnd(rng *r) { /* splitmix64: fixed seeds, same on every host */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static float rndf(rng *r, float lo, float hi) {
  return lo + (hi - lo) * (float)(rnd(r) >> 8) / 16777216.0f;
}
static int32_t rndi(rng *r, int32_t lo, int32_t hi) {
  return lo + (int32_t)(rnd(r) % (uint32_t)(hi - lo + 1));
}
static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Compare n 32-bit words; report the first mismatches with kernel, shape,
 * output name and index. */
static void cmp_words(check_state *st, const char *kernel, const kl_shape *s, const char *what,
                      const uint32_t *got, const uint32_t *exp, size_t n) {
  unsigned bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (got[i] == exp[i]) continue;
    if (bad++ < MAX_REPORTS) {
      char sh[160];
      kl_shape_str(s, sh, sizeof sh);
      fprintf(stderr, "%s [%s] %s[%zu]: expected 0x%08x, got 0x%08x\n", kernel, sh, what, i,
              exp[i], got[i]);
    }
  }
  if (bad) {
    fprintf(stderr, "%s: %s: %u of %zu words differ\n", kernel, what, bad, n);
    st->failed_checks++;
  }
}

static void cmp_bytes(check_state *st, const char *kernel, const kl_shape *s, const char *what,
                      const uint8_t *got, const uint8_t *exp, size_t n) {
  unsigned bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (got[i] == exp[i]) continue;
    if (bad++ < MAX_REPORTS) {
      char sh[160];
      kl_shape_str(s, sh, sizeof sh);
      fprintf(stderr, "%s [%s] %s[%zu]: expected 0x%02x, got 0x%02x\n", kernel, sh, what, i,
              exp[i], got[i]);
    }
  }
  if (bad) {
    fprintf(stderr, "%s: %s: %u of %zu bytes differ\n", kernel, what, bad, n);
    st->failed_checks++;
  }
}

static bool run_ok(check_state *st, const kl_kernel *k, const kl_shape *s, int rc,
                   const char *msg) {
  if (rc == VT_OK) return true;
  char sh[160];
  kl_shape_str(s, sh, sizeof sh);
  fprintf(stderr, "%s [%s]: run failed (%d): %s\n", k->name, sh, rc, msg);
  st->failed_checks++;
  return false;
}

static bool build(check_state *st, kl_kernel *k, const char *name) {
  char msg[4096];
  if (kl_build(k, name, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s\n", msg);
    st->failed_checks++;
    return false;
  }
  return true;
}

/* Statistics plausibility: instructions were executed, every warp ran, and
 * divergent vector branches happened exactly when expected. */
static unsigned long long total_runs, total_insns;

static void check_stats(check_state *st, const kl_kernel *k, const kl_shape *s,
                        const double *rs, int divergent) {
  total_runs++;
  total_insns += (unsigned long long)rs[VT_C_warp_instructions];
  uint64_t nwg = (uint64_t)s->nwg[0] * s->nwg[1];
  bool ok = rs[VT_C_warp_instructions] > 0 && rs[VT_C_thread_instructions] >= rs[VT_C_warp_instructions] &&
            rs[VT_C_workgroups] == nwg && rs[VT_C_warps] == nwg * s->wpg &&
            rs[VT_C_vector_branches] >= rs[VT_C_divergent_vector_branches];
  if (divergent == 0) ok = ok && rs[VT_C_divergent_vector_branches] == 0;
  if (divergent > 0) ok = ok && rs[VT_C_divergent_vector_branches] > 0 && rs[VT_C_max_simt_depth] > 0;
  if (!ok) {
    char sh[160];
    kl_shape_str(s, sh, sizeof sh);
    fprintf(stderr,
            "%s [%s]: implausible statistics: warp_insns %llu thread_insns %llu workgroups %llu "
            "warps %llu vbranches %llu divergent %llu depth %u\n",
            k->name, sh, (unsigned long long)rs[VT_C_warp_instructions], (unsigned long long)rs[VT_C_thread_instructions],
            (unsigned long long)rs[VT_C_workgroups], (unsigned long long)rs[VT_C_warps],
            (unsigned long long)rs[VT_C_vector_branches], (unsigned long long)rs[VT_C_divergent_vector_branches],
            (unsigned)rs[VT_C_max_simt_depth]);
    st->failed_checks++;
  }
}

/* ------------------------------------------------------------------ */
/* vecadd / saxpy                                                       */

TEST(test_vecadd) {
  kl_kernel k;
  if (!build(st, &k, "vecadd")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned n = s->nwg[0] * s->local[0];
    rng r = {1000 + si};
    uint32_t *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n), *e = malloc(4 * n);
    for (unsigned i = 0; i < n; i++) {
      a[i] = f2u(rndf(&r, -100, 100));
      b[i] = f2u(rndf(&r, -1, 1));
      c[i] = 0xdeadbeef;
      e[i] = f2u(u2f(a[i]) + u2f(b[i]));
    }
    kl_buf bufs[3] = {{a, 4 * n, 0}, {b, 4 * n, 0}, {c, 4 * n, 0}};
    kl_place(bufs, 3);
    uint32_t args[3] = {bufs[0].addr, bufs[1].addr, bufs[2].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "vecadd", s, "C", c, e, n);
      check_stats(st, &k, s, rs, 0);
    }
    free(a), free(b), free(c), free(e);
  }
  kl_free(&k);
}

TEST(test_saxpy) {
  kl_kernel k;
  if (!build(st, &k, "saxpy")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned n = s->nwg[0] * s->local[0];
    rng r = {2000 + si};
    float alpha = rndf(&r, -3, 3);
    uint32_t *x = malloc(4 * n), *y = malloc(4 * n), *z = malloc(4 * n);
    uint32_t *ey = malloc(4 * n), *ez = malloc(4 * n);
    for (unsigned i = 0; i < n; i++) {
      x[i] = f2u(rndf(&r, -1000, 1000));
      y[i] = f2u(rndf(&r, -1000, 1000));
      z[i] = f2u(rndf(&r, -1000, 1000));
      float p = alpha * u2f(x[i]); /* -std=c11: no contraction */
      ey[i] = f2u(p + u2f(y[i]));
      ez[i] = f2u(fmaf(alpha, u2f(x[i]), u2f(z[i])));
    }
    kl_buf bufs[3] = {{x, 4 * n, 0}, {y, 4 * n, 0}, {z, 4 * n, 0}};
    kl_place(bufs, 3);
    uint32_t args[4] = {f2u(alpha), bufs[0].addr, bufs[1].addr, bufs[2].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 4, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "saxpy", s, "Y", y, ey, n);
      cmp_words(st, "saxpy", s, "Z", z, ez, n);
      check_stats(st, &k, s, rs, 0);
    }
    free(x), free(y), free(z), free(ey), free(ez);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* tiled matrix multiply (local memory, barriers)                       */

TEST(test_matmul) {
  kl_kernel k;
  if (!build(st, &k, "matmul")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, true);
  for (unsigned si = 0; si < ns; si++) {
    kl_shape sh = shapes[si], *s = &sh;
    unsigned ts = 1;
    while (ts * ts < s->local[0]) ts++;
    s->local[0] = s->local[1] = ts;
    unsigned g = s->nwg[0];
    s->nwg[0] = g == 8 ? 2 : g == 3 ? 1 : 1;
    s->nwg[1] = g == 8 ? 4 : g == 3 ? 3 : 1;
    unsigned m = s->nwg[1] * ts, n = s->nwg[0] * ts, kk = 3 * ts;
    rng r = {3000 + si};
    uint32_t *a = malloc(4 * m * kk), *b = malloc(4 * kk * n), *c = malloc(4 * m * n),
             *e = malloc(4 * m * n);
    for (unsigned i = 0; i < m * kk; i++) a[i] = f2u(rndf(&r, -2, 2));
    for (unsigned i = 0; i < kk * n; i++) b[i] = f2u(rndf(&r, -2, 2));
    for (unsigned i = 0; i < m; i++)
      for (unsigned j = 0; j < n; j++) {
        float acc = 0.0f;
        for (unsigned x = 0; x < kk; x++) acc = fmaf(u2f(a[i * kk + x]), u2f(b[x * n + j]), acc);
        e[i * n + j] = f2u(acc);
        c[i * n + j] = 0x7f800001u;
      }
    kl_buf bufs[3] = {{a, 4 * m * kk, 0}, {b, 4 * kk * n, 0}, {c, 4 * m * n, 0}};
    kl_place(bufs, 3);
    uint32_t args[5] = {bufs[0].addr, bufs[1].addr, bufs[2].addr, kk, n};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 5, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "matmul", s, "C", c, e, m * n);
      check_stats(st, &k, s, rs, 0);
      CHECK(st, rs[VT_C_barriers] == 2ull * 3 * s->wpg * s->nwg[0] * s->nwg[1]);
    }
    free(a), free(b), free(c), free(e);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* workgroup reduction: log2 steps, divergent ifs, barriers             */

TEST(test_reduce) {
  kl_kernel k;
  if (!build(st, &k, "reduce")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned l = s->local[0], g = s->nwg[0], n = l * g;
    rng r = {4000 + si};
    uint32_t *in = malloc(4 * n), *out = malloc(4 * g), *e = malloc(4 * g);
    float *tree = malloc(4 * l);
    for (unsigned i = 0; i < n; i++) in[i] = f2u(rndf(&r, -10, 10));
    for (unsigned w = 0; w < g; w++) {
      for (unsigned i = 0; i < l; i++) tree[i] = u2f(in[w * l + i]);
      for (unsigned stride = l / 2; stride > 0; stride /= 2)
        for (unsigned i = 0; i < stride; i++) tree[i] = tree[i] + tree[i + stride];
      e[w] = f2u(tree[0]);
      out[w] = 0xffffffffu;
    }
    kl_buf bufs[2] = {{in, 4 * n, 0}, {out, 4 * g, 0}};
    kl_place(bufs, 2);
    uint32_t args[2] = {bufs[0].addr, bufs[1].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 2, args, 2, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "reduce", s, "OUT", out, e, g);
      check_stats(st, &k, s, rs, 1);
      unsigned steps = 0;
      while ((1u << steps) < l) steps++;
      CHECK(st, rs[VT_C_barriers] == (uint64_t)(steps + 1) * s->wpg * g);
    }
    free(in), free(out), free(e), free(tree);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* nested divergent if/else and a divergent loop with early exit        */

static int32_t nested_ref(int32_t a, int32_t b, int32_t c) {
  uint32_t r;
  if (a > 0) {
    if (b & 1) {
      if (c < a)
        r = (uint32_t)a + (uint32_t)b;
      else
        r = (uint32_t)a - (uint32_t)c;
    } else {
      r = (uint32_t)b * 3u;
      if (c > 100) r += (uint32_t)c;
    }
    r ^= 0x55u;
  } else {
    r = (uint32_t)a * (uint32_t)b;
    if (b < c) {
      r = (uint32_t)c - (uint32_t)b;
      if ((c & 3) == 0) r <<= 1;
    }
  }
  return (int32_t)(r + 1u);
}

TEST(test_nested) {
  kl_kernel k;
  if (!build(st, &k, "nested")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned n = s->nwg[0] * s->local[0];
    rng r = {5000 + si};
    uint32_t *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n), *o = malloc(4 * n),
             *e = malloc(4 * n);
    for (unsigned i = 0; i < n; i++) {
      a[i] = (uint32_t)rndi(&r, -20, 20);
      b[i] = (uint32_t)rndi(&r, -50, 50);
      c[i] = (uint32_t)rndi(&r, -10, 200);
      o[i] = 0xcccccccc;
      e[i] = (uint32_t)nested_ref((int32_t)a[i], (int32_t)b[i], (int32_t)c[i]);
    }
    kl_buf bufs[4] = {{a, 4 * n, 0}, {b, 4 * n, 0}, {c, 4 * n, 0}, {o, 4 * n, 0}};
    kl_place(bufs, 4);
    uint32_t args[4] = {bufs[0].addr, bufs[1].addr, bufs[2].addr, bufs[3].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 4, args, 4, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "nested", s, "OUT", o, e, n);
      check_stats(st, &k, s, rs, 1);
    }
    free(a), free(b), free(c), free(o), free(e);
  }
  kl_free(&k);
}

#define LOOP_MAXK 24

TEST(test_loop) {
  kl_kernel k;
  if (!build(st, &k, "loop")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  unsigned breaks = 0, full = 0, skipped = 0;
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned n = s->nwg[0] * s->local[0];
    rng r = {6000 + si};
    uint32_t *trip = malloc(4 * n), *data = malloc(4 * n * LOOP_MAXK), *acc = malloc(4 * n),
             *ko = malloc(4 * n), *eacc = malloc(4 * n), *ek = malloc(4 * n);
    for (unsigned i = 0; i < n * LOOP_MAXK; i++) data[i] = rnd(&r);
    for (unsigned i = 0; i < n; i++) {
      int32_t t = rndi(&r, -2, LOOP_MAXK);
      trip[i] = (uint32_t)t;
      uint32_t a = i, kk = 0;
      if (t > 0) do {
          a = a * 3u + data[i * LOOP_MAXK + kk];
          if ((a & 15) == 7) break;
          kk++;
        } while ((int32_t)kk < t);
      breaks += t > 0 && (int32_t)kk < t;
      full += t > 0 && (int32_t)kk == t;
      skipped += t <= 0;
      eacc[i] = a;
      ek[i] = kk;
      acc[ i] = ko[i] = 0x12345678;
    }
    kl_buf bufs[4] = {{trip, 4 * n, 0}, {data, 4 * n * LOOP_MAXK, 0}, {acc, 4 * n, 0},
                      {ko, 4 * n, 0}};
    kl_place(bufs, 4);
    uint32_t args[5] = {bufs[0].addr, bufs[1].addr, bufs[2].addr, bufs[3].addr, LOOP_MAXK};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 4, args, 5, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "loop", s, "ACC", acc, eacc, n);
      cmp_words(st, "loop", s, "KOUT", ko, ek, n);
      check_stats(st, &k, s, rs, 1);
    }
    free(trip), free(data), free(acc), free(ko), free(eacc), free(ek);
  }
  /* the data exercise all three exits */
  CHECK(st, breaks > 0 && full > 0 && skipped > 0);
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* private memory: spills through regext registers, per-lane addresses  */

#define PRIV_FRAME 64u /* bytes of private memory per work-item */

static uint32_t fold8(const uint32_t *f) {
  uint32_t s = 0;
  for (unsigned j = 0; j < 8; j++) s = s * 31u + f[j];
  return s;
}

TEST(test_privmem) {
  kl_kernel k;
  if (!build(st, &k, "privmem")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned l = s->local[0], g = s->nwg[0], n = l * g;
    rng r = {7000 + si};
    uint32_t *in = malloc(4 * n), *idx = malloc(4 * n), *out = malloc(48 * n),
             *e = malloc(48 * n);
    uint32_t *pds = malloc(PRIV_FRAME * n), *epds = calloc(PRIV_FRAME / 4, 4 * n);
    for (unsigned i = 0; i < n; i++) {
      uint32_t x = rnd(&r), f[16] = {0};
      in[i] = x;
      idx[i] = rnd(&r) & 7;
      for (unsigned j = 0; j < 8; j++) f[j] = x * (j + 1) + j;
      uint32_t *o = &e[12 * i];
      o[0] = fold8(f);
      o[1] = f[idx[i]];
      f[idx[i]] = x ^ 0x5a5a5a5au;
      o[2] = fold8(f);
      uint16_t h = (uint16_t)(x * 7u);
      uint8_t b = (uint8_t)(x * 13u);
      f[8] = x;
      f[9] = (uint32_t)h << 16;
      f[10] = (uint32_t)b << 8;
      o[3] = (uint32_t)(int32_t)(int16_t)h;
      o[4] = h;
      o[5] = (uint32_t)(int32_t)(int8_t)b;
      o[6] = b;
      o[7] = f[9];
      o[8] = f[10];
      o[9] = x & 0xffff;
      o[10] = x >> 24;
      o[11] = 0x600d;
      /* spec README decision 9: word k of work-item t of workgroup w at
       * PDS + w * numw*numt*frame + k * 4 * numw*numt + 4 * t */
      unsigned w = i / l, t = i % l;
      for (unsigned kk = 0; kk < PRIV_FRAME / 4; kk++)
        epds[(w * PRIV_FRAME * l + kk * 4 * l + 4 * t) / 4] = f[kk];
    }
    memset(out, 0xee, 48 * n);
    memset(pds, 0xee, PRIV_FRAME * n);
    kl_buf bufs[3] = {{in, 4 * n, 0}, {idx, 4 * n, 0}, {out, 48 * n, 0}};
    kl_place(bufs, 3);
    kl_buf pb = {pds, PRIV_FRAME * n, 0};
    uint32_t args[3] = {bufs[0].addr, bufs[1].addr, bufs[2].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, &pb, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "privmem", s, "OUT", out, e, 12 * n);
      cmp_words(st, "privmem", s, "PDS image", pds, epds, PRIV_FRAME / 4 * n);
      check_stats(st, &k, s, rs, 0);
    }
    free(in), free(idx), free(out), free(e), free(pds), free(epds);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* byte and halfword accesses, vector and scalar                        */

static uint32_t sx8(uint8_t b) { return (uint32_t)(int32_t)(int8_t)b; }
static uint32_t sx16(uint16_t h) { return (uint32_t)(int32_t)(int16_t)h; }

TEST(test_bytes) {
  kl_kernel k;
  if (!build(st, &k, "bytes")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned n = s->nwg[0] * s->local[0], nw = s->nwg[0] * s->wpg;
    rng r = {8000 + si};
    uint8_t *b8 = malloc(n + 2), *ob = malloc(n + 8), *eob = malloc(n + 8);
    uint8_t *sb = malloc(nw + 8), *esb = malloc(nw + 8);
    uint16_t *h16 = malloc(2 * (n + 2)), *oh = malloc(2 * (n + 8)), *eoh = malloc(2 * (n + 8));
    uint16_t *sh = malloc(2 * (nw + 8)), *esh = malloc(2 * (nw + 8));
    uint32_t *out = malloc(32 * n), *eout = malloc(32 * n), *so = malloc(32 * nw),
             *eso = malloc(32 * nw);
    for (unsigned i = 0; i < n + 2; i++) b8[i] = (uint8_t)rnd(&r);
    for (unsigned i = 0; i < n + 2; i++) h16[i] = (uint16_t)rnd(&r);
    for (unsigned i = 0; i < n + 8; i++) ob[i] = eob[i] = (uint8_t)rnd(&r);
    for (unsigned i = 0; i < n + 8; i++) oh[i] = eoh[i] = (uint16_t)rnd(&r);
    for (unsigned i = 0; i < nw + 8; i++) sb[i] = esb[i] = (uint8_t)rnd(&r);
    for (unsigned i = 0; i < nw + 8; i++) sh[i] = esh[i] = (uint16_t)rnd(&r);
    memset(out, 0xee, 32 * n);
    memset(so, 0xee, 32 * nw);
    for (unsigned i = 0; i < n; i++) {
      const uint8_t *p = &b8[1 + i];
      const uint16_t *q = &h16[1 + i];
      uint32_t *o = &eout[8 * i];
      o[0] = sx8(p[0]), o[1] = p[0], o[2] = p[-1], o[3] = sx8(p[1]);
      o[4] = sx16(q[0]), o[5] = q[0], o[6] = q[-1], o[7] = sx16(q[1]);
      eob[i] = (uint8_t)(o[0] + o[4]);
      eoh[i] = (uint16_t)(3u * o[1] + o[5]);
    }
    for (unsigned w = 0; w < nw; w++) {
      const uint8_t *p = &b8[1 + 3 * w];
      const uint16_t *q = &h16[1 + 3 * w];
      uint32_t *o = &eso[8 * w];
      o[0] = sx8(p[0]), o[1] = p[0], o[2] = p[1], o[3] = sx8(p[-1]);
      o[4] = sx16(q[0]), o[5] = q[0], o[6] = sx16(q[1]), o[7] = q[-1];
      esb[w] = (uint8_t)(o[0] + o[5]);
      esh[w] = (uint16_t)(5u * o[1] + o[4]);
    }
    kl_buf bufs[8] = {{b8, n + 2, 0},      {h16, 2 * (n + 2), 0}, {out, 32 * n, 0},
                      {ob, n + 8, 0},      {oh, 2 * (n + 8), 0},  {so, 32 * nw, 0},
                      {sb, nw + 8, 0},     {sh, 2 * (nw + 8), 0}};
    kl_place(bufs, 8);
    uint32_t args[8];
    for (unsigned i = 0; i < 8; i++) args[i] = bufs[i].addr;
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 8, args, 8, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "bytes", s, "OUT", out, eout, 8 * n);
      cmp_bytes(st, "bytes", s, "OB (+8 guard bytes)", ob, eob, n + 8);
      cmp_bytes(st, "bytes", s, "OH (+8 guard halfwords)", (uint8_t *)oh, (uint8_t *)eoh,
                2 * (n + 8));
      cmp_words(st, "bytes", s, "SOUT", so, eso, 8 * nw);
      cmp_bytes(st, "bytes", s, "SB (+8 guard bytes)", sb, esb, nw + 8);
      cmp_bytes(st, "bytes", s, "SH (+8 guard halfwords)", (uint8_t *)sh, (uint8_t *)esh,
                2 * (nw + 8));
      check_stats(st, &k, s, rs, 0);
    }
    free(b8), free(ob), free(eob), free(sb), free(esb), free(h16), free(oh), free(eoh);
    free(sh), free(esh), free(out), free(eout), free(so), free(eso);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* atomics: scalar per warp on global and local counters                */

/* whether v[0..n-1] (stride 'stride') is a permutation of base..base+n-1 */
static bool is_perm(const uint32_t *v, unsigned n, unsigned stride, uint32_t base) {
  bool ok = true;
  uint8_t *seen = calloc(n, 1);
  for (unsigned i = 0; i < n; i++) {
    uint32_t x = v[i * stride] - base;
    if (x >= n || seen[x]) ok = false;
    else seen[x] = 1;
  }
  free(seen);
  return ok;
}

TEST(test_atomics) {
  kl_kernel k;
  if (!build(st, &k, "atomics")) return;
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned g = s->nwg[0], nw = g * s->wpg;
    uint32_t cnt[16] = {0, 0, 0, 0, 0, 0xffffffffu, 0, 0x7fffffff, 0xffffffffu, 0};
    uint32_t *old = malloc(16 * nw), *lo = malloc(4 * g);
    memset(old, 0xee, 16 * nw);
    memset(lo, 0xee, 4 * g);
    uint32_t e[16] = {nw, nw - 1, 0, nw * (nw + 1) / 2, 0, 0xffffffffu, 0, 0x7fffffff,
                      0xffffffffu, 0};
    for (uint32_t w = 0; w < nw; w++) {
      e[4] |= 1u << (w & 31);
      e[5] &= ~(1u << (w & 31));
      e[6] ^= w * 0x9e3779b9u;
      if ((int32_t)(0u - w) < (int32_t)e[7]) e[7] = 0u - w;
      if (w + 100 < e[8]) e[8] = w + 100;
      if (0x80000000u + w > e[9]) e[9] = 0x80000000u + w;
    }
    kl_buf bufs[3] = {{cnt, sizeof cnt, 0}, {old, 16 * nw, 0}, {lo, 4 * g, 0}};
    kl_place(bufs, 3);
    uint32_t args[3] = {bufs[0].addr, bufs[1].addr, bufs[2].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      uint32_t final_swap = cnt[2];
      e[2] = cnt[2]; /* checked below with the old values */
      cmp_words(st, "atomics", s, "CNT", cnt, e, 16);
      CHECK(st, is_perm(&old[0], nw, 4, 0)); /* amoadd old values: 0..W-1 once each */
      /* amoswap: the old values plus the final value are 0..W, each once */
      uint32_t *sw = malloc(4 * (nw + 1));
      for (unsigned w = 0; w < nw; w++) sw[w] = old[4 * w + 1];
      sw[nw] = final_swap;
      CHECK(st, is_perm(sw, nw + 1, 1, 0));
      free(sw);
      for (unsigned w = 0; w < nw; w++) CHECK_EQ_U32(st, old[4 * w + 2], 0);
      for (unsigned wg = 0; wg < g; wg++) {
        CHECK(st, is_perm(&old[4 * wg * s->wpg + 3], s->wpg, 4, 0));
        CHECK_EQ_U32(st, lo[wg], s->wpg);
      }
      check_stats(st, &k, s, rs, 0);
    }
    free(old), free(lo);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* floating-point corner cases, expected values computed by hand        */

/* op numbers = stub order in tests/kernels/fpcorner.s */
enum {
  FP_FADD, FP_FSUB, FP_FMUL, FP_FDIV, FP_FSQRT, FP_FMIN, FP_FMAX, FP_FMADD, FP_FNMADD,
  FP_FCVT_W_S, FP_FCVT_WU_S, FP_FCVT_W_S_RTZ, FP_FCVT_S_W, FP_FCVT_S_WU, FP_FEQ, FP_FLT,
  FP_FLE, FP_FCLASS, FP_FSGNJN,
  FP_VECTOR_OPS, /* the ops below are scalar only (static rounding mode) */
  FP_FADD_RTZ = FP_VECTOR_OPS, FP_FADD_RDN, FP_FADD_RUP, FP_FADD_RMM, FP_FCVT_W_RNE,
  FP_FCVT_W_RMM, FP_FDIV_RUP
};
enum { RNE, RTZ, RDN, RUP, RMM };
enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };

#define PZERO 0x00000000u
#define NZERO 0x80000000u
#define ONE 0x3f800000u
#define MONE 0xbf800000u
#define TWO 0x40000000u
#define THREE 0x40400000u
#define HALF 0x3f000000u
#define MHALF 0xbf000000u
#define TWO5 0x40200000u   /* 2.5 */
#define MTWO5 0xc0200000u  /* -2.5 */
#define PINF 0x7f800000u
#define NINF 0xff800000u
#define CNAN 0x7fc00000u   /* canonical quiet NaN */
#define QNANP 0x7fc12345u  /* quiet NaN with a payload */
#define NQNAN 0xffc00000u  /* negative quiet NaN */
#define SNAN 0x7f800001u
#define FMAX 0x7f7fffffu   /* largest finite */
#define MINN 0x00800000u   /* smallest normal 2^-126 */
#define MINS 0x00000001u   /* smallest subnormal 2^-149 */
#define ULP1 0x3f800001u   /* 1 + 2^-23 */
#define EPS24 0x33800000u  /* 2^-24: half an ulp of 1.0 */

typedef struct fp_case {
  uint32_t op, frm, a, b, c, exp, flags;
} fp_case;

static const fp_case fp_cases[] = {
    /* addition: NaNs, signed zeros, overflow per rounding mode, ties */
    {FP_FADD, RNE, ONE, TWO, 0, THREE, 0},
    {FP_FADD, RNE, PINF, NINF, 0, CNAN, NV},
    {FP_FADD, RNE, QNANP, ONE, 0, CNAN, 0},       /* payload dropped, quiet: no NV */
    {FP_FADD, RNE, SNAN, ONE, 0, CNAN, NV},
    {FP_FADD, RNE, NZERO, NZERO, 0, NZERO, 0},
    {FP_FADD, RNE, PZERO, NZERO, 0, PZERO, 0},
    {FP_FADD, RNE, MINS, MINS, 0, 0x00000002u, 0}, /* exact subnormal: no UF */
    {FP_FADD, RNE, FMAX, FMAX, 0, PINF, OF | NX},
    {FP_FADD, RNE, ONE, EPS24, 0, ONE, NX},       /* tie to even */
    {FP_FADD, RNE, MONE, 0xb3800000u, 0, MONE, NX},
    {FP_FADD, RTZ, FMAX, FMAX, 0, FMAX, OF | NX},
    {FP_FADD, RTZ, ONE, EPS24, 0, ONE, NX},
    {FP_FADD, RDN, PZERO, NZERO, 0, NZERO, 0},    /* x + -x = -0 rounding down */
    {FP_FADD, RDN, ONE, MONE, 0, NZERO, 0},
    {FP_FADD, RDN, FMAX, FMAX, 0, FMAX, OF | NX},
    {FP_FADD, RDN, ONE, EPS24, 0, ONE, NX},
    {FP_FADD, RDN, MONE, 0xb3800000u, 0, 0xbf800001u, NX},
    {FP_FADD, RUP, FMAX, FMAX, 0, PINF, OF | NX},
    {FP_FADD, RUP, ONE, EPS24, 0, ULP1, NX},
    {FP_FADD, RUP, MONE, 0xb3800000u, 0, MONE, NX},
    {FP_FADD, RMM, ONE, EPS24, 0, ULP1, NX},      /* tie away from zero */
    {FP_FADD, RMM, MONE, 0xb3800000u, 0, 0xbf800001u, NX},
    /* subtraction */
    {FP_FSUB, RNE, ONE, ONE, 0, PZERO, 0},
    {FP_FSUB, RDN, ONE, ONE, 0, NZERO, 0},
    {FP_FSUB, RNE, PINF, PINF, 0, CNAN, NV},
    {FP_FSUB, RNE, NZERO, PZERO, 0, NZERO, 0},
    /* multiplication: 0 * inf, signs, subnormal results and underflow */
    {FP_FMUL, RNE, PZERO, PINF, 0, CNAN, NV},
    {FP_FMUL, RNE, NZERO, 0x40a00000u, 0, NZERO, 0},
    {FP_FMUL, RNE, MINN, HALF, 0, 0x00400000u, 0},  /* exact subnormal */
    {FP_FMUL, RNE, MINS, HALF, 0, PZERO, UF | NX},   /* 2^-150: tie to even 0 */
    {FP_FMUL, RNE, 0x00800001u, HALF, 0, 0x00400000u, UF | NX},
    {FP_FMUL, RNE, ULP1, ULP1, 0, 0x3f800002u, NX},
    {FP_FMUL, RNE, FMAX, TWO, 0, PINF, OF | NX},
    {FP_FMUL, RNE, 0x3fc00000u, MINN, 0, 0x00c00000u, 0},
    {FP_FMUL, RUP, MINS, HALF, 0, MINS, UF | NX},
    {FP_FMUL, RTZ, FMAX, TWO, 0, FMAX, OF | NX},
    /* division: by zero, invalid, rounding */
    {FP_FDIV, RNE, ONE, PZERO, 0, PINF, DZ},
    {FP_FDIV, RNE, MONE, PZERO, 0, NINF, DZ},
    {FP_FDIV, RNE, ONE, NZERO, 0, NINF, DZ},
    {FP_FDIV, RNE, PZERO, PZERO, 0, CNAN, NV},
    {FP_FDIV, RNE, PINF, NINF, 0, CNAN, NV},
    {FP_FDIV, RNE, ONE, PINF, 0, PZERO, 0},
    {FP_FDIV, RNE, QNANP, PZERO, 0, CNAN, 0},        /* NaN / 0: no DZ */
    {FP_FDIV, RNE, TWO, TWO, 0, ONE, 0},
    {FP_FDIV, RNE, ONE, THREE, 0, 0x3eaaaaabu, NX},
    {FP_FDIV, RTZ, ONE, THREE, 0, 0x3eaaaaaau, NX},
    {FP_FDIV, RDN, MONE, THREE, 0, 0xbeaaaaabu, NX},
    {FP_FDIV, RUP, MONE, THREE, 0, 0xbeaaaaaau, NX},
    /* square root */
    {FP_FSQRT, RNE, MONE, 0, 0, CNAN, NV},
    {FP_FSQRT, RNE, NZERO, 0, 0, NZERO, 0},
    {FP_FSQRT, RNE, PINF, 0, 0, PINF, 0},
    {FP_FSQRT, RNE, 0x40800000u, 0, 0, TWO, 0},
    {FP_FSQRT, RNE, TWO, 0, 0, 0x3fb504f3u, NX},
    {FP_FSQRT, RUP, TWO, 0, 0, 0x3fb504f4u, NX},
    {FP_FSQRT, RNE, MINS, 0, 0, 0x1a3504f3u, NX},   /* sqrt(2^-149) = 2^-75 sqrt 2 */
    {FP_FSQRT, RNE, NQNAN, 0, 0, CNAN, 0},
    /* RISC-V fmin/fmax: -0 < +0, NaN operands ignored, sNaN signals */
    {FP_FMIN, RNE, NZERO, PZERO, 0, NZERO, 0},
    {FP_FMIN, RNE, PZERO, NZERO, 0, NZERO, 0},
    {FP_FMIN, RNE, QNANP, ONE, 0, ONE, 0},
    {FP_FMIN, RNE, SNAN, ONE, 0, ONE, NV},
    {FP_FMIN, RNE, QNANP, CNAN, 0, CNAN, 0},
    {FP_FMIN, RNE, NINF, 0x40a00000u, 0, NINF, 0},
    {FP_FMAX, RNE, NZERO, PZERO, 0, PZERO, 0},
    {FP_FMAX, RNE, PZERO, NZERO, 0, PZERO, 0},
    {FP_FMAX, RNE, ONE, QNANP, 0, ONE, 0},
    {FP_FMAX, RNE, SNAN, QNANP, 0, CNAN, NV},
    {FP_FMAX, RNE, MINS, PZERO, 0, MINS, 0},
    /* fused multiply-add: one rounding, zero signs, inf * 0 + qNaN */
    {FP_FMADD, RNE, ONE, ONE, MONE, PZERO, 0},
    {FP_FMADD, RDN, ONE, ONE, MONE, NZERO, 0},
    {FP_FMADD, RNE, PINF, PZERO, QNANP, CNAN, NV},
    {FP_FMADD, RNE, ULP1, ULP1, 0xbf800002u, 0x28800000u, 0}, /* exact 2^-46 */
    {FP_FMADD, RNE, TWO, THREE, ONE, 0x40e00000u, 0},
    {FP_FMADD, RNE, MONE, PZERO, NZERO, NZERO, 0},
    {FP_FMADD, RNE, FMAX, TWO, NINF, NINF, 0},       /* no overflow inside */
    {FP_FNMADD, RNE, ONE, ONE, MONE, PZERO, 0},      /* -(1*1) - (-1) */
    {FP_FNMADD, RNE, PZERO, ONE, PZERO, NZERO, 0},   /* -(0*1) - 0 = -0 */
    {FP_FNMADD, RNE, TWO, THREE, ONE, 0xc0e00000u, 0},
    /* float -> int32 with the dynamic rounding mode; saturation */
    {FP_FCVT_W_S, RNE, TWO5, 0, 0, 2, NX},
    {FP_FCVT_W_S, RTZ, TWO5, 0, 0, 2, NX},
    {FP_FCVT_W_S, RDN, TWO5, 0, 0, 2, NX},
    {FP_FCVT_W_S, RUP, TWO5, 0, 0, 3, NX},
    {FP_FCVT_W_S, RMM, TWO5, 0, 0, 3, NX},
    {FP_FCVT_W_S, RNE, MTWO5, 0, 0, 0xfffffffeu, NX},
    {FP_FCVT_W_S, RDN, MTWO5, 0, 0, 0xfffffffdu, NX},
    {FP_FCVT_W_S, RUP, MTWO5, 0, 0, 0xfffffffeu, NX},
    {FP_FCVT_W_S, RMM, MTWO5, 0, 0, 0xfffffffdu, NX},
    {FP_FCVT_W_S, RNE, CNAN, 0, 0, 0x7fffffffu, NV},
    {FP_FCVT_W_S, RNE, PINF, 0, 0, 0x7fffffffu, NV},
    {FP_FCVT_W_S, RNE, NINF, 0, 0, 0x80000000u, NV},
    {FP_FCVT_W_S, RNE, 0x4f000000u, 0, 0, 0x7fffffffu, NV}, /* 2^31 */
    {FP_FCVT_W_S, RNE, 0xcf000000u, 0, 0, 0x80000000u, 0},  /* -2^31 exact */
    {FP_FCVT_W_S, RNE, 0x4effffffu, 0, 0, 0x7fffff80u, 0},
    {FP_FCVT_W_S, RNE, MHALF, 0, 0, 0, NX},
    /* float -> uint32 */
    {FP_FCVT_WU_S, RNE, MONE, 0, 0, 0, NV},
    {FP_FCVT_WU_S, RTZ, MHALF, 0, 0, 0, NX},          /* rounds to -0: fits */
    {FP_FCVT_WU_S, RDN, MHALF, 0, 0, 0, NV},          /* rounds to -1 */
    {FP_FCVT_WU_S, RNE, CNAN, 0, 0, 0xffffffffu, NV},
    {FP_FCVT_WU_S, RNE, PINF, 0, 0, 0xffffffffu, NV},
    {FP_FCVT_WU_S, RNE, NINF, 0, 0, 0, NV},
    {FP_FCVT_WU_S, RNE, 0x4f800000u, 0, 0, 0xffffffffu, NV}, /* 2^32 */
    {FP_FCVT_WU_S, RNE, 0x4f7fffffu, 0, 0, 0xffffff00u, 0},
    {FP_FCVT_WU_S, RNE, 0x406ccccdu, 0, 0, 4, NX},   /* 3.7 */
    {FP_FCVT_WU_S, RTZ, 0x406ccccdu, 0, 0, 3, NX},
    /* float -> int32, static rtz (frm says otherwise) */
    {FP_FCVT_W_S_RTZ, RUP, 0x4039999au, 0, 0, 2, NX}, /* 2.9 */
    {FP_FCVT_W_S_RTZ, RDN, 0xc039999au, 0, 0, 0xfffffffeu, NX},
    {FP_FCVT_W_S_RTZ, RNE, CNAN, 0, 0, 0x7fffffffu, NV},
    /* int -> float */
    {FP_FCVT_S_W, RNE, 0x7fffffffu, 0, 0, 0x4f000000u, NX},
    {FP_FCVT_S_W, RTZ, 0x7fffffffu, 0, 0, 0x4effffffu, NX},
    {FP_FCVT_S_W, RDN, 0x7fffffffu, 0, 0, 0x4effffffu, NX},
    {FP_FCVT_S_W, RUP, 0x7fffffffu, 0, 0, 0x4f000000u, NX},
    {FP_FCVT_S_W, RNE, 0x80000000u, 0, 0, 0xcf000000u, 0},
    {FP_FCVT_S_W, RNE, 0x01000001u, 0, 0, 0x4b800000u, NX}, /* 2^24 + 1: tie */
    {FP_FCVT_S_W, RUP, 0x01000001u, 0, 0, 0x4b800001u, NX},
    {FP_FCVT_S_W, RMM, 0x01000001u, 0, 0, 0x4b800001u, NX},
    {FP_FCVT_S_W, RNE, 0, 0, 0, PZERO, 0},
    {FP_FCVT_S_W, RNE, 0xffffffffu, 0, 0, MONE, 0},
    {FP_FCVT_S_WU, RNE, 0xffffffffu, 0, 0, 0x4f800000u, NX},
    {FP_FCVT_S_WU, RTZ, 0xffffffffu, 0, 0, 0x4f7fffffu, NX},
    {FP_FCVT_S_WU, RNE, 0x80000000u, 0, 0, 0x4f000000u, 0},
    /* comparisons: feq quiet, flt/fle signalling */
    {FP_FEQ, RNE, CNAN, CNAN, 0, 0, 0},
    {FP_FEQ, RNE, SNAN, ONE, 0, 0, NV},
    {FP_FEQ, RNE, NZERO, PZERO, 0, 1, 0},
    {FP_FLT, RNE, CNAN, ONE, 0, 0, NV},
    {FP_FLT, RNE, NZERO, PZERO, 0, 0, 0},
    {FP_FLT, RNE, NINF, MINS, 0, 1, 0},
    {FP_FLT, RNE, ONE, ONE, 0, 0, 0},
    {FP_FLE, RNE, NZERO, PZERO, 0, 1, 0},
    {FP_FLE, RNE, CNAN, CNAN, 0, 0, NV},
    {FP_FLE, RNE, TWO, ONE, 0, 0, 0},
    /* classification */
    {FP_FCLASS, RNE, NINF, 0, 0, 0x001, 0},
    {FP_FCLASS, RNE, MONE, 0, 0, 0x002, 0},
    {FP_FCLASS, RNE, 0x80000001u, 0, 0, 0x004, 0},
    {FP_FCLASS, RNE, NZERO, 0, 0, 0x008, 0},
    {FP_FCLASS, RNE, PZERO, 0, 0, 0x010, 0},
    {FP_FCLASS, RNE, 0x007fffffu, 0, 0, 0x020, 0},
    {FP_FCLASS, RNE, ONE, 0, 0, 0x040, 0},
    {FP_FCLASS, RNE, PINF, 0, 0, 0x080, 0},
    {FP_FCLASS, RNE, SNAN, 0, 0, 0x100, 0},
    {FP_FCLASS, RNE, QNANP, 0, 0, 0x200, 0},
    /* sign injection keeps NaN payloads */
    {FP_FSGNJN, RNE, ONE, ONE, 0, MONE, 0},
    {FP_FSGNJN, RNE, QNANP, NZERO, 0, QNANP, 0},
    {FP_FSGNJN, RNE, MTWO5, MONE, 0, TWO5, 0},
    {FP_FSGNJN, RNE, SNAN, PZERO, 0, 0xff800001u, 0},
    /* static rounding modes override frm (scalar only) */
    {FP_FADD_RTZ, RUP, ONE, EPS24, 0, ONE, NX},
    {FP_FADD_RTZ, RNE, FMAX, FMAX, 0, FMAX, OF | NX},
    {FP_FADD_RDN, RNE, PZERO, NZERO, 0, NZERO, 0},
    {FP_FADD_RUP, RDN, ONE, EPS24, 0, ULP1, NX},
    {FP_FADD_RMM, RTZ, ONE, EPS24, 0, ULP1, NX},
    {FP_FCVT_W_RNE, RMM, TWO5, 0, 0, 2, NX},
    {FP_FCVT_W_RMM, RNE, TWO5, 0, 0, 3, NX},
    {FP_FCVT_W_RMM, RNE, MTWO5, 0, 0, 0xfffffffdu, NX},
    {FP_FDIV_RUP, RNE, MONE, THREE, 0, 0xbeaaaaaau, NX},
};
#define FP_NCASES (sizeof fp_cases / sizeof fp_cases[0])

TEST(test_fpcorner) {
  kl_kernel k;
  if (!build(st, &k, "fpcorner")) return;
  /* the case buffer and the vector runs (same op and frm, vector forms) */
  uint32_t cases[FP_NCASES * 8], runs[FP_NCASES * 4], run_flags[FP_NCASES];
  unsigned nruns = 0;
  memset(cases, 0, sizeof cases);
  for (unsigned i = 0; i < FP_NCASES; i++) {
    const fp_case *c = &fp_cases[i];
    cases[8 * i + 0] = c->op, cases[8 * i + 1] = c->frm;
    cases[8 * i + 2] = c->a, cases[8 * i + 3] = c->b, cases[8 * i + 4] = c->c;
    if (c->op >= FP_VECTOR_OPS) continue;
    if (nruns > 0 && runs[4 * (nruns - 1)] == c->op && runs[4 * (nruns - 1) + 1] == c->frm &&
        runs[4 * (nruns - 1) + 2] + runs[4 * (nruns - 1) + 3] == i) {
      runs[4 * (nruns - 1) + 3]++;
      run_flags[nruns - 1] |= c->flags;
    } else {
      runs[4 * nruns] = c->op, runs[4 * nruns + 1] = c->frm;
      runs[4 * nruns + 2] = i, runs[4 * nruns + 3] = 1;
      run_flags[nruns++] = c->flags;
    }
  }
  kl_shape shapes[MAX_SHAPES];
  unsigned ns = make_shapes(shapes, false);
  for (unsigned si = 0; si < ns; si++) {
    const kl_shape *s = &shapes[si];
    unsigned nw = s->nwg[0] * s->wpg;
    uint32_t *so = malloc(8 * FP_NCASES * nw), *vo = malloc(4 * FP_NCASES * nw),
             *vf = malloc(4 * nruns * nw), *misc = malloc(16 * nw);
    memset(so, 0xee, 8 * FP_NCASES * nw);
    memset(vo, 0xee, 4 * FP_NCASES * nw);
    memset(vf, 0xee, 4 * nruns * nw);
    memset(misc, 0xee, 16 * nw);
    kl_buf bufs[6] = {{cases, sizeof cases, 0},        {runs, 16 * nruns, 0},
                      {so, 8 * FP_NCASES * nw, 0},     {vo, 4 * FP_NCASES * nw, 0},
                      {vf, 4 * nruns * nw, 0},         {misc, 16 * nw, 0}};
    kl_place(bufs, 6);
    uint32_t args[8] = {bufs[0].addr, FP_NCASES,    bufs[1].addr, nruns,
                        bufs[2].addr, bufs[3].addr, bufs[4].addr, bufs[5].addr};
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, s, bufs, 6, args, 8, NULL, rs, msg, sizeof msg);
    if (!run_ok(st, &k, s, rc, msg)) goto next;
    /* each warp must agree with the table; report per case (first warp only
     * when all agree, to keep the output short) */
    for (unsigned w = 0; w < nw; w++) {
      unsigned bad = 0;
      for (unsigned i = 0; i < FP_NCASES; i++) {
        const fp_case *c = &fp_cases[i];
        const uint32_t *sr = &so[(size_t)w * 2 * FP_NCASES + 2 * i];
        if (sr[0] != c->exp || sr[1] != c->flags) {
          if (bad++ < MAX_REPORTS)
            fprintf(stderr,
                    "fpcorner [tpw %u wpg %u] warp %u scalar case %u (op %u frm %u a %08x b %08x "
                    "c %08x): expected %08x flags %02x, got %08x flags %02x\n",
                    s->tpw, s->wpg, w, i, c->op, c->frm, c->a, c->b, c->c, c->exp, c->flags,
                    sr[0], sr[1]);
        }
        if (c->op >= FP_VECTOR_OPS) continue;
        uint32_t v = vo[(size_t)w * FP_NCASES + i];
        if (v != c->exp && bad++ < MAX_REPORTS)
          fprintf(stderr,
                  "fpcorner [tpw %u wpg %u] warp %u vector case %u (op %u frm %u a %08x b %08x "
                  "c %08x): expected %08x, got %08x\n",
                  s->tpw, s->wpg, w, i, c->op, c->frm, c->a, c->b, c->c, c->exp, v);
      }
      for (unsigned r = 0; r < nruns; r++) {
        uint32_t f = vf[(size_t)w * nruns + r];
        if (f != run_flags[r] && bad++ < MAX_REPORTS)
          fprintf(stderr,
                  "fpcorner [tpw %u wpg %u] warp %u vector run %u (op %u frm %u, cases %u..%u): "
                  "expected flags %02x, got %02x\n",
                  s->tpw, s->wpg, w, r, runs[4 * r], runs[4 * r + 1], runs[4 * r + 2],
                  runs[4 * r + 2] + runs[4 * r + 3] - 1, run_flags[r], f);
      }
      CHECK_EQ_U32(st, misc[4 * w + 0], (3u << 5) | 0x15u); /* fcsr = frm:fflags */
      CHECK_EQ_U32(st, misc[4 * w + 1], 1);                  /* frm after fsrm */
      CHECK_EQ_U32(st, misc[4 * w + 2], 3);                  /* old frm from fsrm */
      if (bad) {
        st->failed_checks++;
        break;
      }
    }
    /* lanes past the end of a run are skipped by a divergent branch
     * whenever a run is not a multiple of the warp width */
    check_stats(st, &k, s, rs, 1);
  next:
    free(so), free(vo), free(vf), free(misc);
  }
  kl_free(&k);
}

/* ------------------------------------------------------------------ */
/* determinism: one problem, every device configuration                 */

static const unsigned det_devs[][2] = {{1, 1}, {1, 8}, {4, 1}, {4, 2}, {4, 8}, {2, 4}, {3, 16}};
#define NDEV (sizeof det_devs / sizeof det_devs[0])

/* Run the launch on every device configuration (SMs x warp slots) and
 * require byte-identical buffers (inputs included: nothing else may be
 * written); 'repeat' instead runs the first configuration twice (for racy
 * kernels, whose results may depend on the configuration but not vary
 * between runs). */
static void det_check(check_state *st, const char *name, kl_shape s, const kl_buf *init,
                      unsigned nbufs, const uint32_t *args, unsigned nargs, uint32_t pds_size,
                      bool repeat) {
  kl_kernel k;
  if (!build(st, &k, name)) return;
  uint8_t *first[KL_MAX_BUFS] = {0};
  unsigned ndev = repeat ? 2 : NDEV;
  for (unsigned d = 0; d < ndev; d++) {
    kl_buf b[KL_MAX_BUFS];
    for (unsigned i = 0; i < nbufs; i++) {
      b[i] = init[i];
      b[i].data = malloc(init[i].size);
      memcpy(b[i].data, init[i].data, init[i].size);
    }
    kl_buf pds = {NULL, pds_size, 0};
    s.sms = det_devs[repeat ? 0 : d][0];
    s.slots = det_devs[repeat ? 0 : d][1];
    double rs[VT_C_COUNT];
    char msg[600];
    int rc = kl_run(&k, &s, b, nbufs, args, nargs, pds_size ? &pds : NULL, rs, msg, sizeof msg);
    if (run_ok(st, &k, &s, rc, msg)) {
      for (unsigned i = 0; i < nbufs; i++) {
        if (d == 0) {
          first[i] = b[i].data;
          b[i].data = NULL;
        } else if (memcmp(first[i], b[i].data, b[i].size) != 0) {
          char sh[160];
          kl_shape_str(&s, sh, sizeof sh);
          fprintf(stderr, "%s: buffer %u differs between sms %u slots %u and [%s]\n", name, i,
                  det_devs[0][0], det_devs[0][1], sh);
          st->failed_checks++;
        }
      }
    }
    for (unsigned i = 0; i < nbufs; i++) free(b[i].data);
  }
  for (unsigned i = 0; i < nbufs; i++) free(first[i]);
  kl_free(&k);
}

static uint32_t *rnd_words(rng *r, unsigned n, uint32_t mask, int32_t bias) {
  uint32_t *p = malloc(4 * n);
  for (unsigned i = 0; i < n; i++) p[i] = (rnd(r) & mask) + (uint32_t)bias;
  return p;
}

TEST(test_determinism) {
  /* 6 workgroups of 4 warps x 8 threads: more warps than most devices
   * hold at once, so dispatch order and SM interleaving vary */
  kl_shape s = {8, 4, {6, 1}, {32, 1}, 1, 1};
  unsigned n = 6 * 32, nw = 6 * 4;
  rng r = {99};
  uint32_t *fa = rnd_words(&r, n, 0x3fffffff, 0), *fb = rnd_words(&r, n, 0x3fffffff, 0);
  uint32_t *fc = rnd_words(&r, n, 0x3fffffff, 0), *o1 = rnd_words(&r, 12 * n, ~0u, 0);
  uint32_t *o2 = rnd_words(&r, n, ~0u, 0);
  {
    kl_buf b[3] = {{fa, 4 * n, 0}, {fb, 4 * n, 0}, {o1, 4 * n, 0}};
    kl_place(b, 3);
    uint32_t args[3] = {b[0].addr, b[1].addr, b[2].addr};
    det_check(st, "vecadd", s, b, 3, args, 3, 0, false);
    uint32_t sargs[4] = {0x3fc00000u, b[0].addr, b[1].addr, b[2].addr};
    det_check(st, "saxpy", s, b, 3, sargs, 4, 0, false);
  }
  {
    kl_buf b[2] = {{fa, 4 * n, 0}, {o1, 4 * 6, 0}};
    kl_place(b, 2);
    uint32_t args[2] = {b[0].addr, b[1].addr};
    det_check(st, "reduce", s, b, 2, args, 2, 0, false);
  }
  {
    uint32_t *a = rnd_words(&r, n, 31, -15), *bb = rnd_words(&r, n, 63, -31),
             *c = rnd_words(&r, n, 255, -20);
    kl_buf b[4] = {{a, 4 * n, 0}, {bb, 4 * n, 0}, {c, 4 * n, 0}, {o1, 4 * n, 0}};
    kl_place(b, 4);
    uint32_t args[4] = {b[0].addr, b[1].addr, b[2].addr, b[3].addr};
    det_check(st, "nested", s, b, 4, args, 4, 0, false);
    free(a), free(bb), free(c);
  }
  {
    uint32_t *trip = rnd_words(&r, n, 15, -2), *data = rnd_words(&r, n * LOOP_MAXK, ~0u, 0);
    kl_buf b[4] = {{trip, 4 * n, 0}, {data, 4 * n * LOOP_MAXK, 0}, {o1, 4 * n, 0}, {o2, 4 * n, 0}};
    kl_place(b, 4);
    uint32_t args[5] = {b[0].addr, b[1].addr, b[2].addr, b[3].addr, LOOP_MAXK};
    det_check(st, "loop", s, b, 4, args, 5, 0, false);
    free(trip), free(data);
  }
  {
    uint32_t *idx = rnd_words(&r, n, 7, 0);
    kl_buf b[3] = {{fa, 4 * n, 0}, {idx, 4 * n, 0}, {o1, 48 * n, 0}};
    kl_place(b, 3);
    uint32_t args[3] = {b[0].addr, b[1].addr, b[2].addr};
    det_check(st, "privmem", s, b, 3, args, 3, PRIV_FRAME * n, false);
    free(idx);
  }
  {
    /* 4x4 tiles, 2x3 groups, K = 8 */
    kl_shape m = {8, 2, {2, 3}, {4, 4}, 1, 1};
    kl_buf b[3] = {{fa, 4 * 12 * 8, 0}, {fb, 4 * 8 * 8, 0}, {o1, 4 * 12 * 8, 0}};
    kl_place(b, 3);
    uint32_t args[5] = {b[0].addr, b[1].addr, b[2].addr, 8, 8};
    det_check(st, "matmul", m, b, 3, args, 5, 0, false);
  }
  {
    /* atomics race between warps: results depend on the configuration but
     * must repeat exactly for the same one (spec README decision 15) */
    uint32_t cnt[16] = {0}, *old = rnd_words(&r, 4 * nw, ~0u, 0), lo[6] = {0};
    kl_buf b[3] = {{cnt, sizeof cnt, 0}, {old, 16 * nw, 0}, {lo, sizeof lo, 0}};
    kl_place(b, 3);
    uint32_t args[3] = {b[0].addr, b[1].addr, b[2].addr};
    det_check(st, "atomics", s, b, 3, args, 3, 0, true);
    free(old);
  }
  free(fa), free(fb), free(fc), free(o1), free(o2);
}

/* ------------------------------------------------------------------ */
/* the kernels through the vt command give the same ELF as the library  */

static const char *const all_kernels[] = {"vecadd", "saxpy",   "matmul", "reduce",
                                          "nested", "loop",    "privmem", "bytes",
                                          "atomics", "fpcorner"};

TEST(test_cli_assembly) {
  for (size_t i = 0; i < sizeof all_kernels / sizeof all_kernels[0]; i++) {
    const char *name = all_kernels[i];
    kl_kernel k;
    if (!build(st, &k, name)) continue;
    char out[1024], cmd[4096];
    snprintf(out, sizeof out, "%s/kernel_%s.elf", VT_TEST_TMP, name);
    snprintf(cmd, sizeof cmd, "'%s' as '%s/examples/kernels/crt0.s' '%s/tests/kernels/%s.s' -o '%s'",
             VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, name, out);
    int rc = system(cmd);
    CHECK(st, rc == 0);
    FILE *f = fopen(out, "rb");
    CHECK(st, f != NULL);
    if (f) {
      uint8_t *buf = malloc(k.image_size + 1);
      size_t n = fread(buf, 1, k.image_size + 1, f);
      fclose(f);
      if (n != k.image_size || memcmp(buf, k.image, n) != 0) {
        fprintf(stderr, "%s: vt as output (%zu bytes) differs from vt_asm_link (%zu bytes)\n",
                name, n, k.image_size);
        st->failed_checks++;
      }
      free(buf);
    }
    kl_free(&k);
  }
}

TEST(test_summary) {
  printf("%llu launches, %llu warp instructions%s\n", total_runs, total_insns,
         quick_mode() ? " (quick mode)" : "");
  CHECK(st, total_runs > 0);
}

RUN_TESTS(T(test_vecadd), T(test_saxpy), T(test_matmul), T(test_reduce), T(test_nested), T(test_loop),
          T(test_privmem), T(test_bytes), T(test_atomics),
          T(test_fpcorner), T(test_determinism),
          T(test_cli_assembly),          T(test_summary))
