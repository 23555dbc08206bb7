/* Kernel source text to a parsed ELF for the benchmarks (the one helper
 * bench_sim, bench_timing and bench_mmu share). */
#ifndef VT_BENCH_ASM_H
#define VT_BENCH_ASM_H
#include <stdio.h>
#include <stdlib.h>

#include "vt/asm.h"
#include "vt/elf.h"

/* The kernel source assembled and parsed; NULL on failure (message on
 * stderr). */
static inline vt_elf *bench_assemble(const char *name, const char *source, size_t size) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *image = NULL;
  size_t image_size = 0;
  if (!as || vt_asm_add_source(as, name, source, size) != 0 ||
      vt_asm_link(as, &image, &image_size) != 0) {
    fprintf(stderr, "bench: assembling the kernel failed:\n%s", as ? vt_asm_errors(as) : "");
    vt_asm_free(as);
    return NULL;
  }
  vt_asm_free(as);
  char msg[256];
  vt_elf *elf;
  int rc = vt_elf_open_mem(image, image_size, &elf, msg, sizeof msg);
  free(image);
  if (rc != 0) {
    fprintf(stderr, "bench: %s\n", msg);
    return NULL;
  }
  return elf;
}
#endif
