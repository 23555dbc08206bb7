/* v2025 64-bit pair addresses with the MMU on (docs/memory.md, 64-bit
 * addresses): scalar ld/sd and the per-lane vlw12d.v/vsw12d.v reach
 * virtual addresses above 4 GiB through the test's own page table, at
 * frames it picks; a non-canonical address faults; with the MMU off the
 * same kernel keeps isa2025.md's access error. */
#include "check.h"
#include "mmu_util.h"

/* KNL[0..1]: a 64-bit address A. Scalar: KNL[2] = A[0] (ld), A[1] = A[0] + 1
 * (sd). Lanes: A[2 + i] = A[2 + 32 + i] + i for 32 lanes. */
static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a2, 0(t0)\n"
    "    lw a3, 4(t0)\n"
    "    ld a4, 0(a2)\n"
    "    sw a4, 8(t0)\n"
    "    addi a4, a4, 1\n"
    "    sd a4, 4(a2)\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    vid.v v1\n"
    "    vsll.vi v6, v1, 2\n"
    "    vadd.vx v2, v6, a2\n"
    "    vmv.v.x v3, a3\n"
    "    vlw12d.v v4, 136(v2)\n"
    "    vadd.vv v4, v4, v1\n"
    "    vsw12d.v v4, 8(v2)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define FIRST_FRAME 0x00200000u
#define VA 0x0000001240201000ull /* above 4 GiB, below 2^38: canonical */

typedef struct fx {
  vt_device *dev;
  ptb b;
  vt_elf *elf;
  uint64_t knl_pa, data_pa;
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
  return true;
}

static int fx_run(fx *f, uint64_t a, vt_error *e) {
  phys_put(f->dev, f->knl_pa, (uint32_t)a);
  phys_put(f->dev, f->knl_pa + 4, (uint32_t)(a >> 32));
  vt_launch l = mmu_launch(KNL, 32, 1, f->b.root, 3);
  return vt_device_run(f->dev, &l, NULL, e);
}

TEST(above_4gib_translated) {
  fx f;
  if (!fx_open(&f)) {
    CHECK(st, false);
    return;
  }
  phys_put(f.dev, f.data_pa, 0x1234);
  for (unsigned i = 0; i < 32; i++) phys_put(f.dev, f.data_pa + 136 + 4 * i, 1000 * i);
  vt_error e;
  int rc = fx_run(&f, VA, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  CHECK_EQ_U32(st, phys_word(f.dev, f.knl_pa + 8), 0x1234);
  CHECK_EQ_U32(st, phys_word(f.dev, f.data_pa + 4), 0x1235);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 32; i++) wrong += phys_word(f.dev, f.data_pa + 8 + 4 * i) != 1001 * i;
  CHECK_EQ_U32(st, wrong, 0);
  vt_elf_free(f.elf);
  vt_device_free(f.dev);
}

TEST(non_canonical_faults) {
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
  CHECK(st, strstr(e.message, "virtual address 0x4000000000") != NULL);
  /* mapped nowhere: a page fault naming the address, nothing stored */
  rc = fx_run(&f, VA + 0x100000000ull, &e);
  CHECK_EQ_U32(st, rc, VT_ERR_ACCESS);
  CHECK(st, strstr(e.message, "virtual address 0x1340201000") != NULL);
  vt_elf_free(f.elf);
  vt_device_free(f.dev);
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
  CHECK_EQ_U32(st, vt_mem_write(dev, KNL, knl, sizeof knl, &e), VT_OK);
  vt_launch l = mmu_launch(KNL, 32, 1, 0, 0);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, strstr(e.message,
                   "64-bit address 0x0000001240201000 is outside the 32-bit physical space") !=
                NULL);
  vt_elf_free(elf);
  vt_device_free(dev);
}

RUN_TESTS(T(above_4gib_translated), T(non_canonical_faults), T(mmu_off_keeps_the_32_bit_rule))
