/* DWARF line tables: `.file N "name"` and `.loc N LINE [COL]` give the
 * source lines of the instructions that follow (what compilers emit, vt cc
 * with -g among them); with vt as -g, the instructions of a file without
 * .loc get their own line in the assembly file. The linker writes one
 * DWARF 4 line program and one compile unit (name, stmt_list, low/high pc)
 * per file with rows, in non-loaded .debug_line, .debug_abbrev and
 * .debug_info sections, so addr2line, objdump -l, gdb and llvm-dwarfdump
 * map addresses to source lines. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "elf/elf_write.h"

void asm_dot_file(vt_asm *as, cursor *c) {
  skip_ws(c);
  int64_t n = 0;
  if (*c->s == '"') { /* .file "name": the source file name only */
    return;
  }
  if (!scan_number(c, &n) || n < 1 || n > 65535) {
    asm_error(as, cur_col(c), "bad file number in .file");
    return;
  }
  skip_ws(c);
  if (*c->s != '"') {
    asm_error(as, cur_col(c), "expected a string");
    return;
  }
  as->strbuf.len = 0;
  if (!scan_string(as, c, &as->strbuf)) return;
  afile *f = as->f;
  while (f->dnames.n <= (size_t)n) {
    const char **slot = avec_push(&f->dnames);
    if (!slot) {
      as->oom = true;
      return;
    }
    *slot = "";
  }
  AVEC_AT(f->dnames, const char *, n) = arena_strdup(&as->mem, (const char *)as->strbuf.p, as->strbuf.len);
}

void asm_dot_loc(vt_asm *as, cursor *c) {
  int64_t file = 0, line = 0;
  skip_ws(c);
  if (!scan_number(c, &file) || file < 1 || file > 65535) {
    asm_error(as, cur_col(c), "bad file number in .loc");
    return;
  }
  skip_ws(c);
  if (!scan_number(c, &line) || line < 0 || line > 0xffffffffll) {
    asm_error(as, cur_col(c), "bad line number in .loc");
    return;
  }
  /* a column and flags (is_stmt, prologue_end, ...) may follow: ignored */
  as->f->any_loc = true;
  as->f->loc_file = (uint16_t)file;
  as->f->loc_line = (uint32_t)line;
}

void asm_line_row(vt_asm *as, asec *s) {
  afile *f = as->f;
  if (!f || (!f->any_loc && !as->debug_lines) || as->oneshot) return;
  uint16_t file = f->any_loc ? f->loc_file : 0;
  uint32_t line = f->any_loc ? f->loc_line : as->line;
  if (f->lines.n) { /* one row per change of line or section */
    const aline *last = &AVEC_AT(f->lines, aline, f->lines.n - 1);
    if (last->line == line && last->file == file && last->sec == (uint32_t)f->cur) return;
  }
  aline *r = avec_push(&f->lines);
  if (!r) {
    as->oom = true;
    return;
  }
  r->sec = (uint32_t)f->cur;
  r->off = sec_pos(s);
  r->line = line;
  r->file = file;
}

/* --- encoding --- */
static bool put_u8(abuf *b, unsigned v) {
  uint8_t x = (uint8_t)v;
  return abuf_put(b, &x, 1);
}
static bool put_u16(abuf *b, unsigned v) { return put_u8(b, v & 0xff) && put_u8(b, (v >> 8) & 0xff); }
static bool put_u32(abuf *b, uint32_t v) { return put_u16(b, v & 0xffff) && put_u16(b, v >> 16); }
static bool put_str(abuf *b, const char *s) { return abuf_put(b, s, strlen(s) + 1); }
static bool put_uleb(abuf *b, uint64_t v) {
  do {
    uint8_t x = v & 0x7f;
    v >>= 7;
    if (v) x |= 0x80;
    if (!abuf_put(b, &x, 1)) return false;
  } while (v);
  return true;
}
static bool put_sleb(abuf *b, int64_t v) {
  for (;;) {
    uint8_t x = v & 0x7f;
    v >>= 7; /* arithmetic */
    bool done = (v == 0 && !(x & 0x40)) || (v == -1 && (x & 0x40));
    if (!done) x |= 0x80;
    if (!abuf_put(b, &x, 1)) return false;
    if (done) return true;
  }
}
static void set_u32(abuf *b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) b->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

/* the line program of one file; its rows use only standard opcodes */
static bool line_unit(abuf *b, const afile *f, uint32_t *lo, uint32_t *hi) {
  size_t start = b->len;
  bool ok = put_u32(b, 0) && put_u16(b, 4);
  size_t hl = b->len;
  static const uint8_t params[] = {1, 1, 1, (uint8_t)-5, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
  ok = ok && put_u32(b, 0) && abuf_put(b, params, sizeof params) && put_u8(b, 0); /* no dirs */
  size_t nfiles = f->any_loc ? f->dnames.n : 1;
  for (size_t i = f->any_loc ? 1 : 0; ok && i < nfiles; i++) {
    const char *name = f->any_loc ? AVEC_AT(f->dnames, const char *, i) : f->name;
    ok = put_str(b, *name ? name : "?") && put_uleb(b, 0) && put_uleb(b, 0) && put_uleb(b, 0);
  }
  ok = ok && put_u8(b, 0);
  if (!ok) return false;
  set_u32(b, hl, (uint32_t)(b->len - hl - 4));
  *lo = UINT32_MAX;
  *hi = 0;
  for (size_t i = 0; i < f->lines.n && ok;) { /* one sequence per section */
    const aline *r = &AVEC_AT(f->lines, aline, i);
    const asec *s = &AVEC_AT(f->secs, asec, r->sec);
    uint32_t addr = s->addr + r->off, line = 1, file = 1;
    ok = put_u8(b, 0) && put_uleb(b, 5) && put_u8(b, 2) && put_u32(b, addr);
    if (addr < *lo) *lo = addr;
    for (; i < f->lines.n && ok && AVEC_AT(f->lines, aline, i).sec == r->sec; i++) {
      const aline *x = &AVEC_AT(f->lines, aline, i);
      uint32_t a = s->addr + x->off, fl = f->any_loc ? x->file : 1;
      if (fl != file) ok = ok && put_u8(b, 4) && put_uleb(b, fl);
      if (x->line != line) ok = ok && put_u8(b, 3) && put_sleb(b, (int64_t)x->line - (int64_t)line);
      if (a != addr) ok = ok && put_u8(b, 2) && put_uleb(b, a - addr);
      ok = ok && put_u8(b, 1);
      addr = a;
      line = x->line;
      file = fl;
    }
    uint32_t end = s->addr + sec_pos(s);
    if (end > *hi) *hi = end;
    if (end > addr) ok = ok && put_u8(b, 2) && put_uleb(b, end - addr);
    ok = ok && put_u8(b, 0) && put_uleb(b, 1) && put_u8(b, 1); /* end_sequence */
  }
  if (ok) set_u32(b, start, (uint32_t)(b->len - start - 4));
  return ok;
}

int asm_debug_sections(vt_asm *as, vt_ew_section *secs, void **owned) {
  abuf line = {0}, info = {0}, abbrev = {0};
  bool ok = true;
  int n = 0;
  for (size_t fi = 0; fi < as->files.n && ok; fi++) {
    const afile *f = AVEC_AT(as->files, afile *, fi);
    if (!f->lines.n) continue;
    uint32_t off = (uint32_t)line.len, lo = 0, hi = 0;
    ok = line_unit(&line, f, &lo, &hi);
    const char *name = f->any_loc && f->dnames.n > 1 ? AVEC_AT(f->dnames, const char *, 1) : f->name;
    size_t start = info.len; /* compile unit: name, stmt_list, low_pc, high_pc */
    ok = ok && put_u32(&info, 0) && put_u16(&info, 4) && put_u32(&info, 0) && put_u8(&info, 4) &&
         put_uleb(&info, 1) && put_str(&info, *name ? name : "?") && put_u32(&info, off) &&
         put_u32(&info, lo) && put_u32(&info, hi - lo) && put_u8(&info, 0);
    if (ok) set_u32(&info, start, (uint32_t)(info.len - start - 4));
  }
  if (ok && line.len) {
    static const uint8_t ab[] = {1, 0x11, 0, 0x03, 0x08, 0x10, 0x17, 0x11, 0x01, 0x12, 0x06, 0, 0, 0};
    ok = abuf_put(&abbrev, ab, sizeof ab);
    const char *names[3] = {".debug_line", ".debug_abbrev", ".debug_info"};
    abuf *bufs[3] = {&line, &abbrev, &info};
    for (int k = 0; ok && k < 3; k++) {
      vt_ew_section *e = &secs[n++];
      memset(e, 0, sizeof *e);
      e->name = names[k];
      e->type = SHT_PROGBITS;
      e->align = 1;
      e->size = (uint32_t)bufs[k]->len;
      e->data = bufs[k]->p;
      e->segment = -1;
      owned[k] = bufs[k]->p;
    }
    if (ok) return n;
  }
  abuf_free(&line);
  abuf_free(&info);
  abuf_free(&abbrev);
  return ok ? 0 : -1;
}
