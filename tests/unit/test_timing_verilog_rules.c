/* Timing rules of the Verilog port's source, settings that both presets
 * leave off (docs/timing.md, Optional rules): each test runs a micro-kernel on the
 * ventus-2025 preset with and without one rule and checks the per-unit cost
 * (cycles of 20 units - cycles of 10 units) or a counter against a
 * hand derivation. Rules of ventus-2025 used below (test_timing_micro.c):
 * dispatch t, issue t+3 with register operands, the warp's next dispatch at
 * issue+1 (4 cycles per instruction); an L1D hit load dispatched at t
 * issues at t+3, sends its request at t+4, is answered at t+7 and written
 * back at t+10, visible at t+11. */
#include <string.h>

#include "check.h"
#include "counters_util.h"
#include "timing_kernel.h"

#define BUF TK_BUF

typedef struct kernel_run {
  const char *setup, *unit;
  unsigned n, threads, warps, work_items; /* work_items 0: every lane */
  const char *preset;
  void (*tweak)(vt_settings *);
} kernel_run;

static char *source_of(const kernel_run *k) {
  char setup[4096];
  snprintf(setup, sizeof setup, "  li t5, 0x%08x\n%s", BUF, k->setup);
  return tk_source(setup, k->unit, k->n);
}

/* the counter of the second (warm) launch; no workgroup-end flush */
static uint64_t run(check_state *st, const kernel_run *k, unsigned counter) {
  char *src = source_of(k);
  vt_device *dev = tk_device(st, src, 1, 0x100000);
  free(src);
  if (!dev) return 0;
  vt_error err;
  vt_settings tc;
  vt_test_settings_preset(&tc, k->preset);
  tc.flush_at_wg_end = 0;
  if (k->tweak) k->tweak(&tc);
  vt_timing *t = vt_timing_new(&tc);
  vt_launch l = {.start_pc = VT_PROGRAM_BASE, .num_wg = {1, 1, 1},
                 .threads_per_warp = k->threads, .warps_per_wg = k->warps,
                 .wg_threads = k->work_items, .knl_addr = BUF, .lds_size = 0x1000,
                 .pds_size = 64, .pds_base = BUF + 0x10000};
  for (int i = 0; i < 2; i++)
    if (vt_timing_run(t, dev, &l, "rules", &err) != VT_OK) {
      fprintf(stderr, "timing run failed: %s\n", err.message);
      st->failed_checks++;
    }
  uint64_t v = (uint64_t)vt_stats_value(vt_device_stats(dev), 1, -1, counter);
  vt_timing_free(t);
  vt_device_free(dev);
  return v;
}

/* counter(20 units) - counter(10 units): 10 x the cost of a unit */
static int64_t ten_units(check_state *st, kernel_run k, unsigned counter) {
  k.n = 10;
  uint64_t a = run(st, &k, counter);
  k.n = 20;
  uint64_t b = run(st, &k, counter);
  return (int64_t)b - (int64_t)a;
}

/* 10 units cost 10 x want, give or take 'slack' (the warps' start-up
 * interleaving differs by a few cycles between 10 and 20 units) */
static void expect_within(check_state *st, const char *what, int64_t ten, int64_t want,
                          int64_t slack) {
  if (ten < 10 * want - slack || ten > 10 * want + slack) {
    st->failed_checks++;
    fprintf(stderr, "%s: 10 units cost %lld, expected %lld\n", what, (long long)ten,
            (long long)(10 * want));
  }
}

static void expect(check_state *st, const char *what, int64_t ten, int64_t want) {
  expect_within(st, what, ten, want, 0);
}

static void stale_on(vt_settings *s) { s->slowdown_stale_check = 1; }
static void wide_fetch(vt_settings *s) { s->fetch_bytes = 64; }
static void single_issue(vt_settings *s) {
  s->fetch_bytes = 64;
  s->issue_single = 1;
}
static void hw_lanes_on(vt_settings *s) {
  s->hw_lanes = 1;
  s->line_bytes = 8; /* one request per 8 bytes */
}
static void hw_lanes_off(vt_settings *s) {
  s->hw_lanes = 0;
  s->line_bytes = 8;
}

/* The emptied SlowDown register still shows the first instruction of its
 * group to the scoreboard: the next group waits until that instruction's
 * destination is written back. Unit: [lw t0; addi t1] [addi t2; addi t3]
 * [lw t6; addi t1] [addi t2; addi t3], every instruction reading a
 * register: 8 x 4 = 32 cycles. With the rule, the lw dispatched at t is
 * visible at t+11 where the second group would dispatch at t+8: +3 for
 * each of the two loads. */
TEST(slowdown_stale_entry) {
  kernel_run k = {.setup = "",
                  .unit = "  lw t0, 0(t5)\n  addi t1, t1, 1\n  addi t2, t2, 1\n  addi t3, t3, 1\n"
                          "  lw t6, 4(t5)\n  addi t1, t1, 1\n  addi t2, t2, 1\n  addi t3, t3, 1\n",
                  .threads = 8, .warps = 1, .preset = "ventus-2025"};
  expect(st, "loads leading their groups, no rule", ten_units(st, k, VT_C_cycles), 32);
  k.tweak = stale_on;
  expect(st, "loads leading their groups, stale entry checked", ten_units(st, k, VT_C_cycles),
         38);
  /* a load in the second slot is not the stale entry: no wait */
  k.unit = "  addi t1, t1, 1\n  lw t0, 0(t5)\n  addi t2, t2, 1\n  addi t3, t3, 1\n";
  expect(st, "load in the second slot, stale entry checked", ten_units(st, k, VT_C_cycles), 16);
}

/* One instruction leaves the collector per cycle (the lowest-numbered ready
 * unit). Eight warps, each an independent vadd + addi stream: a warp needs
 * 4 cycles per instruction, so the 16 instructions of a unit take 8 cycles
 * with an X and a V issue per cycle, 16 with one issue per cycle. Fetch
 * groups of 16 instructions keep the fetch port (one group per cycle) from
 * being the limit. */
TEST(single_collector_output) {
  kernel_run k = {.setup = "  vadd.vi v2, v1, 1\n",
                  .unit = "  vadd.vv v3, v1, v2\n  addi t1, t1, 1\n",
                  .threads = 8, .warps = 8, .preset = "ventus-2025", .tweak = wide_fetch};
  expect_within(st, "8 warps, X and V issue", ten_units(st, k, VT_C_cycles), 8, 2);
  k.tweak = single_issue;
  expect_within(st, "8 warps, one issue per cycle", ten_units(st, k, VT_C_cycles), 16, 2);
}

/* The hardware runs every lane of a converged warp: a warp of 8 lanes with
 * 4 work-items stores its private words for 8 lanes, one word per lane at
 * consecutive addresses: 32 bytes = 4 requests of 8 bytes instead of 2.
 * The SFU works on the lane groups of all 8 lanes (4 groups of 2) instead
 * of those with a work-item (2 groups): 100 / 7 takes 3 + 5 quotient bits
 * + 1 hand-off = 9 cycles per group, so a dependent divide costs 2 x 9 = 18
 * more cycles; the lanes without a work-item are timed as the slowest
 * known one. */
TEST(hardware_lanes) {
  kernel_run k = {.setup = "  vmv.v.i v6, 0\n", .unit = "  vsw.v v1, 0(v6)\n",
                  .threads = 8, .warps = 1, .work_items = 4, .preset = "verilog-2024",
                  .tweak = hw_lanes_off};
  expect(st, "private store, 4 of 8 lanes", ten_units(st, k, VT_C_lsu_requests), 2);
  k.tweak = hw_lanes_on;
  expect(st, "private store, the hardware's 8 lanes", ten_units(st, k, VT_C_lsu_requests), 4);
  kernel_run d = {.setup = "  li t0, 100\n  vmv.v.x v2, t0\n  li t0, 7\n  vmv.v.x v5, t0\n",
                  .unit = "  vdivu.vv v3, v2, v5\n  vadd.vv v2, v2, v3\n  vsub.vv v2, v2, v3\n",
                  .threads = 8, .warps = 1, .work_items = 4, .preset = "verilog-2024",
                  .tweak = hw_lanes_off};
  int64_t off = ten_units(st, d, VT_C_cycles);
  d.tweak = hw_lanes_on;
  expect(st, "dependent vdivu, extra SFU groups", ten_units(st, d, VT_C_cycles) - off, 18);
}

RUN_TESTS(T(slowdown_stale_entry), T(single_collector_output), T(hardware_lanes))
