/* vt/asm.h - the assembler and linker behind `vt as`.
 *
 * A session assembles one or more source files (GNU-as syntax subset,
 * docs/as.md) and links them into one ELF32 RISC-V executable with the
 * official Ventus layout (text at 0x80000000 with the entry first, .tohost
 * page-aligned after text, then rodata, data, sdata, bss). Errors never
 * abort: they are collected as "file:line:column: error: message" lines.
 */
#ifndef VT_ASM_H
#define VT_ASM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_asm vt_asm;

typedef struct vt_asm_options {
  uint32_t text_addr; /* -Ttext; 0 means the default 0x80000000 */
  const char *entry;  /* -e; NULL means _start (or the start of .text) */
} vt_asm_options;

/* NULL only when out of memory. opts may be NULL. */
vt_asm *vt_asm_new(const vt_asm_options *opts);
void vt_asm_free(vt_asm *as);

/* -g: the DWARF line table (.debug_line, docs/as.md) also maps the
 * instructions of files without .loc directives to their own lines. Files
 * with .file/.loc directives (compiler output) get rows from those always.
 * Call before adding files. */
void vt_asm_set_debug_lines(vt_asm *as, int on);

/* Assemble one source text; 'filename' is used in messages. Returns 0, or -1
 * if this file had errors (the session keeps them; see vt_asm_errors). */
int vt_asm_add_source(vt_asm *as, const char *filename, const char *text, size_t len);
/* Read and assemble a file ("-" reads standard input). */
int vt_asm_add_file(vt_asm *as, const char *path);

/* Resolve symbols and relocations and build the executable. On success
 * returns 0 and a malloc'd image the caller frees; -1 on errors. */
int vt_asm_link(vt_asm *as, uint8_t **elf, size_t *elf_size);

/* All diagnostics so far, one per line; "" when none. */
const char *vt_asm_errors(const vt_asm *as);
size_t vt_asm_error_count(const vt_asm *as);

/* Assemble a single instruction line (no labels, no directives; branch and
 * jump targets are absolute numbers) placed at 'pc'. Returns 0 and the word,
 * or -1 and a message. For round-trip tests and tools. */
int vt_asm_one(const char *line, uint32_t pc, uint32_t *word, char *err, size_t errn);
/* The same for an instruction of either length (isa2025.md D1): *insn gets
 * the 32-bit word or the 64-bit instruction (first parcel in bits 31:0),
 * *length 4 or 8. */
int vt_asm_one_insn(const char *line, uint32_t pc, uint64_t *insn, unsigned *length, char *err,
                    size_t errn);

#ifdef __cplusplus
}
#endif
#endif
