/* The v2025 assembler syntax (isa2025.md 3.1-3.5, 3.8, 5.2, 5.3): keyed
 * operands in any order, literal `zero` operands of regext/regexti, x and v
 * registers up to 255 in 8-bit fields only, register pairs, the .insn
 * forms, and the errors for what `vt as` can see in the text. Expected words
 * are built by hand from the bit layouts of the specification. */
#include "asm_test_util.h"
#include "check.h"
#include "vt/isa.h"

static void expect_insn(check_state *st, const char *line, uint64_t want, unsigned want_len) {
  uint64_t got = 0;
  unsigned len = 0;
  char err[200] = "";
  int rc = vt_asm_one_insn(line, 0x80000000u, &got, &len, err, sizeof err);
  if (rc != 0 || got != want || len != want_len) {
    st->failed_checks++;
    fprintf(stderr, "\"%s\": %s 0x%llx (%u bytes), expected 0x%llx (%u)\n", line,
            rc ? err : "got", (unsigned long long)got, len, (unsigned long long)want, want_len);
  }
}

static void expect_error(check_state *st, const char *line, const char *want) {
  uint64_t got = 0;
  unsigned len = 0;
  char err[200] = "";
  int rc = vt_asm_one_insn(line, 0x80000000u, &got, &len, err, sizeof err);
  CHECK(st, rc != 0);
  if (strcmp(err, want) != 0) fprintf(stderr, "line: %s\n", line);
  CHECK_STR(st, err, want);
}

TEST(keyed_operands_in_any_order) {
  /* 3.5.1: ext 31:20, ABS 17:15, 010, pair 10, NEG 9:7, 0001011 */
  expect_insn(st, "prefix ext=4095, pair=1, neg=7, abs=7", 0xfff3a78bu, 4);
  expect_insn(st, "prefix abs=7, neg=7, pair=1, ext=4095", 0xfff3a78bu, 4);
  expect_insn(st, "prefixi abs = 7 , ext=4095,neg=7", 0xfff3b38bu, 4);
  /* 3.5.3: width 9:8 = 01, ext 31:20 = 9 */
  expect_insn(st, "prefix_memory ext=9, width=64", 0x0090510bu, 4);
  expect_insn(st, "prefix_memory", 0x0000500bu, 4);
  expect_insn(st, "prefix_memory space=default, width=32, pair=0, hint=0, ext=0", 0x0000500bu, 4);
  /* 3.8.1: every modifier, written in reverse order */
  expect_insn(st, "vop64.vfmul.vv v255, v254, v253, clamp=1, omod=3, opsel=7, abs=3, neg=3",
              0x0fdbfefdff90903full, 8);
  /* x255 in the 8-bit rs1 field: 0x3f | 001 << 12 | OPIVX 100 << 15 | vd 1 << 24 | rs1 255 << 32
   * | vs2 2 << 40 */
  expect_insn(st, "vop64.vadd.vx v1, v2, x255", 0x000002ff0102103full, 8);
}

TEST(registers_pairs_and_literals) {
  /* regext/regexti: rd = rs1 = x0, written zero or x0 (D41) */
  expect_insn(st, "regext x0, zero, 72", 0x0480200bu, 4);
  expect_insn(st, "regexti zero, x0, 65", 0x0410300bu, 4);
  /* vmerge's literal v0 */
  expect_insn(st, "vmerge.vvm v1, v2, v3, v0", 0x5c2180d7u, 4);
  /* pairs: even registers (3.1.2-3.1.4, 3.4); ld/sd data registers are single */
  expect_insn(st, "ld a1, -8(a2)", 0xff863583u, 4);
  expect_insn(st, "sd a1, 16(a2)", 0x00b63823u, 4);
  expect_insn(st, "lr.d.rl a0, (t1)", 0x1203352fu, 4);
  expect_insn(st, "slliw a0, a2, 31", 0x01f6151bu, 4);
  expect_insn(st, "srli a0, a2, 63", 0x03f65513u, 4);
  expect_insn(st, "vsw12d.v v3, 4(v2)", 0x0031622au, 4);
  expect_insn(st, "vfcvt.f.h.v v1, v2, v0.t", 0x482c10d7u, 4);
}

TEST(errors_the_text_shows) {
  expect_error(st, "addw a1, a2, a4", "rd of addw is a register pair: x11 is odd");
  expect_error(st, "subw a0, a3, a4", "rs1 of subw is a register pair: x13 is odd");
  expect_error(st, "sraw a0, a2, a5", "rs2 of sraw is a register pair: x15 is odd");
  expect_error(st, "ld a0, 0(a1)", "rs1 of ld is a register pair: x11 is odd");
  expect_error(st, "amoadd.d.aqrl a0, a1, (s1)", "rs1 of amoadd.d.aqrl is a register pair: x9 is odd");
  expect_error(st, "vlw12d.v v2, 0(v3)", "rs1 of vlw12d.v is a register pair: v3 is odd");
  expect_error(st, "slliw a0, a2, 32", "immediate 32 out of range [0, 31]");
  expect_error(st, "regext ra, zero, 5", "expected 'zero'");
  expect_error(st, "prefix ext=5",
               "these operands give the word 0x0050200b of another instruction: write 'regext "
               "zero, zero, 5'");
  expect_error(st, "prefixi", "these operands give the word 0x0000300b of another instruction: "
                              "write 'regexti zero, zero, 0'");
  expect_error(st, "prefix neg=1, neg=2", "key 'neg' given twice");
  expect_error(st, "prefixi pair=1", "expected key=value with a key of: ext, neg, abs");
  expect_error(st, "prefix neg=8", "immediate 8 out of range [0, 7]");
  expect_error(st, "prefix_memory width=48", "width must be 32, 64, 96 or 128");
  expect_error(st, "prefix_memory space=shared", "bad space 'shared' (default, global, private or local)");
  expect_error(st, "vop64.vadd.vv v1, v2, v3, omod=1",
               "expected key=value with a key of: neg, abs, opsel");
  expect_error(st, "vop64.vfadd.vv v1, v2, v3, neg=4", "immediate 4 out of range [0, 3]");
  expect_error(st, "vop64.vadd.vv v1, v2, v3 neg=1", "expected ','");
  expect_error(st, "vop64.vadd.vx v1, v2, x256", "bad register 'x256' (expected a scalar register)");
  /* x32.. in a 5-bit field: the assembler prefixes a regext word (isa.md
   * 2.6; test_asm_regext checks the words), so the line is two words */
  expect_error(st, "add x40, a0, a1", "expected exactly one instruction");
  expect_error(st, "vadd.vv v1, v32, v3", "expected exactly one instruction");
}

TEST(insn_directive) {
  /* 5.2 */
  expect_insn(st, ".insn r 0x41, 0x1, 0x0, x5, x6, x7", 0x007312c1u, 4);
  expect_insn(st, ".insn i 0x76, 2, v1, v2, -4", 0xffc120f6u, 4);
  expect_insn(st, ".insn 4, 0x0020c1e1", 0x0020c1e1u, 4);
  expect_insn(st, ".insn 0x00000001", 0x00000001u, 4); /* bits 1:0 need not be 11 (D1) */
  expect_insn(st, ".insn 8, 0x068000464c80003f", 0x068000464c80003full, 8);
  expect_insn(st, ".insn 0x014102030100903f", 0x014102030100903full, 8);
  expect_insn(st, ".insn 0x3f", 0x3fu, 8); /* a 0x3f value is 64-bit whatever its size */
  expect_error(st, ".insn 4, 0x0000103f",
               "a word with bits 6:0 = 0x3f starts a 64-bit instruction (.insn 8, VALUE)");
  expect_error(st, ".insn 8, 0x13", "a 64-bit instruction needs bits 6:0 = 0x3f");
  expect_error(st, ".insn 2, 0x13", ".insn length must be 4 or 8");
  expect_error(st, ".insn 0x100000013", ".insn value must be a 32-bit constant");
  expect_error(st, ".insn r 0x3f, 0, 0, x1, x2, x3",
               "opcode 0x3f starts a 64-bit instruction (use .insn 8, VALUE)");
  expect_error(st, ".insn r 0x33, 0, 0, x1, x2, x40", "register does not fit a 5-bit field");
}

/* 64-bit instructions in a file: two parcels, low first, and constants only */
TEST(sixty_four_bit_in_a_file) {
  img im;
  CHECK(st, build1(&im, "_start:\n  nop\n  vop64.vadd.vv v10, v20, v30\n  nop\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x0a00103fu);
  CHECK_EQ_U32(st, text_word(&im, 2), 0x0000141eu);
  CHECK_EQ_U32(st, text_word(&im, 3), 0x00000013u);
  img_free(&im);
  CHECK(st, build1(&im, ".equ N, 2\n_start:\n  vop64.vadd.vv v1, v2, v3, neg=N\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x00020203u);
  img_free(&im);
  CHECK(st, build1(&im, "_start:\n  vop64.vadd.vv v1, v2, v3, neg=later\nlater:\n") != 0);
  CHECK_STR(st, im.errors, "t.s:2:33: error: operands of a 64-bit instruction must be constants\n");
  img_free(&im);
}

RUN_TESTS(T(keyed_operands_in_any_order), T(registers_pairs_and_literals), T(errors_the_text_shows),
          T(insn_directive), T(sixty_four_bit_in_a_file))
