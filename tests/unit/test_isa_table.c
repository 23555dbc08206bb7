/* The instruction table's self-checks: the real table passes, and each broken
 * table in tests/isa/bad_tables is rejected with a message naming the
 * offending entries. Also structural facts of the real table. */
#include "check.h"
#include "operand_table.h"
#include "vt/isa.h"

#define SEM(op, lat, ew, fl) VT_SEM_##op, VT_LAT_##lat, VT_EW_##ew, (fl)
#define MEM(kind, amode, size) VT_MEM_##kind, VT_AM_##amode, size
#define INSN(id, mn, match, mask, cls, syn, sem, mem) {#id, mn, match, mask, cls, syn, {sem, mem}},
static const vt_raw_insn real_table[] = {
#include "vt/isa_insns.def"
#include "vt/isa_insns_v2025.def"
};
static const vt_raw_insn bad_overlap[] = {
#include "isa/bad_tables/overlap.def"
};
static const vt_raw_insn bad_uncovered[] = {
#include "isa/bad_tables/uncovered.def"
};
static const vt_raw_insn bad_clash[] = {
#include "isa/bad_tables/clash.def"
};
static const vt_raw_insn bad_unknown_operand[] = {
#include "isa/bad_tables/unknown_operand.def"
};
static const vt_raw_insn bad_match_outside_mask[] = {
#include "isa/bad_tables/match_outside_mask.def"
};
static const vt_raw_insn bad_shared_bits[] = {
#include "isa/bad_tables/shared_bits.def"
};
static const vt_raw_insn bad_overlap64[] = {
#include "isa/bad_tables/overlap64.def"
};
static const vt_raw_insn bad_length[] = {
#include "isa/bad_tables/length.def"
};
static const vt_raw_insn bad_keyed[] = {
#include "isa/bad_tables/keyed.def"
};
static const vt_raw_insn good_table[] = {
#include "isa/bad_tables/good.def"
};
#undef INSN

#define CHECK_TABLE(st, tbl, want_problems, ...)                                          \
  do {                                                                                    \
    char err_[4096];                                                                      \
    int n_ = vt_isa_check_table(tbl, sizeof tbl / sizeof tbl[0], vt_operand_table,        \
                                VT_OP_COUNT, err_, sizeof err_);                          \
    if ((want_problems) != (n_ > 0)) {                                                    \
      (st)->failed_checks++;                                                              \
      fprintf(stderr, "%s: %d problems, messages:\n%s", #tbl, n_, err_);                 \
    }                                                                                     \
    const char *needles_[] = {__VA_ARGS__};                                               \
    for (size_t i_ = 0; i_ < sizeof needles_ / sizeof needles_[0]; i_++)                  \
      if (needles_[i_][0] && !strstr(err_, needles_[i_])) {                               \
        (st)->failed_checks++;                                                            \
        fprintf(stderr, "%s: message lacks \"%s\":\n%s", #tbl, needles_[i_], err_);       \
      }                                                                                   \
  } while (0)

TEST(real_table_passes) { CHECK_TABLE(st, real_table, false, ""); }
TEST(good_table_passes) { CHECK_TABLE(st, good_table, false, ""); }
TEST(overlap_rejected) { CHECK_TABLE(st, bad_overlap, true, "'add' (ADD) and 'addx' (ADDX) overlap"); }
TEST(uncovered_rejected) {
  CHECK_TABLE(st, bad_uncovered, true, "'addq' (ADDQ): bits 0xfe000000 are neither fixed");
}
TEST(clash_rejected) { CHECK_TABLE(st, bad_clash, true, "'addi' (ADDI): operand 'imm12' overlaps"); }
TEST(unknown_operand_rejected) {
  CHECK_TABLE(st, bad_unknown_operand, true, "'foo' (FOO): syntax \"rd, rs1, imm13\" names unknown operand 'imm13'");
}
TEST(match_outside_mask_rejected) {
  CHECK_TABLE(st, bad_match_outside_mask, true, "'bar' (BAR): match 0x8000005b has bits outside");
}
TEST(shared_bits_rejected) {
  CHECK_TABLE(st, bad_shared_bits, true, "'baz' (BAZ): operand 'vd' shares bits");
}

/* isa2025.md D1 and 2.6: 64-bit rows overlap only among themselves, a
 * declared superset must contain the other row */
TEST(overlap64_rejected) {
  CHECK_TABLE(st, bad_overlap64, true,
              "'vop64.vadd.vv' (VOPADD) and 'vop64.any' (VOPANY) overlap: word 0x000000000000103f",
              "'pfxa' (PFXA) and 'pfxb' (PFXB) overlap: word 0x0000200b");
}
TEST(length_rule_enforced) {
  CHECK_TABLE(st, bad_length, true, "'wide' (WIDE): bits above 31 in a 32-bit row",
              "'far' (FAR): operand 'v8s2' lies outside the 4-byte instruction",
              "'open64' (OPEN64): bits 0xf000000000000000 are neither fixed");
}
TEST(keyed_syntax_rejected) {
  CHECK_TABLE(st, bad_keyed, true, "keyed operand 'pext' needs a \"key=\" before it",
              "keyed operand 'pneg' is followed by a positional one");
}

TEST(all_33_ventus_custom_instructions_present) {
  static const char *const names[] = {
      "vbeq", "vbne", "vblt", "vbge", "vbltu", "vbgeu", "join", "setrpc", "vadd12.vi",
      "vsub12.vi", "regext", "regexti", "endprg", "barrier", "barriersub", "vftta.vv", "vfexp",
      "vlb12.v", "vlh12.v", "vlw12.v", "vsh12.v", "vlbu12.v", "vlhu12.v", "vsw12.v", "vsb12.v",
      "vlb.v", "vlh.v", "vlw.v", "vlbu.v", "vlhu.v", "vsb.v", "vsh.v", "vsw.v"};
  CHECK(st, sizeof names / sizeof names[0] == 33);
  for (size_t i = 0; i < 33; i++) {
    uint16_t id;
    if (vt_isa_find_insns(names[i], strlen(names[i]), &id, 1) != 1) {
      st->failed_checks++;
      fprintf(stderr, "missing custom instruction %s\n", names[i]);
    }
  }
}

/* Spot checks of MATCH/MASK against isa.md 2.0 and isa2025.md 2.3
 * (independent numbers): regext/regexti are the PREFIX/PREFIXI words with
 * bits 19:7 = 0 (isa2025.md D7). */
TEST(custom_encodings_match_spec) {
  static const struct {
    vt_insn_id id;
    uint32_t match, mask;
  } spec[] = {
      {VT_INSN_VBEQ, 0x0000005b, 0x0000707f},    {VT_INSN_JOIN, 0x0000205b, 0x0000707f},
      {VT_INSN_SETRPC, 0x0000305b, 0x0000707f},  {VT_INSN_VADD12_VI, 0x0000000b, 0x0000707f},
      {VT_INSN_VSUB12_VI, 0x0000100b, 0x0000707f}, {VT_INSN_REGEXTI, 0x0000300b, 0x000fffff},
      {VT_INSN_ENDPRG, 0x0000400b, 0xfe00707f},  {VT_INSN_BARRIER, 0x0400400b, 0xfe00707f},
      {VT_INSN_BARRIERSUB, 0x0600400b, 0xfe00707f}, {VT_INSN_VFTTA_VV, 0x0c00400b, 0xfc00707f},
      {VT_INSN_VFEXP, 0x0800600b, 0xfc0ff07f},   {VT_INSN_VSH12_V, 0x0000307b, 0x0000707f},
      {VT_INSN_VSB12_V, 0x0000707b, 0x0000707f}, {VT_INSN_VLHU_V, 0x0000502b, 0x8000707f},
      {VT_INSN_VSW_V, 0x8000202b, 0x8000707f},   {VT_INSN_REGEXT, 0x0000200b, 0x000fffff},
      {VT_INSN_PREFIX, 0x0000200b, 0x000c787f},  {VT_INSN_PREFIXI, 0x0000300b, 0x000c7c7f},
      {VT_INSN_PREFIX_MEMORY, 0x0000500b, 0x0000707f},
  };
  for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
    const vt_insn_desc *d = vt_isa_insn(spec[i].id);
    CHECK(st, d->match == spec[i].match && d->mask == spec[i].mask && d->length == 4);
  }
}

TEST(operand_fields) {
  /* B-type: 0xfc6392db is vbne v6, v7 with offset -60 (isa.md 2.8.3) */
  CHECK(st, vt_operand_get(VT_OP_BIMM, 0xfc6392db) == -60);
  CHECK_EQ_U32(st, vt_operand_set(VT_OP_BIMM, 0x0000105b, -60) | (6u << 20) | (7u << 15),
               0xfc6392db);
  /* S11 private store immediate: 0xfe102e2b has imm -4 */
  CHECK(st, vt_operand_get(VT_OP_S11IMM, 0xfe102e2b) == -4);
  CHECK(st, vt_operand_get(VT_OP_L11IMM, 0x7fc020ab) == -4);
  CHECK(st, vt_operand_fits(VT_OP_BIMM, 4094) && !vt_operand_fits(VT_OP_BIMM, 4096));
  CHECK(st, !vt_operand_fits(VT_OP_BIMM, 3));
  CHECK(st, vt_operand_fits(VT_OP_VIMM12, 4095) && vt_operand_fits(VT_OP_VIMM12, -2048));
  CHECK(st, !vt_operand_fits(VT_OP_IMM12, 2048));
  CHECK(st, vt_operand_get(VT_OP_JIMM, 0x0e4000ef) == 0xe4); /* jal 0x800001bc from 0x800000d8 */
}

TEST(csr_names) {
  CHECK(st, vt_parse_csr("tid", 3) == 0x800);
  CHECK(st, vt_parse_csr("CSR_TID", 7) == 0x800);
  CHECK(st, vt_parse_csr("CSR_RPC", 7) == 0x80c);
  CHECK(st, vt_parse_csr("CSR_GIDZ", 8) == 0x80a);
  CHECK(st, vt_parse_csr("mstatus", 7) == 0x300);
  CHECK(st, vt_parse_csr("CSR_MSTATUS", 11) == -1);
  CHECK(st, vt_parse_csr("vlenb", 5) == 0xc22);
  CHECK_STR(st, vt_csr_name(0x805), "wid");
  CHECK(st, vt_csr_is_ventus(0x805) && !vt_csr_is_ventus(0x300));
}

RUN_TESTS(T(real_table_passes), T(good_table_passes), T(overlap_rejected), T(uncovered_rejected),
          T(clash_rejected), T(unknown_operand_rejected), T(match_outside_mask_rejected),
          T(shared_bits_rejected), T(overlap64_rejected), T(length_rule_enforced),
          T(keyed_syntax_rejected), T(all_33_ventus_custom_instructions_present),
          T(custom_encodings_match_spec), T(operand_fields), T(csr_names))
