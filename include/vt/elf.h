/* vt/elf.h - reading ELF32 little-endian RISC-V files (kernels from the
 * official Ventus toolchain and from `vt as`). Every offset, size, index and
 * string is validated; a malformed file gives an error message, never a
 * crash or an out-of-bounds read. */
#ifndef VT_ELF_H
#define VT_ELF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_elf vt_elf;

typedef struct vt_elf_section {
  const char *name;
  uint32_t type, flags, addr, offset, size, link, info, align, entsize;
  const uint8_t *data; /* NULL for SHT_NOBITS or empty sections */
} vt_elf_section;

typedef struct vt_elf_segment {
  uint32_t type, flags, offset, vaddr, paddr, filesz, memsz, align;
  const uint8_t *data; /* filesz bytes */
} vt_elf_segment;

typedef struct vt_elf_symbol {
  const char *name;
  uint32_t value, size;
  uint8_t bind, type; /* STB_*, STT_* */
  uint16_t shndx;
  uint8_t other; /* st_other: visibility (STV_*) in the low bits */
} vt_elf_symbol;

/* Parse an image in memory (copied; the caller may free 'data' after). On
 * error returns -1 and writes a message ("truncated section header table",
 * ...) to err. */
int vt_elf_open_mem(const uint8_t *data, size_t size, vt_elf **out, char *err, size_t errn);
/* Read and parse a file; messages start with the path. */
int vt_elf_open_file(const char *path, vt_elf **out, char *err, size_t errn);
void vt_elf_free(vt_elf *elf);

uint32_t vt_elf_entry(const vt_elf *elf);
uint16_t vt_elf_machine(const vt_elf *elf);
uint16_t vt_elf_type(const vt_elf *elf);
uint32_t vt_elf_flags(const vt_elf *elf);

/* All section headers, indexed like the file (index 0 is the null section,
 * so a symbol's shndx is a valid index here); NULL when i is out of range. */
size_t vt_elf_section_count(const vt_elf *elf);
const vt_elf_section *vt_elf_section_at(const vt_elf *elf, size_t i);
const vt_elf_section *vt_elf_section_by_name(const vt_elf *elf, const char *name);

size_t vt_elf_segment_count(const vt_elf *elf);
const vt_elf_segment *vt_elf_segment_at(const vt_elf *elf, size_t i);

/* Symbols of .symtab in file order (index 0, the null symbol, is omitted). */
size_t vt_elf_symbol_count(const vt_elf *elf);
const vt_elf_symbol *vt_elf_symbol_at(const vt_elf *elf, size_t i);
/* Value of a defined symbol (a global or weak one wins over a local one of
 * the same name); 0 on success, -1 if absent. */
int vt_elf_find_symbol(const vt_elf *elf, const char *name, uint32_t *value);

#ifdef __cplusplus
}
#endif
#endif
