/* The RV64A-style v2025 atomics with a 64-bit pair address (amoadd.d,
 * amoswap.d, lr.d, sc.d: isa2025.md 3.1.4) with the MMU on (docs/memory.md,
 * 64-bit addresses): the address is a full Sv39 virtual address, here above
 * 4 GiB in the test's own page table. The values land in the frame the test
 * picked, and not in the frame of the address's low 32 bits (mapped too);
 * a non-canonical address is a page fault like the others; with the MMU
 * off the 2^32 access error stays. */
#include "check.h"
#include "mmu_util.h"

/* KNL[0..1]: a 64-bit address A. KNL[2] = old A[0], A[0] += 5 (amoadd.d);
 * KNL[3] = old A[1], A[1] = 0x77 (amoswap.d); KNL[4] = A[2] (lr.d),
 * A[2] = A[2] + 100 (sc.d), KNL[5] = sc.d's result (0: stored). */
static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a2, 0(t0)\n"
    "    lw a3, 4(t0)\n"
    "    li a5, 5\n"
    "    amoadd.d a4, a5, (a2)\n"
    "    sw a4, 8(t0)\n"
    "    addi a6, a2, 4\n"
    "    mv a7, a3\n"
    "    li a5, 0x77\n"
    "    amoswap.d a4, a5, (a6)\n"
    "    sw a4, 12(t0)\n"
    "    addi a0, a2, 8\n"
    "    mv a1, a3\n"
    "    lr.d a4, (a0)\n"
    "    sw a4, 16(t0)\n"
    "    addi a4, a4, 100\n"
    "    sc.d a5, a4, (a0)\n"
    "    sw a5, 20(t0)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define FIRST_FRAME 0x00200000u
#define VA 0x0000001240201000ull /* above 4 GiB, below 2^38: canonical */
#define VA_LOW 0x40201000u       /* VA's low 32 bits: another page */

typedef struct fx {
  vt_device *dev;
  ptb b;
  vt_elf *elf;
  uint64_t knl_pa, data_pa, low_pa;
} fx;

static bool fx_open(fx *f) {
  memset(f, 0, sizeof *f);
  f->dev = mmu_device(64u << 20);
  f->elf = mmu_asm(kernel);
  if (!f->dev || !f->elf) return false;
  ptb_init(&f->b, f->dev, FIRST_FRAME);
  ptb_program(&f->b, f->elf, P_RX);
  f->knl_pa = ptb_map(&f->b, KNL, 4096, P_RW, NULL);
  f->data_pa = ptb_map(&f->b, VA, 4096, P_RW, NULL);
  f->low_pa = ptb_map(&f->b, VA_LOW, 4096, P_RW, NULL);
  for (unsigned i = 0; i < 3; i++) {
    phys_put(f->dev, f->data_pa + 4 * i, 0x1000u * (i + 1));
    phys_put(f->dev, f->low_pa + 4 * i, 0xdead0000u + i);
  }
  return true;
}

static int fx_run(fx *f, uint64_t a, vt_error *e) {
  phys_put(f->dev, f->knl_pa, (uint32_t)a);
  phys_put(f->dev, f->knl_pa + 4, (uint32_t)(a >> 32));
  phys_put(f->dev, f->knl_pa + 20, 0xffffffffu);
  vt_launch l = mmu_launch(KNL, 1, 1, f->b.root, 3);
  return vt_device_run(f->dev, &l, NULL, e);
}

static void fx_close(fx *f) {
  vt_elf_free(f->elf);
  vt_device_free(f->dev);
}

TEST(atomics_above_4gib_translated) {
  fx f;
  if (!fx_open(&f)) {
    CHECK(st, false);
    return;
  }
  vt_error e;
  int rc = fx_run(&f, VA, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  /* old values to rd, new ones in VA's frame */
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 8), 0x1000);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 12), 0x2000);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 16), 0x3000);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 20), 0); /* sc.d stored */
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa), 0x1005);
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa + 4), 0x77);
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa + 8), 0x3064);
  /* the page of the low 32 bits is untouched */
  for (unsigned i = 0; i < 3; i++)
    CHECK_EQ_U32(st, phys_word(f.dev, f.low_pa + 4 * i), 0xdead0000u + i);
  fx_close(&f);
}

TEST(atomics_below_4gib_unchanged) {
  fx f;
  if (!fx_open(&f)) {
    CHECK(st, false);
    return;
  }
  vt_error e;
  CHECK_EQ_U32(st, fx_run(&f, VA_LOW, &e), VT_OK);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 8), 0xdead0000u);
  CHECK_EQ_U32(st, phys_word(f.dev, f.low_pa), 0xdead0005u);
  CHECK_EQ_U32(st, phys_word(f.dev, f.low_pa + 4), 0x77);
  CHECK_EQ_U32(st, phys_word(f.dev, f.low_pa + 8), 0xdead0002u + 100);
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa), 0x1000);
  fx_close(&f);
}

TEST(non_canonical_and_unmapped_fault) {
  fx f;
  if (!fx_open(&f)) {
    CHECK(st, false);
    return;
  }
  vt_error e;
  /* bit 38 set, bits 63..39 clear: not a sign extension (Sv39) */
  int rc = fx_run(&f, 0x0000004000000000ull, &e);
  CHECK_EQ_U32(st, rc, VT_ERR_ACCESS);
  CHECK(st, e.has_location);
  CHECK(st, strstr(e.message, "amoadd.d") != NULL);
  static const char want[] = "page fault: 4-byte store at virtual address 0x4000000000 (ASID 3): "
                             "non-canonical address: bits 63..39 are not all equal to bit 38";
  CHECK(st, strstr(e.message, want) != NULL);
  if (!strstr(e.message, want)) fprintf(stderr, "%s\n", e.message);
  /* canonical but mapped nowhere: the walk's fault, nothing written */
  rc = fx_run(&f, VA + 0x100000000ull, &e);
  CHECK_EQ_U32(st, rc, VT_ERR_ACCESS);
  CHECK(st, strstr(e.message, "virtual address 0x1340201000") != NULL);
  CHECK(st, strstr(e.message, "invalid entry (V = 0)") != NULL);
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa), 0x1000);
  CHECK_EQ_U32(st, phys_word(f.dev, f.low_pa), 0xdead0000u);
  fx_close(&f);
}

/* KNL[0..1] = A + 8: warp 0 takes a reservation (lr.d), warp 1 stores to
 * the word (sd, same 64-bit address) before warp 0's sc.d, which must fail
 * (warps interleave one instruction at a time, isa.md 1.3). KNL[4] = the
 * value lr.d read, KNL[5] = sc.d's result. */
static const char resv_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a0, 0(t0)\n"
    "    lw a1, 4(t0)\n"
    "    csrr t1, CSR_WID\n"
    "    li a6, 0x99\n"
    "    bnez t1, 1f\n"
    "    lr.d a4, (a0)\n"
    "    sw a4, 16(t0)\n"
    "    nop\n"
    "    nop\n"
    "    addi a4, a4, 1\n"
    "    sc.d a5, a4, (a0)\n"
    "    sw a5, 20(t0)\n"
    "    j 2f\n"
    "1:  sd a6, 0(a0)\n"
    "2:  endprg x0, x0, x0\n";

TEST(store_above_4gib_breaks_a_reservation) {
  fx f;
  if (!fx_open(&f)) {
    CHECK(st, false);
    return;
  }
  vt_elf *elf = mmu_asm(resv_kernel);
  CHECK(st, elf != NULL);
  if (!elf) {
    fx_close(&f);
    return;
  }
  ptb_program(&f.b, elf, P_RX); /* over the first kernel's code pages */
  phys_put(f.dev, f.knl_pa, (uint32_t)(VA + 8));
  phys_put(f.dev, f.knl_pa + 4, (uint32_t)((VA + 8) >> 32));
  phys_put(f.dev, f.knl_pa + 20, 0xffffffffu);
  vt_launch l = mmu_launch(KNL, 1, 2, f.b.root, 3);
  vt_error e;
  int rc = vt_device_run(f.dev, &l, NULL, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 16), 0x3000); /* lr.d before the store */
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 20), 1);      /* sc.d failed */
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa + 8), 0x99);   /* warp 1's store stays */
  vt_elf_free(elf);
  fx_close(&f);
}

TEST(mmu_off_keeps_the_32_bit_rule) {
  vt_settings s;
  vt_settings_default(&s);
  vt_device *dev = vt_device_new(&s);
  vt_elf *elf = mmu_asm(kernel);
  CHECK(st, dev && elf);
  if (!dev || !elf) return;
  vt_error e;
  uint8_t knl[8] = {0x00, 0x10, 0x20, 0x40, 0x12, 0, 0, 0}; /* VA, little-endian */
  CHECK_EQ_U32(st, vt_device_load_elf(dev, elf, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_map(dev, KNL, 4096, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_map(dev, VA_LOW, 4096, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_write(dev, KNL, knl, sizeof knl, &e), VT_OK);
  vt_launch l = mmu_launch(KNL, 1, 1, 0, 0);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, strstr(e.message, "amoadd.d") != NULL);
  CHECK(st, strstr(e.message,
                   "64-bit address 0x0000001240201000 is outside the 32-bit physical space") !=
                NULL);
  uint8_t w[4];
  CHECK_EQ_U32(st, vt_mem_read(dev, VA_LOW, w, 4, &e), VT_OK);
  CHECK_EQ_U32(st, (uint32_t)(w[0] | w[1] | w[2] | w[3]), 0); /* nothing written */
  vt_elf_free(elf);
  vt_device_free(dev);
}

RUN_TESTS(T(atomics_above_4gib_translated), T(atomics_below_4gib_unchanged),
          T(non_canonical_and_unmapped_fault), T(store_above_4gib_breaks_a_reservation),
          T(mmu_off_keeps_the_32_bit_rule))
