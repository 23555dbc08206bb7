/* Host threads (setting host_threads, src/sim/run.h): kernels on several
 * SMs give the same memory, statistics and errors with 1, 2 and 4 host
 * threads, and the values the programs compute by hand: atomics from every
 * SM on one counter, LR/SC retry loops across SMs, faults on two SMs in the
 * same epoch (the lowest SM's error wins), and exact instruction budgets.
 * Scalar programs assembled from inline text, as test_sim_lrsc.c, and the
 * vector steady-state kernel of bench/ checked against the host. */
#include "asm_elf.h"
#include "check.h"
#include "host_threads_kernels.h"
#include "vt/counters.h"
#include "vt/sim.h"
#include "../../bench/steady_kernel.h"

#define BUF 0x90000000u
#define WORDS 1024 /* the page at BUF */

typedef struct shape {
  unsigned sms, warp_slots, wgs, warps;
  uint64_t max_insns;
} shape;

/* one run: its status, error, memory and functional counters per SM */
#define NCTR 11
typedef struct outcome {
  int rc;
  vt_error err;
  uint32_t mem[WORDS];
  double ctr[8][NCTR];
} outcome;

static const vt_counter counted[NCTR] = {
    VT_C_launches, VT_C_workgroups, VT_C_warps, VT_C_warp_instructions,
    VT_C_thread_instructions, VT_C_scalar_instructions, VT_C_vector_instructions,
    VT_C_vector_branches, VT_C_divergent_vector_branches, VT_C_barriers, VT_C_max_simt_depth};

/* Run 'elf' with 'sh' on 'threads' host threads (4 lanes per warp). */
static void run(check_state *st, vt_elf *elf, const shape *sh, unsigned threads, outcome *o) {
  memset(o, 0, sizeof *o);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = sh->sms;
  cfg.warp_slots = sh->warp_slots;
  cfg.host_threads = threads;
  if (sh->max_insns) cfg.max_insns = sh->max_insns;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, dev != NULL);
  if (!dev) return;
  vt_error err;
  int rc = vt_device_load_elf(dev, elf, &err);
  if (rc == VT_OK) rc = vt_mem_map(dev, BUF, 4 * WORDS, &err);
  CHECK_EQ_U32(st, rc, VT_OK);
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {sh->wgs, 1, 1}, .threads_per_warp = 4,
                 .warps_per_wg = sh->warps, .lds_size = 64};
  if (rc == VT_OK) {
    o->rc = vt_device_run(dev, &l, NULL, &o->err);
    CHECK_EQ_U32(st, vt_mem_read(dev, BUF, o->mem, sizeof o->mem, &err), VT_OK);
    const vt_stats *s = vt_device_stats(dev);
    for (unsigned sm = 0; sm < sh->sms && sm < 8; sm++)
      for (unsigned c = 0; c < NCTR; c++) o->ctr[sm][c] = vt_stats_value(s, 0, (int)sm, counted[c]);
  }
  vt_device_free(dev);
}

/* Runs with 1, 2 and 4 host threads; checks that they agree in every
 * respect and leaves the first in *o. */
static void run_all(check_state *st, const char *src, const shape *sh, outcome *o) {
  vt_elf *elf = test_assemble(st, "ht.s", src);
  if (!elf) return;
  static outcome other;
  run(st, elf, sh, 1, o);
  const unsigned threads[] = {2, 4};
  for (unsigned k = 0; k < 2; k++) {
    run(st, elf, sh, threads[k], &other);
    CHECK_EQ_U32(st, other.rc, o->rc);
    CHECK_STR(st, other.err.message, o->err.message);
    CHECK_EQ_U32(st, other.err.sm, o->err.sm);
    CHECK_EQ_U32(st, other.err.wg, o->err.wg);
    CHECK_EQ_U32(st, other.err.warp, o->err.warp);
    CHECK_EQ_U32(st, other.err.pc, o->err.pc);
    CHECK(st, memcmp(other.mem, o->mem, sizeof o->mem) == 0);
    CHECK(st, memcmp(other.ctr, o->ctr, sizeof o->ctr) == 0);
  }
  vt_elf_free(elf);
}

static double total(const outcome *o, unsigned sms, unsigned c) {
  double t = 0;
  for (unsigned sm = 0; sm < sms; sm++) t += o->ctr[sm][c];
  return t;
}

/* Every warp of 8 workgroups on 4 SMs adds wid + 1 to one counter 50
 * times, takes a ticket from a second counter and stores its own word. */
TEST(atomics_from_every_sm) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  csrr t0, CSR_WID\n"
      "  addi t0, t0, 1\n"
      "  li a0, 50\n"
      "1:\n"
      "  amoadd.w zero, t0, (a1)\n"
      "  addi a0, a0, -1\n"
      "  bnez a0, 1b\n"
      "  li t5, 1\n"
      "  addi t6, a1, 4\n"
      "  amoadd.w s0, t5, (t6)\n"
      "  csrr t1, CSR_WGID\n"
      "  csrr t3, CSR_WID\n"
      "  slli t2, t1, 2\n"
      "  add t2, t2, t3\n"
      "  slli t2, t2, 2\n"
      "  add t2, t2, a1\n"
      "  li t4, 100\n"
      "  mul t4, t1, t4\n"
      "  add t4, t4, t3\n"
      "  sw t4, 64(t2)\n"
      "  slli s0, s0, 2\n"
      "  add s0, s0, a1\n"
      "  sw t0, 512(s0)\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 4, .warp_slots = 4, .wgs = 8, .warps = 4};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  CHECK_EQ_U32(st, o.mem[0], 8 * 50 * (1 + 2 + 3 + 4));
  CHECK_EQ_U32(st, o.mem[1], 32);
  unsigned sum = 0;
  for (unsigned g = 0; g < 8; g++)
    for (unsigned w = 0; w < 4; w++) CHECK_EQ_U32(st, o.mem[16 + 4 * g + w], 100 * g + w);
  for (unsigned t = 0; t < 32; t++) sum += o.mem[128 + t]; /* every ticket taken once */
  CHECK_EQ_U32(st, sum, 8 * (1 + 2 + 3 + 4));
  /* 8 workgroups, 2 on each SM; instructions as counted by hand: 4 + 3 * 50
   * + 17 per warp ('li a0, 50' and 'li t4, 100' are one addi each) */
  CHECK(st, total(&o, 4, 1) == 8);
  CHECK(st, total(&o, 4, 3) == 32.0 * (4 + 3 * 50 + 17));
  for (unsigned sm = 0; sm < 4; sm++) CHECK(st, o.ctr[sm][1] == 2);
}

/* Atomics on local memory (each workgroup's own counter) from 8
 * workgroups on 4 SMs, then warp 0 copies the counter out after a
 * barrier. */
TEST(local_atomics_on_every_sm) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  csrr a1, CSR_LDS\n"
      "  csrr t0, CSR_WID\n"
      "  addi t0, t0, 1\n"
      "  li a0, 100\n"
      "1:\n"
      "  amoadd.w zero, t0, (a1)\n"
      "  addi a0, a0, -1\n"
      "  bnez a0, 1b\n"
      "  barrier x0, x0, 0\n"
      "  addi t0, t0, -1\n"
      "  bnez t0, 2f\n"
      "  lw t1, 0(a1)\n"
      "  csrr t2, CSR_WGID\n"
      "  slli t2, t2, 2\n"
      "  lui a2, 0x90000\n"
      "  add a2, a2, t2\n"
      "  sw t1, 0(a2)\n"
      "2:\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 4, .warp_slots = 4, .wgs = 8, .warps = 4};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned g = 0; g < 8; g++) CHECK_EQ_U32(st, o.mem[g], 100 * (1 + 2 + 3 + 4));
}

/* Unit-stride vector stores with holes (a divergent branch) from
 * workgroups on 4 SMs into the same 16 bytes: workgroup g writes the lanes
 * of its parity of out[4 (g / 2) ..], the other parity's workgroup the
 * lanes between, so each SM's overlay must merge exactly the words it
 * wrote (the second store takes the translation the first one made). */
TEST(vector_stores_with_holes_share_a_line) {
  const char *src = ht_vector_holes_kernel;
  shape sh = {.sms = 4, .warp_slots = 1, .wgs = 8, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned k = 0; k < 16; k++) CHECK_EQ_U32(st, o.mem[k], k + 100);
}

/* Per-lane byte stores (vsb12.v) of 4 workgroups on 4 SMs into the same
 * words: workgroup g writes byte g of each lane's word, 0x40 + g, each in
 * its own overlay in the same epoch, so each overlay must merge exactly the
 * bytes it wrote. The first store to a page fills the translation without
 * writing (vt_sim_probe), which must not count as written bytes either. */
TEST(byte_stores_of_several_sms_share_words) {
  const char *src =
      "  .globl _start\n"
      "_start:\n"
      "  li t0, 4\n"
      "  vsetvli t0, t0, e32, m1, ta, ma\n"
      "  csrr t1, CSR_WGID\n"
      "  vid.v v1\n"
      "  vsll.vi v2, v1, 2\n"
      "  vadd.vx v2, v2, t1\n"
      "  lui a1, 0x90000\n"
      "  vadd.vx v2, v2, a1\n"
      "  addi t2, t1, 0x40\n"
      "  vmv.v.x v3, t2\n"
      "  vsb12.v v3, 0(v2)\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 4, .warp_slots = 1, .wgs = 4, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned k = 0; k < 4; k++) CHECK_EQ_U32(st, o.mem[k], 0x43424140u);
  CHECK_EQ_U32(st, o.mem[4], 0);
}

/* lr.w/sc.w retry loops of every warp of 8 workgroups on 4 SMs on one word */
TEST(lrsc_across_sms) {
  const char *src = ht_lrsc_kernel;
  shape sh = {.sms = 4, .warp_slots = 4, .wgs = 8, .warps = 4};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  CHECK_EQ_U32(st, o.mem[0], 8 * (1 + 2 + 3 + 4));
  CHECK_EQ_U32(st, o.mem[1], 32);
}

/* Workgroup 0 (SM 0) writes a marker, loops, then loads from an unmapped
 * address; workgroup 1 (SM 1) writes a marker and then, when FAULT1,
 * stores to an unmapped address at once; both in the first epoch. */
#define FAULTS(fault0, fault1)                                 \
  "  .globl _start\n"                                          \
  "_start:\n"                                                  \
  "  lui a1, 0x90000\n"                                        \
  "  lui t3, 0x10000\n"                                        \
  "  csrr t1, CSR_WGID\n"                                      \
  "  bnez t1, 2f\n"                                            \
  "  li t2, 0x11\n"                                            \
  "  sw t2, 0(a1)\n"                                           \
  "  li a0, 1000\n"                                            \
  "1:\n"                                                       \
  "  addi a0, a0, -1\n"                                        \
  "  bnez a0, 1b\n" fault0 "  endprg x0, x0, x0\n"             \
  "2:\n"                                                       \
  "  li t2, 0x22\n"                                            \
  "  sw t2, 4(a1)\n" fault1 "  endprg x0, x0, x0\n"

TEST(lowest_sm_error_wins) {
  shape sh = {.sms = 2, .warp_slots = 1, .wgs = 2, .warps = 1};
  static outcome o;
  /* SM 1 faults first in its slice, SM 0 later: SM 0's error, SM 1's
   * writes of that epoch dropped */
  run_all(st, FAULTS("  lw t4, 0(t3)\n", "  sw t2, 0(t3)\n"), &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, o.err.sm, 0);
  CHECK_EQ_U32(st, o.err.wg, 0);
  CHECK(st, strstr(o.err.message, "load of unmapped address 0x10000000") != NULL);
  CHECK_EQ_U32(st, o.mem[0], 0x11);
  CHECK_EQ_U32(st, o.mem[1], 0);
  /* only SM 1 faults: its error, and its marker stays */
  run_all(st, FAULTS("", "  sw t2, 0(t3)\n"), &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, o.err.sm, 1);
  CHECK_EQ_U32(st, o.err.wg, 1);
  CHECK(st, strstr(o.err.message, "store of unmapped address 0x10000000") != NULL);
  CHECK_EQ_U32(st, o.mem[0], 0x11);
  CHECK_EQ_U32(st, o.mem[1], 0x22);
  /* an atomic waits for the epoch's end and fails there, after the merge */
  run_all(st, FAULTS("", "  amoadd.w zero, t2, (t3)\n"), &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, o.err.sm, 1);
  CHECK_EQ_U32(st, o.mem[0], 0x11);
  CHECK_EQ_U32(st, o.mem[1], 0x22);
}

/* A budget is exact whatever the host threads: the launch stops after
 * exactly max_insns warp instructions, at the same warp. */
TEST(budget_exact) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  li a0, 20000\n"
      "1:\n"
      "  addi a0, a0, -1\n"
      "  sw a0, 0(a1)\n"
      "  bnez a0, 1b\n"
      "  endprg x0, x0, x0\n";
  /* within the first epoch, and after several (parallel) epochs */
  const uint64_t budgets[] = {1000, 3 * 4 * 16384 + 77, 200001};
  for (unsigned k = 0; k < 3; k++) {
    shape sh = {.sms = 4, .warp_slots = 2, .wgs = 6, .warps = 2, .max_insns = budgets[k]};
    static outcome o;
    run_all(st, src, &sh, &o);
    CHECK_EQ_U32(st, o.rc, VT_ERR_BUDGET);
    CHECK(st, total(&o, 4, 3) == (double)budgets[k]);
    CHECK(st, strstr(o.err.message, "instruction budget") != NULL);
  }
  /* a budget of exactly the work: 12 warps x (3 + 3 * 20000 + 1) instructions
   * (li a0, 20000 is lui and addi) */
  shape sh = {.sms = 4, .warp_slots = 2, .wgs = 6, .warps = 2, .max_insns = 12 * 60004};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  CHECK(st, total(&o, 4, 3) == 12.0 * 60004);
}

/* The vector steady-state kernel (bench/steady_kernel.h, results computed
 * on the host): 4 workgroups on 2 SMs over many epochs, the same counters
 * for every number of host threads. */
TEST(steady_kernel_on_two_sms) {
  static double ctr[3][2][NCTR];
  const unsigned threads[] = {1, 2, 4};
  for (unsigned k = 0; k < 3; k++) {
    vt_settings cfg;
    vt_settings_default(&cfg);
    cfg.sms = 2;
    cfg.warp_slots = 8;
    cfg.host_threads = threads[k];
    vt_launch l;
    vt_device *dev = steady_device(&cfg, 300, 4, &l);
    CHECK(st, dev != NULL);
    if (!dev) return;
    vt_error err;
    CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &err), VT_OK);
    CHECK(st, steady_check(dev, 300, 4) == 0);
    const vt_stats *s = vt_device_stats(dev);
    for (unsigned sm = 0; sm < 2; sm++)
      for (unsigned c = 0; c < NCTR; c++) ctr[k][sm][c] = vt_stats_value(s, 0, (int)sm, counted[c]);
    vt_device_free(dev);
  }
  CHECK(st, memcmp(ctr[0], ctr[1], sizeof ctr[0]) == 0);
  CHECK(st, memcmp(ctr[0], ctr[2], sizeof ctr[0]) == 0);
  CHECK(st, ctr[0][0][1] == 2 && ctr[0][1][1] == 2); /* two workgroups per SM */
}

RUN_TESTS(T(atomics_from_every_sm), T(local_atomics_on_every_sm),
          T(vector_stores_with_holes_share_a_line), T(byte_stores_of_several_sms_share_words),
          T(lrsc_across_sms), T(lowest_sm_error_wins),
          T(budget_exact), T(steady_kernel_on_two_sms))
