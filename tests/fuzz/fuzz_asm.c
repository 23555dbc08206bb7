/* libFuzzer target: the assembler front end and linker (vt/asm.h).
 *
 * The input is one source file: vt_asm_new, vt_asm_add_source (from an
 * exact-size, non-NUL-terminated buffer), vt_asm_link, vt_asm_errors,
 * vt_asm_free. Inputs of odd length use non-default options (-Ttext, -e).
 * The first line also goes through vt_asm_one; a word it produces must
 * disassemble and re-assemble to itself. When the ELF reader is built too
 * (VT_FUZZ_HAVE_ELF), every linked image must parse. Inconsistencies
 * abort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vt/asm.h"
#include "vt/isa.h"
#ifdef VT_FUZZ_HAVE_ELF
#include "vt/elf.h"
#endif

static void check_errors(const vt_asm *as) {
  const char *errs = vt_asm_errors(as);
  FUZZ_CHECK(errs != NULL, "vt_asm_errors returned NULL");
  size_t n = vt_asm_error_count(as);
  size_t len = strlen(errs); /* ASan: must be a terminated string */
  if (n > 0) FUZZ_CHECK(len > 0, "%zu errors but an empty message text", n);
}

static void check_one(const uint8_t *data, size_t size) {
  size_t len = 0;
  while (len < size && len < 512 && data[len] != '\n') len++;
  char *line = malloc(len + 1);
  FUZZ_CHECK(line != NULL, "out of memory");
  memcpy(line, data, len);
  line[len] = 0;
  const uint32_t pc = 0x80000000u;
  uint32_t word = 0;
  char err[128];
  memset(err, 0, sizeof err);
  if (vt_asm_one(line, pc, &word, err, sizeof err) == 0) {
    char text[256];
    int tl = vt_disasm(word, pc, NULL, text, sizeof text);
    /* .insn may give any 32-bit word; every other line a decodable one */
    bool raw = strstr(line, ".insn") != NULL;
    FUZZ_CHECK(raw || vt_decode(word) != VT_INSN_INVALID,
               "\"%s\" assembled to undecodable 0x%08x", line, word);
    if (vt_decode(word) != VT_INSN_INVALID && tl > 0 && (size_t)tl < sizeof text) {
      uint32_t again = 0;
      char err2[128];
      int rc = vt_asm_one(text, pc, &again, err2, sizeof err2);
      FUZZ_CHECK(rc == 0, "\"%s\" -> 0x%08x -> \"%s\" does not assemble: %s", line, word, text,
                 err2);
      FUZZ_CHECK(again == word, "\"%s\" -> 0x%08x -> \"%s\" -> 0x%08x", line, word, text, again);
    }
  } else {
    FUZZ_CHECK(memchr(err, 0, sizeof err) != NULL && err[0] != 0,
               "vt_asm_one failed without a message for \"%s\"", line);
  }
  /* a tiny message buffer must stay terminated and in bounds */
  char *tiny = malloc(3);
  FUZZ_CHECK(tiny != NULL, "out of memory");
  memset(tiny, 'X', 3);
  if (vt_asm_one(line, pc, &word, tiny, 3) != 0)
    FUZZ_CHECK(memchr(tiny, 0, 3) != NULL, "unterminated message in a 3-byte buffer");
  free(tiny);
  free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the input length picks the options: 0/2 mod 4 defaults, 1 -Ttext,
   * 3 -Ttext and -e main */
  vt_asm_options opts = {0};
  opts.text_addr = 0x1000;
  opts.entry = (size & 3) == 3 ? "main" : NULL;
  vt_asm *as = vt_asm_new((size & 1) ? &opts : NULL);
  FUZZ_CHECK(as != NULL, "vt_asm_new failed");
  check_errors(as);
  FUZZ_CHECK(vt_asm_error_count(as) == 0, "errors in a new session");

  /* exact-size copy without a terminating NUL: reads past 'size' are bugs */
  char *text = malloc(size ? size : 1);
  FUZZ_CHECK(text != NULL, "out of memory");
  if (size) memcpy(text, data, size);
  int rc = vt_asm_add_source(as, "fuzz.s", text, size);
  free(text); /* the session must not keep pointers into the source */
  FUZZ_CHECK(rc == 0 || rc == -1, "vt_asm_add_source returned %d", rc);
  if (rc != 0) FUZZ_CHECK(vt_asm_error_count(as) > 0, "add_source failed without errors");
  check_errors(as);

  uint8_t *elf = NULL;
  size_t elf_size = 0;
  int lrc = vt_asm_link(as, &elf, &elf_size);
  FUZZ_CHECK(lrc == 0 || lrc == -1, "vt_asm_link returned %d", lrc);
  check_errors(as);
  if (lrc == 0) {
    FUZZ_CHECK(rc == 0, "link succeeded after vt_asm_add_source failed");
    FUZZ_CHECK(elf != NULL && elf_size >= 52, "link succeeded with a %zu-byte image", elf_size);
    FUZZ_CHECK(memcmp(elf, "\177ELF", 4) == 0, "linked image is not ELF");
#ifdef VT_FUZZ_HAVE_ELF
    vt_elf *e = NULL;
    char err[256];
    FUZZ_CHECK(vt_elf_open_mem(elf, elf_size, &e, err, sizeof err) == 0,
               "the ELF reader rejects the linked image: %s", err);
    vt_elf_free(e);
#endif
    free(elf);
  } else {
    FUZZ_CHECK(vt_asm_error_count(as) > 0, "link failed without errors");
  }
  vt_asm_free(as);

  check_one(data, size);
  return 0;
}
