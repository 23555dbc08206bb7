/* Internal: write an ELF32 little-endian RISC-V executable from a list of
 * sections (already placed at their addresses) and symbols. Used by the
 * assembler's linker (src/asm/link.c). */
#ifndef VT_ELF_WRITE_H
#define VT_ELF_WRITE_H

#include <stddef.h>
#include <stdint.h>

typedef struct vt_ew_section {
  const char *name;
  uint32_t type;  /* SHT_PROGBITS / SHT_NOBITS */
  uint32_t flags; /* SHF_* */
  uint32_t addr, align, size;
  const uint8_t *data; /* size bytes (NULL for SHT_NOBITS) */
  int segment;         /* sections with the same number share one PT_LOAD;
                          -1: not loaded (must come after all loaded ones) */
} vt_ew_section;

typedef struct vt_ew_symbol {
  const char *name;
  uint32_t value, size;
  uint8_t info;   /* ELF32_ST_INFO(bind, type) */
  uint16_t shndx; /* SHN_ABS, or 1 + index into the section list */
} vt_ew_symbol;

typedef struct vt_ew_image {
  uint32_t entry, e_flags;
  const vt_ew_section *secs;
  size_t nsecs;
  const vt_ew_symbol *syms; /* locals first */
  size_t nsyms, nlocals;
} vt_ew_image;

/* Returns 0 and a malloc'd image, or -1 when out of memory. */
int vt_elf_write_exec(const vt_ew_image *img, uint8_t **out, size_t *out_size);

#endif
