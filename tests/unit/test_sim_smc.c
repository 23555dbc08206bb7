/* Self-modifying code: a store that rewrites an instruction is seen by the
 * next fetch of it, whatever the decode cache, the warp's remembered code
 * page (exec_step.h) or the executor chosen at decode hold (issue 14). Each
 * kernel runs with the fast paths (1 and 2 host threads) and in reference
 * mode; the expected values are computed by hand from the encodings:
 * addi a0, a0, 100 = 0x06450513, addi a2, zero, 77 = 0x04d00613. */
#include "asm_elf.h"
#include "vt/sim.h"

#define BUF 0x90000000u

/* one warp of 4 threads; the first words of BUF, the status and error */
static int run(check_state *st, const char *src, bool reference, unsigned threads, uint32_t *mem,
               vt_error *err) {
  vt_elf *elf = test_assemble(st, "smc.s", src);
  if (!elf) return -1;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.reference = reference;
  cfg.host_threads = threads;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, dev != NULL);
  int rc = dev ? vt_device_load_elf(dev, elf, err) : -1;
  if (rc == VT_OK) rc = vt_mem_map(dev, BUF, 4096, err);
  CHECK_EQ_U32(st, rc, VT_OK);
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {1, 1, 1}, .threads_per_warp = 4,
                 .warps_per_wg = 1};
  if (rc == VT_OK) {
    rc = vt_device_run(dev, &l, NULL, err);
    vt_error rerr;
    CHECK_EQ_U32(st, vt_mem_read(dev, BUF, mem, 16, &rerr), VT_OK);
  }
  vt_device_free(dev);
  vt_elf_free(elf);
  return rc;
}

/* an instruction run three times and rewritten after each run (the third
 * pass fetches it through the warp's remembered code page); another
 * rewritten by the instruction right before it */
TEST(rewritten_instructions_run_anew) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  li a0, 0\n"
      "  li t1, 3\n"
      "  la t2, patch\n"
      "  li t3, 0x06450513\n" /* addi a0, a0, 100 */
      "  lui t6, 0x100\n"      /* 1 << 20: the immediate's lowest bit */
      "patch:\n"
      "  addi a0, a0, 1\n"
      "  sw t3, 0(t2)\n"
      "  add t3, t3, t6\n"     /* addi a0, a0, 101 for the third pass */
      "  addi t1, t1, -1\n"
      "  bnez t1, patch\n"
      "  sw a0, 0(a1)\n"
      "  la t4, next\n"
      "  li t5, 0x04d00613\n" /* addi a2, zero, 77 */
      "  li a2, 5\n"
      "  sw t5, 0(t4)\n"
      "next:\n"
      "  addi a2, zero, 1\n"
      "  sw a2, 4(a1)\n"
      "  endprg x0, x0, x0\n";
  const bool refs[] = {false, false, true};
  const unsigned threads[] = {1, 2, 1};
  for (unsigned k = 0; k < 3; k++) {
    uint32_t mem[4] = {0};
    vt_error err = {0};
    int rc = run(st, src, refs[k], threads[k], mem, &err);
    if (rc != VT_OK) fprintf(stderr, "run %u: %s\n", k, err.message);
    CHECK_EQ_U32(st, rc, VT_OK);
    CHECK_EQ_U32(st, mem[0], 1 + 100 + 101);
    CHECK_EQ_U32(st, mem[1], 77);
  }
}

/* an instruction rewritten into an illegal word (0) after it ran once:
 * its next fetch is an illegal instruction at that pc */
TEST(rewritten_into_illegal) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  li t1, 2\n"
      "  la t2, patch\n"
      "patch:\n"
      "  addi a0, a0, 1\n"
      "  sw a0, 0(a1)\n"
      "  sw zero, 0(t2)\n"
      "  addi t1, t1, -1\n"
      "  bnez t1, patch\n"
      "  endprg x0, x0, x0\n";
  vt_elf *elf = test_assemble(st, "smc.s", src);
  uint32_t patch = 0;
  CHECK(st, elf && vt_elf_find_symbol(elf, "patch", &patch) == 0);
  vt_elf_free(elf);
  const bool refs[] = {false, true};
  for (unsigned k = 0; k < 2; k++) {
    uint32_t mem[4] = {0};
    vt_error err = {0};
    int rc = run(st, src, refs[k], 1, mem, &err);
    CHECK_EQ_U32(st, rc, VT_ERR_ILLEGAL);
    CHECK(st, err.has_location);
    CHECK_EQ_U32(st, err.pc, patch);
    CHECK_EQ_U32(st, mem[0], 1); /* the first pass ran */
  }
}

RUN_TESTS(T(rewritten_instructions_run_anew), T(rewritten_into_illegal))
