/* Disassembler -> assembler round trip: for every instruction in the
 * table, 32-bit and 64-bit rows (isa2025.md D1), random operand values are
 * encoded, disassembled (llvm-objdump text, aliases included) and assembled
 * again with vt_asm_one_insn; the instruction must come back unchanged, with
 * its length. This pins the template-driven operand parser to the same table
 * the disassembler uses. Words with an odd register where the row needs a
 * pair print as ".insn 4, 0x..." and round-trip that way. */
#include "check.h"
#include "vt/asm.h"
#include "vt/isa.h"

static uint64_t rng(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  uint64_t hi = *s >> 32;
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return hi << 32 | (*s >> 32);
}

TEST(every_instruction_round_trips) {
  uint64_t seed = 12345;
  int failures = 0;
  size_t rows64 = 0;
  for (size_t id = 0; id < vt_isa_insn_count(); id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    int done = 0;
    for (int k = 0; k < 200; k++) {
      uint64_t w = (rng(&seed) & ~d->mask) | d->match;
      if (d->length == 4) w &= 0xffffffffu;
      vt_insn_id got = d->length == 8 ? vt_decode64(w) : vt_decode((uint32_t)w);
      if (got != (vt_insn_id)id) continue;
      const uint32_t pc = 0x80000400u;
      char text[200], err[160];
      vt_disasm_opts o = {0};
      o.numeric_csr = k & 1;
      o.no_aliases = (k & 2) != 0;
      if (d->length == 8)
        vt_disasm64(w, pc, &o, text, sizeof text);
      else
        vt_disasm((uint32_t)w, pc, &o, text, sizeof text);
      uint64_t again = 0;
      unsigned len = 0;
      int rc = vt_asm_one_insn(text, pc, &again, &len, err, sizeof err);
      bool ok = rc == 0 && again == w && len == d->length;
      if (!ok && failures++ < 20)
        fprintf(stderr, "0x%llx \"%s\" -> %s 0x%llx (%u bytes)\n", (unsigned long long)w, text,
                rc ? err : "word", (unsigned long long)again, len);
      CHECK(st, ok);
      done++;
    }
    /* only regext/regexti (bits 19:7 fixed) and rows with few free bits
     * decode rarely from random words; every row must be exercised */
    if (done == 0) {
      st->failed_checks++;
      fprintf(stderr, "%s: no random word decoded as this row\n", d->mnemonic);
    }
    rows64 += d->length == 8;
  }
  /* the VOP64 rows (isa2025.md 3.8: 12 operations x 2 forms) and the MMA64
   * rows (3.7, 3.6.2: 248 type x shape x C/D x layout x rounding forms) */
  CHECK(st, rows64 == 24 + 248);
}

/* 32-bit words keep working through vt_asm_one; a 64-bit instruction is
 * not one word */
TEST(one_word_api) {
  uint32_t w = 0;
  char err[160];
  CHECK(st, vt_asm_one("addw a0, a2, a4", 0, &w, err, sizeof err) == 0 && w == 0x00e6053bu);
  CHECK(st, vt_asm_one("vop64.vadd.vv v10, v20, v30", 0, &w, err, sizeof err) != 0);
  CHECK_STR(st, err, "a 64-bit instruction where one word was expected");
}

RUN_TESTS(T(every_instruction_round_trips), T(one_word_api))
