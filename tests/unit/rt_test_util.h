/* Shared helpers of the runtime tests: the test program (crt0 + the test
 * kernels + the printf example), assembled in memory with libvt's
 * assembler, and a print capture. */
#ifndef VT_RT_TEST_UTIL_H
#define VT_RT_TEST_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/asm.h"
#include "vt_runtime.h"

/* ELF image of crt0.s + tests/kernels/runtime.s + hello.s + vtprintf.s */
static inline uint8_t *rt_test_image(size_t *size) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  *size = 0;
  if (!as) return NULL;
  if (vt_asm_add_file(as, VT_SOURCE_DIR "/examples/kernels/crt0.s") ||
      vt_asm_add_file(as, VT_SOURCE_DIR "/tests/kernels/runtime.s") ||
      vt_asm_add_file(as, VT_SOURCE_DIR "/examples/kernels/hello.s") ||
      vt_asm_add_file(as, VT_SOURCE_DIR "/examples/kernels/vtprintf.s") ||
      vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "assembling the test kernels: %s\n", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  return elf;
}

static inline int rt_test_write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

typedef struct rt_capture {
  char text[65536];
  size_t len;
} rt_capture;

static inline void rt_capture_fn(void *user, const char *text, size_t len) {
  rt_capture *c = user;
  if (c->len + len >= sizeof c->text) len = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, text, len);
  c->len += len;
  c->text[c->len] = 0;
}
#endif
