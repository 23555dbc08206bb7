/* The simulator's v2025 decode rules: 64-bit instructions are fetched as
 * two parcels (a reserved one is an illegal instruction at its own pc,
 * nothing after it runs); slli/srli/srai with an amount >= 32 are illegal
 * without a pair prefix (D18) while the v2.02 amounts still work. */
#include "check.h"
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

RUN_TESTS(T(reserved_64bit_word_is_illegal), T(shift_amounts))
