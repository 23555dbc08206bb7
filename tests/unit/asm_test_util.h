/* Helpers for the assembler tests: assemble sources with the library and
 * read sections/symbols/program headers back from the ELF image (a small
 * self-contained reader on glibc <elf.h>). */
#ifndef VT_ASM_TEST_UTIL_H
#define VT_ASM_TEST_UTIL_H
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/asm.h"

typedef struct img {
  uint8_t *p;
  size_t n;
  char errors[4096];
  size_t nerrors;
} img;

/* Assemble files (name, text pairs, NULL-terminated) and link. 0 on success. */
static inline int build_opts(img *im, const vt_asm_options *o, const char *const *files) {
  memset(im, 0, sizeof *im);
  vt_asm *as = vt_asm_new(o);
  if (!as) return -1;
  for (size_t i = 0; files[i]; i += 2) vt_asm_add_source(as, files[i], files[i + 1], strlen(files[i + 1]));
  int rc = -1;
  if (!vt_asm_error_count(as)) rc = vt_asm_link(as, &im->p, &im->n);
  snprintf(im->errors, sizeof im->errors, "%s", vt_asm_errors(as));
  im->nerrors = vt_asm_error_count(as);
  vt_asm_free(as);
  return rc;
}
static inline int build1(img *im, const char *src) {
  const char *files[] = {"t.s", src, NULL};
  return build_opts(im, NULL, files);
}
static inline void img_free(img *im) { free(im->p); im->p = NULL; }

static inline const Elf32_Ehdr *ehdr(const img *im) {
  return im->n >= sizeof(Elf32_Ehdr) ? (const Elf32_Ehdr *)im->p : NULL;
}
static inline const Elf32_Shdr *shdr(const img *im, unsigned i) {
  const Elf32_Ehdr *h = ehdr(im);
  if (!h || i >= h->e_shnum || h->e_shoff + (size_t)(i + 1) * sizeof(Elf32_Shdr) > im->n) return NULL;
  return (const Elf32_Shdr *)(im->p + h->e_shoff) + i;
}
static inline const char *shname(const img *im, const Elf32_Shdr *s) {
  const Elf32_Shdr *str = shdr(im, ehdr(im)->e_shstrndx);
  return str ? (const char *)im->p + str->sh_offset + s->sh_name : "";
}
/* Section by name, or NULL. */
static inline const Elf32_Shdr *section(const img *im, const char *name, unsigned *index) {
  const Elf32_Ehdr *h = ehdr(im);
  for (unsigned i = 1; h && i < h->e_shnum; i++) {
    const Elf32_Shdr *s = shdr(im, i);
    if (s && !strcmp(shname(im, s), name)) {
      if (index) *index = i;
      return s;
    }
  }
  return NULL;
}
static inline const uint8_t *sec_data(const img *im, const Elf32_Shdr *s) { return im->p + s->sh_offset; }
static inline uint32_t word_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
/* i-th word of .text */
static inline uint32_t text_word(const img *im, unsigned i) {
  const Elf32_Shdr *t = section(im, ".text", NULL);
  if (!t || (i + 1) * 4 > t->sh_size) return 0xdeadbeefu;
  return word_at(sec_data(im, t) + 4 * i);
}
/* Symbol by name; NULL if absent. */
static inline const Elf32_Sym *symbol(const img *im, const char *name) {
  const Elf32_Shdr *st = section(im, ".symtab", NULL);
  if (!st) return NULL;
  const Elf32_Shdr *str = shdr(im, st->sh_link);
  const Elf32_Sym *sy = (const Elf32_Sym *)(im->p + st->sh_offset);
  for (size_t i = 1; i < st->sh_size / sizeof *sy; i++)
    if (!strcmp((const char *)im->p + str->sh_offset + sy[i].st_name, name)) return &sy[i];
  return NULL;
}
static inline uint32_t symval(const img *im, const char *name) {
  const Elf32_Sym *s = symbol(im, name);
  return s ? s->st_value : 0xdeadbeefu;
}
static inline const Elf32_Phdr *phdr(const img *im, unsigned i) {
  const Elf32_Ehdr *h = ehdr(im);
  if (!h || i >= h->e_phnum) return NULL;
  return (const Elf32_Phdr *)(im->p + h->e_phoff) + i;
}
#endif
