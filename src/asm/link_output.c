/* The linker's output: the loaded sections from the laid-out input
 * sections, the symbol table (locals of every file, then globals and the
 * linker's symbols), the kept `.ventus.*` sections, the DWARF line table,
 * `.riscv.attributes`, `.vt.kernel_args`, and the ELF image. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "link_internal.h"

static const char *const cat_names[CAT_COUNT] = {".text", ".tohost", ".rodata", ".data",
                                                 ".sdata", ".sbss", ".bss", "", ""};

bool link_alloc_sections(linkctx *L) {
  size_t nkeep = 0;
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->secs.n; i++) nkeep += AVEC_AT(f->secs, asec, i).cat == CAT_KEEP;
  }
  L->secs = calloc(CAT_COUNT + 5 + nkeep, sizeof *L->secs); /* + attributes, 3 debug, kargs */
  if (!L->secs) L->as->oom = true;
  L->out_index[CAT_NONE] = L->out_index[CAT_KEEP] = -1;
  return L->secs != NULL;
}

void link_free(linkctx *L) {
  symtab_free(&L->g);
  free(L->kargs);
  free(L->secs);
  for (int i = 0; i < 3; i++) free(L->debug_bufs[i]);
  for (int i = 0; i < CAT_COUNT; i++) abuf_free(&L->data[i]);
  avec_free(&L->syms);
}

/* 8. one output section per used category, filled from its inputs */
static bool output_sections(linkctx *L) {
  for (int cat = 0; cat < CAT_NONE; cat++) {
    const outsec *o = &L->os[cat];
    L->out_index[cat] = -1;
    if (!o->used) continue;
    bool nobits = cat == CAT_SBSS || cat == CAT_BSS;
    if (!nobits) {
      if (!abuf_fill(&L->data[cat], 0, o->size)) return false;
      for (size_t fi = 0; fi < L->nf; fi++) {
        afile *f = AVEC_AT(L->as->files, afile *, fi);
        for (size_t i = 0; i < f->secs.n; i++) {
          asec *s = &AVEC_AT(f->secs, asec, i);
          if (s->cat == cat && !s->nobits && s->data.len)
            memcpy(L->data[cat].p + (s->addr - o->addr), s->data.p, s->data.len);
        }
      }
    }
    vt_ew_section *e = &L->secs[L->nsecs];
    L->out_index[cat] = (int)L->nsecs++;
    e->name = cat_names[cat];
    e->type = nobits ? SHT_NOBITS : SHT_PROGBITS;
    e->flags = SHF_ALLOC | (cat == CAT_TEXT ? SHF_EXECINSTR : 0) |
               (cat == CAT_TEXT || cat == CAT_RODATA ? 0 : SHF_WRITE);
    e->addr = o->addr;
    e->align = o->align;
    e->size = o->size;
    e->data = nobits ? NULL : L->data[cat].p;
    e->segment = cat == CAT_TEXT ? 0 : cat == CAT_TOHOST ? 1 : cat == CAT_RODATA ? 2 : 3;
  }
  return true;
}

static bool emit_sym(linkctx *L, const char *name, uint32_t value, uint32_t size, int bind,
                     int type, uint16_t shndx) {
  vt_ew_symbol *e = avec_push(&L->syms);
  if (!e) return false;
  e->name = name;
  e->value = value;
  e->size = size;
  e->info = (uint8_t)ELF32_ST_INFO(bind, type);
  e->shndx = shndx;
  return true;
}

/* the defined, non-temporary symbols of every file: locals (pass 0) or
 * globals (pass 1) */
static bool file_symbols(linkctx *L, int pass) {
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (!(s->flags & SF_DEFINED) || (s->flags & SF_TEMP)) continue;
      if ((s->bind != SB_LOCAL) != (pass == 1)) continue;
      uint16_t shndx = SHN_ABS;
      int64_t v = 0;
      if (s->sec >= 0) {
        int cat = AVEC_AT(f->secs, asec, s->sec).cat;
        if (cat == CAT_NONE || L->out_index[cat] < 0) continue;
        shndx = (uint16_t)(L->out_index[cat] + 1);
        v = s->addr;
      } else if (!link_sym_value(L->as, s, &v, f->name, s->line, s->col, true, 0)) {
        continue;
      }
      int bind = s->bind == SB_LOCAL ? STB_LOCAL : s->bind == SB_WEAK ? STB_WEAK : STB_GLOBAL;
      if (!emit_sym(L, s->name, (uint32_t)v, s->size, bind, s->type, shndx)) return false;
    }
  }
  return true;
}

/* 9. the symbol table: locals of every file, then globals, then the linker's */
static bool output_symbols(linkctx *L) {
  if (!file_symbols(L, 0) || !file_symbols(L, 1)) return false;
  for (int i = 0; i < LS_COUNT; i++) {
    asym *s = L->ls[i];
    if (!s) continue;
    bool th = i == LS_TOHOST || i == LS_FROMHOST;
    uint16_t shndx = th && L->out_index[CAT_TOHOST] >= 0 ? (uint16_t)(L->out_index[CAT_TOHOST] + 1)
                                                         : SHN_ABS;
    if (!emit_sym(L, s->name, s->addr, th ? 8 : 0, STB_GLOBAL, th ? STT_OBJECT : STT_NOTYPE, shndx))
      return false;
  }
  return true;
}

/* kept sections (.ventus.*): not loaded, after the loaded ones */
static void kept_sections(linkctx *L) {
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->secs.n; i++) {
      asec *s = &AVEC_AT(f->secs, asec, i);
      if (s->cat != CAT_KEEP || !s->data.len) continue;
      vt_ew_section *e = &L->secs[L->nsecs++];
      e->name = s->name;
      e->type = SHT_PROGBITS;
      e->flags = SHF_WRITE;
      e->align = s->align;
      e->size = (uint32_t)s->data.len;
      e->data = s->data.p;
      e->segment = -1;
    }
  }
}

/* an unloaded section of the image */
static void add_note_section(linkctx *L, const char *name, uint32_t type, uint32_t align,
                             const void *data, size_t size) {
  vt_ew_section *e = &L->secs[L->nsecs++];
  memset(e, 0, sizeof *e);
  e->name = name;
  e->type = type;
  e->align = align;
  e->size = (uint32_t)size;
  e->data = data;
  e->segment = -1;
}

/* .riscv.attributes with the ISA string, so that GNU/LLVM tools decode
 * every instruction (docs/decisions.md); .vt.kernel_args from the
 * .vt_kernel_arg directives (kargs.c) */
static bool info_sections(linkctx *L) {
  static const uint8_t attributes[] =
      "A\x66\0\0\0riscv\0\x01\x5c\0\0\0\x04\x10\x05"
      "rv32i2p1_m2p0_a2p1_f2p2_zicsr2p0_zifencei2p0_zmmul1p0_zve32f1p0_zve32x1p0_zvl32b1p0";
  /* the string's terminating NUL ends the arch tag */
  add_note_section(L, ".riscv.attributes", 0x70000003u /* SHT_RISCV_ATTRIBUTES */, 1, attributes,
                   sizeof attributes);
  if (asm_kargs_section(L->as, &L->g, &L->kargs, &L->kargs_size) != 0) return false;
  if (L->kargs) add_note_section(L, ".vt.kernel_args", SHT_PROGBITS, 4, L->kargs, L->kargs_size);
  return true;
}

bool link_output(linkctx *L, uint8_t **elf, size_t *elf_size) {
  vt_asm *as = L->as;
  if (!output_sections(L) || !output_symbols(L)) return false;
  if (as->nerrors) return false;
  kept_sections(L);
  int nd = asm_debug_sections(as, L->secs + L->nsecs, L->debug_bufs);
  if (nd < 0) {
    as->oom = true;
    return false;
  }
  L->nsecs += (size_t)nd;
  vt_ew_image img;
  memset(&img, 0, sizeof img);
  int64_t entry_addr = L->os[CAT_TEXT].addr;
  if (L->entry && !link_sym_value(as, L->entry, &entry_addr, "<command line>", 1, 1, true, 0))
    return false;
  img.entry = (uint32_t)entry_addr;
  img.e_flags = 0; /* soft-float ABI (Zfinx), no RVC: docs/decisions.md */
  if (!info_sections(L)) return false;
  img.secs = L->secs;
  img.nsecs = L->nsecs;
  img.syms = L->syms.p;
  img.nsyms = L->syms.n;
  for (size_t i = 0; i < L->syms.n; i++)
    if (ELF32_ST_BIND(AVEC_AT(L->syms, vt_ew_symbol, i).info) == STB_LOCAL) img.nlocals++;
  if (vt_elf_write_exec(&img, elf, elf_size) != 0) {
    asm_error_at(as, "<link>", 1, 1, "out of memory");
    return false;
  }
  return true;
}
