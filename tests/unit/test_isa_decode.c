/* Decoding and disassembly of known words: the decoding-check table of
 * isa.md 2.8.3 (words from the official compiler's output) and hand-encoded
 * standard instructions. */
#include "check.h"
#include "vt/isa.h"

static void expect_text(check_state *st, uint32_t word, uint32_t pc, const char *text,
                        bool numeric) {
  char buf[128];
  vt_disasm_opts o = {0};
  o.numeric_csr = numeric;
  vt_disasm(word, pc, &o, buf, sizeof buf);
  if (strcmp(buf, text) != 0) {
    st->failed_checks++;
    fprintf(stderr, "0x%08x: got \"%s\", expected \"%s\"\n", word, buf, text);
  }
}

TEST(ventus_words_from_official_output) {
  expect_text(st, 0x02100c5b, 0x80000164, "vbeq\tv1, v0, 0x8000019c", true);
  expect_text(st, 0xfc6392db, 0x80000100, "vbne\tv6, v7, 0x800000c4", true);
  expect_text(st, 0x04c3305b, 0x80000160, "setrpc\tzero, t1, 76", true);
  expect_text(st, 0xfcc3305b, 0x80000160, "setrpc\tzero, t1, -52", true);
  expect_text(st, 0x0000205b, 0x800001a8, "join\tzero, zero, 0", true);
  expect_text(st, 0x0010200b, 0x800000b0, "regext\tzero, zero, 1", true);
  expect_text(st, 0x0480200b, 0x80000100, "regext\tzero, zero, 72", true);
  expect_text(st, 0x4483030b, 0, "vadd12.vi\tv6, v6, 1096", true);
  expect_text(st, 0x0443140b, 0, "vsub12.vi\tv8, v6, 68", true);
  expect_text(st, 0x0000a0fb, 0, "vlw12.v\tv1, 0(v1)", true);
  expect_text(st, 0x0010607b, 0, "vsw12.v\tv1, 0(v0)", true);
  expect_text(st, 0x0062f07b, 0, "vsb12.v\tv6, 0(v5)", true);
  expect_text(st, 0x0003437b, 0, "vlbu12.v\tv6, 0(v6)", true);
  expect_text(st, 0xfe102e2b, 0, "vsw.v\tv1, -4(v0)", true);
  expect_text(st, 0x7fc020ab, 0, "vlw.v\tv1, -4(v0)", true);
  expect_text(st, 0x0400c00b, 0, "barrier\tx0, x0, 1", true);
  expect_text(st, 0x0000400b, 0, "endprg\tx0, x0, x0", true);
  expect_text(st, 0x0d0efed7, 0, "vsetvli\tt4, t4, e32, m1, ta, ma", true);
  expect_text(st, 0x80502373, 0, "csrr\tt1, 2053", true);
  expect_text(st, 0x80502373, 0, "csrr\tt1, wid", false);
  expect_text(st, 0x300eaef3, 0, "csrrs\tt4, mstatus, t4", true);
}

TEST(standard_words) {
  expect_text(st, 0x00500513, 0, "li\ta0, 5", false);
  expect_text(st, 0x00008067, 0, "ret", false);
  expect_text(st, 0x000300e7, 0, "jalr\tt1", false);
  expect_text(st, 0x0ff0000f, 0, "fence", false);
  expect_text(st, 0x0310000f, 0, "fence\trw, w", false);
  expect_text(st, 0x06b6252f, 0, "amoadd.w.aqrl\ta0, a1, (a2)", false);
  expect_text(st, 0xc0051553, 0, "fcvt.w.s\ta0, a0, rtz", false);
  expect_text(st, 0x00c5f553, 0, "fadd.s\ta0, a1, a2", false);
  expect_text(st, 0x002180d7, 0, "vadd.vv\tv1, v2, v3, v0.t", false);
  expect_text(st, 0xffffffff, 0, "<unknown>", false);
  expect_text(st, 0x0000700b, 0, "<unknown>", false); /* custom-0 funct3 111: unused (isa2025.md 2.2) */
}

TEST(decode_ids) {
  CHECK(st, vt_decode(0x0000205b) == VT_INSN_JOIN);
  CHECK(st, vt_decode(0x0600400b) == VT_INSN_BARRIERSUB);
  CHECK(st, vt_decode(0x0800600b) == VT_INSN_VFEXP);
  CHECK(st, vt_decode(0x0c00400b) == VT_INSN_VFTTA_VV);
  CHECK(st, vt_decode(0x00000000) == VT_INSN_INVALID);
}

RUN_TESTS(T(ventus_words_from_official_output), T(standard_words), T(decode_ids))
