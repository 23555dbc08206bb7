/* The linker's state between its steps (link.c: symbols, layout, fixups;
 * link_output.c: the output sections, symbol table and ELF image). */
#ifndef VT_ASM_LINK_INTERNAL_H
#define VT_ASM_LINK_INTERNAL_H

#include "asm_internal.h"
#include "elf/elf_write.h"

enum { LS_EDATA, LS_END, LS_GP, LS_BSS_START, LS_SDATA_BEGIN, LS_DATA_BEGIN, LS_BSS_END,
       LS_TOHOST, LS_FROMHOST, LS_COUNT };

typedef struct outsec {
  uint32_t addr, size, align;
  bool used;
} outsec;

typedef struct linkctx {
  vt_asm *as;
  size_t nf;              /* input files */
  symtab g;               /* global symbols */
  asym *ls[LS_COUNT];     /* linker symbols (NULL where an input defines them) */
  asym *entry;            /* entry symbol, or NULL */
  size_t first;           /* file whose .text goes first */
  outsec os[CAT_COUNT];   /* output categories */
  vt_ew_section *secs;    /* categories, kept sections, debug, .riscv.attributes, .vt.kernel_args */
  size_t nsecs;
  int out_index[CAT_COUNT]; /* category -> index in secs, -1 if not emitted */
  abuf data[CAT_COUNT];
  avec syms;              /* vt_ew_symbol */
  uint8_t *kargs;
  size_t kargs_size;
  void *debug_bufs[3];
} linkctx;

static inline uint64_t link_align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

afile *link_file_of(vt_asm *as, const asym *s);
/* Address/value of a symbol; false (with an error at line/col when
 * 'report') if undefined. */
bool link_sym_value(vt_asm *as, asym *s, int64_t *out, const char *file, uint32_t line,
                    uint32_t col, bool report, int depth);
/* link_output.c */
bool link_alloc_sections(linkctx *L);
bool link_output(linkctx *L, uint8_t **elf, size_t *elf_size);
void link_free(linkctx *L);

#endif
