/* LR/SC reservations (RV32A, spec README decision 7): warps interleave one
 * instruction at a time, so a store by another warp between a warp's lr.w
 * and sc.w must make the sc.w fail (rd = 1, no store); otherwise lr/sc
 * retry loops lose updates. Scalar programs without crt0, assembled from
 * inline text. */
#include "asm_elf.h"
#include "vt/sim.h"

#define BUF 0x90000000u

/* Assemble 'src', run it as 'wgs' workgroups of 'warps' warps on one SM with a
 * mapped page at BUF (initial words 'init'), read the page back. */
static int run_prog(check_state *st, const char *src, unsigned warps, unsigned wgs,
                    const uint32_t *init, unsigned ninit, uint32_t *out, unsigned nout) {
  vt_elf *elf = test_assemble(st, "lrsc.s", src);
  if (!elf) return -1;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 1;
  vt_device *dev = vt_device_new(&cfg);
  vt_error err;
  int rc = vt_device_load_elf(dev, elf, &err);
  if (rc == VT_OK) rc = vt_mem_map(dev, BUF, 4096, &err);
  if (rc == VT_OK) rc = vt_mem_write(dev, BUF, init, 4 * ninit, &err);
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {wgs, 1, 1}, .threads_per_warp = 4,
                 .warps_per_wg = warps, .knl_addr = 0, .lds_size = 0, .pds_size = 0,
                 .pds_base = 0};
  if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, &err);
  if (rc == VT_OK) rc = vt_mem_read(dev, BUF, out, 4 * nout, &err);
  if (rc != VT_OK) {
    fprintf(stderr, "run failed: %s\n", err.message);
    st->failed_checks++;
  }
  vt_device_free(dev);
  vt_elf_free(elf);
  return rc;
}

/* Warp 0: lr.w, (warp 1 stores), sc.w must fail; then lr.w/sc.w with no
 * store in between succeeds. The warps run in lock step: one instruction
 * each per round. */
TEST(test_sc_fails_after_other_store) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"        /* step 1 */
      "  csrr t0, CSR_WID\n"       /* step 2 */
      "  bnez t0, 1f\n"            /* step 3 */
      "  lr.w t1, (a1)\n"          /* step 4 (warp 0) */
      "  nop\n"                    /* step 5 */
      "  sc.w t2, t1, (a1)\n"      /* step 6: warp 1 stored at step 5 -> fails */
      "  sw t2, 4(a1)\n"
      "  lw t4, 0(a1)\n"
      "  sw t4, 12(a1)\n"          /* the failed sc.w stored nothing */
      "  lr.w t1, (a1)\n"
      "  addi t1, t1, 1\n"
      "  sc.w t3, t1, (a1)\n"      /* warp 1 has ended: succeeds */
      "  sw t3, 8(a1)\n"
      "  endprg x0, x0, x0\n"
      "1:\n"
      "  li t1, 77\n"              /* step 4 (warp 1) */
      "  sw t1, 0(a1)\n"           /* step 5 */
      "  endprg x0, x0, x0\n";
  uint32_t init[4] = {5, 0xee, 0xee, 0xee}, out[4] = {0};
  if (run_prog(st, src, 2, 1, init, 4, out, 4) != VT_OK) return;
  CHECK_EQ_U32(st, out[1], 1);  /* sc.w failed */
  CHECK_EQ_U32(st, out[3], 77); /* and did not store */
  CHECK_EQ_U32(st, out[2], 0);  /* second sc.w succeeded */
  CHECK_EQ_U32(st, out[0], 78);
}

/* Every warp of several workgroups adds 1 + wid through an lr/sc retry
 * loop; no update may be lost. */
TEST(test_lrsc_counter) {
  static const char src[] =
      "  .globl _start\n"
      "_start:\n"
      "  lui a1, 0x90000\n"
      "  csrr t0, CSR_WID\n"
      "  addi t0, t0, 1\n"
      "1:\n"
      "  lr.w t1, (a1)\n"
      "  add t1, t1, t0\n"
      "  sc.w t2, t1, (a1)\n"
      "  bnez t2, 1b\n"
      "  li t3, 1\n"
      "  addi t4, a1, 4\n"
      "  amoadd.w zero, t3, (t4)\n"   /* AMOs on another word: no effect on the loop */
      "  endprg x0, x0, x0\n";
  uint32_t init[2] = {0, 0}, out[2] = {0};
  if (run_prog(st, src, 8, 3, init, 2, out, 2) != VT_OK) return;
  CHECK_EQ_U32(st, out[0], 3 * (8 * 9 / 2));
  CHECK_EQ_U32(st, out[1], 24);
}

RUN_TESTS(T(test_sc_fails_after_other_store), T(test_lrsc_counter))
