/* Mnemonic look-up with names that are not NUL-terminated C strings (the
 * assembler passes slices of the source line). Found by fuzz_decode: a NUL
 * inside the slice made strncmp stop early and the look-up read past the
 * end of the table string. */
#include "check.h"
#include "vt/isa.h"

TEST(find_with_embedded_nul) {
  uint16_t ids[4];
  CHECK(st, vt_isa_find_aliases("bgt\0D", 5, ids, 4) == 0);
  CHECK(st, vt_isa_find_insns("add\0x", 5, ids, 4) == 0);
  CHECK(st, vt_isa_find_insns("add\0", 4, ids, 4) == 0);
}

TEST(find_slices) {
  uint16_t ids[4];
  CHECK(st, vt_isa_find_insns("addi a0", 4, ids, 4) == 1);
  CHECK_STR(st, vt_isa_insn((vt_insn_id)ids[0])->mnemonic, "addi");
  CHECK(st, vt_isa_find_insns("add", 3, ids, 4) == 1);
  CHECK_STR(st, vt_isa_insn((vt_insn_id)ids[0])->mnemonic, "add");
  CHECK(st, vt_isa_find_insns("ad", 2, ids, 4) == 0);
  CHECK(st, vt_isa_find_insns("", 0, ids, 4) == 0);
  CHECK(st, vt_isa_find_aliases("jalr", 4, ids, 4) >= 2);
  CHECK(st, vt_isa_find_aliases("jalrx", 4, ids, 4) >= 2);
  CHECK(st, vt_isa_find_aliases("zzz", 3, ids, 4) == 0);
}

RUN_TESTS(T(find_with_embedded_nul), T(find_slices))
