/* Assembly kernels (tests/kernels/NAME.s, linked with examples/kernels/crt0.s)
 * run on the simulator in many launch shapes and compared bit-exactly with C
 * reference results: threads per warp 4/8/16/32, warps per workgroup
 * 1/2/4/8, 1/3/8 workgroups, 1 or 4 SMs and small warp-slot counts. Also
 * checks that race-free kernels give identical results on every device
 * configuration, and that the run statistics are plausible (divergent
 * vector branches only in the divergent kernels). tests/kernels/README.md
 * describes the kernels.
 *
 * VT_KERNEL_TEST_QUICK=1 (or a sanitizer build) runs a reduced shape set. */
#include <math.h>
#include <stdbool.h>

#include "check.h"
#include "kernel_launch.h"

#if defined(__SANITIZE_ADDRESS__)
#define KT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KT_SANITIZED 1
#endif
#endif
#ifndef KT_SANITIZED
#define KT_SANITIZED 0
#endif

#define MAX_REPORTS 5

/* ------------------------------------------------------------------ */
/* shapes                                                               */

static bool quick_mode(void) {
  const char *e = getenv("VT_KERNEL_TEST_QUICK");
  if (e && *e) return strcmp(e, "0") != 0;
  return KT_SANITIZED;
}

#define MAX_SHAPES 128
/* Every (threads per warp, warps per workgroup) pair, each with 1, 3 and 8
 * workgroups, the device configuration rotating over 1/4 SMs and 1..8 warp
 * slots (slots below the workgroup size grow to fit one workgroup). */
static unsigned make_shapes(kl_shape *out, bool square_only) {
  static const unsigned tpws[] = {4, 8, 16, 32}, wpgs[] = {1, 2, 4, 8}, nwgs[] = {1, 3, 8};
  static const unsigned devs[][2] = {{1, 1}, {4, 8}, {1, 8}, {4, 2}, {2, 4}, {4, 1}};
  bool quick = quick_mode();
  unsigned n = 0, k = 0;
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
        kl_shape s;
        memset(&s, 0, sizeof s);
        s.tpw = tpw;
        s.wpg = wpg;
        s.nwg[0] = nwgs[c];
        s.nwg[1] = 1;
        s.local[0] = local;
        s.local[1] = 1;
        s.sms = devs[k % 6][0];
        s.slots = devs[k % 6][1];
        k++;
        out[n++] = s;
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
                        const vt_run_stats *rs, int divergent) {
  total_runs++;
  total_insns += rs->warp_insns;
  uint64_t nwg = (uint64_t)s->nwg[0] * s->nwg[1];
  bool ok = rs->warp_insns > 0 && rs->thread_insns >= rs->warp_insns &&
            rs->workgroups == nwg && rs->warps == nwg * s->wpg &&
            rs->vbranches >= rs->divergent_vbranches;
  if (divergent == 0) ok = ok && rs->divergent_vbranches == 0;
  if (divergent > 0) ok = ok && rs->divergent_vbranches > 0 && rs->max_simt_depth > 0;
  if (!ok) {
    char sh[160];
    kl_shape_str(s, sh, sizeof sh);
    fprintf(stderr,
            "%s [%s]: implausible statistics: warp_insns %llu thread_insns %llu workgroups %llu "
            "warps %llu vbranches %llu divergent %llu depth %u\n",
            k->name, sh, (unsigned long long)rs->warp_insns, (unsigned long long)rs->thread_insns,
            (unsigned long long)rs->workgroups, (unsigned long long)rs->warps,
            (unsigned long long)rs->vbranches, (unsigned long long)rs->divergent_vbranches,
            rs->max_simt_depth);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "vecadd", s, "C", c, e, n);
      check_stats(st, &k, s, &rs, 0);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 4, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "saxpy", s, "Y", y, ey, n);
      cmp_words(st, "saxpy", s, "Z", z, ez, n);
      check_stats(st, &k, s, &rs, 0);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 5, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "matmul", s, "C", c, e, m * n);
      check_stats(st, &k, s, &rs, 0);
      CHECK(st, rs.barriers == 2ull * 3 * s->wpg * s->nwg[0] * s->nwg[1]);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 2, args, 2, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "reduce", s, "OUT", out, e, g);
      check_stats(st, &k, s, &rs, 1);
      unsigned steps = 0;
      while ((1u << steps) < l) steps++;
      CHECK(st, rs.barriers == (uint64_t)(steps + 1) * s->wpg * g);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 4, args, 4, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "nested", s, "OUT", o, e, n);
      check_stats(st, &k, s, &rs, 1);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 4, args, 5, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "loop", s, "ACC", acc, eacc, n);
      cmp_words(st, "loop", s, "KOUT", ko, ek, n);
      check_stats(st, &k, s, &rs, 1);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, &pb, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "privmem", s, "OUT", out, e, 12 * n);
      cmp_words(st, "privmem", s, "PDS image", pds, epds, PRIV_FRAME / 4 * n);
      check_stats(st, &k, s, &rs, 0);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 8, args, 8, NULL, &rs, msg, sizeof msg);
    if (run_ok(st, &k, s, rc, msg)) {
      cmp_words(st, "bytes", s, "OUT", out, eout, 8 * n);
      cmp_bytes(st, "bytes", s, "OB (+8 guard bytes)", ob, eob, n + 8);
      cmp_bytes(st, "bytes", s, "OH (+8 guard halfwords)", (uint8_t *)oh, (uint8_t *)eoh,
                2 * (n + 8));
      cmp_words(st, "bytes", s, "SOUT", so, eso, 8 * nw);
      cmp_bytes(st, "bytes", s, "SB (+8 guard bytes)", sb, esb, nw + 8);
      cmp_bytes(st, "bytes", s, "SH (+8 guard halfwords)", (uint8_t *)sh, (uint8_t *)esh,
                2 * (nw + 8));
      check_stats(st, &k, s, &rs, 0);
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
    vt_run_stats rs;
    char msg[600];
    int rc = kl_run(&k, s, bufs, 3, args, 3, NULL, &rs, msg, sizeof msg);
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
      check_stats(st, &k, s, &rs, 0);
    }
    free(old), free(lo);
  }
  kl_free(&k);
}

TEST(test_summary) {
  printf("%llu launches, %llu warp instructions%s\n", total_runs, total_insns,
         quick_mode() ? " (quick mode)" : "");
  CHECK(st, total_runs > 0);
}

RUN_TESTS(T(test_vecadd), T(test_saxpy), T(test_matmul), T(test_reduce), T(test_nested), T(test_loop),
          T(test_privmem), T(test_bytes), T(test_atomics),          T(test_summary))
