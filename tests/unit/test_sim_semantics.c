/* Behaviour pinned by small hand-built programs with hand-computed results:
 * SIMT divergence order and join (isa.md 2.1/2.2, spec README decision 4),
 * setrpc, regext/regexti (decision 3), vadd12/vsub12 (decision 2), private
 * memory addresses (decision 9), flat loads/stores, vmv.x.s, compares,
 * barriers, per-workgroup local memory (decision 14), launch CSRs
 * (decision 13), scalar atomics (decision 7), and determinism across device
 * shapes (decision 15). */
#include "counters_util.h"
#include "check.h"
#include "simprog.h"

typedef struct run_result {
  vt_device *dev;
  int rc;
  vt_error err;
  double stats[VT_C_COUNT];
} run_result;

/* Run p with l on a new device (cfg NULL: defaults), optionally tracing.
 * The caller frees r.dev. */
static run_result run_prog(const prog *p, const vt_launch *l, const vt_settings *cfg,
                           trace_log *tl) {
  run_result r;
  memset(&r, 0, sizeof r);
  r.dev = vt_device_new(cfg);
  if (!r.dev) abort();
  if (tl) vt_device_set_trace(r.dev, trace_log_fn, tl);
  r.rc = load_prog(r.dev, p);
  if (r.rc == VT_OK) r.rc = vt_device_run(r.dev, l, NULL, &r.err);
  if (r.rc != VT_OK) fprintf(stderr, "run failed: %s\n", r.err.message);
  vt_test_counters(r.dev, r.stats);
  return r;
}

typedef struct step {
  unsigned idx;
  uint32_t mask;
} step;

/* The events of warp 0 from the first execution of instruction 'from' on
 * must be exactly 'want' (instruction index, SIMT mask before it). */
static void check_steps(check_state *st, const trace_log *tl, unsigned from, const step *want,
                        size_t n) {
  size_t k = 0;
  for (; k < tl->n; k++)
    if (tl->r[k].warp == 0 && tl->r[k].pc == prog_addr(from)) break;
  size_t got = 0;
  for (; k < tl->n; k++) {
    if (tl->r[k].warp != 0) continue;
    unsigned idx = (tl->r[k].pc - VT_PROGRAM_BASE) / 4;
    if (got < n && (idx != want[got].idx || tl->r[k].mask != want[got].mask)) {
      st->failed_checks++;
      fprintf(stderr, "step %zu: executed [%u] with mask %08x, expected [%u] with mask %08x\n",
              got, idx, tl->r[k].mask, want[got].idx, want[got].mask);
      return;
    }
    got++;
  }
  if (got != n) {
    st->failed_checks++;
    fprintf(stderr, "%zu steps executed, expected %zu\n", got, n);
  }
}

/* v5 = OUT_BASE + 4 * lane (uses t0) */
static void lane_addresses(prog *p, unsigned vreg, uint32_t base) {
  li(p, T0, base);
  E(p, VT_INSN_VID_V, vreg, 1);
  E(p, VT_INSN_VSLL_VI, vreg, vreg, 2, 1);
  E(p, VT_INSN_VADD_VX, vreg, vreg, T0, 1);
}

/* ---------------- divergence ---------------- */

/* if/else around a vector branch 'br' comparing v1 = vid with v2 = k:
 * the fall-through path stores 1, the taken path 2, both end at a join;
 * after it every lane stores 3 at +256. */
static prog if_else_prog(vt_insn_id br, int k, unsigned *br_idx, unsigned *j_idx) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VMV_V_I, 2, k);
  lane_addresses(&p, 5, OUT_BASE);
  unsigned rpc = setrpc_placeholder(&p);
  unsigned b = E(&p, br, 1, 2, 0);
  E(&p, VT_INSN_VMV_V_I, 6, 1);
  E(&p, VT_INSN_VSW12_V, 6, 0, 5);
  unsigned jmp = E(&p, VT_INSN_JAL, ZERO, 0);
  unsigned els = E(&p, VT_INSN_VMV_V_I, 6, 2);
  E(&p, VT_INSN_VSW12_V, 6, 0, 5);
  unsigned j = emit(&p, WORD_JOIN);
  E(&p, VT_INSN_VMV_V_I, 7, 3);
  E(&p, VT_INSN_VSW12_V, 7, 256, 5);
  emit(&p, WORD_ENDPRG);
  patch_branch(&p, b, els);
  patch_branch(&p, jmp, j);
  patch_rpc(&p, rpc, j);
  *br_idx = b;
  *j_idx = j;
  return p;
}

TEST(divergence_order) {
  struct {
    vt_insn_id br;
    int k;
    uint32_t taken; /* lanes that take the branch */
  } cases[] = {
      {VT_INSN_VBEQ, 0, 0x1},  /* 1 taken vs 3: taken path (fewer) first */
      {VT_INSN_VBNE, 0, 0xe},  /* 3 taken vs 1: fall-through path (fewer) first */
      {VT_INSN_VBLT, 2, 0x3},  /* 2 vs 2: tie -> taken path first */
      {VT_INSN_VBGE, 0, 0xf},  /* all taken: jump, no stack operation */
      {VT_INSN_VBLTU, 0, 0x0}, /* none taken: fall through, no stack operation */
      {VT_INSN_VBGEU, 3, 0x8}, /* 1 taken (lane 3) */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    unsigned b, j;
    prog p = if_else_prog(cases[c].br, cases[c].k, &b, &j);
    vt_launch l = simple_launch(4, 1);
    trace_log tl = {0};
    run_result r = run_prog(&p, &l, NULL, &tl);
    CHECK_EQ_U32(st, r.rc, VT_OK);
    uint32_t taken = cases[c].taken, fall = 0xfu & ~taken;
    step want[16];
    size_t n = 0;
    want[n++] = (step){b, 0xf};
    bool divergent = taken && fall;
    bool taken_first = divergent && __builtin_popcount(fall) >= __builtin_popcount(taken);
    if (!divergent) {
      if (taken) {
        want[n++] = (step){b + 4, 0xf};
        want[n++] = (step){b + 5, 0xf};
      } else {
        for (unsigned i = 1; i <= 3; i++) want[n++] = (step){b + i, 0xf};
      }
      want[n++] = (step){j, 0xf};
    } else if (taken_first) {
      want[n++] = (step){b + 4, taken};
      want[n++] = (step){b + 5, taken};
      want[n++] = (step){j, taken};
      for (unsigned i = 1; i <= 3; i++) want[n++] = (step){b + i, fall};
      want[n++] = (step){j, fall};
      want[n++] = (step){j, 0xf};
    } else {
      for (unsigned i = 1; i <= 3; i++) want[n++] = (step){b + i, fall};
      want[n++] = (step){j, fall};
      want[n++] = (step){b + 4, taken};
      want[n++] = (step){b + 5, taken};
      want[n++] = (step){j, taken};
      want[n++] = (step){j, 0xf};
    }
    for (unsigned i = 1; i <= 3; i++) want[n++] = (step){j + i, 0xf};
    check_steps(st, &tl, b, want, n);
    for (unsigned lane = 0; lane < 4; lane++) {
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * lane), ((taken >> lane) & 1) ? 2 : 1);
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 256 + 4 * lane), 3);
    }
    CHECK_EQ_U32(st, r.stats[VT_C_vector_branches], 1);
    CHECK_EQ_U32(st, r.stats[VT_C_divergent_vector_branches], divergent ? 1 : 0);
    CHECK_EQ_U32(st, r.stats[VT_C_max_simt_depth], divergent ? 2 : 0);
    if (st->failed_checks) fprintf(stderr, "  (case %zu)\n", c);
    trace_log_free(&tl);
    vt_device_free(r.dev);
  }
}

/* isa.md 2.2 "Executed 3 times": numt = 32, a vbne (target = the join)
 * that only lane 0 does not take: the join pops twice, then falls through */
TEST(join_executes_three_times) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VMV_V_I, 2, 0);
  unsigned rpc = setrpc_placeholder(&p);
  unsigned b = E(&p, VT_INSN_VBNE, 1, 2, 0);
  E(&p, VT_INSN_ADDI, A0, ZERO, 1);
  unsigned j = emit(&p, WORD_JOIN);
  emit(&p, WORD_ENDPRG);
  patch_branch(&p, b, j);
  patch_rpc(&p, rpc, j);
  vt_launch l = simple_launch(32, 1);
  trace_log tl = {0};
  run_result r = run_prog(&p, &l, NULL, &tl);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  const step want[] = {{b, 0xffffffffu}, {b + 1, 0x1}, {j, 0x1}, {j, 0xfffffffeu},
                       {j, 0xffffffffu}, {j + 1, 0xffffffffu}};
  check_steps(st, &tl, b, want, sizeof want / sizeof want[0]);
  CHECK_EQ_U32(st, r.stats[VT_C_max_simt_depth], 2);
  trace_log_free(&tl);
  vt_device_free(r.dev);
}

/* nested if/else: outer vblt (lanes 0,1 taken: tie, taken first), inner
 * vbeq inside the outer taken path (lane 0 of {0,1}: tie, taken first) */
TEST(nested_divergence) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VMV_V_I, 2, 2);
  E(&p, VT_INSN_VMV_V_I, 3, 0);
  lane_addresses(&p, 5, OUT_BASE);
  unsigned rpc1 = setrpc_placeholder(&p);
  unsigned ob = E(&p, VT_INSN_VBLT, 1, 2, 0); /* outer */
  E(&p, VT_INSN_VMV_V_I, 6, 1);               /* outer fall-through: lanes 2,3 */
  E(&p, VT_INSN_VSW12_V, 6, 0, 5);
  unsigned oj = E(&p, VT_INSN_JAL, ZERO, 0);
  unsigned oe = setrpc_placeholder(&p);       /* outer taken: lanes 0,1 */
  unsigned ib = E(&p, VT_INSN_VBEQ, 1, 3, 0); /* inner */
  E(&p, VT_INSN_VMV_V_I, 6, 2);               /* inner fall-through: lane 1 */
  E(&p, VT_INSN_VSW12_V, 6, 0, 5);
  unsigned ij = E(&p, VT_INSN_JAL, ZERO, 0);
  unsigned ie = E(&p, VT_INSN_VMV_V_I, 6, 3); /* inner taken: lane 0 */
  E(&p, VT_INSN_VSW12_V, 6, 0, 5);
  unsigned j2 = emit(&p, WORD_JOIN);
  E(&p, VT_INSN_VMV_V_I, 7, 4);
  E(&p, VT_INSN_VSW12_V, 7, 256, 5);
  unsigned j1 = emit(&p, WORD_JOIN);
  E(&p, VT_INSN_VMV_V_I, 7, 5);
  E(&p, VT_INSN_VSW12_V, 7, 512, 5);
  unsigned end = emit(&p, WORD_ENDPRG);
  patch_rpc(&p, rpc1, j1);
  patch_branch(&p, ob, oe);
  patch_branch(&p, oj, j1);
  patch_rpc(&p, oe, j2);
  patch_branch(&p, ib, ie);
  patch_branch(&p, ij, j2);
  vt_launch l = simple_launch(4, 1);
  trace_log tl = {0};
  run_result r = run_prog(&p, &l, NULL, &tl);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  const step want[] = {
      {ob, 0xf},
      {oe, 0x3}, {oe + 1, 0x3}, {ib, 0x3},
      {ie, 0x1}, {ie + 1, 0x1}, {j2, 0x1},          /* inner taken first */
      {ib + 1, 0x2}, {ib + 2, 0x2}, {ij, 0x2}, {j2, 0x2},
      {j2, 0x3},                                   /* inner reconverged; no pop of outer */
      {j2 + 1, 0x3}, {j2 + 2, 0x3}, {j1, 0x3},
      {ob + 1, 0xc}, {ob + 2, 0xc}, {oj, 0xc}, {j1, 0xc},
      {j1, 0xf},
      {j1 + 1, 0xf}, {j1 + 2, 0xf}, {end, 0xf}};
  check_steps(st, &tl, ob, want, sizeof want / sizeof want[0]);
  const uint32_t out0[4] = {3, 2, 1, 1}, out1[4] = {4, 4, 0, 0};
  for (unsigned lane = 0; lane < 4; lane++) {
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * lane), out0[lane]);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 256 + 4 * lane), out1[lane]);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 512 + 4 * lane), 5);
  }
  CHECK_EQ_U32(st, r.stats[VT_C_max_simt_depth], 4);
  CHECK_EQ_U32(st, r.stats[VT_C_divergent_vector_branches], 2);
  trace_log_free(&tl);
  vt_device_free(r.dev);
}

/* setrpc rd, rs1, imm: rpc and rd both get rs1 + sext(imm) */
TEST(setrpc_writes_rd_and_rpc) {
  prog p = {0};
  unsigned a = E(&p, VT_INSN_AUIPC, T1, 0);
  E(&p, VT_INSN_SETRPC, A0, T1, -52);
  csrr(&p, A1, CSR_ADDR_RPC);
  li(&p, T0, OUT_BASE);
  E(&p, VT_INSN_SW, A0, 0, T0);
  E(&p, VT_INSN_SW, A1, 4, T0);
  E(&p, VT_INSN_SETRPC, ZERO, T1, 2047);
  csrr(&p, A1, CSR_ADDR_RPC);
  E(&p, VT_INSN_SW, A1, 8, T0);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE), prog_addr(a) - 52);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4), prog_addr(a) - 52);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 8), prog_addr(a) + 2047);
  vt_device_free(r.dev);
}

/* regext zero, zero, 1 + vmv.v.x v0, tp writes v32 (isa.md 2.6); the
 * prefix applies to exactly one instruction; rs1/rs2 slots */
TEST(regext_registers) {
  prog p = {0};
  vsetup(&p);
  li(&p, TP, 0x1234);
  lane_addresses(&p, 5, OUT_BASE);
  CHECK_EQ_U32(st, emit(&p, enc(VT_INSN_REGEXT, 1)), p.n - 1);
  CHECK_EQ_U32(st, p.w[p.n - 1], 0x0010200bu);
  E(&p, VT_INSN_VMV_V_X, 0, TP);               /* v32 = 0x1234 */
  E(&p, VT_INSN_VSW12_V, 0, 0, 5);             /* v0: untouched (0) */
  emit(&p, enc(VT_INSN_REGEXT, 64)); /* rs2 high = 1 */
  E(&p, VT_INSN_VSW12_V, 0, 256, 5);           /* stores v32 */
  /* scalar: x37 = 77, then a0 = x37 + 0 through the rs1 slot */
  emit(&p, enc(VT_INSN_REGEXT, 1));
  E(&p, VT_INSN_ADDI, T0, ZERO, 77);           /* x37 */
  li(&p, T0, OUT_BASE);                        /* t0 itself unchanged by the prefix */
  emit(&p, enc(VT_INSN_REGEXT, 8));  /* rs1 high = 1 */
  E(&p, VT_INSN_ADDI, A0, T0, 0);              /* a0 = x37 */
  E(&p, VT_INSN_SW, A0, 512, T0);
  /* regext zero,zero,72: vs1 = v34, vs2 = v33 for vadd.vv v3, v2, v1 */
  E(&p, VT_INSN_ADDI, T1, ZERO, 5);
  emit(&p, enc(VT_INSN_REGEXT, 1));
  E(&p, VT_INSN_VMV_V_X, 1, T1);               /* v33 = 5 */
  E(&p, VT_INSN_ADDI, T1, ZERO, 7);
  emit(&p, enc(VT_INSN_REGEXT, 1));
  E(&p, VT_INSN_VMV_V_X, 2, T1);               /* v34 = 7 */
  emit(&p, enc(VT_INSN_REGEXT, 72));
  E(&p, VT_INSN_VSUB_VV, 3, 1, 2, 1);          /* v3 = v33 - v34 = -2 */
  E(&p, VT_INSN_VSW12_V, 3, 768, 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (unsigned lane = 0; lane < 4; lane++) {
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * lane), 0);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 256 + 4 * lane), 0x1234);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 768 + 4 * lane), (uint32_t)-2);
  }
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 512), 77);
  vt_device_free(r.dev);
}

/* regexti: signed 11-bit immediate = (imm[11:6] << 5) | simm5 field
 * (spec README decision 3), one-shot; rd high bits in imm[2:0] */
TEST(regexti_signed_imm11) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  lane_addresses(&p, 5, OUT_BASE);
  emit(&p, enc(VT_INSN_REGEXTI, 60 << 6)); /* -100 = 0x79c: hi 60, lo 28 */
  E(&p, VT_INSN_VADD_VI, 2, 1, -4, 1);                 /* field 11100 */
  E(&p, VT_INSN_VSW12_V, 2, 0, 5);
  emit(&p, enc(VT_INSN_REGEXTI, 31 << 6)); /* +1000 = 0x3e8: hi 31, lo 8 */
  E(&p, VT_INSN_VADD_VI, 3, 1, 8, 1);
  E(&p, VT_INSN_VSW12_V, 3, 256, 5);
  E(&p, VT_INSN_VADD_VI, 4, 1, -4, 1);                 /* no prefix: -4 */
  E(&p, VT_INSN_VSW12_V, 4, 512, 5);
  emit(&p, enc(VT_INSN_REGEXTI, (63 << 6) | 1)); /* -1, vd high = 1 */
  E(&p, VT_INSN_VADD_VI, 6, 1, -1, 1);                 /* v38 = v1 - 1 */
  emit(&p, enc(VT_INSN_REGEXT, 64));
  E(&p, VT_INSN_VSW12_V, 6, 768, 5);                   /* v38 */
  E(&p, VT_INSN_VSW12_V, 6, 1024, 5);                  /* v6: untouched */
  emit(&p, enc(VT_INSN_REGEXTI, 32 << 6)); /* -1024: hi 32 (100000), lo 0 */
  E(&p, VT_INSN_VMSEQ_VI, 7, 1, 0, 1);                 /* v1 == -1024 ? -> 0 */
  E(&p, VT_INSN_VRSUB_VI, 8, 1, 0, 1);                 /* after the prefix: 0 - v1 */
  E(&p, VT_INSN_VSW12_V, 7, 1280, 5);
  E(&p, VT_INSN_VSW12_V, 8, 1536, 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (uint32_t lane = 0; lane < 4; lane++) {
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * lane), lane - 100);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 256 + 4 * lane), lane + 1000);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 512 + 4 * lane), lane - 4);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 768 + 4 * lane), lane - 1);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 1024 + 4 * lane), 0);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 1280 + 4 * lane), 0);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 1536 + 4 * lane), 0u - lane);
  }
  vt_device_free(r.dev);
}

/* vadd12.vi / vsub12.vi: 12-bit immediate sign-extended (decision 2) */
TEST(vadd12_vsub12_sign_extension) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  lane_addresses(&p, 5, OUT_BASE);
  unsigned a = E(&p, VT_INSN_VADD12_VI, 2, 1, -1);
  CHECK_EQ_U32(st, enc(VT_INSN_VADD12_VI, 2, 1, 4095), p.w[a]); /* unsigned spelling */
  E(&p, VT_INSN_VADD12_VI, 3, 1, 2047);
  E(&p, VT_INSN_VSUB12_VI, 4, 1, -2048);
  E(&p, VT_INSN_VSUB12_VI, 6, 1, 1096);
  E(&p, VT_INSN_VADD12_VI, 7, 1, -2048);
  const unsigned regs[] = {2, 3, 4, 6, 7};
  for (unsigned k = 0; k < 5; k++) E(&p, VT_INSN_VSW12_V, regs[k], (int)(256 * k), 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(8, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (uint32_t lane = 0; lane < 8; lane++) {
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * lane), lane - 1);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 256 + 4 * lane), lane + 2047);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 512 + 4 * lane), lane + 2048);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 768 + 4 * lane), lane - 1096);
    CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 1024 + 4 * lane), lane - 2048);
  }
  vt_device_free(r.dev);
}

/* private memory (decision 9):
 * addr = PDS + (a & ~3) * numw * numt + 4 * (tid + lane) + (a & 3),
 * a & 3 dropped for words; PDS = pds_base + wg * numw * numt * pds_size.
 * Every byte of the private area is compared with a C image. */
TEST(private_memory_addresses) {
  const unsigned T = 4, W = 2, G = 2;
  const uint32_t pds_base = OUT_BASE + 0x8000, pds_size = 0x100;
  prog p = {0};
  vsetup(&p);
  csrr(&p, T0, CSR_ADDR_WGID);
  E(&p, VT_INSN_SLLI, T0, T0, 16);
  csrr(&p, T1, CSR_ADDR_WID);
  E(&p, VT_INSN_SLLI, T1, T1, 8);
  E(&p, VT_INSN_OR, T0, T0, T1);
  E(&p, VT_INSN_VID_V, 2, 1);
  E(&p, VT_INSN_VADD_VX, 2, 2, T0, 1);      /* v2 = wg<<16 | wid<<8 | lane */
  E(&p, VT_INSN_VMV_V_I, 3, 8);             /* base v3 = 8 */
  E(&p, VT_INSN_VSW_V, 2, 4, 3);            /* a = 12 */
  E(&p, VT_INSN_VSW_V, 2, -4, 3);           /* a = 4 */
  E(&p, VT_INSN_VSW_V, 2, 1, 3);            /* a = 9: word, a & 3 dropped -> 8 */
  E(&p, VT_INSN_VSB_V, 2, 14, 3);           /* a = 22: byte at +2 of word 20 */
  E(&p, VT_INSN_VSH_V, 2, 26, 3);           /* a = 34: half at +2 of word 32 */
  E(&p, VT_INSN_VLW_V, 4, 4, 3);            /* reads a = 12 back */
  E(&p, VT_INSN_VLBU_V, 6, 14, 3);          /* reads the byte back */
  E(&p, VT_INSN_VLH_V, 7, 26, 3);           /* reads the half back */
  /* flat store of v4/v6/v7 to OUT + 4*(wg*8 + tid + lane) (+0x200, +0x400) */
  csrr(&p, T2, CSR_ADDR_WGID);
  E(&p, VT_INSN_SLLI, T2, T2, 3);
  csrr(&p, T3, CSR_ADDR_TID);
  E(&p, VT_INSN_ADD, T2, T2, T3);
  E(&p, VT_INSN_VID_V, 5, 1);
  E(&p, VT_INSN_VADD_VX, 5, 5, T2, 1);
  E(&p, VT_INSN_VSLL_VI, 5, 5, 2, 1);
  li(&p, T5, OUT_BASE);
  E(&p, VT_INSN_VADD_VX, 5, 5, T5, 1);
  E(&p, VT_INSN_VSW12_V, 4, 0, 5);
  E(&p, VT_INSN_VSW12_V, 6, 0x200, 5);
  E(&p, VT_INSN_VSW12_V, 7, 0x400, 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(T, W);
  l.num_wg[0] = G;
  l.pds_base = pds_base;
  l.pds_size = pds_size;
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  static uint8_t want[0x1000], got[0x1000];
  memset(want, 0, sizeof want);
  for (unsigned g = 0; g < G; g++)
    for (unsigned w = 0; w < W; w++)
      for (unsigned lane = 0; lane < T; lane++) {
        uint32_t v = g << 16 | w << 8 | lane;
        uint32_t pds = g * W * T * pds_size, t = 4 * (w * T + lane);
        uint32_t a12 = pds + 12 * W * T + t, a4 = pds + 4 * W * T + t, a8 = pds + 8 * W * T + t;
        uint32_t b = pds + 20 * W * T + t + 2, h = pds + 32 * W * T + t + 2;
        for (unsigned k = 0; k < 4; k++) {
          want[a12 + k] = (uint8_t)(v >> (8 * k));
          want[a4 + k] = (uint8_t)(v >> (8 * k));
          want[a8 + k] = (uint8_t)(v >> (8 * k));
        }
        want[b] = (uint8_t)v;
        want[h] = (uint8_t)v;
        want[h + 1] = (uint8_t)(v >> 8);
        unsigned idx = g * 8 + w * T + lane;
        CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * idx), v);
        CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 0x200 + 4 * idx), v & 0xff);
        CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 0x400 + 4 * idx), v & 0xffff);
      }
  vt_error e;
  CHECK_EQ_U32(st, vt_mem_read(r.dev, pds_base, got, sizeof got, &e), VT_OK);
  for (unsigned k = 0; k < sizeof got; k++)
    if (got[k] != want[k]) {
      st->failed_checks++;
      fprintf(stderr, "private byte 0x%08x = %02x, expected %02x\n", pds_base + k, got[k], want[k]);
      break;
    }
  vt_device_free(r.dev);
}

/* flat vsw12/vlw12 with negative offsets; byte/halfword sign and zero
 * extension of vlb12/vlbu12/vlh12/vlhu12 and of lb/lbu/lh/lhu; vsb12/vsh12
 * store only the low bits */
TEST(flat_memory_offsets_and_extension) {
  prog p = {0};
  vsetup(&p);
  lane_addresses(&p, 1, OUT_BASE + 0x1000);   /* v1 = OUT + 0x1000 + 4*lane */
  E(&p, VT_INSN_VID_V, 2, 1);
  E(&p, VT_INSN_VADD_VI, 2, 2, 10, 1);        /* v2 = lane + 10 */
  E(&p, VT_INSN_VSW12_V, 2, -2048, 1);        /* OUT + 0x800 */
  E(&p, VT_INSN_VLW12_V, 3, -2048, 1);
  E(&p, VT_INSN_VADD_VI, 3, 3, 1, 1);
  E(&p, VT_INSN_VSW12_V, 3, -4, 1);           /* OUT + 0xffc + 4*lane */
  /* sign/zero extension: bytes at OUT+0x300, halves at OUT+0x310 */
  li(&p, T0, OUT_BASE + 0x300);
  E(&p, VT_INSN_VID_V, 4, 1);
  E(&p, VT_INSN_VADD_VX, 4, 4, T0, 1);        /* v4 = OUT+0x300 + lane */
  E(&p, VT_INSN_VLB12_V, 6, 0, 4);
  E(&p, VT_INSN_VLBU12_V, 7, 0, 4);
  E(&p, VT_INSN_VID_V, 8, 1);
  E(&p, VT_INSN_VSLL_VI, 8, 8, 1, 1);
  E(&p, VT_INSN_VADD_VX, 8, 8, T0, 1);        /* v8 = OUT+0x300 + 2*lane */
  E(&p, VT_INSN_VLH12_V, 9, 16, 8);
  E(&p, VT_INSN_VLHU12_V, 10, 16, 8);
  lane_addresses(&p, 11, OUT_BASE + 0x400);
  E(&p, VT_INSN_VSW12_V, 6, 0, 11);
  E(&p, VT_INSN_VSW12_V, 7, 16, 11);
  E(&p, VT_INSN_VSW12_V, 9, 32, 11);
  E(&p, VT_INSN_VSW12_V, 10, 48, 11);
  /* scalar */
  li(&p, T0, OUT_BASE + 0x300);
  E(&p, VT_INSN_LB, A0, 0, T0);
  E(&p, VT_INSN_LBU, A1, 0, T0);
  E(&p, VT_INSN_LH, A2, 16, T0);
  E(&p, VT_INSN_LHU, A3, 16, T0);
  E(&p, VT_INSN_SW, A0, 0x200, T0);
  E(&p, VT_INSN_SW, A1, 0x204, T0);
  E(&p, VT_INSN_SW, A2, 0x208, T0);
  E(&p, VT_INSN_SW, A3, 0x20c, T0);
  /* partial vector stores of 0x12345678 + lane */
  li(&p, T1, 0x12345678);
  E(&p, VT_INSN_VID_V, 12, 1);
  E(&p, VT_INSN_VADD_VX, 12, 12, T1, 1);
  li(&p, T0, OUT_BASE + 0x600);
  E(&p, VT_INSN_VID_V, 13, 1);
  E(&p, VT_INSN_VSLL_VI, 13, 13, 1, 1);
  E(&p, VT_INSN_VADD_VX, 13, 13, T0, 1);      /* OUT+0x600 + 2*lane */
  E(&p, VT_INSN_VSH12_V, 12, 0, 13);
  E(&p, VT_INSN_VID_V, 13, 1);
  E(&p, VT_INSN_VADD_VX, 13, 13, T0, 1);      /* OUT+0x600 + lane */
  E(&p, VT_INSN_VSB12_V, 12, 0x20, 13);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  CHECK(st, load_prog(dev, &p) == VT_OK);
  const uint8_t bytes[4] = {0x80, 0x7f, 0xff, 0x01};
  const uint16_t halves[4] = {0x8000, 0x7fff, 0xffff, 0x0001};
  vt_error e;
  CHECK(st, vt_mem_write(dev, OUT_BASE + 0x300, bytes, 4, &e) == VT_OK);
  CHECK(st, vt_mem_write(dev, OUT_BASE + 0x310, halves, 8, &e) == VT_OK);
  vt_launch l = simple_launch(4, 1);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  for (uint32_t lane = 0; lane < 4; lane++) {
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x800 + 4 * lane), lane + 10);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0xffc + 4 * lane), lane + 11);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x400 + 4 * lane), (uint32_t)(int32_t)(int8_t)bytes[lane]);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x410 + 4 * lane), bytes[lane]);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x420 + 4 * lane),
                 (uint32_t)(int32_t)(int16_t)halves[lane]);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x430 + 4 * lane), halves[lane]);
  }
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x500), 0xffffff80u);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x504), 0x80);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x508), 0xffff8000u);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x50c), 0x8000);
  /* halves 5678 5679 567a 567b, then bytes 78 79 7a 7b */
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x600), 0x56795678u);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x604), 0x567b567au);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x608), 0);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x620), 0x7b7a7978u);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 0x624), 0);
  vt_device_free(dev);
}

/* vmv.x.s: the highest active lane wins (decision 8) */
TEST(vmv_x_s_highest_active_lane) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VADD_VI, 1, 1, 10, 1);  /* v1 = lane + 10 */
  E(&p, VT_INSN_VID_V, 2, 1);
  E(&p, VT_INSN_VAND_VI, 2, 2, 1, 1);   /* lane & 1 */
  E(&p, VT_INSN_VMV_V_I, 3, 0);
  li(&p, T0, OUT_BASE);
  E(&p, VT_INSN_VMV_X_S, A0, 1);
  E(&p, VT_INSN_SW, A0, 0, T0);
  unsigned rpc = setrpc_placeholder(&p);
  unsigned b = E(&p, VT_INSN_VBEQ, 2, 3, 0); /* lanes 0, 2 taken: tie, taken first */
  E(&p, VT_INSN_VMV_X_S, A1, 1);             /* lanes 1, 3 */
  E(&p, VT_INSN_SW, A1, 8, T0);
  unsigned jmp = E(&p, VT_INSN_JAL, ZERO, 0);
  unsigned els = E(&p, VT_INSN_VMV_X_S, A2, 1); /* lanes 0, 2 */
  E(&p, VT_INSN_SW, A2, 4, T0);
  unsigned j = emit(&p, WORD_JOIN);
  emit(&p, WORD_ENDPRG);
  patch_rpc(&p, rpc, j);
  patch_branch(&p, b, els);
  patch_branch(&p, jmp, j);
  vt_launch l = simple_launch(4, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE), 13);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4), 12);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 8), 13);
  vt_device_free(r.dev);
}

/* integer compares write 0/1 elements per lane (decision 8) */
TEST(compares_write_zero_or_one) {
  prog p = {0};
  vsetup(&p);
  E(&p, VT_INSN_VID_V, 1, 1);             /* 0 1 2 3 */
  E(&p, VT_INSN_VMV_V_I, 2, 2);
  E(&p, VT_INSN_ADDI, T1, ZERO, 2);
  E(&p, VT_INSN_VMSEQ_VV, 3, 1, 2, 1);    /* lane == 2 */
  E(&p, VT_INSN_VMSLT_VX, 4, 1, T1, 1);   /* lane < 2 */
  E(&p, VT_INSN_VMSNE_VI, 6, 1, 1, 1);    /* lane != 1 */
  E(&p, VT_INSN_VMSLE_VI, 7, 1, 1, 1);    /* lane <= 1 */
  E(&p, VT_INSN_VMSLTU_VV, 8, 2, 1, 1);   /* 2 < lane */
  E(&p, VT_INSN_VMSGT_VI, 9, 1, -1, 1);   /* lane > -1 */
  lane_addresses(&p, 5, OUT_BASE);
  const unsigned regs[] = {3, 4, 6, 7, 8, 9};
  for (unsigned k = 0; k < 6; k++) E(&p, VT_INSN_VSW12_V, regs[k], (int)(16 * k), 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 1);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  const uint32_t want[6][4] = {{0, 0, 1, 0}, {1, 1, 0, 0}, {1, 0, 1, 1},
                               {1, 1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
  for (unsigned k = 0; k < 6; k++)
    for (unsigned lane = 0; lane < 4; lane++)
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 16 * k + 4 * lane), want[k][lane]);
  vt_device_free(r.dev);
}

/* barrier across 4 warps: each warp stores to local memory, waits, then
 * reads the next warp's values. Warp 0 stores late (a 50-iteration delay
 * loop), so without the barrier warp 3 would read zeros. */
TEST(barrier_across_warps) {
  prog p = {0};
  vsetup(&p);
  csrr(&p, T0, CSR_ADDR_TID);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VADD_VX, 1, 1, T0, 1);
  E(&p, VT_INSN_VSLL_VI, 1, 1, 2, 1);       /* v1 = 4*(tid+lane) */
  csrr(&p, T1, CSR_ADDR_LDS);
  E(&p, VT_INSN_VADD_VX, 2, 1, T1, 1);      /* v2 = LDS + v1 */
  csrr(&p, T2, CSR_ADDR_WID);
  E(&p, VT_INSN_ADDI, T3, ZERO, 100);
  E(&p, VT_INSN_MUL, T3, T2, T3);
  E(&p, VT_INSN_VID_V, 3, 1);
  E(&p, VT_INSN_VADD_VX, 3, 3, T3, 1);      /* v3 = 100*wid + lane */
  unsigned skip = E(&p, VT_INSN_BNE, T2, ZERO, 0);
  E(&p, VT_INSN_ADDI, A0, ZERO, 50);
  unsigned loop = E(&p, VT_INSN_ADDI, A0, A0, -1);
  unsigned back = E(&p, VT_INSN_BNE, A0, ZERO, 0);
  patch_branch(&p, back, loop);
  unsigned st_ = E(&p, VT_INSN_VSW12_V, 3, 0, 2);
  patch_branch(&p, skip, st_);
  emit(&p, WORD_BARRIER);
  E(&p, VT_INSN_ADDI, T2, T2, 1);
  E(&p, VT_INSN_ANDI, T2, T2, 3);
  E(&p, VT_INSN_SLLI, T2, T2, 2);           /* next warp's tid (T = 4) */
  E(&p, VT_INSN_VID_V, 4, 1);
  E(&p, VT_INSN_VADD_VX, 4, 4, T2, 1);
  E(&p, VT_INSN_VSLL_VI, 4, 4, 2, 1);
  E(&p, VT_INSN_VADD_VX, 4, 4, T1, 1);
  E(&p, VT_INSN_VLW12_V, 6, 0, 4);
  li(&p, T4, OUT_BASE);
  E(&p, VT_INSN_VADD_VX, 7, 1, T4, 1);
  E(&p, VT_INSN_VSW12_V, 6, 0, 7);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 4);
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (uint32_t w = 0; w < 4; w++)
    for (uint32_t lane = 0; lane < 4; lane++)
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4 * (4 * w + lane)), 100 * ((w + 1) % 4) + lane);
  CHECK_EQ_U32(st, r.stats[VT_C_barriers], 4);
  vt_device_free(r.dev);
}

/* local memory is private per workgroup and zero at workgroup start: two
 * workgroups on two SMs (one warp slot each, so they run concurrently)
 * read LDS, write their own value, spin, and read it back */
TEST(local_memory_private_per_workgroup) {
  prog p = {0};
  vsetup(&p);
  lane_addresses(&p, 1, VT_LDS_BASE + 0x100);
  csrr(&p, T1, CSR_ADDR_WGID);
  E(&p, VT_INSN_ADDI, T1, T1, 1);
  E(&p, VT_INSN_VLW12_V, 4, 0, 1);         /* before: must be 0 */
  E(&p, VT_INSN_VMV_V_X, 2, T1);
  E(&p, VT_INSN_VSW12_V, 2, 0, 1);         /* LDS[lane] = wg + 1 */
  E(&p, VT_INSN_ADDI, A0, ZERO, 20);
  unsigned loop = E(&p, VT_INSN_ADDI, A0, A0, -1);
  unsigned back = E(&p, VT_INSN_BNE, A0, ZERO, 0);
  patch_branch(&p, back, loop);
  E(&p, VT_INSN_VLW12_V, 3, 0, 1);
  csrr(&p, T2, CSR_ADDR_WGID);
  E(&p, VT_INSN_SLLI, T2, T2, 4);          /* 16 bytes per wg (T = 4) */
  li(&p, T3, OUT_BASE);
  E(&p, VT_INSN_ADD, T2, T2, T3);
  E(&p, VT_INSN_VID_V, 5, 1);
  E(&p, VT_INSN_VSLL_VI, 5, 5, 2, 1);
  E(&p, VT_INSN_VADD_VX, 5, 5, T2, 1);
  E(&p, VT_INSN_VSW12_V, 3, 0, 5);
  E(&p, VT_INSN_VSW12_V, 4, 0x100, 5);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, 1);
  l.num_wg[0] = 2;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 2;
  cfg.warp_slots = 1;
  trace_log tl = {0};
  run_result r = run_prog(&p, &l, &cfg, &tl);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (uint32_t g = 0; g < 2; g++)
    for (uint32_t lane = 0; lane < 4; lane++) {
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 16 * g + 4 * lane), g + 1);
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 0x100 + 16 * g + 4 * lane), 0);
    }
  /* both workgroups were resident at once, one per SM: with one warp slot
   * an SM holds one workgroup, and workgroup 1 went to SM 1 because SM 0
   * was busy (the epochs of run.h trace SM 0's slice before SM 1's) */
  size_t first_wg1 = tl.n;
  for (size_t k = 0; k < tl.n; k++) {
    if (tl.r[k].wg == 0) {
      CHECK_EQ_U32(st, tl.r[k].sm, 0);
    } else {
      CHECK_EQ_U32(st, tl.r[k].sm, 1);
      if (first_wg1 == tl.n) first_wg1 = k;
    }
  }
  CHECK(st, first_wg1 < tl.n);
  /* a second launch on the same device sees zeroed local memory again */
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(r.dev, &l, NULL, &e), VT_OK);
  for (uint32_t g = 0; g < 2; g++)
    for (uint32_t lane = 0; lane < 4; lane++)
      CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 0x100 + 16 * g + 4 * lane), 0);
  trace_log_free(&tl);
  vt_device_free(r.dev);
}

/* launch CSRs for a 3-D launch (decision 13) */
TEST(launch_csrs_3d) {
  const unsigned T = 2, W = 3, NX = 2, NY = 3, NZ = 2;
  const uint32_t knl = 0x90001000u, pds_base = 0x90100000u, pds_size = 0x40;
  static const unsigned csrs[] = {CSR_ADDR_TID,  CSR_ADDR_NUMW, CSR_ADDR_NUMT, CSR_ADDR_KNL,
                                  CSR_ADDR_WGID, CSR_ADDR_WID,  CSR_ADDR_LDS,  CSR_ADDR_PDS,
                                  CSR_ADDR_GIDX, CSR_ADDR_GIDY, CSR_ADDR_GIDZ, CSR_ADDR_RPC,
                                  CSR_ADDR_MSTATUS, 0xf14 /* mhartid */, 0xc20 /* vl */,
                                  0xc21 /* vtype */};
  prog p = {0};
  csrr(&p, T0, CSR_ADDR_WGID);
  csrr(&p, T1, CSR_ADDR_NUMW);
  E(&p, VT_INSN_MUL, T0, T0, T1);
  csrr(&p, T1, CSR_ADDR_WID);
  E(&p, VT_INSN_ADD, T0, T0, T1);
  E(&p, VT_INSN_SLLI, T0, T0, 6);
  li(&p, T1, OUT_BASE);
  E(&p, VT_INSN_ADD, T0, T0, T1);
  for (unsigned k = 0; k < 16; k++) {
    csrr(&p, T2, csrs[k]);
    E(&p, VT_INSN_SW, T2, (int)(4 * k), T0);
  }
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(T, W);
  l.num_wg[0] = NX;
  l.num_wg[1] = NY;
  l.num_wg[2] = NZ;
  l.knl_addr = knl;
  l.pds_base = pds_base;
  l.pds_size = pds_size;
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  for (unsigned z = 0; z < NZ; z++)
    for (unsigned y = 0; y < NY; y++)
      for (unsigned x = 0; x < NX; x++)
        for (unsigned w = 0; w < W; w++) {
          unsigned g = x + NX * (y + NY * z);
          uint32_t want[16] = {w * T, W, T, knl, g, w, VT_LDS_BASE,
                               pds_base + g * W * T * pds_size, x, y, z, 0, 0x80000600u, w,
                               0, 0x80000000u};
          uint32_t base = OUT_BASE + 64 * (g * W + w);
          for (unsigned k = 0; k < 16; k++) {
            uint32_t got = rd32(r.dev, base + 4 * k);
            if (got != want[k]) {
              st->failed_checks++;
              fprintf(stderr, "wg %u warp %u csr 0x%03x = 0x%08x, expected 0x%08x\n", g, w,
                      csrs[k], got, want[k]);
            }
          }
        }
  CHECK_EQ_U32(st, r.stats[VT_C_workgroups], NX * NY * NZ);
  CHECK_EQ_U32(st, r.stats[VT_C_warps], NX * NY * NZ * W);
  vt_device_free(r.dev);
}

/* scalar atomics from many warps (decision 7): amoadd.w sums, tickets from
 * amoadd.w's old value are all distinct, amomax.w keeps the maximum */
TEST(scalar_atomics) {
  const unsigned W = 4, G = 3, N = 10;
  prog p = {0};
  li(&p, T0, OUT_BASE);
  csrr(&p, T1, CSR_ADDR_WID);
  E(&p, VT_INSN_ADDI, T1, T1, 1);           /* wid + 1 */
  E(&p, VT_INSN_ADDI, A0, ZERO, (int)N);
  unsigned loop = E(&p, VT_INSN_AMOADD_W, ZERO, T1, T0);
  E(&p, VT_INSN_ADDI, A0, A0, -1);
  unsigned back = E(&p, VT_INSN_BNE, A0, ZERO, 0);
  patch_branch(&p, back, loop);
  /* ticket */
  E(&p, VT_INSN_ADDI, T2, T0, 4);
  E(&p, VT_INSN_ADDI, T3, ZERO, 1);
  E(&p, VT_INSN_AMOADD_W, A1, T3, T2);      /* a1 = old ticket counter */
  E(&p, VT_INSN_SLLI, A2, A1, 2);
  E(&p, VT_INSN_ADD, A2, A2, T0);
  csrr(&p, A3, CSR_ADDR_WGID);
  E(&p, VT_INSN_SLLI, A3, A3, 2);
  csrr(&p, A4, CSR_ADDR_WID);
  E(&p, VT_INSN_ADD, A3, A3, A4);           /* 4*wg + wid */
  E(&p, VT_INSN_ADDI, A4, A3, 1);
  E(&p, VT_INSN_SW, A4, 0x100, A2);         /* slot[ticket] = 4*wg + wid + 1 */
  E(&p, VT_INSN_ADDI, T2, T0, 8);
  E(&p, VT_INSN_AMOMAX_W, ZERO, A3, T2);
  emit(&p, WORD_ENDPRG);
  vt_launch l = simple_launch(4, W);
  l.num_wg[0] = G;
  run_result r = run_prog(&p, &l, NULL, NULL);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE), G * N * (W * (W + 1) / 2));
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 4), G * W);
  CHECK_EQ_U32(st, rd32(r.dev, OUT_BASE + 8), 4 * (G - 1) + W - 1);
  uint32_t seen = 0;
  for (unsigned k = 0; k < G * W; k++) {
    uint32_t v = rd32(r.dev, OUT_BASE + 0x100 + 4 * k);
    CHECK(st, v >= 1 && v <= 4 * G);
    if (v >= 1 && v <= 32) {
      CHECK(st, !((seen >> (v - 1)) & 1));
      seen |= 1u << (v - 1);
    }
  }
  vt_device_free(r.dev);
}

/* determinism: a race-free kernel (per-thread results through local memory
 * and a barrier, plus a commutative atomic sum) gives identical memory and
 * identical instruction counts for any number of SMs and warp slots */
static prog determinism_prog(void) {
  prog p = {0};
  vsetup(&p);
  csrr(&p, T0, CSR_ADDR_TID);
  E(&p, VT_INSN_VID_V, 1, 1);
  E(&p, VT_INSN_VADD_VX, 1, 1, T0, 1);       /* local id */
  csrr(&p, T1, CSR_ADDR_WGID);
  E(&p, VT_INSN_SLLI, T1, T1, 4);            /* 16 threads per wg */
  E(&p, VT_INSN_VADD_VX, 2, 1, T1, 1);       /* global id */
  E(&p, VT_INSN_VMUL_VV, 3, 2, 2, 1);
  E(&p, VT_INSN_VADD_VI, 3, 3, 7, 1);        /* gid*gid + 7 */
  E(&p, VT_INSN_VSLL_VI, 4, 1, 2, 1);
  csrr(&p, T2, CSR_ADDR_LDS);
  E(&p, VT_INSN_VADD_VX, 4, 4, T2, 1);
  E(&p, VT_INSN_VSW12_V, 3, 0, 4);
  emit(&p, WORD_BARRIER);
  E(&p, VT_INSN_VADD_VI, 6, 1, 1, 1);
  E(&p, VT_INSN_VAND_VI, 6, 6, 15, 1);
  E(&p, VT_INSN_VSLL_VI, 6, 6, 2, 1);
  E(&p, VT_INSN_VADD_VX, 6, 6, T2, 1);
  E(&p, VT_INSN_VLW12_V, 7, 0, 6);           /* neighbour's value */
  E(&p, VT_INSN_ADDI, T3, ZERO, 3);
  E(&p, VT_INSN_VMUL_VX, 8, 3, T3, 1);
  E(&p, VT_INSN_VADD_VV, 8, 8, 7, 1);
  E(&p, VT_INSN_VSLL_VI, 9, 2, 2, 1);
  li(&p, T4, OUT_BASE);
  E(&p, VT_INSN_VADD_VX, 9, 9, T4, 1);
  E(&p, VT_INSN_VSW12_V, 8, 0, 9);
  E(&p, VT_INSN_VMV_X_S, A0, 8);
  li(&p, T5, OUT_BASE + 0x1000);
  E(&p, VT_INSN_AMOADD_W, ZERO, A0, T5);
  emit(&p, WORD_ENDPRG);
  return p;
}

TEST(determinism_across_shapes) {
  prog p = determinism_prog();
  vt_launch l = simple_launch(8, 2);
  l.num_wg[0] = 4;
  l.num_wg[1] = 2;
  const unsigned shapes[][2] = {{1, 2}, {2, 4}, {4, 8}, {3, 2}, {1, 16}, {4, 2}};
  static uint8_t ref[0x1100], got[0x1100];
  uint64_t ref_insns = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    vt_settings cfg;
    vt_settings_default(&cfg);
    cfg.sms = shapes[s][0];
    cfg.warp_slots = shapes[s][1];
    run_result r = run_prog(&p, &l, &cfg, NULL);
    CHECK_EQ_U32(st, r.rc, VT_OK);
    vt_error e;
    CHECK_EQ_U32(st, vt_mem_read(r.dev, OUT_BASE, s ? got : ref, sizeof got, &e), VT_OK);
    if (s == 0) {
      ref_insns = r.stats[VT_C_warp_instructions];
      /* spot-check against C */
      for (uint32_t gid = 0; gid < 128; gid++) {
        uint32_t lid = gid & 15, nb = (gid & ~15u) | ((lid + 1) & 15);
        uint32_t want = 3 * (gid * gid + 7) + nb * nb + 7;
        uint32_t v = (uint32_t)ref[4 * gid] | (uint32_t)ref[4 * gid + 1] << 8 |
                     (uint32_t)ref[4 * gid + 2] << 16 | (uint32_t)ref[4 * gid + 3] << 24;
        CHECK_EQ_U32(st, v, want);
      }
    } else {
      CHECK(st, memcmp(ref, got, sizeof got) == 0);
      CHECK(st, r.stats[VT_C_warp_instructions] == ref_insns);
    }
    vt_device_free(r.dev);
  }
}

/* Local memory per SM bounds how many workgroups are resident: with 8 KiB
 * per SM and 4 KiB per workgroup at most two of the four one-warp
 * workgroups of a 1-SM device interleave at any time. */
TEST(local_memory_limits_residency) {
  prog p = {0};
  li(&p, T0, 50);
  unsigned loop = E(&p, VT_INSN_ADDI, T0, T0, -1);
  unsigned br = E(&p, VT_INSN_BNE, T0, ZERO, 0);
  emit(&p, WORD_ENDPRG);
  patch_branch(&p, br, loop);
  vt_launch l = simple_launch(4, 1);
  l.num_wg[0] = 4;
  l.lds_size = 4096;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 1;
  cfg.lds_bytes = 8192;
  trace_log tl = {0};
  run_result r = run_prog(&p, &l, &cfg, &tl);
  CHECK_EQ_U32(st, r.rc, VT_OK);
  /* overlap of [first, last] event index ranges per workgroup */
  size_t first[4], last[4];
  for (int g = 0; g < 4; g++) first[g] = (size_t)-1, last[g] = 0;
  for (size_t k = 0; k < tl.n; k++) {
    unsigned g = tl.r[k].wg;
    if (g >= 4) continue;
    if (first[g] == (size_t)-1) first[g] = k;
    last[g] = k;
  }
  unsigned max_live = 0;
  for (size_t k = 0; k < tl.n; k++) {
    unsigned live = 0;
    for (int g = 0; g < 4; g++) live += first[g] <= k && k <= last[g];
    if (live > max_live) max_live = live;
  }
  CHECK_EQ_U32(st, max_live, 2);
  /* with the limit raised all four run together */
  cfg.lds_bytes = 16384;
  trace_log t2 = {0};
  run_result r2 = run_prog(&p, &l, &cfg, &t2);
  CHECK_EQ_U32(st, r2.rc, VT_OK);
  CHECK(st, t2.n > 4 && t2.r[0].wg == 0 && t2.r[1].wg == 1 && t2.r[2].wg == 2 && t2.r[3].wg == 3);
  /* fixed configuration: a workgroup larger than an SM's local memory */
  cfg.source[VT_S_warp_slots] = VT_SRC_API;
  cfg.lds_bytes = 2048;
  run_result r3 = run_prog(&p, &l, &cfg, NULL);
  CHECK_EQ_U32(st, r3.rc, VT_ERR_CONFIG);
  CHECK(st, strstr(r3.err.message, "a workgroup's local memory (5120 bytes: ldsSize plus a 1 KiB "
                                   "stack per warp) exceeds the device's 2048 bytes") != NULL);
  vt_device_free(r.dev);
  vt_device_free(r2.dev);
  vt_device_free(r3.dev);
  free(tl.r);
  free(t2.r);
}

RUN_TESTS(T(local_memory_limits_residency), T(divergence_order), T(join_executes_three_times), T(nested_divergence),
          T(setrpc_writes_rd_and_rpc), T(regext_registers), T(regexti_signed_imm11),
          T(vadd12_vsub12_sign_extension), T(private_memory_addresses),
          T(flat_memory_offsets_and_extension), T(vmv_x_s_highest_active_lane),
          T(compares_write_zero_or_one), T(barrier_across_warps),
          T(local_memory_private_per_workgroup), T(launch_csrs_3d), T(scalar_atomics),
          T(determinism_across_shapes))
