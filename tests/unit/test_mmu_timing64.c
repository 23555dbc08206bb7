/* The timing model's TLBs with v2025 64-bit pair addresses (docs/memory.md,
 * 64-bit addresses): a kernel reading VA 2^32 + X (ld with a pair address)
 * and VA X (lw), two different pages of the test's page table, walks both:
 * four walks in all (the code page, KNL, the two data pages), each of three
 * PTE reads, and four L2 TLB misses. Keeping only the low 32 bits would
 * find X's page for both (three walks). */
#include "check.h"
#include "mmu_util.h"
#include "vt/session.h"

/* KNL = {A (64 bits), X, result}: result = A[0] + X[0] */
static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a2, 0(t0)\n"
    "    lw a3, 4(t0)\n"
    "    lw a0, 8(t0)\n"
    "    ld a4, 0(a2)\n"
    "    lw a5, 0(a0)\n"
    "    add a4, a4, a5\n"
    "    sw a4, 12(t0)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define X 0x90100000u
#define A (0x100000000ull + X)

static double ctr(vt_session *s, vt_counter c) {
  return vt_stats_value(vt_session_stats(s), 0, -1, c);
}

TEST(high_and_low_pages_walk_separately) {
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = true;
  s.timing = true;
  s.sms = 1;
  s.progress = false;
  vt_session *ses = NULL;
  char msg[200];
  if (vt_session_new(&s, &ses, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s\n", msg);
    CHECK(st, false);
    return;
  }
  vt_device *dev = vt_session_device(ses);
  vt_elf *elf = mmu_asm(kernel);
  CHECK(st, elf != NULL);
  if (!elf) {
    vt_session_free(ses);
    return;
  }
  ptb b;
  ptb_init(&b, dev, 0x01000000u);
  ptb_program(&b, elf, P_RX);
  uint32_t knl[4] = {(uint32_t)A, (uint32_t)(A >> 32), X, 0};
  uint64_t knl_pa = ptb_map(&b, KNL, sizeof knl, P_RW, knl);
  uint64_t a_pa = ptb_map(&b, A, 4096, P_RW, NULL), x_pa = ptb_map(&b, X, 4096, P_RW, NULL);
  phys_put(dev, a_pa, 0x300);
  phys_put(dev, x_pa, 0x45);
  vt_launch l = mmu_launch(KNL, 1, 1, b.root, 5);
  vt_error e;
  int rc = vt_session_launch(ses, &l, "addr64", &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  CHECK_EQ_U32(st, phys_word(dev, knl_pa + 12), 0x345);
  CHECK(st, ctr(ses, VT_C_ptw_walks) == 4);
  CHECK(st, ctr(ses, VT_C_ptw_pte_reads) == 3 * 4);
  CHECK(st, ctr(ses, VT_C_tlb_l2_misses) == 4);
  if (ctr(ses, VT_C_ptw_walks) != 4)
    fprintf(stderr, "walks %g, l2 misses %g\n", ctr(ses, VT_C_ptw_walks),
            ctr(ses, VT_C_tlb_l2_misses));
  vt_session_finish(ses, msg, sizeof msg);
  vt_session_free(ses);
  vt_elf_free(elf);
}

RUN_TESTS(T(high_and_low_pages_walk_separately))
