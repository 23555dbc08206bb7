/* The linker: merges the assembled files with the official Ventus layout
 * (docs/as.md "Layout"), defines the linker symbols, resolves symbols and
 * fixups, and hands the result to the ELF writer. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "elf/elf_write.h"

static const char *const cat_names[CAT_COUNT] = {".text", ".tohost", ".rodata", ".data",
                                                 ".sdata", ".sbss", ".bss", "", ""};

enum { LS_EDATA, LS_END, LS_GP, LS_BSS_START, LS_SDATA_BEGIN, LS_DATA_BEGIN, LS_BSS_END,
       LS_TOHOST, LS_FROMHOST, LS_COUNT };
static const char *const linker_names[LS_COUNT] = {
    "_edata", "_end", "__global_pointer$", "__bss_start", "__SDATA_BEGIN__", "__DATA_BEGIN__",
    "__BSS_END__", "tohost", "fromhost"};

typedef struct outsec {
  uint32_t addr, size, align;
  bool used;
} outsec;

typedef struct hi_entry {
  uint32_t addr;
  int64_t target;
} hi_entry;

static int hi_cmp(const void *a, const void *b) {
  const hi_entry *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static afile *file_of(vt_asm *as, const asym *s) { return AVEC_AT(as->files, afile *, s->file); }

/* Address/value of a symbol; false (with an error at line/col) if undefined. */
static bool sym_value(vt_asm *as, asym *s, int64_t *out, const char *file, uint32_t line,
                      uint32_t col, bool report, int depth) {
  if (!(s->flags & SF_DEFINED) && s->def) s = s->def;
  if (!(s->flags & SF_DEFINED) && s->bind == SB_WEAK) { /* undefined weak: 0 */
    *out = 0;
    return true;
  }
  if (!(s->flags & SF_DEFINED)) {
    if (report) {
      if (s->flags & SF_TEMP)
        asm_error_at(as, file, line, col, "undefined local label '%.*s'",
                     (int)strcspn(s->name, "\001\002"), s->name);
      else
        asm_error_at(as, file, line, col, "undefined symbol '%s'", s->name);
    }
    return false;
  }
  if ((s->flags & SF_DOT) && s->sec >= 0) { /* '.' is in no symbol list: its section's address */
    *out = (int64_t)AVEC_AT(file_of(as, s)->secs, asec, s->sec).addr + s->value;
    return true;
  }
  if (s->sec == SEC_LINKER || s->sec >= 0 || (s->flags & SF_RESOLVED)) {
    *out = s->addr;
    return true;
  }
  if (s->sec == SEC_ABS) {
    *out = (int32_t)s->value;
    return true;
  }
  if (s->flags & SF_EQU) {
    if (depth > 64 || (s->flags & SF_RESOLVING)) {
      if (report) asm_error_at(as, file, line, col, "symbol '%s' is defined circularly", s->name);
      return false;
    }
    s->flags |= SF_RESOLVING;
    int64_t a = 0, b = 0;
    afile *df = file_of(as, s);
    bool ok = (!s->eq.add || sym_value(as, s->eq.add, &a, df->name, s->line, s->col, report, depth + 1)) &&
              (!s->eq.sub || sym_value(as, s->eq.sub, &b, df->name, s->line, s->col, report, depth + 1));
    s->flags &= (uint8_t)~SF_RESOLVING;
    if (!ok) return false;
    s->addr = (uint32_t)((uint64_t)s->eq.k + (uint64_t)a - (uint64_t)b);
    s->flags |= SF_RESOLVED;
    *out = s->addr;
    return true;
  }
  *out = s->addr;
  return true;
}

bool resolve_value(vt_asm *as, afile *f, const aval *v, int64_t *out, uint32_t line, uint32_t col,
                   bool report) {
  int64_t a = 0, b = 0;
  if (v->add && !sym_value(as, v->add, &a, f->name, line, col, report, 0)) return false;
  if (v->sub && !sym_value(as, v->sub, &b, f->name, line, col, report, 0)) return false;
  *out = (int64_t)((uint64_t)v->k + (uint64_t)a - (uint64_t)b); /* wraps, as GNU as */
  return true;
}

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t w) {
  p[0] = (uint8_t)w;
  p[1] = (uint8_t)(w >> 8);
  p[2] = (uint8_t)(w >> 16);
  p[3] = (uint8_t)(w >> 24);
}

static int32_t lo12(int64_t v) { return (int32_t)((uint32_t)v << 20) >> 20; }
static int32_t hi20(int64_t v) { return (int32_t)((((uint32_t)v + 0x800u) >> 12) & 0xfffffu); }

static bool put_operand(vt_asm *as, afile *f, const afix *x, uint8_t *p, int64_t v, bool pcrel) {
  vt_operand_id op = (vt_operand_id)x->op;
  if (!vt_operand_fits(op, v)) {
    int64_t lo, hi;
    vt_operand_range(op, &lo, &hi);
    const vt_operand_desc *d = vt_isa_operand(op);
    const char *what = !pcrel ? "immediate" : op == VT_OP_JIMM ? "jump target" : "branch target";
    if ((d->flags & VT_OPF_SHIFT1) && (v & 1) && v >= lo && v <= hi)
      asm_error_at(as, f->name, x->line, x->col, "misaligned %s: offset %lld is odd", what,
                   (long long)v);
    else
      asm_error_at(as, f->name, x->line, x->col, "%s %s %lld out of range [%lld, %lld]", what,
                   pcrel ? "offset" : "value", (long long)v, (long long)lo, (long long)hi);
    return false;
  }
  wr32(p, vt_operand_set(op, rd32(p), (int32_t)v));
  return true;
}

void apply_fixups(vt_asm *as, afile *f) {
  /* the auipc instructions carrying %pcrel_hi, by address */
  size_t nhi = 0;
  for (size_t i = 0; i < f->fixes.n; i++)
    if (AVEC_AT(f->fixes, afix, i).kind == FX_PCREL_HI) nhi++;
  hi_entry *his = nhi ? malloc(nhi * sizeof *his) : NULL;
  if (nhi && !his) {
    as->oom = true;
    return;
  }
  nhi = 0;
  for (size_t i = 0; i < f->fixes.n; i++) {
    const afix *x = &AVEC_AT(f->fixes, afix, i);
    if (x->kind != FX_PCREL_HI) continue;
    int64_t t;
    if (!resolve_value(as, f, &x->v, &t, x->line, x->col, false)) t = 0;
    his[nhi].addr = AVEC_AT(f->secs, asec, x->sec).addr + x->off;
    his[nhi].target = t;
    nhi++;
  }
  if (nhi) qsort(his, nhi, sizeof *his, hi_cmp);
  for (size_t i = 0; i < f->fixes.n; i++) {
    const afix *x = &AVEC_AT(f->fixes, afix, i);
    asec *s = &AVEC_AT(f->secs, asec, x->sec);
    uint8_t *p = s->data.p + x->off;
    uint32_t pc = s->addr + x->off;
    int64_t v;
    if (x->kind == FX_PCREL_LO) {
      if (!resolve_value(as, f, &x->v, &v, x->line, x->col, true)) continue;
      hi_entry key = {(uint32_t)v, 0};
      hi_entry *h = nhi ? bsearch(&key, his, nhi, sizeof *his, hi_cmp) : NULL;
      if (!h) {
        asm_error_at(as, f->name, x->line, x->col,
                     "%%pcrel_lo(%s): no auipc with %%pcrel_hi at that label", x->v.add->name);
        continue;
      }
      put_operand(as, f, x, p, lo12((int64_t)((uint64_t)h->target - (uint64_t)h->addr)), false);
      continue;
    }
    if (!resolve_value(as, f, &x->v, &v, x->line, x->col, true)) continue;
    switch ((fx_kind)x->kind) {
    case FX_OP: {
      bool pcrel = vt_isa_operand((vt_operand_id)x->op)->kind == VT_OPK_PCREL;
      put_operand(as, f, x, p, pcrel ? (int64_t)(int32_t)((uint32_t)v - (uint32_t)pc) : v, pcrel);
      break;
    }
    case FX_HI: put_operand(as, f, x, p, hi20(v), false); break;
    case FX_LO: put_operand(as, f, x, p, lo12(v), false); break;
    case FX_PCREL_HI: put_operand(as, f, x, p, hi20((int64_t)((uint64_t)v - (uint64_t)pc)), false); break;
    case FX_PCREL_LO_AT:
      put_operand(as, f, x, p,
                  lo12((int64_t)((uint64_t)v - (uint64_t)s->addr - (uint64_t)x->hi_off)), false);
      break;
    case FX_DATA8: p[0] = (uint8_t)v; break;
    case FX_DATA16: p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); break;
    case FX_DATA32: wr32(p, (uint32_t)v); break;
    case FX_DATA64:
      wr32(p, (uint32_t)v);
      wr32(p + 4, (uint32_t)((uint64_t)v >> 32));
      break;
    default: break;
    }
  }
  free(his);
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Replace or add a definition in the global table; reports duplicates. */
static void global_define(vt_asm *as, symtab *g, asym *s) {
  asym *old = symtab_find(g, s->name, s->len, s->hash);
  if (!old) {
    if (!symtab_insert(g, s)) as->oom = true;
    return;
  }
  if (old->bind == SB_WEAK && s->bind != SB_WEAK) {
    for (size_t i = 0; i < g->cap; i++)
      if (g->slots[i] == old) g->slots[i] = s;
    return;
  }
  if (s->bind == SB_WEAK) return;
  afile *of = file_of(as, old);
  asm_error_at(as, file_of(as, s)->name, s->line, s->col,
               "duplicate symbol '%s' (also defined at %s:%u)", s->name, of->name, old->line);
}

typedef struct linkctx {
  vt_ew_section *secs; /* categories, kept sections, .riscv.attributes, .vt.kernel_args */
  size_t nsecs;
  int out_index[CAT_COUNT]; /* category -> index in secs, -1 if not emitted */
  abuf data[CAT_COUNT];
  avec syms; /* vt_ew_symbol */
} linkctx;

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

int asm_link(vt_asm *as, uint8_t **elf, size_t *elf_size) {
  size_t nf = as->files.n;
  symtab g = {0};
  linkctx L;
  memset(&L, 0, sizeof L);
  L.syms.elem = sizeof(vt_ew_symbol);
  int rc = -1;
  uint8_t *kargs = NULL;
  size_t kargs_size = 0;
  as->f = NULL;
  void *debug_bufs[3] = {NULL, NULL, NULL};
  size_t nkeep = 0;
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->secs.n; i++) nkeep += AVEC_AT(f->secs, asec, i).cat == CAT_KEEP;
  }
  L.secs = calloc(CAT_COUNT + 5 + nkeep, sizeof *L.secs); /* + attributes, 3 debug, kargs */
  if (!L.secs) {
    as->oom = true;
    goto out;
  }
  L.out_index[CAT_NONE] = L.out_index[CAT_KEEP] = -1;

  /* 1. global definitions */
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (s->bind != SB_LOCAL && (s->flags & SF_DEFINED)) global_define(as, &g, s);
    }
  }
  /* 2. linker symbols (only where no input defines them) */
  asym *ls[LS_COUNT];
  for (int i = 0; i < LS_COUNT; i++) {
    size_t n = strlen(linker_names[i]);
    asym *d = symtab_find(&g, linker_names[i], n, sym_hash(linker_names[i], n));
    if (d) {
      ls[i] = NULL;
      continue;
    }
    ls[i] = arena_alloc(&as->mem, sizeof(asym));
    if (!ls[i]) goto out;
    ls[i]->name = linker_names[i];
    ls[i]->len = (uint32_t)n;
    ls[i]->hash = sym_hash(linker_names[i], n);
    ls[i]->flags = SF_DEFINED;
    ls[i]->sec = SEC_LINKER;
    ls[i]->bind = SB_GLOBAL;
    if (!symtab_insert(&g, ls[i])) goto out;
  }
  /* 3. undefined references */
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (!(s->flags & SF_DEFINED) && !(s->flags & SF_TEMP))
        s->def = symtab_find(&g, s->name, s->len, s->hash);
    }
  }
  /* 4. entry symbol and the file whose .text goes first */
  const char *entry_name = as->opts.entry ? as->opts.entry : "_start";
  size_t en = strlen(entry_name);
  asym *entry = symtab_find(&g, entry_name, en, sym_hash(entry_name, en));
  for (size_t fi = 0; !entry && fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    asym *s = symtab_find(&f->tab, entry_name, en, sym_hash(entry_name, en));
    if (s && (s->flags & SF_DEFINED)) entry = s;
  }
  if (!entry && as->opts.entry) {
    asm_error_at(as, "<command line>", 1, 1, "entry symbol '%s' is not defined", entry_name);
    goto out;
  }
  size_t first = entry && entry->sec != SEC_LINKER ? entry->file : 0;

  /* 5. layout */
  outsec os[CAT_COUNT];
  memset(os, 0, sizeof os);
  uint64_t addr = as->opts.text_addr;
  uint32_t tohost_off = 0, fromhost_off = 0;
  for (int cat = 0; cat < CAT_NONE; cat++) {
    if (cat == CAT_TOHOST || cat == CAT_RODATA || cat == CAT_DATA) addr = align_up(addr, 0x1000);
    uint32_t align = 1;
    bool any = false;
    for (size_t k = 0; k < nf; k++) {
      afile *f = AVEC_AT(as->files, afile *, k);
      for (size_t i = 0; i < f->secs.n; i++) {
        asec *s = &AVEC_AT(f->secs, asec, i);
        if (s->cat != cat) continue;
        if (s->align > align) align = s->align;
        if (sec_pos(s)) any = true;
      }
    }
    if (cat == CAT_TOHOST && (ls[LS_TOHOST] || ls[LS_FROMHOST])) {
      any = true;
      if (align < 64) align = 64;
    }
    addr = align_up(addr, align);
    os[cat].addr = (uint32_t)addr;
    os[cat].align = align;
    os[cat].used = any;
    for (size_t k = 0; k < nf; k++) {
      size_t fi = cat == CAT_TEXT ? (k == 0 ? first : (k <= first ? k - 1 : k)) : k;
      afile *f = AVEC_AT(as->files, afile *, fi);
      for (size_t i = 0; i < f->secs.n; i++) {
        asec *s = &AVEC_AT(f->secs, asec, i);
        if (s->cat != cat) continue;
        addr = align_up(addr, s->align);
        s->addr = (uint32_t)addr;
        addr += sec_pos(s);
      }
    }
    if (cat == CAT_TOHOST) {
      if (ls[LS_TOHOST]) {
        addr = align_up(addr, 64);
        tohost_off = (uint32_t)(addr - os[cat].addr);
        ls[LS_TOHOST]->addr = (uint32_t)addr;
        addr += 8;
      }
      if (ls[LS_FROMHOST]) {
        addr = align_up(addr, 64);
        fromhost_off = (uint32_t)(addr - os[cat].addr);
        ls[LS_FROMHOST]->addr = (uint32_t)addr;
        addr += 8;
      }
    }
    os[cat].size = (uint32_t)(addr - os[cat].addr);
    if (addr > 0xffffffffull) {
      asm_error_at(as, "<link>", 1, 1, "the program does not fit below 4 GiB");
      goto out;
    }
  }
  uint32_t end = (uint32_t)align_up(os[CAT_BSS].addr + os[CAT_BSS].size, 4);
  uint32_t lv[LS_COUNT] = {0};
  lv[LS_EDATA] = os[CAT_SDATA].addr + os[CAT_SDATA].size;
  lv[LS_END] = end;
  lv[LS_GP] = os[CAT_SDATA].addr + 0x800;
  lv[LS_BSS_START] = lv[LS_EDATA];
  lv[LS_SDATA_BEGIN] = os[CAT_SDATA].addr;
  lv[LS_DATA_BEGIN] = os[CAT_DATA].addr;
  lv[LS_BSS_END] = end;
  for (int i = 0; i < LS_TOHOST; i++)
    if (ls[i]) ls[i]->addr = lv[i];

  /* 6. symbol addresses */
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (s->sec >= 0 && (s->flags & SF_DEFINED)) s->addr = AVEC_AT(f->secs, asec, s->sec).addr + s->value;
    }
  }
  /* 7. fixups */
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    as->f = f;
    f->nerrors = 0;
    apply_fixups(as, f);
  }
  as->f = NULL;
  if (as->nerrors || as->oom) goto out;

  /* 8. output sections */
  for (int cat = 0; cat < CAT_NONE; cat++) {
    L.out_index[cat] = -1;
    if (!os[cat].used) continue;
    bool nobits = cat == CAT_SBSS || cat == CAT_BSS;
    if (!nobits) {
      if (!abuf_fill(&L.data[cat], 0, os[cat].size)) goto out;
      for (size_t fi = 0; fi < nf; fi++) {
        afile *f = AVEC_AT(as->files, afile *, fi);
        for (size_t i = 0; i < f->secs.n; i++) {
          asec *s = &AVEC_AT(f->secs, asec, i);
          if (s->cat == cat && !s->nobits && s->data.len)
            memcpy(L.data[cat].p + (s->addr - os[cat].addr), s->data.p, s->data.len);
        }
      }
    }
    (void)tohost_off;
    (void)fromhost_off;
    vt_ew_section *e = &L.secs[L.nsecs];
    L.out_index[cat] = (int)L.nsecs++;
    e->name = cat_names[cat];
    e->type = nobits ? SHT_NOBITS : SHT_PROGBITS;
    e->flags = SHF_ALLOC | (cat == CAT_TEXT ? SHF_EXECINSTR : 0) |
               (cat == CAT_TEXT || cat == CAT_RODATA ? 0 : SHF_WRITE);
    e->addr = os[cat].addr;
    e->align = os[cat].align;
    e->size = os[cat].size;
    e->data = nobits ? NULL : L.data[cat].p;
    e->segment = cat == CAT_TEXT ? 0 : cat == CAT_TOHOST ? 1 : cat == CAT_RODATA ? 2 : 3;
  }
  /* 9. symbols: locals of every file, then globals */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t fi = 0; fi < nf; fi++) {
      afile *f = AVEC_AT(as->files, afile *, fi);
      for (size_t i = 0; i < f->syms.n; i++) {
        asym *s = AVEC_AT(f->syms, asym *, i);
        if (!(s->flags & SF_DEFINED) || (s->flags & SF_TEMP)) continue;
        if ((s->bind != SB_LOCAL) != (pass == 1)) continue;
        uint16_t shndx = SHN_ABS;
        int64_t v = 0;
        if (s->sec >= 0) {
          int cat = AVEC_AT(f->secs, asec, s->sec).cat;
          if (cat == CAT_NONE || L.out_index[cat] < 0) continue;
          shndx = (uint16_t)(L.out_index[cat] + 1);
          v = s->addr;
        } else if (!sym_value(as, s, &v, f->name, s->line, s->col, true, 0)) {
          continue;
        }
        int bind = s->bind == SB_LOCAL ? STB_LOCAL : s->bind == SB_WEAK ? STB_WEAK : STB_GLOBAL;
        if (!emit_sym(&L, s->name, (uint32_t)v, s->size, bind, s->type, shndx)) goto out;
      }
    }
    if (pass == 0) continue;
    for (int i = 0; i < LS_COUNT; i++) {
      if (!ls[i]) continue;
      bool th = i == LS_TOHOST || i == LS_FROMHOST;
      uint16_t shndx = th && L.out_index[CAT_TOHOST] >= 0 ? (uint16_t)(L.out_index[CAT_TOHOST] + 1)
                                                          : SHN_ABS;
      if (!emit_sym(&L, ls[i]->name, ls[i]->addr, th ? 8 : 0, STB_GLOBAL,
                    th ? STT_OBJECT : STT_NOTYPE, shndx))
        goto out;
    }
  }
  if (as->nerrors) goto out;
  /* kept sections (.ventus.*): not loaded, after the loaded ones */
  for (size_t fi = 0; fi < nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->secs.n; i++) {
      asec *s = &AVEC_AT(f->secs, asec, i);
      if (s->cat != CAT_KEEP || !s->data.len) continue;
      vt_ew_section *e = &L.secs[L.nsecs++];
      e->name = s->name;
      e->type = SHT_PROGBITS;
      e->flags = SHF_WRITE;
      e->align = s->align;
      e->size = (uint32_t)s->data.len;
      e->data = s->data.p;
      e->segment = -1;
    }
  }
  int nd = asm_debug_sections(as, L.secs + L.nsecs, debug_bufs);
  if (nd < 0) {
    as->oom = true;
    goto out;
  }
  L.nsecs += (size_t)nd;
  size_t nlocals = 0;
  for (size_t i = 0; i < L.syms.n; i++)
    if (ELF32_ST_BIND(AVEC_AT(L.syms, vt_ew_symbol, i).info) == STB_LOCAL) nlocals++;

  vt_ew_image img;
  memset(&img, 0, sizeof img);
  int64_t entry_addr = os[CAT_TEXT].addr;
  if (entry && !sym_value(as, entry, &entry_addr, "<command line>", 1, 1, true, 0)) goto out;
  img.entry = (uint32_t)entry_addr;
  img.e_flags = 0; /* soft-float ABI (Zfinx), no RVC: docs/decisions.md */
  /* .riscv.attributes with the ISA string, so that GNU/LLVM tools decode
   * every instruction (docs/decisions.md) */
  static const uint8_t attributes[] =
      "A\x66\0\0\0riscv\0\x01\x5c\0\0\0\x04\x10\x05"
      "rv32i2p1_m2p0_a2p1_f2p2_zicsr2p0_zifencei2p0_zmmul1p0_zve32f1p0_zve32x1p0_zvl32b1p0";
  vt_ew_section *at = &L.secs[L.nsecs++];
  at->name = ".riscv.attributes";
  at->type = 0x70000003u; /* SHT_RISCV_ATTRIBUTES */
  at->flags = 0;
  at->addr = 0;
  at->align = 1;
  at->size = sizeof attributes; /* the string's terminating NUL ends the arch tag */
  at->data = attributes;
  at->segment = -1;
  /* .vt.kernel_args from the .vt_kernel_arg directives (kargs.c) */
  if (asm_kargs_section(as, &g, &kargs, &kargs_size) != 0) goto out;
  if (kargs) {
    vt_ew_section *ka = &L.secs[L.nsecs++];
    memset(ka, 0, sizeof *ka);
    ka->name = ".vt.kernel_args";
    ka->type = SHT_PROGBITS;
    ka->align = 4;
    ka->size = (uint32_t)kargs_size;
    ka->data = kargs;
    ka->segment = -1;
  }
  img.secs = L.secs;
  img.nsecs = L.nsecs;
  img.syms = L.syms.p;
  img.nsyms = L.syms.n;
  img.nlocals = nlocals;
  if (vt_elf_write_exec(&img, elf, elf_size) != 0) {
    asm_error_at(as, "<link>", 1, 1, "out of memory");
    goto out;
  }
  rc = 0;
out:
  if (as->oom && !as->nerrors) asm_error_at(as, "<link>", 1, 1, "out of memory");
  symtab_free(&g);
  free(kargs);
  free(L.secs);
  for (int i = 0; i < 3; i++) free(debug_bufs[i]);
  for (int i = 0; i < CAT_COUNT; i++) abuf_free(&L.data[i]);
  avec_free(&L.syms);
  return rc;
}
