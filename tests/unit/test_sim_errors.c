/* Every error of the simulator (spec README decision 11), each provoked by a
 * tiny program: status code, the location fields (SM, workgroup, warp, PC,
 * instruction word) and the message, which must name SM, workgroup, warp, PC,
 * the instruction's disassembly and the reason. Also: launch checks, and the
 * library never aborts (the device runs another launch after an error). */
#include "counters_util.h"
#include "check.h"
#include "simprog.h"

/* Run 'p' with launch 'l' on a fresh device (cfg NULL: defaults). */
static int run_on(const prog *p, const vt_launch *l, const vt_settings *cfg, vt_error *err) {
  vt_device *dev = vt_device_new(cfg);
  if (!dev) return VT_ERR_NOMEM;
  int rc = load_prog(dev, p);
  if (rc == VT_OK) rc = vt_device_run(dev, l, NULL, err);
  vt_device_free(dev);
  return rc;
}

/* The message must be "SM s, workgroup g, warp w, pc 0xPC (0xINSN DIS): REASON..." */
static void check_located(check_state *st, const vt_error *e, vt_status status, unsigned sm,
                          unsigned wg, unsigned warp, uint32_t pc, uint32_t insn, const char *dis,
                          const char *reason) {
  CHECK_EQ_U32(st, e->status, (uint32_t)status);
  CHECK(st, e->has_location);
  CHECK_EQ_U32(st, e->sm, sm);
  CHECK_EQ_U32(st, e->wg, wg);
  CHECK_EQ_U32(st, e->warp, warp);
  CHECK_EQ_U32(st, e->pc, pc);
  CHECK_EQ_U32(st, e->insn, insn);
  char want[400];
  snprintf(want, sizeof want, "SM %u, workgroup %u, warp %u, pc 0x%08x (0x%08x %s): %s", sm, wg,
           warp, pc, insn, dis, reason);
  if (strncmp(e->message, want, strlen(want)) != 0) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\"\n   wanted prefix \"%s\"\n", e->message, want);
  }
}

/* ---- illegal instructions ---- */

TEST(illegal_all_ones) {
  prog p = {0};
  emit(&p, 0xffffffffu);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  check_located(st, &e, VT_ERR_ILLEGAL, 0, 0, 0, 0x80000000u, 0xffffffffu, "<unknown>",
                "illegal instruction");
}

/* an unassigned custom-0 word (funct3 111, isa2025.md 2.2) in warp 1
 * only: the error names warp 1 and the pc of the word */
TEST(illegal_custom0_in_warp1) {
  prog p = {0};
  csrr(&p, T0, CSR_ADDR_WID);             /* 0 */
  unsigned b = E(&p, VT_INSN_BEQ, T0, ZERO, 0); /* 1: beq t0, zero, end */
  E(&p, VT_INSN_ADDI, A0, ZERO, 7);       /* 2 */
  emit(&p, 0x0000700bu);                  /* 3: custom-0 funct3 111, unassigned (isa2025.md 2.2) */
  unsigned end = emit(&p, WORD_ENDPRG);   /* 4 */
  patch_branch(&p, b, end);
  vt_launch l = simple_launch(4, 2);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  check_located(st, &e, VT_ERR_ILLEGAL, 0, 0, 1, prog_addr(3), 0x0000700bu, "<unknown>",
                "illegal instruction");
}

/* workgroup 1 of two, on SM 1 (one warp slot per SM): location names SM 1 */
TEST(illegal_in_second_workgroup_on_sm1) {
  prog p = {0};
  csrr(&p, T0, CSR_ADDR_WGID);
  unsigned b = E(&p, VT_INSN_BEQ, T0, ZERO, 0);
  emit(&p, 0x0000700bu); /* custom-0 funct3 111 (regpairi): illegal */
  unsigned end = emit(&p, WORD_ENDPRG);
  patch_branch(&p, b, end);
  vt_launch l = simple_launch(4, 1);
  l.num_wg[0] = 2;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 2;
  cfg.warp_slots = 1;
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, &cfg, &e), VT_ERR_ILLEGAL);
  check_located(st, &e, VT_ERR_ILLEGAL, 1, 1, 0, prog_addr(2), 0x0000700bu, "<unknown>",
                "illegal instruction");
}

/* ---- memory ---- */

TEST(unmapped_load) {
  prog p = {0};
  uint32_t w = E(&p, VT_INSN_LW, T0, 0x10, ZERO); /* lw t0, 16(zero) */
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, prog_addr(w), p.w[w], "lw t0, 16(zero)",
                "load of unmapped address 0x00000010");
}

TEST(unmapped_store) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, T1, ZERO, 5);
  unsigned w = E(&p, VT_INSN_SW, T1, 0x10, ZERO); /* sw t1, 16(zero) */
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, prog_addr(w), p.w[w], "sw t1, 16(zero)",
                "store of unmapped address 0x00000010");
}

/* just past a mapped buffer is unmapped too (0x90000000 + 64 KiB) */
TEST(unmapped_past_buffer_end) {
  prog p = {0};
  li(&p, T0, OUT_BASE + OUT_SIZE);
  unsigned w = E(&p, VT_INSN_LW, T1, -4, T0); /* last word: fine */
  unsigned w2 = E(&p, VT_INSN_LW, T1, 0, T0); /* first byte past the end */
  (void)w;
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, prog_addr(w2), p.w[w2], "lw t1, 0(t0)",
                "load of unmapped address 0x90010000");
}

TEST(misaligned_load) {
  prog p = {0};
  li(&p, T0, OUT_BASE);
  unsigned w = E(&p, VT_INSN_LW, T1, 2, T0);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_MISALIGNED);
  check_located(st, &e, VT_ERR_MISALIGNED, 0, 0, 0, prog_addr(w), p.w[w], "lw t1, 2(t0)",
                "misaligned 4-byte load at 0x90000002");
}

TEST(misaligned_store) {
  prog p = {0};
  li(&p, T0, OUT_BASE);
  unsigned w = E(&p, VT_INSN_SH, T1, 1, T0);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_MISALIGNED);
  check_located(st, &e, VT_ERR_MISALIGNED, 0, 0, 0, prog_addr(w), p.w[w], "sh t1, 1(t0)",
                "misaligned 2-byte store at 0x90000001");
}

/* vlw12.v with lane addresses 0x90000000 + 4*lane + 2 */
TEST(misaligned_vector_load) {
  prog p = {0};
  vsetup(&p);
  li(&p, T0, OUT_BASE);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VSLL_VI, 1, 1, 2, 1);
  E(&p, VT_INSN_VADD_VX, 1, 1, T0, 1);
  unsigned w = E(&p, VT_INSN_VLW12_V, 2, 2, 1); /* vlw12.v v2, 2(v1) */
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_MISALIGNED);
  check_located(st, &e, VT_ERR_MISALIGNED, 0, 0, 0, prog_addr(w), p.w[w], "vlw12.v v2, 2(v1)",
                "misaligned 4-byte load at 0x90000002");
}

/* Two small regions in one page, with a gap: after an access has put the
 * page in the warp's translation cache, the gap and the bytes past the
 * second region are still unmapped (the cache keeps the accessible bytes,
 * not the page). Scalar and per-lane (vlw12.v) accesses. */
static int run_gapped(const prog *p, vt_error *err) {
  vt_device *dev = vt_device_new(NULL);
  if (!dev) return VT_ERR_NOMEM;
  vt_launch l = simple_launch(4, 1);
  int rc = load_prog(dev, p);
  if (rc == VT_OK) rc = vt_mem_map(dev, 0x90200000u, 256, err);
  if (rc == VT_OK) rc = vt_mem_map(dev, 0x90200200u, 256, err);
  if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, err);
  vt_device_free(dev);
  return rc;
}

TEST(cached_page_keeps_its_gaps) {
  prog p = {0};
  li(&p, T0, 0x90200000u);
  E(&p, VT_INSN_LW, T1, 0, T0);   /* caches the page */
  E(&p, VT_INSN_LW, T1, 252, T0); /* last word of the first region */
  unsigned w = E(&p, VT_INSN_LW, T1, 256, T0); /* the gap */
  vt_error e;
  CHECK_EQ_U32(st, run_gapped(&p, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, prog_addr(w), p.w[w], "lw t1, 256(t0)",
                "load of unmapped address 0x90200100");
  prog q = {0};
  vsetup(&q);
  li(&q, T0, 0x90200200u);
  E(&q, VT_INSN_VID_V, 1, 1);
  E(&q, VT_INSN_VSLL_VI, 1, 1, 6, 1); /* lane i: 64 i */
  E(&q, VT_INSN_VADD_VX, 1, 1, T0, 1);
  E(&q, VT_INSN_VLW12_V, 2, 0, 1);                /* 0x90200200 + 64 i, i < 4: mapped */
  unsigned w2 = E(&q, VT_INSN_VLW12_V, 2, 64, 1); /* lane 3 reads 0x90200300 */
  CHECK_EQ_U32(st, run_gapped(&q, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, prog_addr(w2), q.w[w2], "vlw12.v v2, 64(v1)",
                "load of unmapped address 0x90200300");
}

/* ---- ecall / ebreak ---- */

TEST(ecall_and_ebreak) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, A0, ZERO, 1);
  emit(&p, WORD_ECALL);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ECALL);
  check_located(st, &e, VT_ERR_ECALL, 0, 0, 0, prog_addr(1), WORD_ECALL, "ecall",
                "ecall is not supported on Ventus");
  p.w[1] = WORD_EBREAK;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ECALL);
  check_located(st, &e, VT_ERR_ECALL, 0, 0, 0, prog_addr(1), WORD_EBREAK, "ebreak",
                "ebreak is not supported on Ventus");
}

/* ---- vector state ---- */

TEST(vector_before_vsetvli) {
  prog p = {0};
  unsigned w = E(&p, VT_INSN_VADD_VV, 1, 2, 3, 1);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_VILL);
  check_located(st, &e, VT_ERR_VILL, 0, 0, 0, prog_addr(w), p.w[w], "vadd.vv v1, v2, v3",
                "vector instruction while vtype is illegal");
  /* a vector branch too */
  p.n = 0;
  w = E(&p, VT_INSN_VBEQ, 1, 2, 8);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_VILL);
  CHECK_EQ_U32(st, e.pc, prog_addr(w));
  CHECK(st, strstr(e.message, "vector branch while vtype is illegal") != NULL);
  /* an illegal vtype (SEW = 64 with a fractional LMUL, isa2025.md 3.2.1)
   * makes later vector instructions trap */
  p.n = 0;
  E(&p, VT_INSN_ADDI, T4, ZERO, 4);
  E(&p, VT_INSN_VSETVLI, T4, T4, 0x01f); /* e64, mf2 */
  w = E(&p, VT_INSN_VID_V, 1, 1);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_VILL);
  CHECK_EQ_U32(st, e.pc, prog_addr(w));
}

/* ---- SIMT stack ----
 * The loop of the brief ("vbeq with a per-lane condition from vid.v pushes
 * each time") does not overflow: after a divergent vbranch only the lanes of
 * one path stay active, so the same condition no longer diverges, and the
 * stack depth of any program is bounded by 2*T <= 64 entries (each
 * re-convergence entry holds a strictly smaller mask than the one below),
 * far below the limit of 1024. Pin that: the loop pushes once, then spins
 * until the instruction budget ends it. */
TEST(divergent_loop_pushes_once_then_budget) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VMV_V_X, 2, ZERO); /* v2 = 0 */
  unsigned loop = E(&p, VT_INSN_VBEQ, 1, 2, 0); /* lane 0 taken */
  patch_branch(&p, loop, loop);
  vt_launch l = simple_launch(32, 1);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.max_insns = 1000;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, load_prog(dev, &p) == VT_OK);
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_BUDGET);
  double s[VT_C_COUNT];
  vt_test_counters(dev, s);
  CHECK_EQ_U32(st, s[VT_C_max_simt_depth], 2);
  CHECK_EQ_U32(st, s[VT_C_divergent_vector_branches], 1);
  vt_device_free(dev);
}

/* With a SIMT stack limited like the hardware's (cfg.simt_depth), nested
 * divergence overflows it: T = 4, the outer vblt splits lanes {0,1}/{2,3}
 * (tie: taken path first, two entries pushed), the inner vbeq splits lane 0
 * from lane 1 and needs a third entry. */
TEST(simt_stack_overflow) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VMV_V_I, 2, 2);
  E(&p, VT_INSN_VMV_V_I, 3, 0);
  unsigned outer = E(&p, VT_INSN_VBLT, 1, 2, 0);
  emit(&p, WORD_ENDPRG);
  unsigned taken = E(&p, VT_INSN_VBEQ, 1, 3, 0);
  unsigned end = emit(&p, WORD_ENDPRG);
  patch_branch(&p, outer, taken);
  patch_branch(&p, taken, end);
  vt_launch l = simple_launch(4, 1);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.simt_depth = 2;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, load_prog(dev, &p) == VT_OK);
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_SIMT_OVERFLOW);
  CHECK(st, e.has_location);
  CHECK_EQ_U32(st, e.pc, prog_addr(taken));
  CHECK(st, strstr(e.message, "vbeq v1, v3") != NULL);
  CHECK(st, strstr(e.message, "SIMT stack overflow (depth 2)") != NULL);
  if (e.status != VT_ERR_SIMT_OVERFLOW) fprintf(stderr, "%s\n", e.message);
  vt_device_free(dev);
}

/* ---- barrier deadlock ----
 * W = 2: warp 1 ends with endprg while warp 0 waits at a barrier; the error
 * is reported at the waiting warp. */
TEST(barrier_deadlock) {
  prog p = {0};
  csrr(&p, T0, CSR_ADDR_WID);
  unsigned b = E(&p, VT_INSN_BNE, T0, ZERO, 0);
  unsigned bar = emit(&p, WORD_BARRIER);
  unsigned end = emit(&p, WORD_ENDPRG);
  patch_branch(&p, b, end);
  vt_launch l = simple_launch(4, 2);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_DEADLOCK);
  check_located(st, &e, VT_ERR_DEADLOCK, 0, 0, 0, prog_addr(bar), WORD_BARRIER,
                "barrier x0, x0, 0", "barrier deadlock");
  CHECK(st, strstr(e.message, "1 warp(s) wait") != NULL);
  /* the other order: warp 0 ends first, warp 1 reaches the barrier later
   * (after three more instructions), W = 3 with warp 2 also ending */
  p.n = 0;
  csrr(&p, T0, CSR_ADDR_WID);
  E(&p, VT_INSN_ADDI, T1, ZERO, 1);
  b = E(&p, VT_INSN_BNE, T0, T1, 0);
  E(&p, VT_INSN_ADDI, A0, ZERO, 1);
  E(&p, VT_INSN_ADDI, A0, ZERO, 2);
  E(&p, VT_INSN_ADDI, A0, ZERO, 3);
  bar = emit(&p, WORD_BARRIER);
  end = emit(&p, WORD_ENDPRG);
  patch_branch(&p, b, end);
  l = simple_launch(4, 3);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_DEADLOCK);
  check_located(st, &e, VT_ERR_DEADLOCK, 0, 0, 1, prog_addr(bar), WORD_BARRIER,
                "barrier x0, x0, 0", "barrier deadlock: 1 warp(s) wait at a barrier that 2 ended");
}

/* ---- budget ---- */

TEST(instruction_budget) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, T0, ZERO, 1);
  unsigned j = E(&p, VT_INSN_JAL, ZERO, 0); /* j . */
  vt_launch l = simple_launch(4, 2);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.max_insns = 100;
  vt_device *dev = vt_device_new(&cfg);
  CHECK(st, load_prog(dev, &p) == VT_OK);
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_BUDGET);
  check_located(st, &e, VT_ERR_BUDGET, 0, 0, 0, prog_addr(j), p.w[j], "j 0x80000004",
                "instruction budget of 100 warp instructions exhausted");
  double s[VT_C_COUNT];
  vt_test_counters(dev, s);
  CHECK_EQ_U32(st, s[VT_C_warp_instructions], 100);
  vt_device_free(dev);
}

/* ---- fetch ---- */

TEST(fetch_unmapped_pc) {
  prog p = {0};
  E(&p, VT_INSN_JALR, ZERO, 0x10, ZERO); /* jalr zero, 16(zero) */
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ACCESS);
  check_located(st, &e, VT_ERR_ACCESS, 0, 0, 0, 0x10, 0, "?",
                "instruction fetch: load of unmapped address 0x00000010");
}

TEST(fetch_misaligned_pc) {
  prog p = {0};
  li(&p, T0, 0x80000002u);
  E(&p, VT_INSN_JALR, ZERO, 0, T0); /* jr t0 */
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_MISALIGNED);
  check_located(st, &e, VT_ERR_MISALIGNED, 0, 0, 0, 0x80000002u, 0, "?",
                "instruction address 0x80000002 is not 4-byte aligned");
}

/* ---- CSRs and FP ---- */

TEST(unknown_csr) {
  prog p = {0};
  unsigned w = csrr(&p, T0, 0x7c0);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  check_located(st, &e, VT_ERR_ILLEGAL, 0, 0, 0, prog_addr(w), p.w[w], "csrr t0, 1984",
                "illegal instruction: CSR 0x7c0 is not accessible");
  /* writing a read-only CSR (vl) */
  p.n = 0;
  w = E(&p, VT_INSN_CSRRW, ZERO, 0xc20, T0);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  CHECK_EQ_U32(st, e.pc, prog_addr(w));
  CHECK(st, strstr(e.message, "CSR 0xc20 is not accessible") != NULL);
}

TEST(fp_while_fs_off) {
  prog p = {0};
  unsigned w = E(&p, VT_INSN_FADD_S, T0, T1, T2, 7);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  check_located(st, &e, VT_ERR_ILLEGAL, 0, 0, 0, prog_addr(w), p.w[w], "fadd.s t0, t1, t2",
                "illegal instruction: FP used while mstatus.FS is Off");
  /* vector FP too */
  p.n = 0;
  vsetup(&p);
  w = E(&p, VT_INSN_VFADD_VV, 1, 2, 3, 1);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_ERR_ILLEGAL);
  CHECK_EQ_U32(st, e.pc, prog_addr(w));
  CHECK(st, strstr(e.message, "mstatus.FS is Off") != NULL);
  /* with csrrs mstatus, 0x2000 first it runs */
  p.n = 0;
  li(&p, T3, 0x2000);
  E(&p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T3);
  E(&p, VT_INSN_FADD_S, T0, T1, T2, 7);
  emit(&p, WORD_ENDPRG);
  CHECK_EQ_U32(st, run_on(&p, &l, NULL, &e), VT_OK);
}

/* ---- launch checks (no location) ---- */

static void check_bad_launch(check_state *st, const vt_launch *l, const vt_settings *cfg,
                             const char *needle) {
  prog p = {0};
  emit(&p, WORD_ENDPRG);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, l, cfg, &e), VT_ERR_CONFIG);
  CHECK_EQ_U32(st, e.status, VT_ERR_CONFIG);
  CHECK(st, !e.has_location);
  if (!strstr(e.message, needle)) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\" lacks \"%s\"\n", e.message, needle);
  }
}

TEST(bad_launch) {
  vt_launch l = simple_launch(3, 1);
  check_bad_launch(st, &l, NULL, "threads per warp must be a power of two from 1 to 32 (got 3)");
  l = simple_launch(64, 1);
  check_bad_launch(st, &l, NULL, "(got 64)");
  l = simple_launch(0, 1);
  check_bad_launch(st, &l, NULL, "(got 0)");
  l = simple_launch(4, 0);
  check_bad_launch(st, &l, NULL, "warps per workgroup must be 1 to 1024 (got 0)");
  l = simple_launch(4, 1);
  l.num_wg[1] = 0;
  check_bad_launch(st, &l, NULL, "bad workgroup count 1x0x1");
  /* W > warp slots: an error only when the configuration is fixed */
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.warp_slots = 4;
  cfg.source[VT_S_warp_slots] = VT_SRC_API;
  l = simple_launch(4, 8);
  check_bad_launch(st, &l, &cfg,
                   "a workgroup of 8 warps does not fit an SM with 4 warp slots (configuration "
                   "fixed by the user)");
  cfg.source[VT_S_warp_slots] = VT_SRC_DEFAULT;
  prog p = {0};
  emit(&p, WORD_ENDPRG);
  vt_error e;
  CHECK_EQ_U32(st, run_on(&p, &l, &cfg, &e), VT_OK);
  /* fixed threads per warp */
  cfg.source[VT_S_warp_slots] = VT_SRC_API;
  cfg.warp_slots = 8;
  cfg.threads = 8;
  l = simple_launch(4, 1);
  check_bad_launch(st, &l, &cfg, "launch needs 4 threads per warp, the device has 8");
}

/* ---- the library never aborts: after each error the same device runs a
 * correct launch, and memory written before the error is still there ---- */
TEST(device_usable_after_errors) {
  vt_device *dev = vt_device_new(NULL);
  static const uint32_t bad_words[] = {0xffffffffu, WORD_ECALL, WORD_EBREAK, WORD_BARRIER};
  prog good = {0};
  li(&good, T0, OUT_BASE);
  csrr(&good, T1, CSR_ADDR_WID);
  E(&good, VT_INSN_SLLI, T1, T1, 2);
  E(&good, VT_INSN_ADD, T0, T0, T1);
  E(&good, VT_INSN_ADDI, T2, ZERO, 42);
  E(&good, VT_INSN_SW, T2, 0, T0);
  emit(&good, WORD_ENDPRG);
  for (unsigned k = 0; k < sizeof bad_words / sizeof bad_words[0]; k++) {
    prog bad = {0};
    csrr(&bad, T0, CSR_ADDR_WID);
    unsigned b = E(&bad, VT_INSN_BNE, T0, ZERO, 0);
    emit(&bad, bad_words[k]);
    unsigned end = emit(&bad, WORD_ENDPRG);
    patch_branch(&bad, b, end);
    CHECK(st, load_prog(dev, &bad) == VT_OK);
    vt_launch l = simple_launch(4, 2);
    vt_error e;
    CHECK(st, vt_device_run(dev, &l, NULL, &e) < 0);
    CHECK(st, e.has_location);
    CHECK(st, load_prog(dev, &good) == VT_OK);
    CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE), 42);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 4), 42);
  }
  /* bad launch, then good */
  vt_launch l = simple_launch(5, 1);
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_ERR_CONFIG);
  l = simple_launch(4, 1);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  vt_device_free(dev);
}

/* err may be NULL: no crash, still the status */
TEST(null_error_pointer) {
  prog p = {0};
  emit(&p, WORD_ECALL);
  vt_device *dev = vt_device_new(NULL);
  CHECK(st, load_prog(dev, &p) == VT_OK);
  vt_launch l = simple_launch(4, 1);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, NULL), VT_ERR_ECALL);
  l.threads_per_warp = 3;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, NULL), VT_ERR_CONFIG);
  vt_device_free(dev);
}

/* host copies outside mapped memory fail cleanly */
TEST(host_copy_unmapped) {
  vt_device *dev = vt_device_new(NULL);
  uint8_t buf[8] = {0};
  vt_error e;
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x10, buf, 8, &e), VT_ERR_ACCESS);
  CHECK(st, !e.has_location);
  CHECK(st, strstr(e.message, "host write of 8 bytes at 0x00000010: not in a mapped buffer") != NULL);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0xfffffffcu, buf, 8, &e), VT_ERR_ACCESS);
  CHECK_EQ_U32(st, vt_mem_map(dev, 0xfffff000u, 0x2000, &e), VT_ERR_ARG);
  vt_device_free(dev);
}

RUN_TESTS(T(illegal_all_ones), T(illegal_custom0_in_warp1), T(illegal_in_second_workgroup_on_sm1),
          T(unmapped_load), T(unmapped_store), T(unmapped_past_buffer_end), T(misaligned_load),
          T(misaligned_store), T(misaligned_vector_load), T(ecall_and_ebreak),
          T(vector_before_vsetvli), T(divergent_loop_pushes_once_then_budget), T(simt_stack_overflow),
          T(barrier_deadlock), T(instruction_budget), T(fetch_unmapped_pc),
          T(fetch_misaligned_pc), T(unknown_csr), T(fp_while_fs_off), T(bad_launch),
          T(device_usable_after_errors), T(null_error_pointer), T(host_copy_unmapped),
          T(cached_page_keeps_its_gaps))
