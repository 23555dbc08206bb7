/* Disassembler -> assembler round trip: for every instruction in the
 * table, random operand values are encoded, disassembled (llvm-objdump
 * text, aliases included) and assembled again with vt_asm_one; the word
 * must come back unchanged. This pins the template-driven operand parser to
 * the same table the disassembler uses. */
#include "check.h"
#include "vt/asm.h"
#include "vt/isa.h"

static uint32_t rng(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 32);
}

TEST(every_instruction_round_trips) {
  uint64_t seed = 12345;
  int failures = 0;
  for (size_t id = 0; id < vt_isa_insn_count(); id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    for (int k = 0; k < 200; k++) {
      uint32_t w = (rng(&seed) & ~d->mask) | d->match;
      if (vt_decode(w) != (vt_insn_id)id) continue;
      const uint32_t pc = 0x80000400u;
      char text[160], err[160];
      vt_disasm_opts o = {0};
      o.numeric_csr = k & 1;
      o.no_aliases = (k & 2) != 0;
      vt_disasm(w, pc, &o, text, sizeof text);
      uint32_t again = 0;
      int rc = vt_asm_one(text, pc, &again, err, sizeof err);
      if ((rc != 0 || again != w) && failures++ < 20)
        fprintf(stderr, "0x%08x \"%s\" -> %s 0x%08x\n", w, text, rc ? err : "word", again);
      CHECK(st, rc == 0 && again == w);
    }
  }
}

RUN_TESTS(T(every_instruction_round_trips))
