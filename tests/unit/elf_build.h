/* Test helper: builds a small ELF32 little-endian RISC-V executable in
 * memory, byte by byte, with a known layout:
 *
 *   0x00 ELF header (52)        e_phoff = 52, e_shoff = layout.shoff
 *   0x34 one PT_LOAD (32)       R+X, maps .text at 'addr'
 *   0x54 .text                  'textlen' bytes
 *   ...  .symtab (4-aligned)    null symbol + the given symbols
 *   ...  .strtab, .shstrtab
 *   ...  section headers (4-aligned): null, .text, .symtab, .strtab, .shstrtab
 */
#ifndef VT_TEST_ELF_BUILD_H
#define VT_TEST_ELF_BUILD_H
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct eb_sym {
  const char *name;
  uint32_t value, size;
  uint8_t info, other; /* ELF32_ST_INFO(bind, type), visibility */
  uint16_t shndx;
} eb_sym;

typedef struct eb_layout {
  size_t size, text_off, symtab_off, strtab_off, strtab_size, shstrtab_off, shstrtab_size,
      shoff;
} eb_layout;

#define EB_SHNUM 5
#define EB_SHSTRS "\0.text\0.symtab\0.strtab\0.shstrtab"
/* name offsets inside EB_SHSTRS */
enum { EB_N_TEXT = 1, EB_N_SYMTAB = 7, EB_N_STRTAB = 15, EB_N_SHSTRTAB = 23 };

static void eb_w16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void eb_w32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static size_t eb_align4(size_t v) { return (v + 3) & ~(size_t)3; }

static void eb_shdr(uint8_t *p, uint32_t name, uint32_t type, uint32_t flags, uint32_t addr,
                    size_t off, size_t size, uint32_t link, uint32_t info, uint32_t align,
                    uint32_t entsize) {
  eb_w32(p + 0, name);
  eb_w32(p + 4, type);
  eb_w32(p + 8, flags);
  eb_w32(p + 12, addr);
  eb_w32(p + 16, (uint32_t)off);
  eb_w32(p + 20, (uint32_t)size);
  eb_w32(p + 24, link);
  eb_w32(p + 28, info);
  eb_w32(p + 32, align);
  eb_w32(p + 36, entsize);
}

/* Returns a malloc'd image (free it) and fills *lay. Symbols with
 * shndx == 0xffff are placed in .text (index 1) for convenience. */
static uint8_t *eb_build(const uint8_t *text, size_t textlen, uint32_t addr, uint32_t entry,
                         const eb_sym *syms, size_t nsyms, eb_layout *lay) {
  size_t strsz = 1;
  for (size_t i = 0; i < nsyms; i++) strsz += strlen(syms[i].name) + 1;
  eb_layout l;
  l.text_off = 52 + 32;
  l.symtab_off = eb_align4(l.text_off + textlen);
  l.strtab_off = l.symtab_off + 16 * (nsyms + 1);
  l.strtab_size = strsz;
  l.shstrtab_off = l.strtab_off + strsz;
  l.shstrtab_size = sizeof EB_SHSTRS;
  l.shoff = eb_align4(l.shstrtab_off + l.shstrtab_size);
  l.size = l.shoff + 40 * EB_SHNUM;
  uint8_t *b = calloc(1, l.size);
  if (!b) abort();
  memcpy(b, ELFMAG, SELFMAG);
  b[EI_CLASS] = ELFCLASS32;
  b[EI_DATA] = ELFDATA2LSB;
  b[EI_VERSION] = EV_CURRENT;
  eb_w16(b + 16, ET_EXEC);
  eb_w16(b + 18, EM_RISCV);
  eb_w32(b + 20, EV_CURRENT);
  eb_w32(b + 24, entry);
  eb_w32(b + 28, 52);
  eb_w32(b + 32, (uint32_t)l.shoff);
  eb_w32(b + 36, 0);
  eb_w16(b + 40, 52);
  eb_w16(b + 42, 32);
  eb_w16(b + 44, 1);
  eb_w16(b + 46, 40);
  eb_w16(b + 48, EB_SHNUM);
  eb_w16(b + 50, 4);
  /* program header */
  uint8_t *ph = b + 52;
  eb_w32(ph + 0, PT_LOAD);
  eb_w32(ph + 4, (uint32_t)l.text_off);
  eb_w32(ph + 8, addr);
  eb_w32(ph + 12, addr);
  eb_w32(ph + 16, (uint32_t)textlen);
  eb_w32(ph + 20, (uint32_t)textlen);
  eb_w32(ph + 24, PF_R | PF_X);
  eb_w32(ph + 28, 4);
  if (textlen) memcpy(b + l.text_off, text, textlen);
  /* symbols and their names */
  size_t so = 1;
  uint32_t first_global = (uint32_t)nsyms + 1;
  for (size_t i = 0; i < nsyms; i++) {
    uint8_t *s = b + l.symtab_off + 16 * (i + 1);
    size_t n = strlen(syms[i].name);
    memcpy(b + l.strtab_off + so, syms[i].name, n);
    eb_w32(s + 0, (uint32_t)so);
    so += n + 1;
    eb_w32(s + 4, syms[i].value);
    eb_w32(s + 8, syms[i].size);
    s[12] = syms[i].info;
    s[13] = syms[i].other;
    eb_w16(s + 14, syms[i].shndx == 0xffff ? 1 : syms[i].shndx);
    if (ELF32_ST_BIND(syms[i].info) != STB_LOCAL && first_global > nsyms) first_global = (uint32_t)i + 1;
  }
  memcpy(b + l.shstrtab_off, EB_SHSTRS, sizeof EB_SHSTRS);
  uint8_t *sh = b + l.shoff;
  eb_shdr(sh + 40, EB_N_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, addr, l.text_off, textlen,
          0, 0, 4, 0);
  eb_shdr(sh + 80, EB_N_SYMTAB, SHT_SYMTAB, 0, 0, l.symtab_off, 16 * (nsyms + 1), 3, first_global,
          4, 16);
  eb_shdr(sh + 120, EB_N_STRTAB, SHT_STRTAB, 0, 0, l.strtab_off, strsz, 0, 0, 1, 0);
  eb_shdr(sh + 160, EB_N_SHSTRTAB, SHT_STRTAB, 0, 0, l.shstrtab_off, l.shstrtab_size, 0, 0, 1, 0);
  *lay = l;
  return b;
}
#endif
