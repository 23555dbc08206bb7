/* Assembly source text to a parsed ELF for tests (vt_asm, vt_elf): the
 * one helper the test programs share for kernels written inline. */
#ifndef VT_TEST_ASM_ELF_H
#define VT_TEST_ASM_ELF_H
#include <string.h>

#include "check.h"
#include "vt/asm.h"
#include "vt/elf.h"

/* 'src' (named 'name' in messages) assembled, linked and parsed; NULL with
 * a failed check and the assembler's messages on stderr */
static inline vt_elf *test_assemble(check_state *st, const char *name, const char *src) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *img = NULL;
  size_t size = 0;
  if (!as || vt_asm_add_source(as, name, src, strlen(src)) != 0 ||
      vt_asm_link(as, &img, &size) != 0) {
    fprintf(stderr, "assembling %s failed: %s\n", name, as ? vt_asm_errors(as) : "out of memory");
    st->failed_checks++;
    vt_asm_free(as);
    return NULL;
  }
  vt_asm_free(as);
  char msg[256];
  vt_elf *elf = NULL;
  CHECK(st, vt_elf_open_mem(img, size, &elf, msg, sizeof msg) == 0);
  free(img);
  return elf;
}
#endif
