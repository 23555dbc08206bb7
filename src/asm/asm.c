/* Session API of the assembler (vt/asm.h): sessions, input files,
 * diagnostics and the single-line entry point vt_asm_one. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "util/file.h"

vt_asm *vt_asm_new(const vt_asm_options *opts) {
  vt_asm *as = calloc(1, sizeof *as);
  if (!as) return NULL;
  if (opts) as->opts = *opts;
  if (!as->opts.text_addr) as->opts.text_addr = VT_ADDR_PROGRAM_BASE;
  as->files.elem = sizeof(afile *);
  if (!abuf_put(&as->errors, "", 1)) {
    free(as);
    return NULL;
  }
  as->errors.len = 0;
  return as;
}

void vt_asm_set_debug_lines(vt_asm *as, int on) {
  if (as) as->debug_lines = on != 0;
}

static void file_free(afile *f) {
  for (size_t i = 0; i < f->secs.n; i++) abuf_free(&AVEC_AT(f->secs, asec, i).data);
  avec_free(&f->secs);
  avec_free(&f->syms);
  avec_free(&f->fixes);
  avec_free(&f->lines);
  avec_free(&f->dnames);
  symtab_free(&f->tab);
  free(f);
}

void vt_asm_free(vt_asm *as) {
  if (!as) return;
  for (size_t i = 0; i < as->files.n; i++) file_free(AVEC_AT(as->files, afile *, i));
  avec_free(&as->files);
  abuf_free(&as->errors);
  abuf_free(&as->strbuf);
  asm_kargs_free(as);
  free(as->stmt);
  arena_free(&as->mem);
  free(as);
}

const char *vt_asm_errors(const vt_asm *as) {
  return as && as->errors.p ? (const char *)as->errors.p : "";
}
size_t vt_asm_error_count(const vt_asm *as) { return as ? as->nerrors : 0; }

static void verror_at(vt_asm *as, const char *file, uint32_t line, uint32_t col, const char *fmt,
                      va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (as->quiet) {
    if (!as->qhas) {
      as->qhas = true;
      as->qcol = col;
      size_t n = strlen(msg);
      if (n >= sizeof as->qmsg) n = sizeof as->qmsg - 1;
      memcpy(as->qmsg, msg, n);
      as->qmsg[n] = 0;
    }
    return;
  }
  if (as->f && as->f->nerrors > ASM_MAX_ERRORS_PER_FILE) return;
  char head[1200];
  int n = snprintf(head, sizeof head, "%s:%u:%u: error: %s\n", file, line, col ? col : 1, msg);
  if (n < 0) return;
  if ((size_t)n >= sizeof head) n = sizeof head - 1;
  as->errors.len = as->errors.len ? as->errors.len : 0;
  if (abuf_reserve(&as->errors, (size_t)n + 1)) {
    memcpy(as->errors.p + as->errors.len, head, (size_t)n);
    as->errors.len += (size_t)n;
    as->errors.p[as->errors.len] = 0;
  }
  as->nerrors++;
  if (as->f) {
    as->f->nerrors++;
    if (as->f->nerrors == ASM_MAX_ERRORS_PER_FILE) {
      as->f->nerrors++;
      n = snprintf(head, sizeof head, "%s:%u:%u: error: too many errors, giving up on this file\n",
                   file, line, col ? col : 1);
      if (n > 0 && (size_t)n < sizeof head && abuf_reserve(&as->errors, (size_t)n + 1)) {
        memcpy(as->errors.p + as->errors.len, head, (size_t)n);
        as->errors.len += (size_t)n;
        as->errors.p[as->errors.len] = 0;
      }
      as->nerrors++;
    }
  }
}

void asm_error(vt_asm *as, uint32_t col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(as, as->f ? as->f->name : "<input>", as->line, col, fmt, ap);
  va_end(ap);
}

void asm_error_at(vt_asm *as, const char *file, uint32_t line, uint32_t col, const char *fmt,
                  ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(as, file, line, col, fmt, ap);
  va_end(ap);
}

bool asm_too_many_errors(const vt_asm *as) {
  return as->f && as->f->nerrors >= ASM_MAX_ERRORS_PER_FILE;
}

static afile *file_begin(vt_asm *as, const char *filename) {
  afile *f = calloc(1, sizeof *f);
  afile **slot = f ? avec_push(&as->files) : NULL;
  if (!slot) {
    free(f);
    as->oom = true;
    return NULL;
  }
  *slot = f;
  f->name = arena_strdup(&as->mem, filename, strlen(filename));
  f->secs.elem = sizeof(asec);
  f->syms.elem = sizeof(asym *);
  f->fixes.elem = sizeof(afix);
  f->lines.elem = sizeof(aline);
  f->dnames.elem = sizeof(const char *);
  f->cur = f->prev = 0;
  as->f = f;
  as->line = 0;
  /* every file starts in .text */
  sec_find_or_add(as, ".text", 5, 0, true, false, true, false);
  return f;
}

int vt_asm_add_source(vt_asm *as, const char *filename, const char *text, size_t len) {
  if (!as) return -1;
  if (as->files.n >= 65535) return -1;
  afile *f = file_begin(as, filename ? filename : "<input>");
  if (!f) return -1;
  asm_run_text(as, text, len);
  if (as->oom) asm_error(as, 0, "out of memory");
  /* like GNU as, pad code sections to their alignment with nops */
  int save = f->cur;
  for (size_t i = 0; i < f->secs.n; i++) {
    asec *s = &AVEC_AT(f->secs, asec, i);
    if (!s->code || s->nobits || s->align <= 1) continue;
    f->cur = (int)i;
    sec_align(as, s->align, -1, 0, 1);
  }
  f->cur = save;
  int bad = f->nerrors != 0;
  as->f = NULL;
  return bad ? -1 : 0;
}

int vt_asm_add_file(vt_asm *as, const char *path) {
  if (!as) return -1;
  bool std_in = strcmp(path, "-") == 0;
  uint8_t *text = NULL;
  size_t len = 0;
  char msg[600];
  const char *file = std_in ? "/dev/stdin" : path;
  int e = vt_read_file(file, VT_FILE_LIMIT_SOURCE, &text, &len, msg, sizeof msg);
  if (e) {
    size_t skip = strlen(file) + 2; /* msg is "FILE: reason"; the location names the file */
    if (e == EFBIG && strlen(msg) > skip)
      asm_error_at(as, path, 1, 1, "%s", msg + skip);
    else
      asm_error_at(as, path, 1, 1, "cannot open file: %s", strerror(e));
    return -1;
  }
  int r = vt_asm_add_source(as, std_in ? "<stdin>" : path, (const char *)text, len);
  free(text);
  return r;
}

int vt_asm_link(vt_asm *as, uint8_t **elf, size_t *elf_size) {
  if (!as || !elf || !elf_size) return -1;
  *elf = NULL;
  *elf_size = 0;
  if (as->nerrors) return -1;
  return asm_link(as, elf, elf_size);
}

int vt_asm_one(const char *line, uint32_t pc, uint32_t *word, char *err, size_t errn) {
  uint64_t insn = 0;
  unsigned len = 0;
  if (vt_asm_one_insn(line, pc, &insn, &len, err, errn) != 0) return -1;
  if (len != 4) {
    if (err && errn) snprintf(err, errn, "a 64-bit instruction where one word was expected");
    return -1;
  }
  *word = (uint32_t)insn;
  return 0;
}

int vt_asm_one_insn(const char *line, uint32_t pc, uint64_t *insn, unsigned *length, char *err,
                    size_t errn) {
  if (err && errn) err[0] = 0;
  vt_asm *as = vt_asm_new(NULL);
  if (!as) {
    if (err && errn) snprintf(err, errn, "out of memory");
    return -1;
  }
  as->oneshot = true;
  int rc = -1;
  afile *f = file_begin(as, "<line>");
  if (f) {
    size_t len = strcspn(line, "\n");
    asm_run_text(as, line, len);
    asec *s = &AVEC_AT(f->secs, asec, 0);
    if (!as->nerrors) {
      if (f->cur != 0 || f->secs.n != 1 || (s->data.len != 4 && s->data.len != 8) ||
          s->data.len != vt_insn_length(s->data.p[0] | (uint32_t)s->data.p[1] << 8 |
                                         (uint32_t)s->data.p[2] << 16 |
                                         (uint32_t)s->data.p[3] << 24)) {
        asm_error(as, 1, "expected exactly one instruction");
      } else {
        s->addr = pc;
        for (size_t i = 0; i < f->syms.n; i++) {
          asym *y = AVEC_AT(f->syms, asym *, i);
          if (y->sec >= 0) y->addr = s->addr + y->value;
        }
        apply_fixups(as, f);
        if (!as->nerrors) {
          uint64_t v = 0;
          for (size_t i = s->data.len; i-- > 0;) v = v << 8 | s->data.p[i];
          *insn = v;
          *length = (unsigned)s->data.len;
          rc = 0;
        }
      }
    }
  }
  if (rc && err && errn) {
    /* strip "file:line:col: error: " and the newline */
    const char *m = vt_asm_errors(as);
    const char *p = strstr(m, "error: ");
    p = p ? p + 7 : m;
    size_t n = strcspn(p, "\n");
    snprintf(err, errn, "%.*s", (int)n, p);
  }
  vt_asm_free(as);
  return rc;
}
