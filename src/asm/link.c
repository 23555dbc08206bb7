/* The linker: merges the assembled files with the official Ventus layout
 * (docs/as.md "Layout"), defines the linker symbols, resolves symbols and
 * fixups, and hands the result to the ELF writer. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "link_internal.h"

static const char *const linker_names[LS_COUNT] = {
    "_edata", "_end", "__global_pointer$", "__bss_start", "__SDATA_BEGIN__", "__DATA_BEGIN__",
    "__BSS_END__", "tohost", "fromhost"};

typedef struct hi_entry {
  uint32_t addr;
  int64_t target;
} hi_entry;

static int hi_cmp(const void *a, const void *b) {
  const hi_entry *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

afile *link_file_of(vt_asm *as, const asym *s) { return AVEC_AT(as->files, afile *, s->file); }

/* Address/value of a symbol; false (with an error at line/col) if undefined. */
bool link_sym_value(vt_asm *as, asym *s, int64_t *out, const char *file, uint32_t line,
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
    *out = (int64_t)AVEC_AT(link_file_of(as, s)->secs, asec, s->sec).addr + s->value;
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
    afile *df = link_file_of(as, s);
    bool ok = (!s->eq.add || link_sym_value(as, s->eq.add, &a, df->name, s->line, s->col, report, depth + 1)) &&
              (!s->eq.sub || link_sym_value(as, s->eq.sub, &b, df->name, s->line, s->col, report, depth + 1));
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
  if (v->add && !link_sym_value(as, v->add, &a, f->name, line, col, report, 0)) return false;
  if (v->sub && !link_sym_value(as, v->sub, &b, f->name, line, col, report, 0)) return false;
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
  afile *of = link_file_of(as, old);
  asm_error_at(as, link_file_of(as, s)->name, s->line, s->col,
               "duplicate symbol '%s' (also defined at %s:%u)", s->name, of->name, old->line);
}


/* 1. global definitions of every file */
static void define_globals(linkctx *L) {
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (s->bind != SB_LOCAL && (s->flags & SF_DEFINED)) global_define(L->as, &L->g, s);
    }
  }
}

/* 2. linker symbols, only where no input defines them */
static bool add_linker_symbols(linkctx *L) {
  for (int i = 0; i < LS_COUNT; i++) {
    size_t n = strlen(linker_names[i]);
    L->ls[i] = NULL;
    if (symtab_find(&L->g, linker_names[i], n, sym_hash(linker_names[i], n))) continue;
    asym *s = arena_alloc(&L->as->mem, sizeof(asym));
    if (!s) return false;
    s->name = linker_names[i];
    s->len = (uint32_t)n;
    s->hash = sym_hash(linker_names[i], n);
    s->flags = SF_DEFINED;
    s->sec = SEC_LINKER;
    s->bind = SB_GLOBAL;
    if (!symtab_insert(&L->g, s)) return false;
    L->ls[i] = s;
  }
  return true;
}

/* 3. undefined references to the global definitions */
static void resolve_undefined(linkctx *L) {
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (!(s->flags & SF_DEFINED) && !(s->flags & SF_TEMP))
        s->def = symtab_find(&L->g, s->name, s->len, s->hash);
    }
  }
}

/* 4. the entry symbol (a global, else the first file's local) and the file
 * whose .text goes first; false when an explicit entry is undefined */
static bool find_entry(linkctx *L) {
  vt_asm *as = L->as;
  const char *name = as->opts.entry ? as->opts.entry : "_start";
  size_t n = strlen(name);
  L->entry = symtab_find(&L->g, name, n, sym_hash(name, n));
  for (size_t fi = 0; !L->entry && fi < L->nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    asym *s = symtab_find(&f->tab, name, n, sym_hash(name, n));
    if (s && (s->flags & SF_DEFINED)) L->entry = s;
  }
  if (!L->entry && as->opts.entry) {
    asm_error_at(as, "<command line>", 1, 1, "entry symbol '%s' is not defined", name);
    return false;
  }
  L->first = L->entry && L->entry->sec != SEC_LINKER ? L->entry->file : 0;
  return true;
}

/* alignment of a category (the largest of its input sections) and whether
 * any of them has contents */
static void category_extent(linkctx *L, int cat, uint32_t *align, bool *any) {
  *align = 1;
  *any = false;
  for (size_t k = 0; k < L->nf; k++) {
    afile *f = AVEC_AT(L->as->files, afile *, k);
    for (size_t i = 0; i < f->secs.n; i++) {
      asec *s = &AVEC_AT(f->secs, asec, i);
      if (s->cat != cat) continue;
      if (s->align > *align) *align = s->align;
      if (sec_pos(s)) *any = true;
    }
  }
  if (cat == CAT_TOHOST && (L->ls[LS_TOHOST] || L->ls[LS_FROMHOST])) {
    *any = true;
    if (*align < 64) *align = 64;
  }
}

/* places one category's input sections from addr on (the entry's file
 * first in .text; tohost/fromhost after .tohost's inputs); returns the end */
static uint64_t place_category(linkctx *L, int cat, uint64_t addr) {
  for (size_t k = 0; k < L->nf; k++) {
    size_t fi = cat == CAT_TEXT ? (k == 0 ? L->first : (k <= L->first ? k - 1 : k)) : k;
    afile *f = AVEC_AT(L->as->files, afile *, fi);
    for (size_t i = 0; i < f->secs.n; i++) {
      asec *s = &AVEC_AT(f->secs, asec, i);
      if (s->cat != cat) continue;
      addr = link_align_up(addr, s->align);
      s->addr = (uint32_t)addr;
      addr += sec_pos(s);
    }
  }
  if (cat == CAT_TOHOST)
    for (int i = LS_TOHOST; i <= LS_FROMHOST; i++)
      if (L->ls[i]) {
        addr = link_align_up(addr, 64);
        L->ls[i]->addr = (uint32_t)addr;
        addr += 8;
      }
  return addr;
}

/* 5. layout (docs/as.md "Layout") and the linker symbols' values */
static bool layout(linkctx *L) {
  uint64_t addr = L->as->opts.text_addr;
  for (int cat = 0; cat < CAT_NONE; cat++) {
    if (cat == CAT_TOHOST || cat == CAT_RODATA || cat == CAT_DATA) addr = link_align_up(addr, 0x1000);
    outsec *o = &L->os[cat];
    category_extent(L, cat, &o->align, &o->used);
    addr = link_align_up(addr, o->align);
    o->addr = (uint32_t)addr;
    addr = place_category(L, cat, addr);
    o->size = (uint32_t)(addr - o->addr);
    if (addr > 0xffffffffull) {
      asm_error_at(L->as, "<link>", 1, 1, "the program does not fit below 4 GiB");
      return false;
    }
  }
  const outsec *os = L->os;
  uint32_t end = (uint32_t)link_align_up(os[CAT_BSS].addr + os[CAT_BSS].size, 4);
  uint32_t lv[LS_COUNT] = {0};
  lv[LS_EDATA] = os[CAT_SDATA].addr + os[CAT_SDATA].size;
  lv[LS_END] = end;
  lv[LS_GP] = os[CAT_SDATA].addr + 0x800;
  lv[LS_BSS_START] = lv[LS_EDATA];
  lv[LS_SDATA_BEGIN] = os[CAT_SDATA].addr;
  lv[LS_DATA_BEGIN] = os[CAT_DATA].addr;
  lv[LS_BSS_END] = end;
  for (int i = 0; i < LS_TOHOST; i++)
    if (L->ls[i]) L->ls[i]->addr = lv[i];
  return true;
}

/* 6-7. symbol addresses, then every file's fixups */
static bool relocate(linkctx *L) {
  vt_asm *as = L->as;
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    for (size_t i = 0; i < f->syms.n; i++) {
      asym *s = AVEC_AT(f->syms, asym *, i);
      if (s->sec >= 0 && (s->flags & SF_DEFINED)) s->addr = AVEC_AT(f->secs, asec, s->sec).addr + s->value;
    }
  }
  for (size_t fi = 0; fi < L->nf; fi++) {
    afile *f = AVEC_AT(as->files, afile *, fi);
    as->f = f;
    f->nerrors = 0;
    apply_fixups(as, f);
  }
  as->f = NULL;
  return !as->nerrors && !as->oom;
}

int asm_link(vt_asm *as, uint8_t **elf, size_t *elf_size) {
  linkctx L;
  memset(&L, 0, sizeof L);
  L.as = as;
  L.nf = as->files.n;
  L.syms.elem = sizeof(vt_ew_symbol);
  as->f = NULL;
  int rc = -1;
  if (!link_alloc_sections(&L)) goto out;
  define_globals(&L);
  if (!add_linker_symbols(&L)) goto out;
  resolve_undefined(&L);
  if (find_entry(&L) && layout(&L) && relocate(&L) && link_output(&L, elf, elf_size)) rc = 0;
out:
  if (as->oom && !as->nerrors) asm_error_at(as, "<link>", 1, 1, "out of memory");
  link_free(&L);
  return rc;
}
