/* The timing model and the v2025 part-1 instructions (isa2025.md 6): each
 * new parameter moves the cycles of a micro-kernel as docs/timing.md says
 * (exact per-unit differences on dependent chains, where the rule of
 * test_timing_micro.c applies: a chain unit costs 4 + the unit latency),
 * the new counters count what the kernel executes, and the timing run
 * computes the functional model's results. Kernels are assembled with
 * `vt as` (library); costs are (cycles(20 units) - cycles(10 units)) / 10. */
#include <string.h>

#include "check.h"
#include "counters_util.h"
#include "timing_kernel.h"

#define BUF TK_BUF

typedef void (*tweak_fn)(vt_settings *s);

typedef struct krun {
  uint64_t cycles;
  double ctr[VT_C_COUNT];
  uint32_t out[64]; /* BUF words after the run */
} krun;

/* the second (warm) launch of the kernel on one SM, 8 threads x warps */
static void run_kernel(check_state *st, const char *setup, const char *unit, unsigned n,
                       unsigned warps, tweak_fn tweak, bool timing, krun *r) {
  char *src = tk_source(setup, unit, n);
  memset(r, 0, sizeof *r);
  vt_device *dev = tk_device(st, src, 1, 0x100000);
  free(src);
  if (!dev) return;
  vt_error err;
  vt_settings tc;
  vt_test_settings_preset(&tc, "ventus-2025");
  tc.flush_at_wg_end = 0;
  if (tweak) tweak(&tc);
  vt_timing *t = vt_timing_new(&tc);
  vt_launch l = {.start_pc = VT_PROGRAM_BASE, .num_wg = {1, 1, 1}, .threads_per_warp = 8,
                 .warps_per_wg = warps, .knl_addr = BUF, .lds_size = 0x1000,
                 .pds_size = 0, .pds_base = BUF};
  for (int k = 0; k < 2; k++) {
    int rc = timing ? vt_timing_run(t, dev, &l, "micro", &err) : vt_device_run(dev, &l, "f", &err);
    if (rc != VT_OK) {
      fprintf(stderr, "run failed: %s\n", err.message);
      st->failed_checks++;
    }
  }
  r->cycles = (uint64_t)vt_stats_value(vt_device_stats(dev), 1, -1, VT_C_cycles);
  for (int c = 0; c < VT_C_COUNT; c++)
    r->ctr[c] = vt_stats_value(vt_device_stats(dev), 1, -1, (vt_counter)c);
  CHECK(st, vt_mem_read(dev, BUF, r->out, sizeof r->out, &err) == VT_OK);
  vt_timing_free(t);
  vt_device_free(dev);
}

/* per-unit cost */
static int64_t cost(check_state *st, const char *setup, const char *unit, unsigned warps,
                    tweak_fn tweak) {
  krun a, b;
  run_kernel(st, setup, unit, 10, warps, tweak, true, &a);
  run_kernel(st, setup, unit, 20, warps, tweak, true, &b);
  return ((int64_t)b.cycles - (int64_t)a.cycles) / 10;
}

#define EXPECT_COST(st, what, got, want)                                                  \
  do {                                                                                    \
    int64_t g_ = (got), w_ = (want);                                                      \
    if (g_ != w_) {                                                                       \
      (st)->failed_checks++;                                                              \
      fprintf(stderr, "%s: %lld cycles per unit, expected %lld\n", what, (long long)g_,   \
              (long long)w_);                                                             \
    }                                                                                     \
  } while (0)

static const char *const E64 =
    "  li t4, 8\n  vsetvli t4, t4, e64, m1, ta, ma\n  li t0, 0x3ff00000\n"
    "  vmv.v.x v2, t0\n  vmv.v.x v4, t0\n  vmv.v.x v6, t0\n";

static void passes4(vt_settings *s) { s->valu_pair_passes = 4; }
static void fp64_slow(vt_settings *s) { s->lat_fp64_add = 9, s->lat_fp64_fma = 12; }
static void pair_wb(vt_settings *s) { s->pair_writeback_extra = 3; }

/* 64-bit elements: lat_valu + passes - 1; binary64 latencies; the pair
 * writeback */
TEST(sew64_and_fp64_chains) {
  EXPECT_COST(st, "vadd e64 chain", cost(st, E64, "  vadd.vv v4, v4, v2\n", 1, NULL), 4 + 2);
  EXPECT_COST(st, "vadd e64 chain, 4 passes", cost(st, E64, "  vadd.vv v4, v4, v2\n", 1, passes4), 4 + 4);
  EXPECT_COST(st, "vmul e64 chain", cost(st, E64, "  vmul.vv v4, v4, v2\n", 1, NULL), 4 + 4);
  EXPECT_COST(st, "vfadd e64 chain", cost(st, E64, "  vfadd.vv v4, v4, v2\n", 1, NULL), 4 + 5);
  EXPECT_COST(st, "vfadd e64 chain, slower", cost(st, E64, "  vfadd.vv v4, v4, v2\n", 1, fp64_slow), 4 + 9);
  /* six register reads over four banks: one bank conflict cycle */
  int64_t fma = cost(st, E64, "  vfmacc.vv v4, v2, v6\n", 1, NULL);
  EXPECT_COST(st, "vfmacc e64 chain", fma, 4 + 7 + 1);
  EXPECT_COST(st, "vfmacc e64 chain, slower", cost(st, E64, "  vfmacc.vv v4, v2, v6\n", 1, fp64_slow), fma + 5);
  EXPECT_COST(st, "vfadd e64 chain, pair writeback", cost(st, E64, "  vfadd.vv v4, v4, v2\n", 1, pair_wb), 4 + 5 + 3);
  EXPECT_COST(st, "vfwadd.wv chain (e32, binary64 result)",
              cost(st, "  li t0, 0x3f800000\n  vmv.v.x v2, t0\n  vmv.v.x v3, t0\n",
                   "  vfwadd.wv v4, v4, v2\n", 1, NULL), 4 + 5);
}

static void fused(vt_settings *s) { s->prefix_fused = 1; }
static void addr_cycles(vt_settings *s) { s->lsu_range_check_cycles = 3, s->lsu_addr64_cycles = 5; }

/* the new families through the LSU: the same per-unit cost as the flat
 * family, plus the range check (global) or the 64-bit address cycles */
TEST(memory_families) {
  const char *setup = "  vsll.vi v2, v1, 2\n  li t0, 0x90000000\n  vadd.vx v2, v2, t0\n  vmv.v.i v3, 0\n";
  int64_t flat = cost(st, setup, "  vlw12.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, NULL);
  EXPECT_COST(st, "vlw_global chain", cost(st, setup, "  vlw_global.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, NULL), flat);
  EXPECT_COST(st, "vlw_global chain, range check", cost(st, setup, "  vlw_global.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, addr_cycles), flat + 3);
  EXPECT_COST(st, "vlw12.v chain, new parameters", cost(st, setup, "  vlw12.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, addr_cycles), flat);
  EXPECT_COST(st, "vlw12d chain", cost(st, setup, "  vlw12d.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, NULL), flat);
  EXPECT_COST(st, "vlw12d chain, 64-bit address", cost(st, setup, "  vlw12d.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, addr_cycles), flat + 5);
  /* width 128: four words per lane, merged per cache line like lanes: lane i
   * at BUF + 128 i + 120 touches lines i and i + 1, so 9 requests instead of
   * 8 (the prefix fused, so that only the requests differ) */
  const char *edge = "  vsll.vi v2, v1, 7\n  li t0, 0x90000078\n  vadd.vx v2, v2, t0\n";
  int64_t lines8 = cost(st, edge, "  vlw12.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, fused);
  EXPECT_COST(st, "width 128", cost(st, edge, "  prefix_memory width=128\n  vlw12.v v4, 0(v2)\n  vadd.vv v2, v2, v4\n", 1, fused), lines8 + 1);
}

static void alu_pair6(vt_settings *s) { s->lat_alu_pair = 6; }
static void dec64(vt_settings *s) { s->insn64_decode_extra = 3; }
static void vopmod(vt_settings *s) { s->vop64_modifier_cycles = 2; }

TEST(prefixes_pairs_vop64) {
  /* a dependent pair add: the prefix's dispatch slot hides behind the
   * latency; lat_alu_pair adds exactly */
  const char *pa = "  prefix pair=1\n  add a0, a0, a2\n";
  int64_t slot = cost(st, "", pa, 1, NULL);
  EXPECT_COST(st, "pair add chain", slot, 4 + 2);
  EXPECT_COST(st, "pair add chain, lat_alu_pair 6", cost(st, "", pa, 1, alu_pair6), slot + 4);
  EXPECT_COST(st, "fused pair add chain", cost(st, "", pa, 1, fused), 4 + 2);
  /* independent pair adds: the prefix's slot costs 2 cycles (dispatch,
   * issue one cycle later), fused it costs nothing */
  const char *ps = "  prefix pair=1\n  add a0, a2, a4\n  prefix pair=1\n  add a6, a2, a4\n";
  EXPECT_COST(st, "pair add stream", cost(st, "", ps, 1, NULL), 2 * (4 + 2));
  EXPECT_COST(st, "fused pair add stream", cost(st, "", ps, 1, fused), 2 * 4);
  /* VOP64: 8 bytes, a dependent chain at the vector ALU latency */
  const char *vop = "  vop64.vadd.vv v4, v4, v1\n";
  EXPECT_COST(st, "vop64 chain", cost(st, "", vop, 1, NULL), 4 + 1);
  EXPECT_COST(st, "vop64 chain, modifier cycles", cost(st, "", vop, 1, vopmod), 4 + 1 + 2);
  /* an independent stream: the decode extra adds to each instruction */
  const char *stream = "  vop64.vadd.vv v4, v2, v1\n  vop64.vadd.vv v5, v2, v1\n";
  EXPECT_COST(st, "vop64 stream, decode extra", cost(st, "", stream, 1, dec64) - cost(st, "", stream, 1, NULL), 2 * 3);
}

/* both halves of a pair result are pending: a reader of the high half waits
 * as long as a reader of the low half, longer than an independent reader */
TEST(pair_result_scoreboard) {
  const char *lo = "  prefix pair=1\n  add a0, a2, a4\n  addi a6, a0, 1\n";
  const char *hi = "  prefix pair=1\n  add a0, a2, a4\n  addi a6, a1, 1\n";
  const char *none = "  prefix pair=1\n  add a0, a2, a4\n  addi a6, a3, 1\n";
  int64_t c_lo = cost(st, "", lo, 1, NULL), c_hi = cost(st, "", hi, 1, NULL);
  int64_t c_none = cost(st, "", none, 1, NULL);
  EXPECT_COST(st, "reader of the high half", c_hi, c_lo);
  CHECK(st, c_hi > c_none);
}

/* counters: insn64, prefix_insns, pair_insns count what ran (20 units) */
TEST(counters) {
  krun r;
  run_kernel(st, "  vsll.vi v10, v1, 2\n  li t0, 0x90000000\n  vadd.vx v10, v10, t0\n",
             "  vop64.vadd.vv v4, v4, v1\n  prefix pair=1\n  add a0, a0, a2\n  addw a4, a4, a2\n"
             "  prefix_memory space=global\n  vlw12.v v8, 0(v10)\n", 20, 1, NULL, true, &r);
  CHECK(st, r.ctr[VT_C_insn64] == 20);
  CHECK(st, r.ctr[VT_C_prefix_insns] == 40);
  CHECK(st, r.ctr[VT_C_pair_insns] == 40); /* pair add, addw */
  CHECK(st, r.ctr[VT_C_warp_instructions] == r.ctr[VT_C_insns_x] + r.ctr[VT_C_insns_v] + r.ctr[VT_C_regext]);
}

/* the timing run computes what the functional run computes */
TEST(same_results) {
  const char *setup = "  li a0, 7\n  li a1, 0\n  li a2, 0x90000000\n  vmv.v.x v2, a0\n  vsll.vi v6, v1, 3\n"
                      "  vadd.vx v6, v6, a2\n  vmv.v.i v7, 0\n";
  const char *unit = "  prefix pair=1\n  addi a0, a0, 3\n  vop64.vmul.vv v2, v2, v1\n"
                     "  vsw12d.v v2, 0(v6)\n  prefix_memory width=64\n  sw a0, 128(a2)\n";
  krun f, t;
  run_kernel(st, setup, unit, 5, 1, NULL, false, &f);
  run_kernel(st, setup, unit, 5, 1, NULL, true, &t);
  CHECK(st, memcmp(f.out, t.out, sizeof f.out) == 0);
  CHECK_EQ_U32(st, t.out[32], 7 + 5 * 3); /* each launch: 5 units */
  CHECK_EQ_U32(st, t.out[2], 7 * 1 * 1 * 1 * 1 * 1); /* lane 1: 7 * 1^5 */
  CHECK_EQ_U32(st, t.out[4], 7 * 32);                /* lane 2: 7 * 2^5 */
}

static void hints(vt_settings *s) { s->lsu_honor_hints = 1; }

/* cachehint L1 bypass (10) with lsu_honor_hints: the loads never hit */
TEST(cache_hints) {
  const char *setup = "  vsll.vi v2, v1, 2\n  li t0, 0x90000000\n  vadd.vx v2, v2, t0\n";
  const char *unit = "  prefix_memory hint=2\n  vlw12.v v4, 0(v2)\n";
  krun a, b;
  run_kernel(st, setup, unit, 10, 1, NULL, true, &a);
  run_kernel(st, setup, unit, 10, 1, hints, true, &b);
  CHECK(st, a.ctr[VT_C_l1d_hits] >= 9);
  CHECK(st, b.ctr[VT_C_l1d_hits] == 0);
  CHECK(st, b.cycles > a.cycles);
}

RUN_TESTS(T(sew64_and_fp64_chains), T(pair_result_scoreboard), T(cache_hints), T(memory_families), T(prefixes_pairs_vop64), T(counters),
          T(same_results))
