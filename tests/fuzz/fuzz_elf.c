/* libFuzzer target: the ELF reader (vt/elf.h).
 *
 * The input is an ELF image: vt_elf_open_mem on an exact-size copy that is
 * freed right after parsing (the reader must copy), then every accessor:
 * header fields, each section (name, data bytes, look-up by name), each
 * segment (data bytes), each symbol (name, look-up), and disassembly of the
 * executable sections; then the image is loaded into a device. Rejected
 * inputs must come with a terminated message, also in tiny buffers.
 * Inconsistencies abort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vt/elf.h"
#include "vt/isa.h"
#include "vt/sim.h"

/* Reads every byte so that ASan sees out-of-bounds data pointers. */
static uint32_t sum_bytes(const uint8_t *p, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++) s = s * 31u + p[i];
  return s;
}

static void walk(const vt_elf *elf) {
  volatile uint32_t sink = 0;
  sink += vt_elf_entry(elf) + vt_elf_machine(elf) + vt_elf_type(elf) + vt_elf_flags(elf);

  size_t ns = vt_elf_section_count(elf);
  for (size_t i = 0; i < ns; i++) {
    const vt_elf_section *s = vt_elf_section_at(elf, i);
    FUZZ_CHECK(s != NULL, "section %zu of %zu is NULL", i, ns);
    if (s->name && s->name[0]) { /* index 0 and unnamed sections have "" */
      size_t len = strlen(s->name);
      const vt_elf_section *byname = vt_elf_section_by_name(elf, s->name);
      FUZZ_CHECK(byname != NULL && byname->name && strcmp(byname->name, s->name) == 0,
                 "section \"%s\" not found by its name", s->name);
      sink += (uint32_t)len;
    }
    if (s->data) {
      sink += sum_bytes(s->data, s->size);
      if (s->flags & 4 /* SHF_EXECINSTR */) {
        size_t nw = s->size / 4 < 64 ? s->size / 4 : 64;
        for (size_t k = 0; k < nw; k++) {
          const uint8_t *b = s->data + 4 * k;
          uint32_t w = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
          char text[160];
          sink += (uint32_t)vt_disasm(w, s->addr + 4u * (uint32_t)k, NULL, text, sizeof text);
        }
      }
    }
  }
  (void)vt_elf_section_by_name(elf, "");
  (void)vt_elf_section_by_name(elf, ".text");
  (void)vt_elf_section_by_name(elf, ".no-such-section");

  size_t np = vt_elf_segment_count(elf);
  for (size_t i = 0; i < np; i++) {
    const vt_elf_segment *g = vt_elf_segment_at(elf, i);
    FUZZ_CHECK(g != NULL, "segment %zu of %zu is NULL", i, np);
    if (g->data) sink += sum_bytes(g->data, g->filesz);
    sink += g->type + g->flags + g->vaddr + g->memsz;
  }

  size_t nsym = vt_elf_symbol_count(elf);
  for (size_t i = 0; i < nsym; i++) {
    const vt_elf_symbol *y = vt_elf_symbol_at(elf, i);
    FUZZ_CHECK(y != NULL, "symbol %zu of %zu is NULL", i, nsym);
    sink += y->value + y->size + y->bind + y->type + y->shndx;
    if (y->name && y->name[0] && i < 256) {
      uint32_t v = 0;
      if (vt_elf_find_symbol(elf, y->name, &v) == 0) sink += v;
    }
  }
  uint32_t v = 0;
  (void)vt_elf_find_symbol(elf, "_start", &v);
  (void)vt_elf_find_symbol(elf, "", &v);
  (void)sink;
}

/* Places the image in device memory: segments outside the program window
 * are rejected with a message; the zero fill must stay cheap whatever
 * p_memsz says. */
static void load(const vt_elf *elf) {
  vt_device *dev = vt_device_new(NULL);
  FUZZ_CHECK(dev != NULL, "out of memory");
  vt_error err;
  memset(&err, 0, sizeof err);
  int rc = vt_device_load_elf(dev, elf, &err);
  FUZZ_CHECK(rc == VT_OK || err.message[0] != 0, "load error %d without a message", rc);
  vt_device_free(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  FUZZ_CHECK(copy != NULL, "out of memory");
  if (size) memcpy(copy, data, size);
  vt_elf *elf = NULL;
  char err[256];
  memset(err, 'X', sizeof err);
  int rc = vt_elf_open_mem(copy, size, &elf, err, sizeof err);
  memset(copy, 0xa5, size); /* "copied; the caller may free 'data' after" */
  free(copy);
  FUZZ_CHECK(rc == 0 || rc == -1, "vt_elf_open_mem returned %d", rc);
  if (rc == 0) {
    FUZZ_CHECK(elf != NULL, "success without an elf");
    walk(elf);
    load(elf);
    vt_elf_free(elf);
    return 0;
  }
  FUZZ_CHECK(memchr(err, 0, sizeof err) != NULL && err[0] != 0,
             "rejected without a terminated message");
  /* the same failure with a tiny message buffer */
  char *tiny = malloc(4);
  FUZZ_CHECK(tiny != NULL, "out of memory");
  memset(tiny, 'X', 4);
  vt_elf *e2 = NULL;
  FUZZ_CHECK(vt_elf_open_mem(data, size, &e2, tiny, 4) == -1, "result changed with the buffer");
  FUZZ_CHECK(memchr(tiny, 0, 4) != NULL, "message not terminated in a 4-byte buffer");
  free(tiny);
  return 0;
}
