/* The timing of MMA and of the asynchronous copies (isa2025.md 6.7, 6.8):
 * micro-kernels that repeat a unit N times, measured as cycles(2N) -
 * cycles(N) on the warm second launch, so that each timing parameter's
 * effect shows exactly (a dependent MMA chain costs its latency, where
 * each cycle of read, work, pipeline or writeback adds one; independent
 * MMAs cost the initiation interval); the counters add up (MMAs, MACs,
 * busy cycles, copies, bytes); cp_dma_mbarrier stalls grow with the copy
 * size and with L2 misses; full DMA queues stall; a workgroup retires only
 * when its copies have completed; and a producer/consumer kernel computes
 * the same in the functional simulator and in the timing model. */
#include <string.h>

#include "check.h"
#include "counters_util.h"
#include "timing_kernel.h"

#define BUF TK_BUF

typedef struct kres {
  uint64_t cycles[2];     /* of the first (cold) and second (warm) launch */
  double c[VT_C_COUNT];   /* counters of the second launch */
  uint32_t out[64];       /* BUF.. after the run */
} kres;

typedef void (*tweak_fn)(vt_settings *t);

static char *source(const char *setup, const char *unit, unsigned n, const char *tail) {
  size_t cap = 4096 + strlen(setup) + strlen(tail) + (strlen(unit) + 16) * n;
  char *s = malloc(cap);
  size_t o = (size_t)snprintf(s, cap,
                              "  .text\n  .globl _start\n_start:\n"
                              "  li t4, 32\n  vsetvli t4, t4, e32, m1, ta, ma\n"
                              "  li t4, 0x2000\n  csrs mstatus, t4\n"
                              "  li a0, 0x70000000\n  li a1, 0x90000400\n%s  .p2align 3\n",
                              setup);
  for (unsigned i = 0; i < n; i++) o += (size_t)snprintf(s + o, cap - o, "%s", unit);
  snprintf(s + o, cap - o, "%s  endprg x0, x0, x0\n", tail);
  return s;
}

/* timing (or, with timing = 0, functional) runs of the kernel */
static int run(check_state *st, const char *src, unsigned warps, int timing, tweak_fn tweak,
               kres *r) {
  memset(r, 0, sizeof *r);
  vt_device *dev = tk_device(st, src, 1, 0x100000);
  if (!dev) return -1;
  vt_error err;
  uint32_t init[0x4000];
  for (unsigned i = 0; i < 0x4000; i++) init[i] = i * 2654435761u;
  memset(init, 0, 256);
  CHECK(st, vt_mem_write(dev, BUF, init, sizeof init, &err) == VT_OK);
  vt_settings tc;
  vt_test_settings_preset(&tc, "ventus-2025");
  tc.flush_at_wg_end = 0;
  if (tweak) tweak(&tc);
  vt_timing *t = vt_timing_new(&tc);
  vt_launch l = {.start_pc = VT_PROGRAM_BASE, .num_wg = {1, 1, 1}, .threads_per_warp = 32,
                 .warps_per_wg = warps, .knl_addr = BUF, .lds_size = 0x4000, .pds_base = BUF};
  int rc = VT_OK;
  for (int k = 0; k < (timing ? 2 : 1) && rc == VT_OK; k++) {
    rc = timing ? vt_timing_run(t, dev, &l, "micro", &err) : vt_device_run(dev, &l, "f", &err);
    if (rc != VT_OK) fprintf(stderr, "run failed: %s\n", err.message);
    if (timing) r->cycles[k] = (uint64_t)vt_stats_value(vt_device_stats(dev), k, -1, VT_C_cycles);
  }
  for (int c = 0; c < VT_C_COUNT; c++)
    r->c[c] = vt_stats_value(vt_device_stats(dev), timing ? 1 : 0, -1, (vt_counter)c);
  CHECK(st, vt_mem_read(dev, BUF, r->out, sizeof r->out, &err) == VT_OK);
  vt_timing_free(t);
  vt_device_free(dev);
  CHECK_EQ_U32(st, rc, VT_OK);
  return rc;
}

/* warm cycles of n units */
static uint64_t cycles(check_state *st, const char *setup, const char *unit, unsigned n,
                       tweak_fn tweak, kres *r) {
  kres tmp;
  if (!r) r = &tmp;
  char *src = source(setup, unit, n, "");
  run(st, src, 1, 1, tweak, r);
  free(src);
  return r->cycles[1];
}

static int64_t per_unit(check_state *st, const char *setup, const char *unit, tweak_fn tweak) {
  return ((int64_t)cycles(st, setup, unit, 20, tweak, NULL) -
          (int64_t)cycles(st, setup, unit, 10, tweak, NULL)) / 10;
}

/* f16 m16n8k16 with f32 C/D: A 4, B 2, C/D 4 registers; 2048 MACs */
static const char CHAIN[] = "  mma.m16n8k16.f16.f32 v8, v16, v22\n";       /* D = C: dependent */
/* eight independent MMAs (distinct D groups: no WAW within the latency) */
static const char INDEP[] = "  mma.m16n8k16.f16.f32 v40, v16, v22\n  mma.m16n8k16.f16.f32 v44, v16, v22\n"
                            "  mma.m16n8k16.f16.f32 v48, v16, v22\n  mma.m16n8k16.f16.f32 v52, v16, v22\n"
                            "  mma.m16n8k16.f16.f32 v56, v16, v22\n  mma.m16n8k16.f16.f32 v60, v16, v22\n"
                            "  mma.m16n8k16.f16.f32 v64, v16, v22\n  mma.m16n8k16.f16.f32 v68, v16, v22\n";

static void pipe_plus_10(vt_settings *t) { t->mma_pipe_latency += 10; }
static void half_rate(vt_settings *t) { t->mma_macs_fp16 /= 2; }
static void wide_wb(vt_settings *t) { t->mma_wb_regs_per_cycle = 4; }
static void slow_read(vt_settings *t) { t->mma_regs_per_cycle = 1; }
static void two_units(vt_settings *t) { t->mma_units = 2; }

TEST(mma_chain_latency_by_parameter) {
  /* latency = read ceil(10/2) = 5 + pipe 8 + work 2048/256 = 8 + writeback 4 = 25;
   * each parameter moves a dependent chain by its share of the latency */
  int64_t base = per_unit(st, "", CHAIN, NULL);
  CHECK(st, base >= 25 && base <= 25 + 8); /* + collector, issue and writeback steps */
  CHECK_EQ_U32(st, per_unit(st, "", CHAIN, pipe_plus_10) - base, 10);
  CHECK_EQ_U32(st, per_unit(st, "", CHAIN, half_rate) - base, 8);   /* work 8 -> 16 */
  CHECK_EQ_U32(st, base - per_unit(st, "", CHAIN, wide_wb), 3);     /* 4 -> 1 */
  CHECK_EQ_U32(st, per_unit(st, "", CHAIN, slow_read) - base, 5);   /* read 5 -> 10 */
  printf("dependent f16 m16n8k16 MMA: %lld cycles\n", (long long)base);
}

TEST(mma_throughput_by_interval_and_units) {
  /* independent MMAs on one unit: one per interval = max(read 5, work 8) */
  CHECK_EQ_U32(st, per_unit(st, "", INDEP, NULL), 8 * 8);
  CHECK_EQ_U32(st, per_unit(st, "", INDEP, half_rate), 8 * 16);
  CHECK_EQ_U32(st, per_unit(st, "", INDEP, slow_read), 8 * 10); /* read 10 > work 8 */
  /* a second unit: they overlap */
  CHECK(st, per_unit(st, "", INDEP, two_units) < 8 * 8);
}

TEST(mma_counters_add_up) {
  kres r;
  cycles(st, "", CHAIN, 12, NULL, &r);
  CHECK(st, r.c[VT_C_mma_insns] == 12);
  CHECK(st, r.c[VT_C_mma_macs] == 12 * 16 * 8 * 16);
  CHECK(st, r.c[VT_C_tensor_busy] == 12 * 8);
  CHECK(st, r.c[VT_C_u_tc] == 12);
  /* MMA64 and the integer shapes count M*N*K too: s8 m16n16k16 = 4096 MACs,
   * interval max(ceil((2+2+8)/2), 4096/512) = 8 */
  cycles(st, "", "  mma64.m16n16k16.row.col.s8.s32.wrap v200, v0, v2, v8\n", 5, NULL, &r);
  CHECK(st, r.c[VT_C_mma_insns] == 5 && r.c[VT_C_mma_macs] == 5 * 4096);
  CHECK(st, r.c[VT_C_tensor_busy] == 5 * 8);
}

/* ---- copies ---- */

#define BULK(n) "  li a2, " #n "\n  cp_dma_bulk a0, a1, a2\n  cp_dma_mbarrier\n"

static void setup_plus_100(vt_settings *t) { t->dma_setup_cycles += 100; }
static void tensor_setup_plus_50(vt_settings *t) { t->dma_tensor_setup_cycles += 50; }
static void slow_reads(vt_settings *t) { t->dma_bytes_per_cycle = 4; }
static void slow_writes(vt_settings *t) { t->dma_smem_bytes_per_cycle = 4; }
static void mbar_plus_7(vt_settings *t) { t->mbarrier_latency += 7; }
static void depth_1(vt_settings *t) { t->dma_queue_depth = 1; }
static void two_engines(vt_settings *t) { t->dma_engines = 2; }

TEST(copy_and_wait_by_parameter) {
  int64_t base = per_unit(st, "", BULK(1024), NULL);
  CHECK_EQ_U32(st, per_unit(st, "", BULK(1024), setup_plus_100) - base, 100);
  CHECK_EQ_U32(st, per_unit(st, "", BULK(1024), mbar_plus_7) - base, 7);
  CHECK(st, per_unit(st, "", BULK(1024), slow_reads) > base);
  /* writing 1024 bytes at 4 instead of 32 per cycle: the reads are hidden */
  CHECK_EQ_U32(st, per_unit(st, "", BULK(1024), slow_writes) - base, 1024 / 4 - 1024 / 32);
  /* a bigger copy waits longer */
  CHECK(st, per_unit(st, "", BULK(4096), NULL) > base);
  CHECK(st, per_unit(st, "", BULK(256), NULL) < base);
  printf("cp_dma_bulk 1024 B + cp_dma_mbarrier: %lld cycles\n", (long long)base);
}

/* a 2-D tensor box: 16 x 8 FP32 out of a 64 x 64 tensor at BUF + 0x400 */
static const char TENSOR_SETUP[] =
    "  li t0, 0x9000c000\n  vid.v v1\n  vsll.vi v1, v1, 2\n  vadd.vx v1, v1, t0\n"
    "  vlw12.v v8, 0(v1)\n  vlw12.v v9, 128(v1)\n";
static const char TENSOR_UNIT[] = "  cp_dma_tensor a0, v8, v9\n  cp_dma_mbarrier\n";

static void tensor_desc(uint32_t *d) {
  uint32_t T[13] = {7, 2, BUF + 0x400, 64, 64, 0, 0, 0, 256};
  uint32_t U[15] = {BUF + 0x400 + 3 * 256 + 4 * 4, 16, 8, 0, 0, 0, 1, 1};
  memcpy(d, T, sizeof T);
  memcpy(d + 32, U, sizeof U);
}

TEST(tensor_copy_timing) {
  /* the descriptor lives at BUF + 0xc000: written through the setup code */
  uint32_t d[64] = {0};
  tensor_desc(d);
  char setup[8192];
  size_t o = 0;
  for (int i = 0; i < 64; i++)
    o += (size_t)snprintf(setup + o, sizeof setup - o, "  li t1, %u\n  li t2, 0x%x\n  sw t1, 0(t2)\n",
                          d[i], 0x9000c000u + 4u * (unsigned)i);
  snprintf(setup + o, sizeof setup - o, "%s", TENSOR_SETUP);
  int64_t base = per_unit(st, setup, TENSOR_UNIT, NULL);
  CHECK_EQ_U32(st, per_unit(st, setup, TENSOR_UNIT, tensor_setup_plus_50) - base, 50);
  kres r;
  cycles(st, setup, TENSOR_UNIT, 6, NULL, &r);
  CHECK(st, r.c[VT_C_dma_copies] == 6);
  CHECK(st, r.c[VT_C_dma_bytes] == 6 * 16 * 8 * 4);
  CHECK(st, r.c[VT_C_dma_read_bytes] == 6 * 16 * 8 * 4); /* all inside the tensor */
  CHECK(st, r.c[VT_C_st_dma_wait] > 0);
}

TEST(copy_counters_and_queues) {
  kres r;
  /* eight copies in a row, then one wait: the queue holds them */
  static const char EIGHT[] = "  li a2, 512\n  cp_dma_bulk a0, a1, a2\n";
  uint64_t deep = cycles(st, "", EIGHT, 16, NULL, &r);
  CHECK(st, r.c[VT_C_dma_copies] == 16);
  CHECK(st, r.c[VT_C_dma_bytes] == 16 * 512 && r.c[VT_C_dma_read_bytes] == 16 * 512);
  CHECK(st, r.c[VT_C_dma_busy] > 0);
  uint64_t shallow = cycles(st, "", EIGHT, 16, depth_1, &r);
  CHECK(st, r.c[VT_C_st_dma_queue] > 0);
  CHECK(st, shallow >= deep);
  uint64_t two = cycles(st, "", EIGHT, 16, two_engines, &r);
  CHECK(st, two < deep);
  /* cp_dma: copy size c bytes written, n read */
  cycles(st, "", "  li a2, 5\n  cp_dma a0, a1, a2, 16\n", 4, NULL, &r);
  CHECK(st, r.c[VT_C_dma_bytes] == 4 * 16 && r.c[VT_C_dma_read_bytes] == 4 * 5);
  /* the stall breakdown still partitions the warp-cycles */
  double sum = 0;
  for (int c = VT_C_st_issue; c <= VT_C_st_ended; c++) sum += r.c[c];
  CHECK(st, sum == r.c[VT_C_warp_cycles]);
}

TEST(wait_grows_with_l2_misses) {
  /* the first launch reads the source from memory, the second from the L2 */
  kres r;
  char *src = source("", BULK(2048), 1, "");
  run(st, src, 1, 1, NULL, &r);
  free(src);
  CHECK(st, r.cycles[0] > r.cycles[1]);
  CHECK(st, r.c[VT_C_l2_hits] > 0);
}

TEST(workgroup_retires_after_its_copies) {
  /* a copy without cp_dma_mbarrier: the launch lasts until it completes */
  kres small, big;
  char *a = source("", "  li a2, 16\n  cp_dma_bulk a0, a1, a2\n", 1, "");
  char *b = source("", "  li a2, 16384\n  cp_dma_bulk a0, a1, a2\n", 1, "");
  run(st, a, 1, 1, NULL, &small);
  run(st, b, 1, 1, NULL, &big);
  CHECK(st, big.cycles[1] > small.cycles[1] + 16384 / 32 - 64);
  CHECK(st, big.c[VT_C_st_ended] > small.c[VT_C_st_ended]);
  free(a);
  free(b);
}

/* warp 0 copies 256 bytes into local memory, waits, and every warp reads
 * them after a barrier; each warp stores its lane's word of them, added to
 * its warp id, to BUF (3.9.6 item 4) */
static const char PRODUCER_CONSUMER[] =
    "  csrr t0, wid\n  bnez t0, 1f\n"
    "  li a2, 256\n  cp_dma_bulk a0, a1, a2\n  cp_dma_mbarrier\n"
    "1:\n  barrier x0, x0, 1\n"
    "  vid.v v2\n  vsll.vi v2, v2, 2\n  vadd.vx v3, v2, a0\n  vlw12.v v4, 0(v3)\n"
    "  vadd.vx v4, v4, t0\n  slli t1, t0, 7\n  li t2, 0x90000000\n  add t1, t1, t2\n"
    "  vadd.vx v5, v2, t1\n  vsw12.v v4, 0(v5)\n";

TEST(producer_consumer_same_in_both_models) {
  char *src = source("", "", 0, PRODUCER_CONSUMER);
  kres f, t;
  run(st, src, 2, 0, NULL, &f);
  run(st, src, 2, 1, NULL, &t);
  free(src);
  CHECK(st, memcmp(f.out, t.out, sizeof f.out) == 0);
  /* the values: the words at BUF + 0x400, plus the warp id */
  for (unsigned w = 0; w < 2; w++)
    for (unsigned l = 0; l < 32; l++)
      CHECK_EQ_U32(st, t.out[w * 32 + l], (0x100u + l) * 2654435761u + w);
}

RUN_TESTS(T(mma_chain_latency_by_parameter), T(mma_throughput_by_interval_and_units),
          T(mma_counters_add_up), T(copy_and_wait_by_parameter), T(tensor_copy_timing),
          T(copy_counters_and_queues), T(wait_grows_with_l2_misses),
          T(workgroup_retires_after_its_copies), T(producer_consumer_same_in_both_models))
