/* The Sv39 walker (vt_sv39_walk, vt/mmu.h) through its API: hand-computed
 * translations and every fault class on tables written in a test-owned
 * physical memory, full 64-bit virtual addresses (canonical and not), and a
 * differential run against an independent walker written here from the
 * RISC-V privileged specification's algorithm on random page tables with
 * superpages, random flag bits and out-of-range frames. */
#include "check.h"
#include "vt/mmu.h"

#define MEM_FRAMES 64u /* test physical memory: frames 0..63 hold tables */
#define F(n) ((uint64_t)(n) * 4096u)

typedef struct pmem {
  uint64_t word[MEM_FRAMES * 512];
} pmem;

static uint64_t rd(void *ctx, uint64_t pa) {
  const pmem *m = ctx;
  return pa / 8 < MEM_FRAMES * 512 ? m->word[pa / 8] : 0;
}
static void wr(pmem *m, uint64_t pa, uint64_t v) { m->word[pa / 8] = v; }
/* PTE with physical page number ppn and flag bits */
static uint64_t pte(uint64_t ppn, uint64_t flags) { return ppn << 10 | flags; }

enum { V = 1, R = 2, W = 4, X = 8, U = 16, G = 32, A = 64, D = 128 };
#define LEAF (V | R | W | X | U | A | D)

/* va 0x40201234: vpn[2] = 1, vpn[1] = 1, vpn[0] = 1, offset 0x234 */
#define VA 0x40201234ull

/* root in frame 1, level-1 table in frame 2, level-0 table in frame 3 */
static void chain(pmem *m) {
  memset(m, 0, sizeof *m);
  wr(m, F(1) + 8, pte(2, V));
  wr(m, F(2) + 8, pte(3, V));
}

static vt_mmu_walk walk(pmem *m, uint64_t va, vt_mmu_access k, uint64_t phys) {
  vt_mmu_walk w;
  memset(&w, 0xa5, sizeof w);
  vt_sv39_walk(F(1), va, k, phys, rd, m, &w);
  return w;
}

static void check_fault(check_state *st, const vt_mmu_walk *w, vt_mmu_fault f, int level) {
  CHECK_EQ_U32(st, w->fault, f);
  CHECK_EQ_U32(st, (uint32_t)w->level, (uint32_t)level);
}

TEST(four_kib_page) {
  static pmem m;
  chain(&m);
  wr(&m, F(3) + 8, pte(0x10, LEAF));
  vt_mmu_walk w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_OK, 0);
  CHECK(st, w.pa == 0x10234);
  CHECK_EQ_U32(st, w.nreads, 3);
  CHECK(st, w.pte_addr[0] == 0x1008 && w.pte_addr[1] == 0x2008 && w.pte_addr[2] == 0x3008);
  CHECK(st, w.pte == pte(0x10, LEAF));
  /* the same page as a store and a fetch */
  w = walk(&m, VA - 0x234 + 0xffc, VT_MMU_STORE, 1ull << 32);
  CHECK(st, w.fault == VT_MMU_OK && w.pa == 0x10ffc);
  w = walk(&m, VA, VT_MMU_FETCH, 1ull << 32);
  CHECK(st, w.fault == VT_MMU_OK && w.pa == 0x10234);
}

TEST(superpages) {
  static pmem m;
  chain(&m);
  /* 2 MiB leaf at level 1, PPN 0x200 (a multiple of 512): pa.ppn[0] = va.vpn[0] */
  wr(&m, F(2) + 8, pte(0x200, LEAF));
  vt_mmu_walk w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_OK, 1);
  CHECK(st, w.pa == 0x201234);
  CHECK_EQ_U32(st, w.nreads, 2);
  /* 1 GiB leaf at level 2, PPN 0x80000: pa = 2 GiB + the low 30 bits of va */
  wr(&m, F(1) + 8, pte(0x80000, LEAF));
  w = walk(&m, VA, VT_MMU_STORE, 1ull << 34);
  check_fault(st, &w, VT_MMU_OK, 2);
  CHECK(st, w.pa == 0x80201234ull);
  CHECK_EQ_U32(st, w.nreads, 1);
  /* misaligned: 2 MiB leaf with PPN 0x201, 1 GiB leaf with PPN 0x80200 */
  chain(&m);
  wr(&m, F(2) + 8, pte(0x201, LEAF));
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 34);
  check_fault(st, &w, VT_MMU_MISALIGNED, 1);
  wr(&m, F(1) + 8, pte(0x80200, LEAF));
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 34);
  check_fault(st, &w, VT_MMU_MISALIGNED, 2);
}

TEST(invalid_and_reserved) {
  static pmem m;
  chain(&m);
  vt_mmu_walk w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32); /* level-0 entry is 0 */
  check_fault(st, &w, VT_MMU_INVALID, 0);
  CHECK(st, w.pte == 0 && w.nreads == 3);
  wr(&m, F(3) + 8, pte(0x10, LEAF & ~(uint64_t)V));
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_INVALID, 0);
  wr(&m, F(3) + 8, pte(0x10, V | W | U | A | D)); /* W without R */
  w = walk(&m, VA, VT_MMU_STORE, 1ull << 32);
  check_fault(st, &w, VT_MMU_RESERVED, 0);
  wr(&m, F(3) + 8, pte(0x10, LEAF) | 1ull << 63); /* N (Svnapot, not implemented) */
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_RESERVED, 0);
  wr(&m, F(3) + 8, pte(0x10, LEAF) | 1ull << 54); /* the lowest reserved bit */
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_RESERVED, 0);
  wr(&m, F(3) + 8, pte(0x10, LEAF));
  wr(&m, F(2) + 8, pte(3, V | A)); /* A in a non-leaf is reserved */
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_RESERVED, 1);
  wr(&m, F(2) + 8, pte(3, V | U));
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_RESERVED, 1);
  wr(&m, F(2) + 8, pte(3, V));
  wr(&m, F(3) + 8, pte(4, V)); /* a pointer at level 0 */
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_NO_LEAF, 0);
  wr(&m, F(1) + 8, pte(2, V | G)); /* G in a pointer is allowed */
  wr(&m, F(3) + 8, pte(0x10, LEAF | G));
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_OK, 0);
}

TEST(permissions_and_ad) {
  static pmem m;
  static const struct {
    uint64_t flags;
    vt_mmu_access kind;
    vt_mmu_fault want;
  } rows[] = {
      {V | R | U | A | D, VT_MMU_LOAD, VT_MMU_OK},
      {V | R | U | A | D, VT_MMU_STORE, VT_MMU_PERMISSION},
      {V | R | U | A | D, VT_MMU_FETCH, VT_MMU_PERMISSION},
      {V | X | U | A, VT_MMU_FETCH, VT_MMU_OK},
      {V | X | U | A, VT_MMU_LOAD, VT_MMU_PERMISSION}, /* MXR = 0 */
      {V | R | W | U | A | D, VT_MMU_FETCH, VT_MMU_PERMISSION},
      {V | R | W | X | A | D, VT_MMU_LOAD, VT_MMU_PERMISSION}, /* U = 0 */
      {V | R | W | X | U | D, VT_MMU_LOAD, VT_MMU_ACCESSED},
      {V | R | W | X | U | D, VT_MMU_FETCH, VT_MMU_ACCESSED},
      {V | R | W | X | U | A, VT_MMU_LOAD, VT_MMU_OK},
      {V | R | W | X | U | A, VT_MMU_STORE, VT_MMU_DIRTY},
      {V | R | W | X | U, VT_MMU_STORE, VT_MMU_ACCESSED},
      {V | R | U, VT_MMU_STORE, VT_MMU_PERMISSION}, /* permission before A/D */
      {V | R, VT_MMU_HOST, VT_MMU_OK},             /* the host needs only a valid leaf */
      {V | X, VT_MMU_HOST, VT_MMU_OK},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    chain(&m);
    wr(&m, F(3) + 8, pte(0x10, rows[i].flags));
    vt_mmu_walk w = walk(&m, VA, rows[i].kind, 1ull << 32);
    if (w.fault != rows[i].want) fprintf(stderr, "row %zu\n", i);
    check_fault(st, &w, rows[i].want, 0);
  }
  /* misaligned superpage is checked after permission, before A */
  chain(&m);
  wr(&m, F(2) + 8, pte(0x201, V | R | U));
  vt_mmu_walk w = walk(&m, VA, VT_MMU_STORE, 1ull << 32);
  check_fault(st, &w, VT_MMU_PERMISSION, 1);
  w = walk(&m, VA, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_MISALIGNED, 1);
}

TEST(physical_range) {
  static pmem m;
  chain(&m);
  wr(&m, F(3) + 8, pte(0x100, LEAF)); /* page at 1 MiB */
  vt_mmu_walk w = walk(&m, VA, VT_MMU_LOAD, 0x100000);
  check_fault(st, &w, VT_MMU_PHYS_RANGE, 0);
  CHECK(st, w.pa == 0x100234);
  w = walk(&m, VA, VT_MMU_LOAD, 0x101000);
  check_fault(st, &w, VT_MMU_OK, 0);
  /* a table beyond physical memory: the level-1 PTE address is 1 MiB + 8 */
  wr(&m, F(1) + 8, pte(0x100, V));
  w = walk(&m, VA, VT_MMU_LOAD, 0x100000);
  check_fault(st, &w, VT_MMU_PTE_RANGE, 1);
  CHECK_EQ_U32(st, w.nreads, 1);
  CHECK(st, w.pte_addr[1] == 0x100008);
  /* the root itself */
  vt_mmu_walk r;
  vt_sv39_walk(0x100000, VA, VT_MMU_LOAD, 0x100000, rd, &m, &r);
  check_fault(st, &r, VT_MMU_PTE_RANGE, 2);
  CHECK_EQ_U32(st, r.nreads, 0);
}

TEST(sixty_four_bit_addresses) {
  static pmem m;
  memset(&m, 0, sizeof m);
  /* bit 38 set with zeros above: not canonical */
  vt_mmu_walk w = walk(&m, 0x0000004000000000ull, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_NONCANONICAL, -1);
  CHECK_EQ_U32(st, w.nreads, 0);
  w = walk(&m, 0x8000000000001000ull, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_NONCANONICAL, -1);
  w = walk(&m, 0x0000008000000000ull, VT_MMU_LOAD, 1ull << 32); /* bit 39 alone */
  check_fault(st, &w, VT_MMU_NONCANONICAL, -1);
  CHECK(st, vt_sv39_canonical(0xffffffc000000000ull) && vt_sv39_canonical(0x3fffffffffull));
  CHECK(st, !vt_sv39_canonical(0xffffff8000000000ull));
  /* the upper half: 0xffffffc0_40201234 has vpn[2] = 0x101, vpn[1] = 1, vpn[0] = 1 */
  wr(&m, F(1) + 0x101 * 8, pte(2, V));
  wr(&m, F(2) + 8, pte(3, V));
  wr(&m, F(3) + 8, pte(0x20, LEAF));
  w = walk(&m, 0xffffffc040201234ull, VT_MMU_STORE, 1ull << 32);
  check_fault(st, &w, VT_MMU_OK, 0);
  CHECK(st, w.pa == 0x20234 && w.pte_addr[0] == F(1) + 0x808);
  /* above 4 GiB in the lower half: 0x12_40201234, vpn[2] = 0x49 */
  wr(&m, F(1) + 0x49 * 8, pte(2, V));
  w = walk(&m, 0x1240201234ull, VT_MMU_LOAD, 1ull << 32);
  check_fault(st, &w, VT_MMU_OK, 0);
  CHECK(st, w.pa == 0x20234);
}

/* ---- an independent walker (privileged spec, "Virtual Address
 * Translation Process", Sv39, user mode, MXR = SUM = 0, A/D faults) ---- */
typedef struct ref_walk {
  vt_mmu_fault fault;
  int level;
  uint64_t pa, entry;
  unsigned reads;
  uint64_t where[3];
} ref_walk;

static ref_walk ref(const pmem *m, uint64_t root, uint64_t va, vt_mmu_access kind, uint64_t phys) {
  ref_walk r = {VT_MMU_OK, -1, 0, 0, 0, {0, 0, 0}};
  int64_t sx = (int64_t)(va << 25) >> 25; /* sign-extend bit 38 */
  if ((uint64_t)sx != va) {
    r.fault = VT_MMU_NONCANONICAL;
    return r;
  }
  uint64_t vpn[3] = {(va >> 12) & 0x1ff, (va >> 21) & 0x1ff, (va >> 30) & 0x1ff};
  uint64_t table = root, e = 0;
  int i = 2;
  for (;;) {
    uint64_t at = table + 8 * vpn[i];
    r.level = i;
    if (at + 8 > phys) {
      r.fault = VT_MMU_PTE_RANGE;
      return r;
    }
    r.where[r.reads++] = at;
    e = rd((void *)m, at);
    r.entry = e;
    unsigned v = e & 1, rr = (e >> 1) & 1, ww = (e >> 2) & 1, xx = (e >> 3) & 1;
    if (!v) {
      r.fault = VT_MMU_INVALID;
      return r;
    }
    if ((!rr && ww) || (e >> 54)) {
      r.fault = VT_MMU_RESERVED;
      return r;
    }
    if (rr || xx) break;
    if (e & (U | A | D)) {
      r.fault = VT_MMU_RESERVED;
      return r;
    }
    if (i == 0) {
      r.fault = VT_MMU_NO_LEAF;
      return r;
    }
    i--;
    table = ((e >> 10) & 0xfffffffffffull) << 12;
  }
  bool ok;
  if (kind == VT_MMU_HOST) ok = true;
  else if (!(e & U)) ok = false;
  else if (kind == VT_MMU_LOAD) ok = (e & R) != 0;
  else if (kind == VT_MMU_STORE) ok = (e & W) != 0;
  else ok = (e & X) != 0;
  if (!ok) {
    r.fault = VT_MMU_PERMISSION;
    return r;
  }
  uint64_t ppn[3] = {(e >> 10) & 0x1ff, (e >> 19) & 0x1ff, (e >> 28) & 0x3ffffff};
  for (int k = 0; k < i; k++)
    if (ppn[k]) {
      r.fault = VT_MMU_MISALIGNED;
      return r;
    }
  if (kind != VT_MMU_HOST) {
    if (!(e & A)) {
      r.fault = VT_MMU_ACCESSED;
      return r;
    }
    if (kind == VT_MMU_STORE && !(e & D)) {
      r.fault = VT_MMU_DIRTY;
      return r;
    }
  }
  for (int k = 0; k < i; k++) ppn[k] = vpn[k];
  r.pa = (ppn[2] << 30) | (ppn[1] << 21) | (ppn[0] << 12) | (va & 0xfff);
  if (r.pa >= phys) r.fault = VT_MMU_PHYS_RANGE;
  return r;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* a random entry: mostly pointers to table frames 1..15 near the root,
 * leaves at any level with random rights, sometimes garbage */
static uint64_t random_entry(void) {
  uint64_t k = rnd() % 16, flags = rnd() & 0xff;
  if (k < 7) return pte(1 + rnd() % 15, V | (rnd() % 8 == 0 ? (rnd() & 0xfe) : 0));
  uint64_t ppn = rnd() % 4 == 0 ? (rnd() & 0xfffffffffffull)
                 : rnd() % 2 ? (rnd() % 8) << 18 : (rnd() % 64) << 9 | (rnd() % 3 ? 0 : rnd() % 512);
  if (k < 14) flags |= V | (rnd() % 4 ? R : 0);
  uint64_t e = pte(ppn, flags);
  if (k == 15) e |= rnd() << 54;
  return e;
}

TEST(random_tables_against_reference) {
  static pmem m;
  unsigned differences = 0, total = 0, counts[VT_MMU_PHYS_RANGE + 1] = {0};
  for (unsigned round = 0; round < 200; round++) {
    memset(&m, 0, sizeof m);
    /* frames 1..15 are tables; fill the first 4 entries of each and a few
     * others, so that random addresses below hit them */
    for (unsigned f = 1; f < 16; f++)
      for (unsigned i = 0; i < 512; i++)
        if (i < 4 || i == 256 || i == 511) wr(&m, F(f) + 8 * i, random_entry());
    uint64_t phys = rnd() % 2 ? 1ull << 32 : (uint64_t)(16 + rnd() % 4096) << 12;
    for (unsigned n = 0; n < 200; n++) {
      static const uint64_t idx[] = {0, 1, 2, 3, 256, 511};
      uint64_t va = idx[rnd() % 6] << 30 | idx[rnd() % 6] << 21 | idx[rnd() % 6] << 12 |
                    (rnd() & 0xfff);
      if (rnd() % 8 == 0) va |= 0xffffff8000000000ull; /* upper half */
      if (rnd() % 16 == 0) va ^= 1ull << (39 + rnd() % 25); /* not canonical */
      vt_mmu_access kind = (vt_mmu_access)(rnd() % 4);
      uint64_t root = rnd() % 32 ? F(1 + rnd() % 15) : phys - 4096 * (rnd() % 2);
      ref_walk r = ref(&m, root, va, kind, phys);
      vt_mmu_walk w;
      vt_sv39_walk(root, va, kind, phys, rd, &m, &w);
      total++;
      counts[r.fault]++;
      bool same = w.fault == r.fault && w.level == r.level && w.nreads == r.reads;
      for (unsigned i = 0; same && i < r.reads; i++) same = w.pte_addr[i] == r.where[i];
      if (same && r.reads && r.fault != VT_MMU_PTE_RANGE) same = w.pte == r.entry;
      if (same && (r.fault == VT_MMU_OK || r.fault == VT_MMU_PHYS_RANGE)) same = w.pa == r.pa;
      if (!same && differences++ < 5)
        fprintf(stderr, "va 0x%016llx kind %d root 0x%llx: vt %d level %d pa 0x%llx, ref %d level %d pa 0x%llx\n",
                (unsigned long long)va, kind, (unsigned long long)root, w.fault, w.level,
                (unsigned long long)w.pa, r.fault, r.level, (unsigned long long)r.pa);
    }
  }
  CHECK_EQ_U32(st, differences, 0);
  /* every outcome occurred */
  for (unsigned f = 0; f <= VT_MMU_PHYS_RANGE; f++) {
    if (!counts[f]) fprintf(stderr, "outcome %u never occurred\n", f);
    CHECK(st, counts[f] > 0);
  }
  CHECK(st, total == 40000);
}

TEST(fault_texts) {
  CHECK_STR(st, vt_mmu_fault_kind(VT_MMU_INVALID), "page fault");
  CHECK_STR(st, vt_mmu_fault_kind(VT_MMU_PHYS_RANGE), "access fault");
  CHECK_STR(st, vt_mmu_fault_kind(VT_MMU_PTE_RANGE), "access fault");
  CHECK_STR(st, vt_mmu_fault_name(VT_MMU_MISALIGNED), "misaligned superpage");
}

RUN_TESTS(T(four_kib_page), T(superpages), T(invalid_and_reserved), T(permissions_and_ad),
          T(physical_range), T(sixty_four_bit_addresses), T(random_tables_against_reference),
          T(fault_texts))
