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

static void expect_text64(check_state *st, uint64_t insn, const char *text) {
  char buf[160];
  vt_disasm64(insn, 0, NULL, buf, sizeof buf);
  if (strcmp(buf, text) != 0) {
    st->failed_checks++;
    fprintf(stderr, "0x%016llx: got \"%s\", expected \"%s\"\n", (unsigned long long)insn, buf,
            text);
  }
}

/* isa2025.md: words built by hand from the bit layouts */
TEST(v2025_words) {
  /* D1: the length comes from bits 6:0 only */
  CHECK(st, vt_insn_length(0x0000003f) == 8 && vt_insn_length(0xffffffbf) == 8);
  CHECK(st, vt_insn_length(0x0000007f) == 4 && vt_insn_length(0x00000001) == 4);
  CHECK(st, vt_decode(0x0a00103f) == VT_INSN_INVALID); /* a first parcel alone */
  expect_text(st, 0x00000001, 0, "<unknown>", false);
  /* 3.1: pairs; an odd register prints the raw word (the text would not assemble) */
  expect_text(st, 0x00e6053b, 0, "addw\ta0, a2, a4", false);
  expect_text(st, 0x00e605bb, 0, ".insn\t4, 0x00e605bb # addw a1, a2, a4 (odd register pair)", false);
  expect_text(st, 0xff85b583, 0, ".insn\t4, 0xff85b583 # ld a1, -8(a1) (odd register pair)", false);
  expect_text(st, 0x02861513, 0, "slli\ta0, a2, 40", false);
  /* 2.5: the range CSRs by name, or numbers with --numeric-csr */
  expect_text(st, 0x81002573, 0, "csrr\ta0, gds", false);
  expect_text(st, 0x81159073, 0, "csrw\tgds_limit, a1", false);
  expect_text(st, 0x81202673, 0, "csrr\ta2, 2066", true);
  /* 3.5.1: bits 19:7 = 0 is regext; a modifier makes it prefix; reserved
   * bits 11 and 19:18 (and 10 of prefixi) make it unknown */
  expect_text(st, 0x0000208b, 0, "prefix\tneg=1", false);
  expect_text(st, 0x0010a00b, 0, "prefix\text=1, abs=1", false);
  expect_text(st, 0x0000280b, 0, "<unknown>", false);
  expect_text(st, 0x0004200b, 0, "<unknown>", false);
  expect_text(st, 0x0000340b, 0, "<unknown>", false);
  expect_text(st, 0x0000300b, 0, "regexti\tzero, zero, 0", false);
  /* 3.5.3: all fields at their defaults */
  expect_text(st, 0x0000500b, 0, "prefix_memory", false);
  expect_text(st, 0x0002d98b, 0, "prefix_memory\tspace=private, width=64, pair=1, hint=5", false);
  /* 3.8: VOP64; reserved bits 63:60, 11:7, NEG[2], integer OMOD are unknown */
  expect_text64(st, 0x0000141e0a00103full, "vop64.vadd.vv\tv10, v20, v30");
  expect_text64(st, 0x000002280102903full, "vop64.vfadd.vf\tv1, v2, x40");
  expect_text64(st, 0x1000141e0a00103full, "<unknown>");
  expect_text64(st, 0x0000141e0a00113full, "<unknown>");
  expect_text64(st, 0x0004141e0a00103full, "<unknown>");
  expect_text64(st, 0x0200141e0a00103full, "<unknown>");
  expect_text64(st, 0x0200141e0a00903full, "vop64.vfadd.vv\tv10, v20, v30, omod=1");
  expect_text64(st, 0x000000000000203full, "<unknown>"); /* sub-op 010: reserved */
  CHECK(st, vt_decode64(0x0000141e0a00103full) == VT_INSN_VOP64_VADD_VV);
}

RUN_TESTS(T(ventus_words_from_official_output), T(standard_words), T(decode_ids), T(v2025_words))
