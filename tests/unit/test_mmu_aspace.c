/* Address spaces through the device API with the MMU on (docs/memory.md):
 * vt_mem_* and ELF loading on the current address space, pages at other
 * physical addresses than their virtual ones, counted ranges, freed pages
 * reading zero, use after unmap faulting, two address spaces that cannot
 * reach each other, read-only mappings, the memory checker, a full
 * physical memory, and the 64-bit access path the v2025 pair-address
 * instructions will call (vt_sim_access_va). */
#include "check.h"
#include "mmu_util.h"
#include "sim/exec_util.h"

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
    "    .globl load_site\n"
    "load_site:\n"
    "    vlw12.v v3, 0(v2)\n"
    "    vadd.vi v3, v3, 1\n"
    "    vadd.vx v4, v1, a2\n"
    "    .globl store_site\n"
    "store_site:\n"
    "    vsw12.v v3, 0(v4)\n"
    "    endprg x0, x0, x0\n";

static bool has(const char *msg, const char *part) { return strstr(msg, part) != NULL; }

static uint64_t pa_of(vt_device *dev, uint64_t va) {
  vt_mmu_walk w;
  vt_error e;
  if (vt_mmu_translate(dev, 0, va, VT_MMU_HOST, &w, &e) != VT_OK || w.fault) return ~0ull;
  return w.pa;
}

TEST(mem_api_on_the_default_space) {
  vt_device *dev = mmu_device(0);
  vt_error e;
  CHECK(st, vt_device_mmu(dev));
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000000u, 8192, &e), VT_OK);
  uint8_t in[8192], out[8192];
  for (unsigned i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 7 + 3);
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000000u, in, sizeof in, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000000u, out, sizeof out, &e), VT_OK);
  CHECK(st, memcmp(in, out, sizeof in) == 0);
  /* frames from the top of the 4 GiB physical memory down: the first page
   * is not at its virtual address, the second lies just below it */
  uint64_t p0 = pa_of(dev, 0x90000000u), p1 = pa_of(dev, 0x90001000u);
  CHECK(st, p0 != 0x90000000u && p0 != ~0ull && p0 >= 0xf0000000u);
  CHECK(st, p1 + 4096 == p0);
  uint8_t x[4];
  CHECK_EQ_U32(st, vt_phys_read(dev, p1 + 16, x, 4, &e), VT_OK);
  CHECK(st, memcmp(x, in + 4096 + 16, 4) == 0);
  /* beyond the mapping */
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90001ffeu, out, 4, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "0x90002000 is not mapped in the address space (ASID 0)"));
  /* unmapped: gone, and its frames read zero */
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90000000u, 8192, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000000u, out, 4, &e), VT_ERR_ACCESS);
  CHECK_EQ_U32(st, vt_phys_read(dev, p1 + 16, x, 4, &e), VT_OK);
  CHECK(st, x[0] == 0 && x[1] == 0 && x[2] == 0 && x[3] == 0);
  /* mapped again: zero, wherever the pages are now */
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000000u, 8192, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000000u, out, sizeof out, &e), VT_OK);
  unsigned nonzero = 0;
  for (unsigned i = 0; i < sizeof out; i++) nonzero += out[i] != 0;
  CHECK_EQ_U32(st, nonzero, 0);
  vt_device_free(dev);
}

TEST(ranges_are_counted) {
  vt_device *dev = mmu_device(0);
  vt_error e;
  uint32_t v = 0x11223344u, r = 0;
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000010u, 100, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000010u, 100, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000800u, 16, &e), VT_OK); /* same page */
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000ffcu, &v, 4, &e), VT_OK); /* whole pages */
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90000010u, 100, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90000010u, 100, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000ffcu, &r, 4, &e), VT_OK); /* the third range holds it */
  CHECK_EQ_U32(st, r, v);
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90000010u, 100, &e), VT_ERR_ARG);
  CHECK(st, has(e.message, "no buffer is mapped at 0x90000010"));
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90000800u, 16, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000ffcu, &r, 4, &e), VT_ERR_ACCESS);
  vt_device_free(dev);
}

/* program, KNL {A, B}, A and B in the current address space */
static int setup(vt_device *dev, const vt_elf *elf, uint32_t knl, uint32_t a, uint32_t b,
                 vt_error *e) {
  uint32_t words[32], meta[2] = {a, b};
  for (unsigned i = 0; i < 32; i++) words[i] = 100 * i;
  int rc = vt_device_load_elf(dev, elf, e);
  if (!rc) rc = vt_mem_map(dev, knl, 4096, e);
  if (!rc) rc = vt_mem_map(dev, a, 128, e);
  if (!rc) rc = vt_mem_map(dev, b, 128, e);
  if (!rc) rc = vt_mem_write(dev, knl, meta, sizeof meta, e);
  if (!rc) rc = vt_mem_write(dev, a, words, sizeof words, e);
  return rc;
}

static vt_launch launch_in(const vt_aspace *as, uint32_t knl) {
  return mmu_launch(knl, 32, 1, as ? vt_aspace_root(as) : 0, as ? vt_aspace_asid(as) : 0);
}

TEST(kernel_and_use_after_unmap) {
  vt_device *dev = mmu_device(0);
  vt_elf *elf = mmu_asm(lanes_kernel);
  vt_error e;
  CHECK_EQ_U32(st, setup(dev, elf, 0x90000000u, 0x90001000u, 0x90002000u, &e), VT_OK);
  vt_launch l = launch_in(NULL, 0x90000000u);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  uint32_t out[32];
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90002000u, out, sizeof out, &e), VT_OK);
  unsigned wrong = 0;
  for (unsigned i = 0; i < 32; i++) wrong += out[i] != 100 * i + 1;
  CHECK_EQ_U32(st, wrong, 0);
  /* the program's code is not at its virtual address either */
  CHECK(st, pa_of(dev, 0x80000000u) != 0x80000000u);
  /* B freed: the next launch's store faults (no earlier translation survives) */
  CHECK_EQ_U32(st, vt_mem_unmap(dev, 0x90002000u, 128, &e), VT_OK);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK_EQ_U32(st, e.pc, sym(elf, "store_site"));
  CHECK(st, has(e.message, "store at virtual address 0x90002000 (lane 0) (ASID 0): invalid entry"));
  vt_elf_free(elf);
  vt_device_free(dev);
}

/* two address spaces: a kernel of the first given the second's buffer
 * faults, and the second's buffer keeps its contents */
TEST(address_spaces_isolated) {
  vt_device *dev = mmu_device(0);
  vt_elf *elf = mmu_asm(lanes_kernel);
  vt_error e;
  vt_aspace *s1 = vt_aspace_new(dev, 1, &e), *s2 = vt_aspace_new(dev, 2, &e);
  CHECK(st, s1 && s2 && vt_aspace_root(s1) != vt_aspace_root(s2));
  vt_device_set_aspace(dev, s1);
  CHECK(st, vt_device_aspace(dev) == s1);
  CHECK_EQ_U32(st, setup(dev, elf, 0x90000000u, 0x90001000u, 0x90002000u, &e), VT_OK);
  vt_device_set_aspace(dev, s2);
  CHECK_EQ_U32(st, setup(dev, elf, 0x90010000u, 0x90011000u, 0x90012000u, &e), VT_OK);
  uint32_t secret[32];
  for (unsigned i = 0; i < 32; i++) secret[i] = 0xdead0000u + i;
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90012000u, secret, sizeof secret, &e), VT_OK);
  /* space 1 reads its own A and writes space 2's B: fault */
  vt_device_set_aspace(dev, s1);
  uint32_t meta[2] = {0x90001000u, 0x90012000u};
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000000u, meta, sizeof meta, &e), VT_OK);
  vt_launch l = launch_in(s1, 0x90000000u);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "store at virtual address 0x90012000 (lane 0) (ASID 1)"));
  /* ... and reads space 2's A: fault */
  meta[0] = 0x90011000u;
  meta[1] = 0x90002000u;
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000000u, meta, sizeof meta, &e), VT_OK);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "load at virtual address 0x90011000 (lane 0) (ASID 1)"));
  /* space 2 is untouched; its own kernel works */
  vt_device_set_aspace(dev, s2);
  uint32_t got[32];
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90012000u, got, sizeof got, &e), VT_OK);
  CHECK(st, memcmp(got, secret, sizeof got) == 0);
  vt_launch l2 = launch_in(s2, 0x90010000u);
  CHECK_EQ_U32(st, vt_device_run(dev, &l2, NULL, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90012000u, got, sizeof got, &e), VT_OK);
  CHECK_EQ_U32(st, got[5], 501);
  /* a host copy through space 1 cannot reach space 2's buffer either */
  vt_device_set_aspace(dev, s1);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90012000u, got, 4, &e), VT_ERR_ACCESS);
  vt_device_set_aspace(dev, NULL);
  vt_aspace_free(dev, s1);
  vt_aspace_free(dev, s2);
  vt_elf_free(elf);
  vt_device_free(dev);
}

TEST(read_only_mapping) {
  vt_device *dev = mmu_device(0);
  vt_elf *elf = mmu_asm(lanes_kernel);
  vt_error e;
  vt_aspace *s = vt_aspace_new(dev, 3, &e);
  vt_device_set_aspace(dev, s);
  CHECK_EQ_U32(st, setup(dev, elf, 0x90000000u, 0x90001000u, 0x90002000u, &e), VT_OK);
  CHECK_EQ_U32(st, vt_aspace_map(dev, s, 0x90003000u, 4096, VT_PROT_R, &e), VT_OK);
  uint32_t meta[2] = {0x90001000u, 0x90003000u}, v = 5;
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90003000u, &v, 4, &e), VT_OK); /* the host may */
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x90000000u, meta, sizeof meta, &e), VT_OK);
  vt_launch l = launch_in(s, 0x90000000u);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "permission at level 0") && has(e.message, "W = 0"));
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90003000u, &v, 4, &e), VT_OK);
  CHECK_EQ_U32(st, v, 5);
  /* unmap with the wrong size; past the lower half */
  CHECK_EQ_U32(st, vt_aspace_unmap(dev, s, 0x90003000u, 8192, &e), VT_ERR_ARG);
  CHECK_EQ_U32(st, vt_aspace_map(dev, s, 0x3ffffff000ull, 8192, VT_PROT_R, &e), VT_ERR_ARG);
  vt_device_set_aspace(dev, NULL);
  vt_aspace_free(dev, s);
  vt_elf_free(elf);
  vt_device_free(dev);
}

TEST(memcheck_with_the_mmu) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.mmu = cfg.memcheck = true;
  vt_device *dev = vt_device_new(&cfg);
  vt_elf *elf = mmu_asm(lanes_kernel);
  vt_error e;
  CHECK_EQ_U32(st, setup(dev, elf, 0x90000000u, 0x90001000u, 0x90002000u, &e), VT_OK);
  vt_mem_label(dev, 0x90000000u, 8, "KNL", &e);
  vt_mem_label(dev, 0x90001000u, 128, "A", &e);
  vt_mem_label(dev, 0x90002000u, 64, "B", &e); /* half of what the kernel writes */
  vt_launch l = launch_in(NULL, 0x90000000u);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "memcheck: 4-byte store at 0x90002040 (lane 16) is outside every allocation"));
  /* an unmapped page is the MMU's to report */
  uint32_t meta[2] = {0x90001000u, 0x90005000u};
  vt_mem_write(dev, 0x90000000u, meta, sizeof meta, &e);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_ACCESS);
  CHECK(st, has(e.message, "page fault: 4-byte store at virtual address 0x90005000"));
  vt_elf_free(elf);
  vt_device_free(dev);
}

TEST(physical_memory_full) {
  vt_device *dev = mmu_device(1u << 20); /* 256 frames, frame 0 reserved */
  vt_error e;
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000000u, 2u << 20, &e), VT_ERR_NOMEM);
  CHECK(st, has(e.message, "physical memory is full (setting phys_bytes)"));
  uint32_t r;
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90000000u, &r, 4, &e), VT_ERR_ACCESS); /* undone */
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000000u, 512u << 10, &e), VT_OK);    /* the frames came back */
  vt_device_free(dev);
}

/* the 64-bit path: a warp of a begun launch, addresses below and above 4 GiB */
TEST(sixty_four_bit_access_path) {
  vt_device *dev = mmu_device(0);
  vt_error e;
  vt_aspace *s = vt_device_aspace(dev);
  CHECK_EQ_U32(st, vt_aspace_map(dev, s, 0x1240201000ull, 4096, VT_PROT_R | VT_PROT_W, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_map(dev, 0x90000000u, 4096, &e), VT_OK);
  vt_launch l = mmu_launch(0x90000000u, 4, 1, 0, 0);
  CHECK_EQ_U32(st, vt_step_check(dev, &l, &e), VT_OK);
  CHECK_EQ_U32(st, vt_step_begin(dev, &l, "va64", 1, false, false, &e), VT_OK);
  vt_wg *wg = vt_step_wg_new(dev, 0, 0);
  vt_warp *w = vt_step_wg_warp(wg, 0);
  uint8_t *p = vt_sim_access_va(dev, w, 0x1240201ff8ull, 4, true, &e);
  CHECK(st, p != NULL);
  if (p) memcpy(p, "\x78\x56\x34\x12", 4);
  uint8_t *q = vt_sim_access_va(dev, w, 0x1240201ff8ull, 4, false, &e); /* cached */
  CHECK(st, q == p);
  CHECK(st, vt_sim_access_va(dev, w, 0x90000010u, 4, false, &e) != NULL); /* below 4 GiB */
  CHECK(st, vt_sim_access_va(dev, w, 0x0000004000000000ull, 4, false, &e) == NULL);
  CHECK(st, has(e.message, "page fault: 4-byte load at virtual address 0x4000000000 (ASID 0): "
                           "non-canonical address: bits 63..39 are not all equal to bit 38"));
  CHECK(st, vt_sim_access_va(dev, w, 0x1240201ffaull, 4, false, &e) == NULL);
  CHECK_EQ_U32(st, e.status, VT_ERR_MISALIGNED);
  CHECK(st, vt_sim_access_va(dev, w, 0x1240202000ull, 4, true, &e) == NULL);
  CHECK(st, has(e.message, "invalid entry (V = 0) at level 0"));
  vt_step_wg_free(dev, wg);
  vt_step_end(dev, 0);
  uint32_t word = 0;
  CHECK_EQ_U32(st, vt_phys_read(dev, pa_of(dev, 0x1240201ff8ull), &word, 4, &e), VT_OK);
  CHECK_EQ_U32(st, word, 0x12345678u);
  vt_device_free(dev);
  /* MMU off: above 4 GiB is an access error (isa2025.md) */
  dev = vt_device_new(NULL);
  vt_mem_map(dev, 0x90000000u, 4096, &e);
  l.ptbr = 0;
  vt_step_check(dev, &l, &e);
  vt_step_begin(dev, &l, "va64", 1, false, false, &e);
  wg = vt_step_wg_new(dev, 0, 0);
  w = vt_step_wg_warp(wg, 0);
  CHECK(st, vt_sim_access_va(dev, w, 0x100000000ull, 4, false, &e) == NULL);
  CHECK_STR(st, e.message, "64-bit address 0x0000000100000000 is outside the 32-bit physical space");
  CHECK(st, vt_sim_access_va(dev, w, 0x90000ffcu, 4, true, &e) != NULL);
  vt_step_wg_free(dev, wg);
  vt_step_end(dev, 0);
  vt_device_free(dev);
}

RUN_TESTS(T(mem_api_on_the_default_space), T(ranges_are_counted), T(kernel_and_use_after_unmap),
          T(address_spaces_isolated), T(read_only_mapping), T(memcheck_with_the_mmu),
          T(physical_memory_full), T(sixty_four_bit_access_path))
