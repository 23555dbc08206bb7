/* TLBs and page walks in the timing model (docs/memory.md, Costs): a
 * kernel reading one word of each of 64 pages, twice, in page tables the
 * test builds. Counts follow from the documented structure: a 32-entry
 * L1 TLB (LRU) cannot hold 64 pages, the 512-entry L2 TLB can; a 2 MiB
 * superpage is one entry; entries carry the ASID and survive launches
 * while the host changes no mapping; the walks' PTE reads go through the
 * L2 cache; MMU-on runs take more cycles than MMU-off ones; the timeline
 * has a track per page walker. */
#include "check.h"
#include "mmu_util.h"
#include "vt/session.h"

/* sum of A[k * 1024] for k < pages, 'passes' times; KNL = {A, pages,
 * passes, result} */
static const char pages_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a0, 0(t0)\n"
    "    lw a1, 4(t0)\n"
    "    lw a2, 8(t0)\n"
    "    li a5, 0\n"
    "    li t1, 4096\n"
    "2:  mv a3, a0\n"
    "    mv a4, a1\n"
    "1:  lw a6, 0(a3)\n"
    "    add a5, a5, a6\n"
    "    add a3, a3, t1\n"
    "    addi a4, a4, -1\n"
    "    bnez a4, 1b\n"
    "    addi a2, a2, -1\n"
    "    bnez a2, 2b\n"
    "    sw a5, 12(t0)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define A 0x90100000u
#define A_SUPER 0x90200000u /* 2 MiB aligned */
#define PAGES 64u

typedef struct tfx {
  vt_session *s;
  vt_device *dev;
  ptb b;
  vt_elf *elf;
  uint64_t knl_pa;
} tfx;

/* the kernel, KNL and A (4 KiB pages, or one 2 MiB page) in a table of the
 * test's; 'timeline': a file for the timeline */
static bool tfx_open(tfx *f, bool mmu, bool super, const char *timeline) {
  memset(f, 0, sizeof *f);
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = mmu;
  s.timing = true;
  s.sms = 1;
  s.progress = false;
  if (timeline) snprintf(s.timeline, sizeof s.timeline, "%s", timeline);
  char msg[200];
  if (vt_session_new(&s, &f->s, msg, sizeof msg) != 0) {
    fprintf(stderr, "%s\n", msg);
    return false;
  }
  f->dev = vt_session_device(f->s);
  f->elf = mmu_asm(pages_kernel);
  if (!f->elf) return false;
  uint32_t a = super ? A_SUPER : A, knl[4] = {a, PAGES, 2, 0};
  if (!mmu) { /* the same layout, physical */
    vt_error e;
    return vt_device_load_elf(f->dev, f->elf, &e) == VT_OK &&
           vt_mem_map(f->dev, KNL, 4096, &e) == VT_OK &&
           vt_mem_map(f->dev, A, PAGES * 4096, &e) == VT_OK &&
           vt_mem_write(f->dev, KNL, knl, sizeof knl, &e) == VT_OK;
  }
  ptb_init(&f->b, f->dev, 0x01000000u);
  ptb_program(&f->b, f->elf, P_RX);
  f->knl_pa = ptb_map(&f->b, KNL, sizeof knl, P_RW, knl); /* one page */
  if (super) ptb_leaf(&f->b, A_SUPER, 0x00400000u, 1, P_RW);
  else ptb_map(&f->b, A, PAGES * 4096, P_RW, NULL);
  return true;
}

static void tfx_close(tfx *f) {
  char msg[200];
  vt_session_finish(f->s, msg, sizeof msg);
  vt_session_free(f->s);
  vt_elf_free(f->elf);
}

static int tfx_run(tfx *f, uint64_t root, uint16_t asid) {
  vt_launch l = mmu_launch(KNL, 1, 1, root, asid);
  vt_error e;
  int rc = vt_session_launch(f->s, &l, "pages", &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  return rc;
}

static double ctr(tfx *f, int launch, vt_counter c) {
  return vt_stats_value(vt_session_stats(f->s), launch, -1, c);
}

TEST(walks_and_tlb_levels) {
  tfx f;
  CHECK(st, tfx_open(&f, true, false, NULL));
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 7), VT_OK);
  /* one walk per page: the code page, KNL, 64 pages of A; three PTE reads each */
  CHECK(st, ctr(&f, 0, VT_C_ptw_walks) == 66);
  CHECK(st, ctr(&f, 0, VT_C_ptw_pte_reads) == 3 * 66);
  /* the second pass finds A's pages in the L2 TLB (64 entries do not fit
   * the 32 of the L1 TLB), and so does the final store to KNL */
  CHECK(st, ctr(&f, 0, VT_C_tlb_l2_hits) == 65);
  CHECK(st, ctr(&f, 0, VT_C_tlb_l2_misses) == 66);
  CHECK(st, ctr(&f, 0, VT_C_ptw_cycles) > 66 * 3); /* at least a cycle per read */
  CHECK(st, ctr(&f, 0, VT_C_tlb_l1_hits) > 0);
  /* the same launch again: nothing changed on the host, the TLBs hold */
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 7), VT_OK);
  CHECK(st, ctr(&f, 1, VT_C_ptw_walks) == 0);
  /* another ASID misses every entry */
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 8), VT_OK);
  CHECK(st, ctr(&f, 2, VT_C_ptw_walks) == 66);
  /* a host change of physical memory (here KNL) empties the TLBs */
  phys_put(f.dev, f.knl_pa + 8, 1); /* one pass */
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 7), VT_OK);
  CHECK(st, ctr(&f, 3, VT_C_ptw_walks) == 66);
  CHECK(st, ctr(&f, 3, VT_C_tlb_l2_hits) == 1); /* only the final store to KNL */
  tfx_close(&f);
}

TEST(superpage_is_one_entry) {
  tfx f;
  CHECK(st, tfx_open(&f, true, true, NULL));
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 7), VT_OK);
  /* code, KNL and A's one 2 MiB page (two PTE reads) */
  CHECK(st, ctr(&f, 0, VT_C_ptw_walks) == 3);
  CHECK(st, ctr(&f, 0, VT_C_ptw_pte_reads) == 3 + 3 + 2);
  CHECK(st, ctr(&f, 0, VT_C_tlb_l2_hits) == 0);
  tfx_close(&f);
}

TEST(translation_costs_cycles) {
  tfx on, off;
  CHECK(st, tfx_open(&on, true, false, NULL) && tfx_open(&off, false, false, NULL));
  CHECK_EQ_U32(st, tfx_run(&on, on.b.root, 7), VT_OK);
  CHECK_EQ_U32(st, tfx_run(&off, 0, 0), VT_OK);
  double c_on = ctr(&on, 0, VT_C_cycles), c_off = ctr(&off, 0, VT_C_cycles);
  CHECK(st, c_on > c_off);
  CHECK(st, ctr(&off, 0, VT_C_ptw_walks) == 0 && ctr(&off, 0, VT_C_tlb_l1_hits) == 0);
  /* the walks' PTE reads reached the L2 */
  CHECK(st, ctr(&on, 0, VT_C_l2_accesses) >= ctr(&off, 0, VT_C_l2_accesses) + 66 * 3);
  /* same instructions either way */
  CHECK(st, ctr(&on, 0, VT_C_warp_instructions) == ctr(&off, 0, VT_C_warp_instructions));
  tfx_close(&on);
  tfx_close(&off);
}

TEST(timeline_walker_track) {
  tfx f;
  CHECK(st, tfx_open(&f, true, false, "tl.json"));
  CHECK_EQ_U32(st, tfx_run(&f, f.b.root, 7), VT_OK);
  tfx_close(&f);
  FILE *fp = fopen("tl.json", "r");
  static char text[1 << 20];
  size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
  if (fp) fclose(fp);
  text[n] = 0;
  CHECK(st, strstr(text, "\"name\": \"page walker 0\"") != NULL);
  CHECK(st, strstr(text, "\"name\": \"walk 0x90100000\"") != NULL);
  CHECK(st, strstr(text, "\"tid\": 2000}") != NULL);
}

RUN_TESTS(T(walks_and_tlb_levels), T(superpage_is_one_entry), T(translation_costs_cycles),
          T(timeline_walker_track))
