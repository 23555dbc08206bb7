/* Symbols of the file being assembled: lookup/creation, labels, numeric
 * local labels (1: ... 1b / 1f) and the anonymous symbols behind '.'. */
#include <stdio.h>
#include <string.h>

#include "asm_internal.h"

static asym *sym_new(vt_asm *as, const char *name, size_t len, uint32_t h, bool in_table) {
  afile *f = as->f;
  asym *s = arena_alloc(&as->mem, sizeof *s);
  char *nm = s ? arena_strdup(&as->mem, name, len) : NULL;
  if (!nm) {
    as->oom = true;
    return NULL;
  }
  s->name = nm;
  s->len = (uint32_t)len;
  s->hash = h;
  s->sec = SEC_UNDEF;
  s->file = (uint16_t)(as->files.n - 1);
  s->out_sec = -1;
  if (in_table) {
    asym **slot = avec_push(&f->syms);
    if (!slot || !symtab_insert(&f->tab, s)) {
      as->oom = true;
      return NULL;
    }
    *slot = s;
  }
  return s;
}

asym *sym_get(vt_asm *as, const char *name, size_t len) {
  uint32_t h = sym_hash(name, len);
  asym *s = symtab_find(&as->f->tab, name, len, h);
  return s ? s : sym_new(as, name, len, h, true);
}

static asym *numeric_counter(vt_asm *as, const char *d, size_t n) {
  char buf[48];
  if (n > 30) n = 30;
  memcpy(buf, d, n);
  buf[n] = 1;
  asym *c = sym_get(as, buf, n + 1);
  if (c) c->flags |= SF_TEMP;
  return c;
}

static asym *numeric_instance(vt_asm *as, const char *d, size_t n, uint32_t k) {
  char buf[64];
  if (n > 30) n = 30;
  int len = snprintf(buf, sizeof buf, "%.*s\002%u", (int)n, d, k);
  asym *s = sym_get(as, buf, (size_t)len);
  if (s) s->flags |= SF_TEMP;
  return s;
}

asym *sym_numeric_ref(vt_asm *as, const char *digits, size_t n, bool forward) {
  asym *c = numeric_counter(as, digits, n);
  if (!c) return NULL;
  if (!forward && c->value == 0) return NULL;
  return numeric_instance(as, digits, n, c->value + (forward ? 1 : 0));
}

asym *sym_numeric_def(vt_asm *as, const char *digits, size_t n) {
  asym *c = numeric_counter(as, digits, n);
  if (!c) return NULL;
  c->value++;
  return numeric_instance(as, digits, n, c->value);
}

asym *sym_dot(vt_asm *as) {
  asym *s = sym_new(as, ".", 1, 0, false);
  if (!s) return NULL;
  s->flags = SF_DEFINED | SF_TEMP | SF_DOT;
  s->sec = as->f->cur;
  s->value = sec_pos(cur_sec(as));
  s->line = as->line;
  return s;
}

void sym_define_label(vt_asm *as, asym *s, uint32_t col) {
  if (s->flags & SF_DEFINED) {
    asm_error(as, col, "duplicate symbol '%s' (first defined at line %u)", s->name, s->line);
    return;
  }
  s->flags |= SF_DEFINED;
  s->flags &= (uint8_t)~SF_EQU;
  s->sec = as->f->cur;
  s->value = sec_pos(cur_sec(as));
  s->line = as->line;
  s->col = col;
}
