/* Host threads with the MMU on (docs/run.md, Host threads; docs/memory.md):
 * several SMs run their epochs with per-SM overlays of physical frames, and
 * memory and errors are the same for 1, 2 and 4 host threads and equal to
 * the values computed by hand. The kernels run in the test's own page table
 * (mmu_util.h); BUF and ALIAS are two virtual pages of one frame, so a
 * store through one must be seen through the other by the same SM within
 * the epoch. Atomics, LR/SC, vector stores with holes and a page fault on
 * one of two SMs as in test_host_threads.c. */
#include "check.h"
#include "host_threads_kernels.h"
#include "mmu_util.h"

#define BUF 0x90000000u
#define ALIAS 0x90401000u /* another slot of the warp's translation cache than BUF */
#define WORDS 1024

#define HIGH 0x190000000ull /* a third page of the frame, above 4 GiB */
#define NEWVA 0x90002000u /* unmapped until a kernel writes its PTE */
#define PTVA 0x90003000u  /* the level-0 table of BUF and NEWVA, when 'pte' */

typedef struct shape {
  unsigned sms, warp_slots, wgs, warps;
  bool pte; /* map PTVA; BUF[100] = a PTE mapping BUF's frame */
} shape;

typedef struct outcome {
  int rc;
  vt_error err;
  uint32_t mem[WORDS];
} outcome;

static void run(check_state *st, vt_elf *elf, const shape *sh, unsigned threads, outcome *o) {
  memset(o, 0, sizeof *o);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.mmu = true;
  cfg.phys_bytes = 64u << 20;
  cfg.sms = sh->sms;
  cfg.warp_slots = sh->warp_slots;
  cfg.host_threads = threads;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, dev != NULL);
  if (!dev) return;
  ptb b;
  ptb_init(&b, dev, 0x00200000u);
  ptb_program(&b, elf, P_RX);
  uint64_t frame = ptb_map(&b, BUF, 4096, P_RW, NULL);
  ptb_leaf(&b, ALIAS, frame, 0, P_RW);
  ptb_leaf(&b, HIGH, frame, 0, P_RW);
  if (sh->pte) {
    uint64_t slot = ptb_slot(&b, NEWVA, 0);
    ptb_leaf(&b, PTVA, slot & ~4095ull, 0, P_RW);
    phys_put(dev, frame + 400, (uint32_t)((frame >> 12) << 10 | P_RW));
  }
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {sh->wgs, 1, 1}, .threads_per_warp = 4,
                 .warps_per_wg = sh->warps, .lds_size = 64, .ptbr = b.root, .asid = 1};
  o->rc = vt_device_run(dev, &l, NULL, &o->err);
  for (unsigned i = 0; i < WORDS; i++) o->mem[i] = phys_word(dev, frame + 4 * i);
  vt_device_free(dev);
}

/* runs with 1, 2 and 4 host threads, checks that they agree, leaves the
 * first in *o */
static void run_all(check_state *st, const char *src, const shape *sh, outcome *o) {
  vt_elf *elf = mmu_asm(src);
  CHECK(st, elf != NULL);
  if (!elf) return;
  static outcome other;
  run(st, elf, sh, 1, o);
  const unsigned threads[] = {2, 4};
  for (unsigned k = 0; k < 2; k++) {
    run(st, elf, sh, threads[k], &other);
    CHECK_EQ_U32(st, other.rc, o->rc);
    CHECK_STR(st, other.err.message, o->err.message);
    CHECK_EQ_U32(st, other.err.sm, o->err.sm);
    CHECK(st, memcmp(other.mem, o->mem, sizeof o->mem) == 0);
  }
  vt_elf_free(elf);
}

/* Each workgroup g (one warp; 8 on 4 SMs, two per SM in the first epoch)
 * loads ALIAS[g] (a translation of the shared frame), stores g + 1 to
 * BUF[g] (the SM's copy of the frame), loads ALIAS[g] again and stores
 * what it read to BUF[16 + g]. */
TEST(alias_sees_own_store) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  lui a2, 0x90401\n"
      "  csrr t1, CSR_WGID\n"
      "  slli t2, t1, 2\n"
      "  add a3, a1, t2\n"
      "  add a4, a2, t2\n"
      "  lw t3, 0(a4)\n"
      "  addi t4, t1, 1\n"
      "  sw t4, 0(a3)\n"
      "  lw t5, 0(a4)\n"
      "  sw t5, 64(a3)\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 4, .warp_slots = 1, .wgs = 8, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned g = 0; g < 8; g++) {
    CHECK_EQ_U32(st, o.mem[g], g + 1);
    CHECK_EQ_U32(st, o.mem[16 + g], g + 1);
  }
}

/* Workgroup 0 (SM 0; workgroup 1 runs on SM 1) writes the PTE of NEWVA
 * (mapping BUF's frame) into its own page table and loads through it at
 * once: the walk reads the SM's copy of the table's frame (docs/memory.md,
 * What is cached). BUF[20] = BUF[0] = 0x55. */
TEST(own_pte_write_seen_at_once) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  csrr t1, CSR_WGID\n"
      "  bnez t1, 2f\n"
      "  li t2, 0x55\n"
      "  sw t2, 0(a1)\n"
      "  lw t0, 400(a1)\n"
      "  lui a3, 0x90003\n"
      "  sw t0, 16(a3)\n"
      "  lui a4, 0x90002\n"
      "  lw t3, 0(a4)\n"
      "  sw t3, 80(a1)\n"
      "2:\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 2, .warp_slots = 1, .wgs = 2, .warps = 1, .pte = true};
  static outcome o;
  run_all(st, src, &sh, &o);
  if (o.rc) fprintf(stderr, "%s\n", o.err.message);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  CHECK_EQ_U32(st, o.mem[20], 0x55);
}

/* 64-bit pair addresses (sd) on 4 SMs: workgroup g stores g + 1 to
 * HIGH[g], then g + 11 to HIGH[16 + g] through the translation the first
 * store made; both reach the frame. */
TEST(stores_above_4gib) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  csrr t1, CSR_WGID\n"
      "  slli t2, t1, 2\n"
      "  lui a2, 0x90000\n"
      "  add a2, a2, t2\n"
      "  li a3, 1\n"
      "  addi t4, t1, 1\n"
      "  sd t4, 0(a2)\n"
      "  addi t4, t4, 10\n"
      "  sd t4, 64(a2)\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 4, .warp_slots = 1, .wgs = 8, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  if (o.rc) fprintf(stderr, "%s\n", o.err.message);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned g = 0; g < 8; g++) {
    CHECK_EQ_U32(st, o.mem[g], g + 1);
    CHECK_EQ_U32(st, o.mem[16 + g], g + 11);
  }
}

/* Every warp of 8 workgroups on 4 SMs adds wid + 1 to a counter 50 times
 * (through BUF), takes a ticket from a second counter (through ALIAS) and
 * stores its own word. */
TEST(atomics_from_every_sm) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  lui a2, 0x90401\n"
      "  csrr t0, CSR_WID\n"
      "  addi t0, t0, 1\n"
      "  li a0, 50\n"
      "1:\n"
      "  amoadd.w zero, t0, (a1)\n"
      "  addi a0, a0, -1\n"
      "  bnez a0, 1b\n"
      "  li t5, 1\n"
      "  addi t6, a2, 4\n"
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
  for (unsigned g = 0; g < 8; g++)
    for (unsigned w = 0; w < 4; w++) CHECK_EQ_U32(st, o.mem[16 + 4 * g + w], 100 * g + w);
  unsigned sum = 0;
  for (unsigned t = 0; t < 32; t++) sum += o.mem[128 + t]; /* every ticket taken once */
  CHECK_EQ_U32(st, sum, 8 * (1 + 2 + 3 + 4));
}

/* lr.w/sc.w retry loops of every warp of 8 workgroups on 4 SMs */
TEST(lrsc_across_sms) {
  const char *src = ht_lrsc_kernel;
  shape sh = {.sms = 4, .warp_slots = 4, .wgs = 8, .warps = 4};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  CHECK_EQ_U32(st, o.mem[0], 8 * (1 + 2 + 3 + 4));
  CHECK_EQ_U32(st, o.mem[1], 32);
}

/* unit-stride vector stores with holes from workgroups on 4 SMs into the
 * same 16 bytes: each SM's copy merges exactly the words it wrote */
TEST(vector_stores_with_holes_share_a_line) {
  const char *src = ht_vector_holes_kernel;
  shape sh = {.sms = 4, .warp_slots = 1, .wgs = 8, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_OK);
  for (unsigned k = 0; k < 16; k++) CHECK_EQ_U32(st, o.mem[k], k + 100);
}

/* Workgroup 0 (SM 0) writes a marker and loops; workgroup 1 (SM 1) writes
 * a marker and stores to an unmapped page: SM 1's page fault, its marker
 * kept (no lower SM failed) */
TEST(page_fault_on_one_sm) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  lui t3, 0x10000\n"
      "  csrr t1, CSR_WGID\n"
      "  bnez t1, 2f\n"
      "  li t2, 0x11\n"
      "  sw t2, 0(a1)\n"
      "  li a0, 1000\n"
      "1:\n"
      "  addi a0, a0, -1\n"
      "  bnez a0, 1b\n"
      "  endprg x0, x0, x0\n"
      "2:\n"
      "  li t2, 0x22\n"
      "  sw t2, 4(a1)\n"
      "  sw t2, 0(t3)\n"
      "  endprg x0, x0, x0\n";
  shape sh = {.sms = 2, .warp_slots = 1, .wgs = 2, .warps = 1};
  static outcome o;
  run_all(st, src, &sh, &o);
  CHECK_EQ_U32(st, o.rc, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, o.err.sm, 1);
  CHECK(st, strstr(o.err.message,
                   "page fault: 4-byte store at virtual address 0x10000000 (ASID 1)") != NULL);
  CHECK_EQ_U32(st, o.mem[0], 0x11);
  CHECK_EQ_U32(st, o.mem[1], 0x22);
}

RUN_TESTS(T(alias_sees_own_store), T(own_pte_write_seen_at_once), T(stores_above_4gib),
          T(atomics_from_every_sm), T(lrsc_across_sms),
          T(vector_stores_with_holes_share_a_line), T(page_fault_on_one_sm))
