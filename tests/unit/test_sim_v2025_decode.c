/* The simulator's v2025 decode rules: 64-bit instructions are fetched as
 * two parcels (a reserved one is an illegal instruction at its own pc,
 * nothing after it runs; the next pc is pc + 8); errors and traces show a
 * 64-bit word as 16 hex digits with its disassembly (isa2025.md 5.1, D39);
 * slli/srli/srai with an amount >= 32 are illegal without a pair prefix
 * (D18) while the v2.02 amounts still work. */
#include "check.h"
#include "vt/trace.h"
#include "session/session_internal.h"
#include "simprog.h"

static int run_on(const prog *p, vt_error *err, uint32_t *out0) {
  vt_device *dev = vt_device_new(NULL);
  if (!dev) return VT_ERR_NOMEM;
  vt_launch l = simple_launch(4, 1);
  int rc = load_prog(dev, p);
  if (rc == VT_OK) rc = vt_device_run(dev, &l, NULL, err);
  if (out0) *out0 = rd32(dev, OUT_BASE);
  vt_device_free(dev);
  return rc;
}

/* The message names the pc and ends with the reason. */
static void expect_stop(check_state *st, const prog *p, unsigned at, const char *reason) {
  vt_error e;
  uint32_t out0 = 0;
  int rc = run_on(p, &e, &out0);
  CHECK_EQ_U32(st, rc, VT_ERR_ILLEGAL);
  CHECK_EQ_U32(st, e.pc, prog_addr(at));
  const char *m = strstr(e.message, "): ");
  if (!m || strcmp(m + 3, reason) != 0) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\", wanted reason \"%s\"\n", e.message, reason);
  }
  CHECK_EQ_U32(st, out0, 0); /* the store before the stop never ran */
}

/* li t0, OUT_BASE; li t1, 1; <insn>; sw t1, 0(t0); endprg. length 8: insn
 * is a 64-bit instruction, two parcels. Returns the index of insn. */
static unsigned program(prog *p, uint64_t insn, unsigned length) {
  li(p, T0, OUT_BASE);
  E(p, VT_INSN_ADDI, T1, ZERO, 1);
  unsigned at = emit(p, (uint32_t)insn);
  if (length == 8) emit(p, (uint32_t)(insn >> 32));
  E(p, VT_INSN_SW, T1, 0, T0);
  emit(p, WORD_ENDPRG);
  return at;
}

TEST(reserved_64bit_word_is_illegal) {
  prog p = {0};
  unsigned at = program(&p, 0x000000000000703full, 8); /* sub-op 111: reserved (2.4) */
  expect_stop(st, &p, at, "illegal instruction");
}

TEST(shift_amounts) {
  prog p = {0};
  unsigned at = program(&p, enc(VT_INSN_SLLI, A0, A0, 40), 4);
  expect_stop(st, &p, at, "illegal instruction: shift amount 40 >= 32 without a pair prefix");
  prog q = {0};
  at = program(&q, enc(VT_INSN_SRAI, A0, A0, 32), 4);
  expect_stop(st, &q, at, "illegal instruction: shift amount 32 >= 32 without a pair prefix");
  /* 31 is a v2.02 word: it runs (t1 = 1 << 31 is stored) */
  prog r = {0};
  li(&r, T0, OUT_BASE);
  E(&r, VT_INSN_ADDI, T1, ZERO, 1);
  E(&r, VT_INSN_SLLI, T1, T1, 31);
  E(&r, VT_INSN_SW, T1, 0, T0);
  emit(&r, WORD_ENDPRG);
  vt_error e;
  uint32_t out0 = 0;
  CHECK_EQ_U32(st, run_on(&r, &e, &out0), VT_OK);
  CHECK_EQ_U32(st, out0, 0x80000000u);
}

/* vop64.vadd.vv v10, v20, v30 (3.8.4) at e32: its trace line and event,
 * the instruction after it at pc + 8; an error at a 64-bit instruction
 * names its 16-digit word */
TEST(trace_and_error_of_64bit_words) {
  prog p = {0};
  E(&p, VT_INSN_ADDI, T4, ZERO, 4);
  E(&p, VT_INSN_VSETVLI, T4, T4, VTYPE_E32M1);
  unsigned at = emit(&p, 0x0a00103fu);
  emit(&p, 0x0000141eu);
  unsigned next = E(&p, VT_INSN_ADDI, T1, ZERO, 7);
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  if (!dev) abort();
  FILE *f = fopen("trace.txt", "w+");
  trace_log log = {0};
  CHECK(st, f != NULL && load_prog(dev, &p) == VT_OK);
  vt_trace_writer *tw = vt_trace_writer_new(f, VT_TRACE_TEXT);
  CHECK(st, tw != NULL);
  vt_device_set_trace(dev, vt_trace_writer_event, tw);
  vt_launch l = simple_launch(4, 1);
  vt_error e;
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  vt_device_set_trace(dev, trace_log_fn, &log);
  vt_trace_writer_free(tw);
  CHECK_EQ_U32(st, vt_device_run(dev, &l, NULL, &e), VT_OK);
  vt_device_free(dev);
  char line[512], found[512] = "", *want = found;
  rewind(f);
  while (fgets(line, sizeof line, f))
    if (strstr(line, "vop64")) snprintf(found, sizeof found, "%s", line);
  fclose(f);
  CHECK(st, want && strstr(want, " 80000008 0000141e0a00103f vop64.vadd.vv v10, v20, v30  ") &&
                strstr(want, "v10[0000000f]="));
  /* the event after the 64-bit instruction is at pc + 8 */
  bool seen = false;
  for (size_t k = 0; k + 1 < log.n; k++)
    if (log.r[k].pc == prog_addr(at)) {
      CHECK_EQ_U32(st, log.r[k + 1].pc, prog_addr(next));
      seen = true;
    }
  CHECK(st, seen);
  trace_log_free(&log);
  /* an error: vop64.vfadd.vv at SEW 8 (no 8-bit float) */
  prog q = {0};
  E(&q, VT_INSN_ADDI, T4, ZERO, 4);
  E(&q, VT_INSN_VSETVLI, T4, T4, 0x0c0);
  emit(&q, 0x0100903fu);
  emit(&q, 0x00000203u);
  emit(&q, WORD_ENDPRG);
  vt_error e2;
  CHECK_EQ_U32(st, run_on(&q, &e2, NULL), VT_ERR_ILLEGAL);
  CHECK(st, strstr(e2.message, "pc 0x80000008 (0x000002030100903f vop64.vfadd.vv v1, v2, v3): ") != NULL);
  CHECK_EQ_U32(st, e2.insn, 0x0100903fu);
  CHECK_EQ_U32(st, e2.insn_hi, 0x00000203u);
}

RUN_TESTS(T(reserved_64bit_word_is_illegal), T(shift_amounts), T(trace_and_error_of_64bit_words))
