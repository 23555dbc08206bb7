/* Timing-model micro-kernels: each test assembles a kernel that repeats a
 * small unit N times and checks cycles(N=20) - cycles(N=10) = 10 x the
 * per-unit cost derived by hand from the rules of docs/timing.md (the rest
 * of the kernel cancels out). Each kernel runs twice on one vt_timing (the
 * second launch, measured, has a warm I-cache; no workgroup-end flush).
 *
 * Rules used in the derivations (preset ventus-2025):
 *  - dispatch (collector entry) at t; operands read at t+1 (one read per
 *    bank and cycle, bank = (warp slot + register) mod 4); issue-valid at
 *    t+3, or t+1 without register operands; the warp's next dispatch >= issue+1
 *  - result at issue + latency; written back at the end of that cycle; a
 *    dependent instruction dispatches the cycle after
 *  - branch lock until the branch's result; a redirect flushes the ibuffer,
 *    the target is fetched the next cycle and dispatchable 4 cycles later
 */
#include <string.h>

#include "counters_util.h"
#include "check.h"
#include "timing_kernel.h"

#define BUF TK_BUF

/* cycles of the second (warm) launch of the kernel; nwg workgroups, each
 * warp using vgpr_usage vector registers out of vgprs_per_sm (0: preset) */
static uint64_t run_kernel_ex(check_state *st, const char *setup, const char *unit, unsigned n,
                              unsigned threads, unsigned warps, const char *preset, unsigned nwg,
                              uint32_t vgpr_usage, uint32_t vgprs_per_sm, int oc_entry) {
  char *src = tk_source(setup, unit, n);
  vt_device *dev = tk_device(st, src, 1, 0x100000);
  free(src);
  if (!dev) return 0;
  vt_error err;
  vt_settings tc;
  vt_test_settings_preset(&tc, preset);
  tc.flush_at_wg_end = 0;
  if (vgprs_per_sm) tc.vgprs_per_sm = vgprs_per_sm;
  if (oc_entry >= 0) tc.oc_entry_cycles = (uint32_t)oc_entry;
  vt_timing *t = vt_timing_new(&tc);
  vt_launch l = {.start_pc = VT_PROGRAM_BASE, .num_wg = {nwg, 1, 1}, .threads_per_warp = threads,
                 .warps_per_wg = warps, .knl_addr = BUF, .lds_size = 0x1000,
                 .pds_size = 0, .pds_base = BUF, .vgpr_usage = vgpr_usage};
  for (int k = 0; k < 2; k++) {
    int rc = vt_timing_run(t, dev, &l, "micro", &err);
    if (rc != VT_OK) {
      fprintf(stderr, "timing run failed: %s\n", err.message);
      st->failed_checks++;
    }
  }
  uint64_t c = (uint64_t)vt_stats_value(vt_device_stats(dev), 1, -1, VT_C_cycles);
  vt_timing_free(t);
  vt_device_free(dev);
  return c;
}

static uint64_t run_kernel(check_state *st, const char *setup, const char *unit, unsigned n,
                           unsigned threads, unsigned warps, const char *preset) {
  return run_kernel_ex(st, setup, unit, n, threads, warps, preset, 1, 0, 0, -1);
}

/* per-unit cost measured as (cycles(20 units) - cycles(10 units)) / 10 */
static void check_cost(check_state *st, const char *what, const char *setup, const char *unit,
                       unsigned threads, unsigned warps, int64_t want) {
  uint64_t a = run_kernel(st, setup, unit, 10, threads, warps, "ventus-2025");
  uint64_t b = run_kernel(st, setup, unit, 20, threads, warps, "ventus-2025");
  int64_t d = (int64_t)b - (int64_t)a;
  if (d != 10 * want) {
    st->failed_checks++;
    fprintf(stderr, "%s: 10 units cost %lld cycles (%llu -> %llu), expected %lld\n", what,
            (long long)d, (unsigned long long)a, (unsigned long long)b, (long long)(10 * want));
  }
}

/* ---- dependent chains per unit: dispatch t, issue t+3, result t+3+L,
 * next dispatch t+4+L ---- */
/* The CTA scheduler allocates vector registers per SM: with room for one
 * workgroup's registers only, two workgroups of a dependent chain run one
 * after the other instead of interleaving. */
TEST(register_limited_residency) {
  const char *unit = "  vadd.vv v2, v2, v1\n";
  uint64_t both = run_kernel_ex(st, "", unit, 40, 8, 1, "ventus-2025", 2, 64, 4096, -1);
  uint64_t one_at_a_time = run_kernel_ex(st, "", unit, 40, 8, 1, "ventus-2025", 2, 64, 64, -1);
  uint64_t single = run_kernel_ex(st, "", unit, 40, 8, 1, "ventus-2025", 1, 64, 64, -1);
  CHECK(st, both < single + single / 4); /* interleaved: little more than one */
  CHECK(st, one_at_a_time > 2 * single - single / 4); /* serialised: about two */
  if (st->failed_checks)
    fprintf(stderr, "2 WGs: %llu cycles with room for both, %llu with room for one (1 WG: %llu)\n",
            (unsigned long long)both, (unsigned long long)one_at_a_time,
            (unsigned long long)single);
}

TEST(chains) {
  const char *v2 = "  vadd.vi v2, v1, 3\n  li t0, 0x3f800000\n  vmv.v.x v2, t0\n";
  check_cost(st, "vadd chain", "", "  vadd.vv v3, v3, v1\n", 8, 1, 5);
  check_cost(st, "addi chain", "", "  addi t0, t0, 1\n", 8, 1, 5);
  check_cost(st, "vmul chain", "", "  vmul.vv v3, v3, v1\n", 8, 1, 7);
  check_cost(st, "mul chain", "", "  mul t0, t0, t1\n", 8, 1, 7);
  check_cost(st, "vfadd chain", v2, "  vfadd.vv v3, v3, v2\n", 8, 1, 7);
  check_cost(st, "vfmul chain", v2, "  vfmul.vv v3, v3, v2\n", 8, 1, 7);
  check_cost(st, "vfmacc chain", v2, "  vfmacc.vv v3, v1, v2\n", 8, 1, 9);
  check_cost(st, "vfmin chain", v2, "  vfmin.vv v3, v3, v2\n", 8, 1, 6);
  check_cost(st, "vfcvt chain", v2, "  vfcvt.f.x.v v3, v3\n", 8, 1, 6);
  check_cost(st, "fadd.s chain", "", "  fadd.s t0, t0, t1\n", 8, 1, 7);
}

/* ---- independent streams of one warp: one instruction per warp in the
 * collector: 4 cycles with register operands, 2 without ---- */
TEST(streams) {
  check_cost(st, "vadd stream", "  vadd.vi v2, v1, 1\n",
             "  vadd.vv v3, v1, v2\n  vadd.vv v4, v1, v2\n", 8, 1, 8);
  check_cost(st, "li stream", "", "  li t0, 1\n  li t1, 2\n", 8, 1, 4);
  /* v1 and v5 share bank 1: the second read waits a cycle */
  check_cost(st, "bank conflict", "  vadd.vi v5, v1, 1\n",
             "  vadd.vv v3, v1, v5\n  vadd.vv v4, v1, v5\n", 8, 1, 10);
  /* four warps: each still needs 4 cycles per instruction (collector
   * turnaround), the V path dispatches one per cycle, so 8 instructions of
   * the 4 warps per 8 cycles: the unit (2 per warp) still costs 8 */
  check_cost(st, "4-warp vadd stream", "  vadd.vi v2, v1, 1\n",
             "  vadd.vv v3, v1, v2\n  vadd.vv v4, v1, v2\n", 8, 4, 8);
}

/* ---- a dispatch register before the collector (oc_entry_cycles = 1, the
 * Verilog port's reg_ibuffer2issue): dispatch t, collector t+1, reads t+2,
 * issue-valid t+4 (t+2 without register operands), next dispatch of the
 * warp one cycle after its issue; a dependent chain: result t+5, next
 * dispatch t+6 ---- */
static void check_cost_entry(check_state *st, const char *what, const char *setup,
                             const char *unit, int64_t want) {
  uint64_t a = run_kernel_ex(st, setup, unit, 10, 8, 1, "ventus-2025", 1, 0, 0, 1);
  uint64_t b = run_kernel_ex(st, setup, unit, 20, 8, 1, "ventus-2025", 1, 0, 0, 1);
  if ((int64_t)b - (int64_t)a != 10 * want) {
    st->failed_checks++;
    fprintf(stderr, "%s with the dispatch register: 10 units cost %lld cycles, expected %lld\n",
            what, (long long)((int64_t)b - (int64_t)a), (long long)(10 * want));
  }
}

TEST(collector_entry_register) {
  check_cost_entry(st, "vadd chain", "", "  vadd.vv v3, v3, v1\n", 6);
  check_cost_entry(st, "vadd stream", "  vadd.vi v2, v1, 1\n",
                   "  vadd.vv v3, v1, v2\n  vadd.vv v4, v1, v2\n", 10);
  check_cost_entry(st, "li stream", "", "  li t0, 1\n  li t1, 2\n", 6);
}

/* ---- SFU: serial over lane groups (8 threads: 4 groups of 2 lanes) ---- */
TEST(sfu) {
  const char *f = "  li t0, 0x40000000\n  vmv.v.x v2, t0\n  vmv.v.x v3, t0\n";
  /* 3 + 4 x (19 + 1) = 83 cycles in the SFU; dependent: 83 + 4 */
  check_cost(st, "vfdiv chain", f, "  vfdiv.vv v3, v3, v2\n", 8, 1, 87);
  /* 100 / 7: 3 + (clz(7) - clz(100) + 1) = 8 per group, + 1 hand-off:
   * 3 + 4 x 9 = 39; independent (alternating destinations): SFU-bound */
  const char *d = "  li t0, 100\n  vmv.v.x v2, t0\n  li t0, 7\n  vmv.v.x v5, t0\n";
  check_cost(st, "vdivu stream", d, "  vdivu.vv v3, v2, v5\n  vdivu.vv v4, v2, v5\n", 8, 1, 78);
  /* scalar: lane 0 only (one group): 3 + 9 = 12 in the SFU; the next divu
   * waits for t2 (WAW): dispatch t, result t+15, add t+16, divu t+20 */
  check_cost(st, "scalar divu", "  li t1, 7\n  li t0, 100\n",
             "  divu t2, t0, t1\n  add t3, t2, t1\n", 8, 1, 20);
}

/* ---- loads: vlw12.v v3, 0(v2) then vadd.vv v2, v2, v3 (v3 = 0, so the
 * addresses stay). Load dispatch t, issue t+3, requests from t+4 one per
 * cycle; response accepted + 3 (L1 hit or shared memory, + bank conflict
 * cycles); writeback request 3 later. Unit = 15 + sum of request cycles. ---- */
static void load_case(check_state *st, const char *name, uint32_t base, unsigned stride_words,
                      unsigned threads, int64_t want) {
  char setup[256];
  unsigned sh = 0;
  while ((1u << sh) < stride_words * 4) sh++;
  snprintf(setup, sizeof setup,
           "  vsll.vi v2, v1, %u\n  li t0, 0x%08x\n  vadd.vx v2, v2, t0\n", sh, base);
  check_cost(st, name, setup, "  vlw12.v v3, 0(v2)\n  vadd.vv v2, v2, v3\n", threads, 1, want);
}

TEST(global_loads) {
  /* 32 lanes, stride s words: s lines of 128 B, all L1 hits after the first unit */
  load_case(st, "global 1 line", BUF, 1, 32, 16);
  load_case(st, "global 2 lines", BUF, 2, 32, 17);
  load_case(st, "global 4 lines", BUF, 4, 32, 19);
  load_case(st, "global 8 lines", BUF, 8, 32, 23);
  load_case(st, "global 16 lines", BUF, 16, 32, 31);
  load_case(st, "global 32 lines", BUF, 32, 32, 47);
}

TEST(shared_strides) {
  /* 8 lanes, 8 banks of 4 bytes: stride 1: no conflict; 2: 2 lanes per
   * bank; 4: 4; 8: two 128-byte requests with 4 lanes on bank 0 each; 32:
   * eight requests of one lane */
  load_case(st, "shared stride 1", VT_LDS_BASE, 1, 8, 16);
  load_case(st, "shared stride 2", VT_LDS_BASE, 2, 8, 17);
  load_case(st, "shared stride 4", VT_LDS_BASE, 4, 8, 19);
  load_case(st, "shared stride 8", VT_LDS_BASE, 8, 8, 23);
  load_case(st, "shared stride 32", VT_LDS_BASE, 32, 8, 23);
}

/* ---- branches ---- */
TEST(branches) {
  /* taken scalar branch without register reads: issue t+1, outcome t+2,
   * target fetched t+3, dispatchable t+7; then two nops 2 cycles apart */
  check_cost(st, "taken beqz", "", "  beqz zero, 1f\n  nop\n1:\n  nop\n  nop\n", 8, 1, 11);
  /* uniform taken vbranch (reads v1, v3): outcome t+4, target t+9 */
  check_cost(st, "uniform taken vbeq", "  vadd.vi v3, v1, 0\n",
             "  vbeq v1, v3, 1f\n  nop\n1:\n  nop\n  nop\n", 8, 1, 13);
  /* uniform not-taken vbranch: lock until t+4, nops at t+5, t+7, t+9 */
  check_cost(st, "uniform not-taken vbne", "  vadd.vi v3, v1, 0\n",
             "  vbne v1, v3, 1f\n  nop\n1:\n  nop\n  nop\n", 8, 1, 11);
  /* divergent: lanes 0-3 take the branch (run first on the tie); join pops
   * to the fall-through path, join again pops to itself, join once more
   * falls through: auipc t, setrpc t+3, vblt t+7 (outcome t+11), join t+16
   * (outcome t+18), nop t+23, join t+25 (outcome t+27), join t+32 (t+34),
   * nop t+35, next unit t+37 */
  check_cost(st, "divergent vblt", "  li t0, 4\n  vmv.v.x v4, t0\n",
             "  auipc t6, 0\n  setrpc zero, t6, 16\n  vblt v1, v4, 1f\n  nop\n"
             "1:\n  join zero, zero, 0\n  nop\n",
             8, 1, 37);
}

/* ---- barrier: two warps; the barrier releases when the second warp's
 * barrier issues; nops of both warps follow on the X path ---- */
TEST(barriers) {
  check_cost(st, "barrier, 1 warp", "", "  barrier x0, x0, 0\n  nop\n", 8, 1, 4);
  check_cost(st, "barrier, 2 warps", "", "  barrier x0, x0, 0\n  nop\n", 8, 2, 4);
}

RUN_TESTS(T(chains), T(streams), T(sfu), T(global_loads), T(shared_strides), T(branches),
          T(barriers), T(register_limited_residency), T(collector_entry_register))
