/* Kernels running with the MMU on (docs/memory.md): code and data in page
 * tables the test builds itself (mmu_util.h) at physical frames it picks,
 * superpages, every fault class raised by a load, a store or an instruction
 * fetch with its location (SM, workgroup, warp, pc, lane) and message
 * (access kind, virtual address, ASID, level, reason), memory unchanged by
 * a faulting store, the translation cache never letting a refused kind
 * through, the launch's page-table root checked. */
#include "check.h"
#include "mmu_util.h"

/* scalar load, store, jump or lr.w/sc.w at KNL[0] by mode KNL[1]; the
 * loaded word goes to KNL[2] */
static const char fault_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a0, 0(t0)\n"
    "    lw a1, 4(t0)\n"
    "    li a3, 1\n"
    "    beq a1, a3, do_store\n"
    "    li a3, 2\n"
    "    beq a1, a3, do_jump\n"
    "    li a3, 3\n"
    "    beq a1, a3, do_both\n"
    "    li a3, 4\n"
    "    beq a1, a3, do_load_jump\n"
    "    li a3, 5\n"
    "    beq a1, a3, do_lr_sc\n"
    "    .globl load_site\n"
    "load_site:\n"
    "    lw a2, 0(a0)\n"
    "    sw a2, 8(t0)\n"
    "    endprg x0, x0, x0\n"
    "do_store:\n"
    "    li a2, 0x5a5a\n"
    "    .globl store_site\n"
    "store_site:\n"
    "    sw a2, 0(a0)\n"
    "    endprg x0, x0, x0\n"
    "do_jump:\n"
    "    jr a0\n"
    "do_both:\n"
    "    lw a2, 0(a0)\n"
    "    sw a2, 8(t0)\n"
    "    .globl both_store\n"
    "both_store:\n"
    "    sw a2, 0(a0)\n"
    "    endprg x0, x0, x0\n"
    "do_load_jump:\n"
    "    lw a2, 0(a0)\n"
    "    sw a2, 8(t0)\n"
    "    jr a0\n"
    "do_lr_sc:\n"
    "    lr.w a2, (a0)\n"
    "    li a3, 0x77\n"
    "    .globl sc_site\n"
    "sc_site:\n"
    "    sc.w a4, a3, (a0)\n"
    "    endprg x0, x0, x0\n";

/* B[i] = A[i] + 1 for 32 lanes (flat per-lane load and store) */
static const char lanes_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a1, 0(t0)\n"
    "    lw a2, 4(t0)\n"
    "    vid.v v1\n"
    "    vsll.vi v1, v1, 2\n"
    "    vadd.vx v2, v1, a1\n"
    "    vlw12.v v3, 0(v2)\n"
    "    vadd.vi v3, v3, 1\n"
    "    vadd.vx v4, v1, a2\n"
    "    .globl store_site\n"
    "store_site:\n"
    "    vsw12.v v3, 0(v4)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define TARGET 0x90011000u /* not in the translation-cache slot of the code or KNL pages */
#define ASID 7
#define FIRST_FRAME 0x01000000u

typedef struct fx {
  vt_device *dev;
  ptb b;
  vt_elf *elf;
  uint64_t knl_pa;
} fx;

static bool fx_open(fx *f, const char *src, uint64_t phys) {
  memset(f, 0, sizeof *f);
  f->dev = mmu_device(phys);
  f->elf = mmu_asm(src);
  if (!f->dev || !f->elf) return false;
  ptb_init(&f->b, f->dev, FIRST_FRAME);
  ptb_program(&f->b, f->elf, P_RX);
  f->knl_pa = ptb_map(&f->b, KNL, 4096, P_RW, NULL);
  return true;
}

static void fx_close(fx *f) {
  vt_elf_free(f->elf);
  vt_device_free(f->dev);
}

static int fx_run(fx *f, uint32_t k0, uint32_t k1, unsigned threads, vt_error *e) {
  phys_put(f->dev, f->knl_pa, k0);
  phys_put(f->dev, f->knl_pa + 4, k1);
  vt_launch l = mmu_launch(KNL, threads, 1, f->b.root, ASID);
  return vt_device_run(f->dev, &l, NULL, e);
}

static bool has(const char *msg, const char *part) { return strstr(msg, part) != NULL; }

/* an access error of warp 0 of workgroup 0 on SM 0 at pc, whose message
 * holds every given part */
static void check_fault(check_state *st, int rc, const vt_error *e, uint32_t pc,
                        const char *const *parts) {
  CHECK_EQ_U32(st, rc, VT_ERR_ACCESS);
  CHECK(st, e->has_location);
  CHECK_EQ_U32(st, e->sm, 0);
  CHECK_EQ_U32(st, e->wg, 0);
  CHECK_EQ_U32(st, e->warp, 0);
  CHECK_EQ_U32(st, e->pc, pc);
  char where[64];
  snprintf(where, sizeof where, "SM 0, workgroup 0, warp 0, pc 0x%08x", pc);
  CHECK(st, strncmp(e->message, where, strlen(where)) == 0);
  for (; *parts; parts++)
    if (!has(e->message, *parts)) {
      st->failed_checks++;
      fprintf(stderr, "message \"%s\"\n   lacks \"%s\"\n", e->message, *parts);
    }
}

/* One fault case: TARGET's entry at 'level' is 'pte' (level 0: the frame
 * 'frame' with flags), the kernel runs in 'mode'; the expected message
 * parts. */
typedef struct fcase {
  const char *name;
  int level;
  uint64_t pte_flags;   /* level 0 leaf flags, or the raw entry (PTE_RAW) */
  uint64_t raw;
  uint32_t mode;
  const char *site;     /* symbol of the faulting pc; NULL: the target itself */
  const char *parts[4];
  uint32_t target;      /* 0: TARGET */
} fcase;
#define RAW ~0ull

static void run_case(check_state *st, const fcase *c, uint64_t phys) {
  fx f;
  if (!fx_open(&f, fault_kernel, phys)) {
    CHECK(st, false);
    return;
  }
  uint64_t frame = ptb_frame(&f.b);
  uint32_t target = c->target ? c->target : TARGET;
  phys_put(f.dev, frame, 0x1234);
  if (c->pte_flags == RAW) ptb_set(&f.b, target, c->level, c->raw);
  else ptb_leaf(&f.b, target, frame, 0, c->pte_flags);
  vt_error e;
  int rc = fx_run(&f, target, c->mode, 1, &e);
  uint32_t pc = c->site ? sym(f.elf, c->site) : target;
  if (rc != VT_ERR_ACCESS) fprintf(stderr, "case %s: rc %d (%s)\n", c->name, rc, e.message);
  check_fault(st, rc, &e, pc, c->parts);
  CHECK_EQ_U32(st, phys_word(f.dev, frame), 0x1234); /* nothing stored */
  fx_close(&f);
}

TEST(fault_classes) {
  static const fcase cases[] = {
      {"invalid", 0, 0, 0, 0, "load_site",
       {"page fault: 4-byte load at virtual address 0x90011000 (ASID 7)",
        "invalid entry (V = 0) at level 0", NULL}, 0},
      {"store to read-only", 0, PV | PR | PU | PA_ | PD, 0, 1, "store_site",
       {"page fault: 4-byte store at virtual address 0x90011000", "permission at level 0",
        "W = 0", NULL}, 0},
      {"not a user page", 0, P_RW & ~(uint64_t)PU, 0, 0, "load_site",
       {"permission at level 0", "U = 0 (not a user page)", NULL}, 0},
      {"load from execute-only", 0, PV | PX | PU | PA_, 0, 0, "load_site",
       {"permission at level 0", "R = 0", NULL}, 0},
      {"fetch from data", 0, P_RW, 0, 2, NULL,
       {"instruction fetch: page fault: 4-byte fetch at virtual address 0x90011000",
        "permission at level 0", "X = 0", NULL}, 0},
      {"reserved bits", 0, P_RW | 1ull << 61, 0, 0, "load_site",
       {"reserved bits or encoding at level 0", "has bits 63..54 set", NULL}, 0},
      {"W without R", 0, PV | PW | PU | PA_ | PD, 0, 1, "store_site",
       {"reserved bits or encoding at level 0", "W without R", NULL}, 0},
      {"A clear", 0, P_RW & ~(uint64_t)PA_, 0, 0, "load_site",
       {"accessed bit clear (A = 0) at level 0", NULL}, 0},
      {"D clear", 0, P_RW & ~(uint64_t)PD, 0, 1, "store_site",
       {"dirty bit clear (D = 0) at level 0", NULL}, 0},
      {"D clear after a load (cached)", 0, P_RW & ~(uint64_t)PD, 0, 3, "both_store",
       {"4-byte store", "dirty bit clear (D = 0) at level 0", NULL}, 0},
      {"sc.w to read-only after lr.w", 0, PV | PR | PU | PA_ | PD, 0, 5, "sc_site",
       {"4-byte store at virtual address 0x90011000", "permission at level 0", "W = 0", NULL},
       0},
      {"fetch after a load (cached)", 0, P_RW, 0, 4, NULL,
       {"4-byte fetch", "X = 0", NULL}, 0},
      /* level-1 and level-2 entries of their own (not the program's) */
      {"misaligned 2 MiB superpage", 1, RAW, 0x1401ull << 10 | P_RW, 0, "load_site",
       {"virtual address 0x90410000", "misaligned superpage at level 1",
        "2 MiB superpage at PPN 0x1401, not a multiple of 512", NULL}, 0x90410000u},
      {"misaligned 1 GiB superpage", 2, RAW, 0x40200ull << 10 | P_RW, 0, "load_site",
       {"virtual address 0xc0010000", "misaligned superpage at level 2", "1 GiB superpage",
        NULL}, 0xc0010000u},
      {"no leaf", 0, RAW, 0x1400ull << 10 | PV, 0, "load_site", {"no leaf at level 0", NULL}, 0},
      {"pointer with A", 1, RAW, 0x1400ull << 10 | PV | PA_, 0, "load_site",
       {"reserved bits or encoding at level 1", "points to a table but has D, A or U set", NULL},
       0x90410000u},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(st, &cases[i], 0);
}

/* the exact text of one message: the PTE's physical address comes from the
 * test's own table */
TEST(fault_message_exact) {
  fx f;
  if (!fx_open(&f, fault_kernel, 0)) {
    CHECK(st, false);
    return;
  }
  uint64_t frame = ptb_frame(&f.b), slot = ptb_slot(&f.b, TARGET, 0);
  ptb_leaf(&f.b, TARGET, frame, 0, PV | PR | PU | PA_ | PD);
  vt_error e;
  int rc = fx_run(&f, TARGET, 1, 1, &e);
  char want[400];
  uint32_t pc = sym(f.elf, "store_site");
  snprintf(want, sizeof want,
           "SM 0, workgroup 0, warp 0, pc 0x%08x (0x00c52023 sw a2, 0(a0)): page fault: 4-byte "
           "store at virtual address 0x90011000 (ASID 7): permission at level 0: leaf PTE "
           "0x%016llx at physical 0x%llx has W = 0",
           pc, (unsigned long long)((frame >> 12) << 10 | (PV | PR | PU | PA_ | PD)),
           (unsigned long long)slot);
  CHECK_EQ_U32(st, rc, VT_ERR_ACCESS);
  CHECK_STR(st, e.message, want);
  CHECK_EQ_U32(st, e.insn, 0x00c52023u);
  fx_close(&f);
}

TEST(invalid_upper_levels) {
  fx f;
  if (!fx_open(&f, fault_kernel, 0)) {
    CHECK(st, false);
    return;
  }
  vt_error e;
  /* 0x90400000 shares the root entry of the program's 0x90000000 but not
   * its level-1 entry; 0xc0000000 has no root entry */
  int rc = fx_run(&f, 0x90400000u, 0, 1, &e);
  static const char *const p1[] = {"virtual address 0x90400000", "invalid entry (V = 0) at level 1", NULL};
  check_fault(st, rc, &e, sym(f.elf, "load_site"), p1);
  rc = fx_run(&f, 0xc0000000u, 1, 1, &e);
  static const char *const p2[] = {"virtual address 0xc0000000", "invalid entry (V = 0) at level 2", NULL};
  check_fault(st, rc, &e, sym(f.elf, "store_site"), p2);
  fx_close(&f);
}

TEST(physical_memory_bounds) {
  /* 64 MiB of physical memory: a page at 128 MiB, a table at 128 MiB */
  fcase page = {"page beyond", 0, RAW, (0x08000000ull >> 12) << 10 | P_RW, 0, "load_site",
                {"access fault: 4-byte load at virtual address 0x90011000",
                 "physical address beyond physical memory at level 0",
                 "it maps physical 0x8000000, beyond physical memory (67108864 bytes)", NULL}, 0};
  run_case(st, &page, 64u << 20);
  fcase table = {"table beyond", 1, RAW, (0x08000000ull >> 12) << 10 | PV, 1, "store_site",
                 {"access fault: 4-byte store", "page-table entry beyond physical memory at level 0",
                  "its PTE would be at physical 0x8000080", NULL}, 0x90410000u};
  run_case(st, &table, 64u << 20);
}

/* loads and stores where consecutive virtual pages are far apart
 * physically: lanes 0..23 in one page, 24..31 in the next */
TEST(lanes_across_pages) {
  fx f;
  if (!fx_open(&f, lanes_kernel, 0)) {
    CHECK(st, false);
    return;
  }
  uint32_t a = 0x90100000u + 4096 - 96, b = 0x90200000u + 4096 - 96;
  uint64_t fa = ptb_map(&f.b, 0x90100000u, 8192, P_RW, NULL);
  uint64_t fb = ptb_map(&f.b, 0x90200000u, 8192, P_RW, NULL);
  /* ptb_map hands out frames downward: page 1 lies 4 KiB below page 0 */
  for (unsigned i = 0; i < 32; i++) {
    uint64_t pa = i < 24 ? fa + 4096 - 96 + 4 * i : fa - 4096 + 4 * (i - 24);
    phys_put(f.dev, pa, 1000 + i);
  }
  vt_error e;
  int rc = fx_run(&f, a, b, 32, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 32; i++) {
    uint64_t pa = i < 24 ? fb + 4096 - 96 + 4 * i : fb - 4096 + 4 * (i - 24);
    wrong += phys_word(f.dev, pa) != 1001 + i;
  }
  CHECK_EQ_U32(st, wrong, 0);
  /* the same with B's second page unmapped: lane 24 faults, 0..23 are done */
  ptb_set(&f.b, 0x90201000u, 0, 0);
  for (unsigned i = 0; i < 32; i++) phys_put(f.dev, fb + 4096 - 96 + 4 * (i < 24 ? i : 0), 0);
  rc = fx_run(&f, a, b, 32, &e);
  static const char *const parts[] = {"4-byte store at virtual address 0x90201000 (lane 24)",
                                      "invalid entry (V = 0) at level 0", NULL};
  check_fault(st, rc, &e, sym(f.elf, "store_site"), parts);
  wrong = 0;
  for (unsigned i = 0; i < 24; i++) wrong += phys_word(f.dev, fb + 4096 - 96 + 4 * i) != 1001 + i;
  CHECK_EQ_U32(st, wrong, 0);
  fx_close(&f);
}

/* A in a 1 GiB page (VA 0x40000000 -> PA 0x80000000), B in a 2 MiB page
 * (VA 0x90200000 -> PA 0x00600000), both crossing a 4 KiB boundary */
TEST(superpages) {
  fx f;
  if (!fx_open(&f, lanes_kernel, 0)) {
    CHECK(st, false);
    return;
  }
  ptb_leaf(&f.b, 0x40000000u, 0x80000000u, 2, P_RW);
  ptb_leaf(&f.b, 0x90200000u, 0x00600000u, 1, P_RW | PG);
  uint32_t a = 0x40000000u + 0x5000 - 64, b = 0x90200000u + 0x3000 - 64;
  for (unsigned i = 0; i < 32; i++) phys_put(f.dev, 0x80005000u - 64 + 4 * i, 7 * i);
  vt_error e;
  int rc = fx_run(&f, a, b, 32, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 32; i++) wrong += phys_word(f.dev, 0x00603000u - 64 + 4 * i) != 7 * i + 1;
  CHECK_EQ_U32(st, wrong, 0);
  fx_close(&f);
}

TEST(launch_root_checked) {
  vt_device *dev = mmu_device(16u << 20);
  vt_error e;
  vt_launch l = mmu_launch(KNL, 1, 1, 0x1800, 0); /* not a page */
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_CONFIG);
  CHECK(st, has(e.message, "page-table root 0x1800"));
  l.ptbr = 16u << 20; /* beyond physical memory */
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_CONFIG);
  vt_device_free(dev);
  dev = vt_device_new(NULL); /* MMU off */
  l.ptbr = 0x1000;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_CONFIG);
  CHECK(st, has(e.message, "the MMU is off"));
  CHECK(st, !vt_device_mmu(dev));
  CHECK_EQ_U32(st, vt_phys_write(dev, 0, "x", 1, &e), VT_ERR_ARG);
  CHECK(st, vt_aspace_new(dev, 1, &e) == NULL);
  vt_device_free(dev);
}

RUN_TESTS(T(fault_classes), T(fault_message_exact), T(invalid_upper_levels),
          T(physical_memory_bounds), T(lanes_across_pages), T(superpages),
          T(launch_root_checked))
