/* Sections of the file being assembled: creation by name (with the output
 * category the linker places them in), emission, alignment, fixups. */
#include <string.h>

#include "asm_internal.h"

asec *cur_sec(vt_asm *as) { return &AVEC_AT(as->f->secs, asec, as->f->cur); }

uint32_t sec_pos(const asec *s) { return s->nobits ? s->size : (uint32_t)s->data.len; }

static bool name_is(const char *name, size_t len, const char *base) {
  size_t n = strlen(base);
  return len >= n && memcmp(name, base, n) == 0 && (len == n || name[n] == '.');
}

/* flags_known: the .section directive gave a flag string */
int sec_find_or_add(vt_asm *as, const char *name, size_t len, int flags_known, bool alloc,
                    bool write, bool exec, bool nobits) {
  afile *f = as->f;
  for (size_t i = 0; i < f->secs.n; i++) {
    asec *s = &AVEC_AT(f->secs, asec, i);
    if (strlen(s->name) == len && memcmp(s->name, name, len) == 0) return (int)i;
  }
  asec *s = avec_push(&f->secs);
  if (!s) {
    as->oom = true;
    return 0;
  }
  s->name = arena_strdup(&as->mem, name, len);
  s->align = 1;
  if (name_is(name, len, ".text") || name_is(name, len, ".init") || name_is(name, len, ".fini")) {
    s->cat = CAT_TEXT;
    s->code = true;
  } else if (name_is(name, len, ".tohost")) {
    s->cat = CAT_TOHOST;
  } else if (name_is(name, len, ".rodata") || name_is(name, len, ".srodata")) {
    s->cat = CAT_RODATA;
  } else if (name_is(name, len, ".sdata")) {
    s->cat = CAT_SDATA;
  } else if (name_is(name, len, ".sbss")) {
    s->cat = CAT_SBSS;
    s->nobits = true;
  } else if (name_is(name, len, ".bss")) {
    s->cat = CAT_BSS;
    s->nobits = true;
  } else if (name_is(name, len, ".data")) {
    s->cat = CAT_DATA;
  } else if (name_is(name, len, ".ventus")) {
    s->cat = CAT_KEEP; /* one output section per input section, under its own name */
    return (int)(f->secs.n - 1);
  } else if (!flags_known || !alloc) {
    s->cat = CAT_NONE; /* not allocated: assembled, then dropped */
  } else if (exec) {
    s->cat = CAT_TEXT;
    s->code = true;
  } else if (write) {
    s->cat = nobits ? CAT_BSS : CAT_DATA;
    s->nobits = nobits;
  } else {
    s->cat = CAT_RODATA;
  }
  if (flags_known && nobits && s->cat != CAT_NONE && s->cat != CAT_TEXT) s->nobits = true;
  return (int)(f->secs.n - 1);
}

#define WINDOW 0x10000000u

bool sec_room(vt_asm *as, uint64_t n, uint32_t col) {
  asec *s = cur_sec(as);
  if ((uint64_t)sec_pos(s) + n > WINDOW) {
    asm_error(as, col, "section '%s' would exceed 256 MiB", s->name);
    return false;
  }
  if (!s->nobits) {
    if (as->data_bytes + n > WINDOW) {
      asm_error(as, col, "more than 256 MiB of initialised data");
      return false;
    }
    as->data_bytes += n;
  }
  return true;
}

bool emit_bytes(vt_asm *as, const void *p, size_t n, uint32_t col) {
  if (!sec_room(as, n, col)) return false;
  asec *s = cur_sec(as);
  if (s->nobits) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
      if (b[i]) {
        asm_error(as, col, "non-zero data in the no-bits section '%s'", s->name);
        return false;
      }
    s->size += (uint32_t)n;
    return true;
  }
  if (!abuf_put(&s->data, p, n)) {
    as->oom = true;
    return false;
  }
  return true;
}

bool emit_word(vt_asm *as, uint32_t w) {
  uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
  asec *s = cur_sec(as);
  if (s->nobits) {
    asm_error(as, 1, "instruction in the no-bits section '%s'", s->name);
    return false;
  }
  if (s->code) asm_line_row(as, s);
  return emit_bytes(as, b, 4, 1);
}

void sec_align(vt_asm *as, uint32_t align, int fill, uint32_t max, uint32_t col) {
  asec *s = cur_sec(as);
  if (align > s->align) s->align = align;
  uint32_t pos = sec_pos(s);
  uint32_t pad = (align - (pos & (align - 1))) & (align - 1);
  if (!pad || (max && pad > max)) return;
  if (!sec_room(as, pad, col)) return;
  if (s->nobits) {
    s->size += pad;
    return;
  }
  if (fill < 0 && s->code) { /* zeros up to a word boundary, then nops */
    uint32_t z = pad & 3;
    if (!abuf_fill(&s->data, 0, z)) as->oom = true;
    for (uint32_t i = 0; i < pad / 4 && !as->oom; i++) {
      static const uint8_t nop[4] = {0x13, 0, 0, 0};
      if (!abuf_put(&s->data, nop, 4)) as->oom = true;
    }
    return;
  }
  if (!abuf_fill(&s->data, (uint8_t)(fill < 0 ? 0 : fill), pad)) as->oom = true;
}

afix *add_fix(vt_asm *as, fx_kind kind, uint8_t op, const aval *v, uint32_t col) {
  afix *x = avec_push(&as->f->fixes);
  if (!x) {
    as->oom = true;
    return NULL;
  }
  x->sec = (uint32_t)as->f->cur;
  x->off = sec_pos(cur_sec(as));
  x->kind = (uint8_t)kind;
  x->op = op;
  x->v = *v;
  x->line = as->line;
  x->col = v->col ? v->col : col;
  return x;
}
